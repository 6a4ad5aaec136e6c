"""The command line: --version, --help, tools, call, and start-up errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from horologe import __version__
from horologe.cli import main
from horologe.tools import registry as catalog


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["--version"])
    assert raised.value.code == 0
    assert capsys.readouterr().out.strip() == f"horologe {__version__}"


def test_help_describes_serve_and_configuration(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    out = capsys.readouterr().out
    assert "--default-timezone" in out and "DEFAULT_TIMEZONE" in out and "--config" in out


def test_tools_lists_the_offered_tools(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tools"]) == 0
    out = capsys.readouterr().out
    offered = catalog.selected_tools(["default"], "stdio")
    assert out.count("\n") == len(offered) and "convert_timezone(timestamp, to_timezone" in out
    assert main(["tools", "--toolsets", "all"]) == 0
    assert capsys.readouterr().out.count("\n") == len(catalog.TOOLS)
    assert main(["tools", "--toolsets", "core"]) == 0
    assert capsys.readouterr().out.count("\n") == len(catalog.TOOLSETS["core"])


def test_flags_before_the_subcommand_are_honoured(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--toolsets", "all", "tools"]) == 0
    assert capsys.readouterr().out.count("\n") == len(catalog.TOOLS)
    assert main(["--toolsets", "all", "tools", "--toolsets", "core"]) == 0  # the subcommand's own flag wins
    assert capsys.readouterr().out.count("\n") == len(catalog.TOOLSETS["core"])
    assert main(["--default-timezone", "Asia/Tokyo", "call", "get_current_time"]) == 0
    assert json.loads(capsys.readouterr().out)["timezone"] == "Asia/Tokyo"
    assert main(["--toolsets", "memory", "call", "timer", "action=list"]) == 0


def test_call_runs_a_tool_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["call", "convert_timezone", "timestamp=2026-03-29T02:30", "from_timezone=Europe/Vienna", "to_timezone=UTC"]
    )
    assert code == 0
    body = json.loads(capsys.readouterr().out)
    assert body["original"]["dst"]["dst_gap"] is True and body["converted"]["timestamp"] == "2026-03-29T01:30:00Z"


def test_call_with_a_bad_argument_reports_the_error_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["call", "get_current_time", "timezone=Mars/Base"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["code"] == -32000


def test_call_of_an_unknown_tool_fails_clearly(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["call", "get_weather"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("horologe: Unknown tool 'get_weather'.") and "Did you mean" not in err


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("get_curent_time", "get_current_time"),
        ("convert_time", "convert_timezone"),
        ("next_occurences", "next_occurrences"),
    ],
)
def test_a_mistyped_tool_name_gets_a_did_you_mean(capsys: pytest.CaptureFixture[str], typed: str, meant: str) -> None:
    assert main(["call", typed]) == 2
    assert f"Did you mean {meant}" in capsys.readouterr().err.splitlines()[-1]


@pytest.mark.parametrize("level", ["info", "Debug", "WARNING"])
def test_log_levels_are_taken_in_any_case(capsys: pytest.CaptureFixture[str], level: str) -> None:
    assert main(["tools", "--log-level", level]) == 0
    assert "get_current_time" in capsys.readouterr().out


def test_an_unknown_log_level_is_refused_with_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["tools", "--log-level", "loud"])
    err = capsys.readouterr().err
    assert raised.value.code == 2 and "invalid choice: 'LOUD'" in err and "DEBUG" in err


def test_bad_default_timezone_flag_stops_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--default-timezone", "Mars/Base"]) == 2
    assert "time.default_timezone" in capsys.readouterr().err


def test_help_without_a_command_says_that_serving_is_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps to the terminal's width
    assert "the default when no command is given" in out and "--transport" in out


@pytest.mark.parametrize("command", [["call", "get_current_time"], ["client", "call", "--stdio", "horologe", "x"]])
def test_an_argument_that_is_not_key_value_is_refused_before_anything_runs(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "timezone"]) == 2
    assert "must look like key=value" in capsys.readouterr().err


def test_values_are_json_when_they_parse_and_text_otherwise(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["call", "--toolsets", "zones", "list_timezones", "limit=2", "region=Europe"]) == 0
    assert len(json.loads(capsys.readouterr().out)["timezones"]) == 2


@pytest.mark.e2e
def test_a_reader_that_leaves_early_ends_the_call_quietly() -> None:
    # A large answer, on a budget a loaded machine cannot exhaust (the first call over all zones computes their rules).
    command = [sys.executable, "-m", "horologe", "call", "--toolsets", "zones", "list_timezones", "limit=1000"]
    command += ["include_aliases=true", "--tool-budget", "300"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.readline()
        process.stdout.close()  # as `| head -1` does, long before the ~140 KB answer is written
        errors = process.stderr.read().decode()
        assert process.wait(timeout=600) == 0, errors
    assert "Traceback" not in errors and "BrokenPipe" not in errors


HTTP_EXTRA_BLOCKED = "import sys\nfor name in {modules!r}: sys.modules[name] = None\n"


def run_without_http_extra(
    args: list[str], stdin: bytes = b"", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """`horologe ARGS` in a process where the http extra's libraries cannot be imported (a plain install)."""
    import os

    from horologe.cli import HTTP_EXTRA_MODULES

    code = (
        HTTP_EXTRA_BLOCKED.format(modules=HTTP_EXTRA_MODULES)
        + f"from horologe.cli import main\nsys.exit(main({args!r}))"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        input=stdin,
        capture_output=True,
        timeout=60,
        check=False,
        env={**os.environ, **(env or {})},
    )


@pytest.mark.e2e
@pytest.mark.parametrize(
    ("args", "env"),
    [(["serve", "--transport", "http"], {}), (["serve"], {"HOROLOGE_SERVER__TRANSPORT": "http"})],
    ids=["flag", "environment"],
)
def test_http_without_the_http_extra_names_it_in_one_line(args: list[str], env: dict[str, str]) -> None:
    completed = run_without_http_extra(args, env=env)
    assert completed.returncode == 2
    message = completed.stderr.decode()
    assert message.count("\n") == 1 and "horologe[http]" in message and "Traceback" not in message


@pytest.mark.e2e
def test_stdio_serving_and_rate_settings_need_no_http_extra() -> None:
    request = {
        "jsonrpc": "2.0",
        "method": "tools/call",
        "params": {"name": "get_current_time", "arguments": {}},
        "id": 1,
    }
    completed = run_without_http_extra(
        ["serve"], stdin=json.dumps(request).encode() + b"\n", env={"HOROLOGE_RATE_LIMIT__DEFAULT": "5/second"}
    )
    assert completed.returncode == 0, completed.stderr
    answer = json.loads(completed.stdout)
    assert answer["id"] == 1 and answer["result"]["structuredContent"]["timezone"]


def test_the_tool_budget_flag_reaches_a_call(capsys: pytest.CaptureFixture[str]) -> None:
    rule = "RRULE:FREQ=SECONDLY\nEXRULE:FREQ=SECONDLY"
    assert main(["call", "--tool-budget", "0.3", "--toolsets", "all", "next_occurrences", f"rule={rule}"]) == 1
    out = capsys.readouterr()
    assert "(0.3 s) and was stopped" in out.out + out.err
