"""One log format per process on stderr: JSON lines when serving HTTP, plain text lines otherwise.

HTTP logs are read by machines (a container runtime, a log shipper) next to the access log's JSON lines, so every
line there is one JSON object with the same `ts` field; a stdio server's stderr is read by a person in an MCP
client's log pane, so it gets text. uvicorn's and the MCP SDK's loggers propagate to the same handler; uvicorn's
start-up line becomes horologe's "listening on http://host:port/mcp" with the port actually bound.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Literal

LogFormat = Literal["json", "text"]
# uvicorn logs its start-up line with these arguments: scheme, host, port (the bound one, after binding).
_UVICORN_STARTED = "Uvicorn running on "
_TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonLines(logging.Formatter):
    """One JSON object per record: ts, level, logger, message (and the traceback, when there is one)."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        entry = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(record.created)),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


class _ListeningLine(logging.Filter):
    """uvicorn's "Uvicorn running on http://h:p (Press CTRL+C to quit)" becomes "listening on http://h:p/mcp"."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = str(record.msg)
        if message.startswith(_UVICORN_STARTED) and "%d" in message:
            address = message.removeprefix(_UVICORN_STARTED).partition(" (")[0]
            record.msg = f"listening on {address}/mcp"
            record.name = "horologe"
        return True


def configure_logging(level: str, fmt: LogFormat) -> None:
    """Send every logger (ours, uvicorn's, the SDK's) to one stderr handler in one format, at `level`."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines() if fmt == "json" else logging.Formatter(_TEXT_FORMAT))
    handler.addFilter(_ListeningLine())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "mcp"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
    # The SDK says "session created/terminated" at INFO for every session: detail, shown from DEBUG on.
    logging.getLogger("mcp").setLevel(logging.DEBUG if level == "DEBUG" else logging.WARNING)
