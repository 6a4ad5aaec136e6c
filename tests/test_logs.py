"""One log format per process: JSON lines for HTTP, text for stdio; uvicorn and the SDK log through it."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator

import pytest

from horologe.logs import configure_logging, json_line, timestamp

MILLISECONDS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


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
    raw_first, raw_second = stderr.getvalue().splitlines()
    first, second = json.loads(raw_first), json.loads(raw_second)
    assert list(first) == ["ts", "level", "logger", "message"] and raw_first == json_line(first)  # compact, one shape
    assert first["level"] == "INFO" and first["logger"] == "horologe" and first["message"] == "hello wörld"
    assert MILLISECONDS.fullmatch(first["ts"]), first["ts"]
    assert second["level"] == "ERROR" and "RuntimeError: boom" in second["exception"]


@pytest.mark.parametrize(
    ("seconds", "written"),
    [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (1774746000.25, "2026-03-29T01:00:00.250Z"),
        (1774746059.9999, "2026-03-29T01:00:59.999Z"),
    ],
)
def test_timestamps_are_utc_with_milliseconds(seconds: float, written: str) -> None:
    assert timestamp(seconds) == written


def test_uvicorns_loggers_propagate_and_its_access_lines_are_dropped(stderr: Stderr) -> None:
    uvicorn = logging.getLogger("uvicorn.error")
    uvicorn.handlers.append(logging.NullHandler())  # what uvicorn's own configuration would have left
    configure_logging("INFO", "json")
    assert uvicorn.handlers == [] and uvicorn.propagate
    uvicorn.info("Started server process [%d]", 1)
    logging.getLogger("uvicorn.access").info('127.0.0.1:1 - "GET /healthz HTTP/1.1" 200')  # horologe writes its own
    (record,) = (json.loads(line) for line in stderr.getvalue().splitlines())
    assert record["message"] == "Started server process [1]" and record["logger"] == "uvicorn.error"


def test_text_lines_for_stdio_and_the_sdks_chatter_only_from_debug(stderr: Stderr) -> None:
    configure_logging("INFO", "text")
    logging.getLogger("mcp.server.streamable_http_manager").info("Created new transport with session ID: x")
    logging.getLogger("mcp.server").warning("something the operator should see")
    logging.getLogger("horologe").debug("hidden at INFO")
    (line,) = stderr.getvalue().splitlines()
    stamp, _, rest = line.partition(" ")
    assert MILLISECONDS.fullmatch(stamp) and rest == "WARNING mcp.server: something the operator should see"
    configure_logging("DEBUG", "text")
    logging.getLogger("mcp.server").info("now shown")
    assert stderr.getvalue().splitlines()[-1].endswith("INFO mcp.server: now shown")
