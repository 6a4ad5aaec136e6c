"""What an operator sees first: one JSON line per log record, the address served, warnings about dead settings."""

from __future__ import annotations

import json

import pytest

from tests.e2e.conftest import start_http_server

pytestmark = [pytest.mark.e2e]


def test_http_logs_are_json_lines_that_say_where_it_listens_and_warn_about_an_unusable_cors_origin() -> None:
    # Two workers: the supervisor (which binds) and the spawned workers (which configure logging themselves).
    server = start_http_server(["--workers", "2", "--cors-origin", "https://app.example"])
    stderr = server.stop()
    lines = [line for line in stderr.splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]  # every line, uvicorn's and the SDK's too, is one JSON object
    messages = [record["message"] for record in records if "message" in record]
    assert f"listening on http://127.0.0.1:{server.port}/mcp" in messages
    assert not any("Uvicorn running" in message for message in messages)
    warning = next(record for record in records if "CORS origin https://app.example" in record.get("message", ""))
    assert warning["level"] == "WARNING" and "--allowed-origin https://app.example" in warning["message"]
    assert any(record.get("logger") == "uvicorn.error" for record in records)


def test_an_allowed_cors_origin_gets_no_warning() -> None:
    origin = "https://app.example"
    server = start_http_server(["--cors-origin", origin, "--allowed-origin", origin])
    stderr = server.stop()
    assert "CORS origin" not in stderr and f"listening on http://127.0.0.1:{server.port}/mcp" in stderr
