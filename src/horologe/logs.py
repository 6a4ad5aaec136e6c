"""One log format per process on stderr: JSON lines when serving HTTP, plain text lines otherwise.

HTTP logs are read by machines (a container runtime, a log shipper) next to the access log's lines, so every line
there is one compact JSON object of one shape: `ts` (UTC, milliseconds), `level`, `logger`, `message`, then what the
line adds (`exception`; the access log's request fields). A stdio server's stderr is read by a person in an MCP
client's log pane, so it gets text with the same timestamps. uvicorn's and the MCP SDK's loggers propagate to the
same handler; uvicorn's own access lines are dropped (horologe writes its own, `horologe.http.access_log`).
"""

from __future__ import annotations

import functools
import json
import logging
import sys
import time
from typing import Any, Literal

LogFormat = Literal["json", "text"]
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def timestamp(seconds: float) -> str:
    """A Unix time as the logs write it: ISO 8601 in UTC with milliseconds, `2026-03-29T01:00:00.250Z`."""
    whole = int(seconds)
    return f"{_second(whole)}.{int((seconds - whole) * 1000):03d}Z"


@functools.lru_cache(maxsize=4)
def _second(whole: int) -> str:
    """The part of a timestamp before its milliseconds (every line of one second shares it)."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole))


def json_line(entry: dict[str, Any]) -> str:
    """One log line's JSON: compact, characters as they are (the access log writes the same with pydantic-core)."""
    return json.dumps(entry, ensure_ascii=False, separators=(",", ":"))


class JsonLines(logging.Formatter):
    """One JSON object per record: ts, level, logger, message (and the traceback, when there is one)."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        entry = {
            "ts": timestamp(record.created),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json_line(entry)


class TextLines(logging.Formatter):
    """`2026-03-29T01:00:00.250Z INFO horologe: message`, for a person reading an MCP client's log pane."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        """The record's time as every horologe log line writes it."""
        return timestamp(record.created)


def configure_logging(level: str, fmt: LogFormat) -> None:
    """Send every logger (ours, uvicorn's, the SDK's) to one stderr handler in one format, at `level`."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines() if fmt == "json" else TextLines())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "mcp"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
        # uvicorn's Config sets its loggers' own levels (and dictConfig may disable them): the root's level rules.
        logger.setLevel(logging.NOTSET)
        logger.disabled = False
    # horologe writes one access line per request itself; uvicorn's would be a second one (in every worker, whose
    # logging is configured after uvicorn's Config ran), so its access logger says nothing anywhere.
    access = logging.getLogger("uvicorn.access")
    access.handlers.clear()
    access.propagate = False
    # The SDK says "session created/terminated" at INFO for every session: detail, shown from DEBUG on.
    logging.getLogger("mcp").setLevel(logging.DEBUG if level == "DEBUG" else logging.WARNING)
