"""`horologe client`: failures are one line on stderr and a non-zero exit; the traceback only with --debug."""

from __future__ import annotations

import sys

import pytest

from horologe.cli import main
from tests.e2e.conftest import free_port

SERVER = f"{sys.executable} -m horologe serve"


def one_line_failure(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("horologe: ") and "Traceback" not in err
    return err


def test_an_unreachable_url_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    url = f"http://127.0.0.1:{free_port()}/mcp"
    err = one_line_failure(capsys, ["client", "tools", "--url", url])
    assert f"--url {url}" in err and "--debug" in err


@pytest.mark.e2e
def test_a_missing_command_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    err = one_line_failure(capsys, ["client", "tools", "--stdio", "no-such-horologe-command"])
    assert "cannot start --stdio 'no-such-horologe-command'" in err and "No such file" in err


@pytest.mark.e2e
def test_a_command_that_is_no_server_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    err = one_line_failure(capsys, ["client", "tools", "--stdio", f"{sys.executable} -c pass"])
    assert "closed the connection" in err


@pytest.mark.e2e
def test_an_unknown_tool_is_the_servers_message(capsys: pytest.CaptureFixture[str]) -> None:
    err = one_line_failure(capsys, ["client", "call", "get_weather", "--stdio", SERVER])
    assert "Unknown tool 'get_weather'" in err and "get_current_time" in err


@pytest.mark.e2e
def test_debug_shows_the_whole_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises((FileNotFoundError, BaseExceptionGroup)):  # raised as it came, not turned into a line
        main(["client", "tools", "--stdio", "no-such-horologe-command", "--debug"])


@pytest.mark.e2e
def test_a_tool_error_exits_1_with_its_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["client", "call", "get_current_time", "timezone=Mars/Base", "--stdio", SERVER]) == 1
    assert "Unknown place or timezone 'Mars/Base'" in capsys.readouterr().out
