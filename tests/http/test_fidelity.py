"""Protocol fidelity over HTTP, request bytes exactly as a client (or a proxy) sends them (issue 19)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.http.conftest import BASE_HEADERS, RawPost

pytestmark = pytest.mark.anyio
MODERN = "2026-07-28"
ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
}


def modern(method: str, params: dict[str, Any] | None = None, request_id: int = 1) -> bytes:
    """A 2026-07-28 request body with its envelope."""
    body = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": {**(params or {}), "_meta": ENVELOPE}}
    return json.dumps(body).encode()


@pytest.mark.parametrize("padding", [b" ", b"\t", b"  \t "])
async def test_whitespace_around_routing_header_values_is_not_part_of_the_value(
    raw_post: RawPost, padding: bytes
) -> None:
    # httptools (uvicorn's default parser) hands these bytes through as they came; RFC 9110 §5.5 says the value
    # excludes them, so this is the same request as without them.
    headers = [
        *BASE_HEADERS,
        (b"mcp-protocol-version", MODERN.encode() + padding),
        (b"mcp-method", padding + b"tools/call" + padding),
        (b"mcp-name", b"get_current_time" + padding),
    ]
    body = modern("tools/call", {"name": "get_current_time", "arguments": {"timezone": "UTC"}})
    answer = await raw_post(headers, body)
    assert answer.status == 200, answer.body
    assert answer.json()["result"]["structuredContent"]["timezone"] == "UTC"


async def test_whitespace_inside_a_header_value_still_disagrees(raw_post: RawPost) -> None:
    headers = [
        *BASE_HEADERS,
        (b"mcp-protocol-version", MODERN.encode()),
        (b"mcp-method", b"tools/call"),
        (b"mcp-name", b"get_current _time"),
    ]
    answer = await raw_post(headers, modern("tools/call", {"name": "get_current_time", "arguments": {}}))
    assert answer.status == 400 and answer.json()["error"]["code"] == -32020
