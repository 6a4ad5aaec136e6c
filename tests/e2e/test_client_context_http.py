"""SEP-1809 client context over HTTP: the proposal's three examples with the literal top-level placement."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.e2e.conftest import RunningServer
from tests.e2e.test_http_process import ENVELOPE, modern_headers, send
from tests.sep1809 import EXAMPLE_1, EXAMPLE_2, EXAMPLE_3

pytestmark = [pytest.mark.e2e]
REPORT = "dev.horologe/context"


def top_level(expression: str, context: dict[str, Any], modern: bool) -> dict[str, Any]:
    params: dict[str, Any] = {"name": "resolve_time_expression", "arguments": {"expression": expression}}
    if modern:
        params["_meta"] = dict(ENVELOPE)
    return {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params, "clientContext": context}


@pytest.mark.parametrize("modern", [False, True], ids=["2025", "2026-07-28"])
@pytest.mark.parametrize(
    ("expression", "context"), [("this month", EXAMPLE_1), ("now", EXAMPLE_2), ("last week", EXAMPLE_3)]
)
def test_the_proposal_examples_on_mcp_with_top_level_context(
    http_server: RunningServer, modern: bool, expression: str, context: dict[str, Any]
) -> None:
    headers = (
        modern_headers("tools/call", "resolve_time_expression")
        if modern
        else [
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("MCP-Protocol-Version", "2025-11-25"),
        ]
    )
    status, _, raw = send(http_server, "POST", "/mcp", top_level(expression, context, modern), headers)
    assert status == 200, raw
    result = json.loads(raw)["result"]
    assert result["isError"] is False
    assert result["_meta"][REPORT]["applied"] == context
    body = result["structuredContent"]
    if expression == "this month":
        # No currentTimestamp in this example: the month is the server clock's month, starting at local midnight.
        assert re.fullmatch(r"\d{4}-\d{2}-01T00:00:00\+0[12]:00", body["start"])
        assert body["timezone"] == "Europe/Vienna"
    elif expression == "now":
        assert datetime.fromisoformat(body["instant"]) == datetime(2025, 11, 12, 13, 23, tzinfo=UTC)
    else:
        assert body["start"] == "2025-11-02T00:00:00-07:00"
        assert body["end"] == "2025-11-09T00:00:00-08:00"


def test_rest_accepts_client_context_beside_the_arguments(http_server: RunningServer) -> None:
    body = {"name": "resolve_time_expression", "arguments": {"expression": "now"}, "clientContext": EXAMPLE_2}
    status, _, raw = send(http_server, "POST", "/mcp/tools/call", body)
    assert status == 200
    result = json.loads(raw)
    assert datetime.fromisoformat(result["structuredContent"]["instant"]) == datetime(2025, 11, 12, 13, 23, tzinfo=UTC)


def test_bad_top_level_context_never_fails_the_http_call(http_server: RunningServer) -> None:
    call = top_level("now", {"timezone": "Mars/Base", "currentTimestamp": "yesterday"}, modern=True)
    status, _, raw = send(http_server, "POST", "/mcp", call, modern_headers("tools/call", "resolve_time_expression"))
    assert status == 200
    report = json.loads(raw)["result"]["_meta"][REPORT]
    assert set(report["ignored"]) == {"timezone", "currentTimestamp"}
