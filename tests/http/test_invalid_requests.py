"""A single message that is not JSON-RPC 2.0, over 2025-era HTTP: Invalid Request (-32600) with a message saying what
a message looks like, as stdio and a batch's members say, never the SDK's -32602 with pydantic's report."""

from __future__ import annotations

import pytest

from tests.http.conftest import BASE_HEADERS, RawPost

pytestmark = pytest.mark.anyio

INVALID = (
    b'{"jsonrpc": "2.0", "id": 7, "error": {"code": -32600, "message": "Invalid Request: expected a JSON-RPC 2.0 '
    b'request, notification or response ({\\"jsonrpc\\": \\"2.0\\", \\"id\\": 1, \\"method\\": \\"...\\", '
    b'\\"params\\": {...}})."}}'
)
NOT_JSONRPC = [
    b'{"jsonrpc": "2.0", "id": 7, "method": 5}',
    b'{"jsonrpc": "2.0", "id": 7}',
    b'{"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": 5}',
    b'{"jsonrpc": "1.0", "id": 7, "method": "tools/list"}',
    b'{"id": 7, "method": "tools/list"}',
]


@pytest.mark.parametrize("body", NOT_JSONRPC)
@pytest.mark.parametrize("version", [None, b"2025-03-26", b"2025-06-18", b"2025-11-25"])
async def test_a_single_invalid_2025_request_is_invalid_request_without_a_validator_dump(
    raw_post: RawPost, body: bytes, version: bytes | None
) -> None:
    headers = BASE_HEADERS if version is None else [*BASE_HEADERS, (b"mcp-protocol-version", version)]
    answer = await raw_post(headers, body)
    assert (answer.status, answer.header(b"content-type"), answer.body) == (400, [b"application/json"], INVALID)


@pytest.mark.parametrize("body", NOT_JSONRPC[:2])
async def test_a_stateful_session_refuses_it_the_same_way(raw_post_stateful: RawPost, body: bytes) -> None:
    answer = await raw_post_stateful([*BASE_HEADERS, (b"mcp-protocol-version", b"2025-11-25")], body)
    assert (answer.status, answer.body) == (400, INVALID)


async def test_the_2026_07_28_envelope_ladder_keeps_its_own_invalid_request(raw_post: RawPost) -> None:
    answer = await raw_post([*BASE_HEADERS, (b"mcp-protocol-version", b"2026-07-28")], NOT_JSONRPC[0])
    assert (answer.status, answer.body) == (
        400,
        b'{"jsonrpc":"2.0","error":{"code":-32600,"message":"Body must be a single JSON-RPC request or notification '
        b'object"},"id":null}',
    )
