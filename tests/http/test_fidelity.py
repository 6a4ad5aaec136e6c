"""Protocol fidelity over HTTP, request bytes exactly as a client (or a proxy) sends them (issue 19)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.http.conftest import BASE_HEADERS, RawPost
from tests.test_stdio import INVALID_MEMBER_ANSWER, INVALID_MEMBERS

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


def routed(version: bytes | None, method: bytes = b"tools/list") -> list[tuple[bytes, bytes]]:
    """The base headers with `Mcp-Method` and, unless None, `MCP-Protocol-Version`."""
    version_line = [(b"mcp-protocol-version", version)] if version is not None else []
    return [*BASE_HEADERS, *version_line, (b"mcp-method", method)]


@pytest.mark.parametrize("version", [b"2025-11-25", b"2025-03-26", None])
async def test_a_2026_envelope_under_a_2025_header_or_none_is_refused(raw_post: RawPost, version: bytes | None) -> None:
    answer = await raw_post(routed(version), modern("tools/list", request_id=9))
    body = answer.json()
    assert answer.status == 400 and body["id"] == 9 and body["error"]["code"] == -32020
    assert "MCP-Protocol-Version" in body["error"]["message"] and MODERN in body["error"]["message"]
    assert body["error"]["data"]["mismatch"]["header"] == "MCP-Protocol-Version"


async def test_a_2025_request_under_its_header_or_none_is_still_served(raw_post: RawPost) -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode()
    for version in (b"2025-11-25", None):
        answer = await raw_post(routed(version), body)
        assert answer.status == 200 and "tools" in answer.json()["result"]


ALL_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", MODERN]


@pytest.mark.parametrize(
    ("header", "envelope"), [(b"2099-01-01", MODERN), (b"2099-01-01", "2099-01-01"), (b"2025-13-01", None)]
)
async def test_an_unknown_version_is_refused_naming_every_version_spoken(
    raw_post: RawPost, header: bytes, envelope: str | None
) -> None:
    if envelope is None:
        body = json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/list"}).encode()
    else:
        meta = {**ENVELOPE, "io.modelcontextprotocol/protocolVersion": envelope}
        body = json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {"_meta": meta}}).encode()
    answer = await raw_post(routed(header), body)
    error = answer.json()["error"]
    assert answer.status == 400 and error["code"] == -32022
    assert error["data"] == {"supported": ALL_VERSIONS, "requested": header.decode()}
    assert "2024-11-05" in error["message"]


async def test_a_known_header_over_an_unknown_envelope_version_is_a_mismatch(raw_post: RawPost) -> None:
    meta = {**ENVELOPE, "io.modelcontextprotocol/protocolVersion": "v999.0.0"}
    body = json.dumps({"jsonrpc": "2.0", "id": 302, "method": "server/discover", "params": {"_meta": meta}}).encode()
    answer = await raw_post(routed(MODERN.encode(), b"server/discover"), body)
    assert answer.status == 400 and answer.json()["error"]["code"] == -32020 and answer.json()["id"] == 302


async def test_discover_lists_every_version_spoken(raw_post: RawPost) -> None:
    answer = await raw_post(routed(MODERN.encode(), b"server/discover"), modern("server/discover"))
    assert answer.status == 200, answer.body
    assert answer.json()["result"]["supportedVersions"] == ALL_VERSIONS


async def test_a_stripped_accept_language_on_sse_extends_cache_control(raw_post: RawPost) -> None:
    # A progress token asks for SSE; `_meta` carries the preference but no Accept-Language header came (a proxy
    # stripped it): `private` joins the stream's own no-cache, no-transform instead of replacing it.
    meta = {**ENVELOPE, "io.modelcontextprotocol/acceptLanguage": "de", "progressToken": "p1"}
    params = {"name": "list_timezones", "arguments": {"query": "Vienna"}, "_meta": meta}
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}).encode()
    headers = [*routed(MODERN.encode(), b"tools/call"), (b"mcp-name", b"list_timezones")]
    answer = await raw_post(headers, body)
    assert answer.status == 200 and answer.header(b"content-type")[0].startswith(b"text/event-stream")
    assert answer.header(b"cache-control") == [b"no-cache, no-transform, private"]
    assert answer.header(b"vary") == [b"Accept-Language"]
    assert answer.json()["result"]["_meta"]["io.modelcontextprotocol/contentLanguage"] == "de"


BATCH = [
    {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_current_time", "arguments": {}}},
    {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}},
    {"jsonrpc": "2.0", "id": "b", "method": "resources/read", "params": {"uri": "timezone://Mars/Olympus"}},
    42,
    {"jsonrpc": "2.0", "id": 3, "method": "initialize", "params": {}},
]


@pytest.mark.parametrize("version", [b"2025-03-26", None])
async def test_a_2025_03_26_batch_is_answered_as_a_batch(raw_post: RawPost, version: bytes | None) -> None:
    headers = [*BASE_HEADERS, *([(b"mcp-protocol-version", version)] if version else [])]
    answer = await raw_post(headers, json.dumps(BATCH).encode())
    assert answer.status == 200, answer.body
    replies = answer.json()
    assert isinstance(replies, list) and len(replies) == 4  # the notification gets none
    by_id = {reply["id"]: reply for reply in replies if reply["id"] is not None}
    assert by_id[1]["result"]["structuredContent"]["timezone"] == "UTC"
    assert by_id["b"]["error"]["code"] == -32602
    assert by_id[3]["error"]["code"] == -32600 and "initialize" in by_id[3]["error"]["message"]
    assert [reply["error"]["code"] for reply in replies if reply["id"] is None] == [-32600]


async def test_a_batch_of_notifications_is_accepted_without_a_body(raw_post: RawPost) -> None:
    notification = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}
    answer = await raw_post(
        [*BASE_HEADERS, (b"mcp-protocol-version", b"2025-03-26")], json.dumps([notification]).encode()
    )
    assert (answer.status, answer.body) == (202, b"")


@pytest.mark.parametrize("version", [b"2025-06-18", b"2025-11-25", MODERN.encode()])
async def test_batches_are_refused_in_revisions_without_them(raw_post: RawPost, version: bytes) -> None:
    answer = await raw_post([*BASE_HEADERS, (b"mcp-protocol-version", version)], json.dumps(BATCH[:1]).encode())
    assert answer.status == 400 and answer.json()["error"]["code"] == -32600
    assert "2025-03-26" in answer.json()["error"]["message"]


async def test_an_empty_batch_is_an_invalid_request(raw_post: RawPost) -> None:
    answer = await raw_post([*BASE_HEADERS, (b"mcp-protocol-version", b"2025-03-26")], b"[]")
    assert answer.status == 400 and answer.json()["error"]["code"] == -32600


async def test_a_batch_in_a_2025_03_26_session_is_answered_as_a_batch(raw_post_stateful: RawPost) -> None:
    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    opened = await raw_post_stateful(BASE_HEADERS, json.dumps(init).encode())
    session = opened.header(b"mcp-session-id")[0]
    headers = [*BASE_HEADERS, (b"mcp-session-id", session), (b"mcp-protocol-version", b"2025-03-26")]
    initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert (await raw_post_stateful(headers, json.dumps(initialized).encode())).status == 202
    answer = await raw_post_stateful(headers, json.dumps(BATCH[:3]).encode())
    assert answer.status == 200 and answer.header(b"content-type") == [b"application/json"]
    replies = {reply["id"]: reply for reply in json.loads(answer.body)}  # the SSE answers, gathered
    assert set(replies) == {1, "b"} and replies[1]["result"]["structuredContent"]["timezone"] == "UTC"


async def test_an_invalid_batch_member_is_the_invalid_request_stdio_gives_with_its_id(raw_post: RawPost) -> None:
    """Both edges judge batch members with `wire.batch_members`: the same code, message and id, byte for byte
    (tests/test_stdio.py holds the stdio side to the same bytes)."""
    answer = await raw_post([*BASE_HEADERS, (b"mcp-protocol-version", b"2025-03-26")], INVALID_MEMBERS)
    replies = json.loads(answer.body)
    assert json.dumps(replies[0]).encode() == INVALID_MEMBER_ANSWER
    assert replies[1] == {"jsonrpc": "2.0", "id": 8, "result": {}}
