"""One log format per process: JSON lines for HTTP, text for stdio; uvicorn and the SDK log through it."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import pytest

from horologe.logs import configure_logging


class Stderr:
    """What configure_logging's handler wrote (it writes to the sys.stderr of the moment: pytest's capture)."""

    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        self.capsys = capsys
        self.seen = ""

    def getvalue(self) -> str:
        self.seen += self.capsys.readouterr().err
        return self.seen


@pytest.fixture
def stderr(capsys: pytest.CaptureFixture[str]) -> Iterator[Stderr]:
    """Capture what configure_logging's handler writes; restore the root logger afterwards."""
    root = logging.getLogger()
    saved = (list(root.handlers), root.level, logging.getLogger("mcp").level)
    yield Stderr(capsys)
    for handler in list(root.handlers):
        root.removeHandler(handler)
    for handler in saved[0]:
        root.addHandler(handler)
    root.setLevel(saved[1])
    logging.getLogger("mcp").setLevel(saved[2])


def test_json_lines_carry_level_logger_message_and_the_traceback(stderr: Stderr) -> None:
    configure_logging("INFO", "json")
    logging.getLogger("horologe").info("hello %s", "wörld")
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        logging.getLogger("horologe.http").exception("failed")
    first, second = (json.loads(line) for line in stderr.getvalue().splitlines())
    assert first["level"] == "INFO" and first["logger"] == "horologe" and first["message"] == "hello wörld"
    assert first["ts"].endswith("Z")
    assert second["level"] == "ERROR" and "RuntimeError: boom" in second["exception"]


def test_uvicorns_start_line_becomes_the_listening_line(stderr: Stderr) -> None:
    configure_logging("INFO", "json")
    uvicorn = logging.getLogger("uvicorn.error")
    uvicorn.handlers.append(logging.NullHandler())  # what uvicorn's own configuration would have left
    configure_logging("INFO", "json")
    assert uvicorn.handlers == [] and uvicorn.propagate
    uvicorn.info("Uvicorn running on %s://%s:%d (Press CTRL+C to quit)", "http", "127.0.0.1", 8123)
    (record,) = (json.loads(line) for line in stderr.getvalue().splitlines())
    assert record["message"] == "listening on http://127.0.0.1:8123/mcp" and record["logger"] == "horologe"


def test_text_lines_for_stdio_and_the_sdks_chatter_only_from_debug(stderr: Stderr) -> None:
    configure_logging("INFO", "text")
    logging.getLogger("mcp.server.streamable_http_manager").info("Created new transport with session ID: x")
    logging.getLogger("mcp.server").warning("something the operator should see")
    logging.getLogger("horologe").debug("hidden at INFO")
    (line,) = stderr.getvalue().splitlines()
    assert line.endswith("WARNING mcp.server: something the operator should see")
    configure_logging("DEBUG", "text")
    logging.getLogger("mcp.server").info("now shown")
    assert stderr.getvalue().splitlines()[-1].endswith("INFO mcp.server: now shown")
