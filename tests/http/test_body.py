"""The body guard's depth count and its budget of buffered bodies."""

from __future__ import annotations

import pytest
from starlette.types import Message, Receive, Scope, Send

from horologe.http.body import BodyBudget, BodyGuard, _depth


@pytest.mark.parametrize(("value", "depth"), [(1, 0), ({}, 1), ([[]], 2), ({"a": [{"b": 1}]}, 3)])
def test_json_depth_counts_containers(value: object, depth: int) -> None:
    assert _depth(value, 100) == depth


def test_json_depth_stops_early_past_the_limit() -> None:
    deep: object = []
    for _ in range(10_000):
        deep = [deep]
    assert _depth(deep, 32) == 33


async def _record(scope: Scope, receive: Receive, send: Send) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b""})


def _chunks(*chunks: bytes) -> Receive:
    pending = [
        {"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1} for i, chunk in enumerate(chunks)
    ]

    async def receive() -> Message:
        return pending.pop(0) if pending else {"type": "http.disconnect"}

    return receive


def _post(headers: list[tuple[bytes, bytes]]) -> Scope:
    return {"type": "http", "method": "POST", "path": "/mcp/tools/call", "headers": headers}


async def _status(guard: BodyGuard, scope: Scope, receive: Receive) -> int:
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    await guard(scope, receive, send)
    return int(sent[0]["status"])


@pytest.mark.anyio
async def test_a_chunked_body_counts_against_the_buffer_budget_as_it_arrives() -> None:
    budget = BodyBudget(max_bytes=100, max_depth=8, max_buffered=150, buffered=100)  # another request holds 100
    guard = BodyGuard(_record, budget, "tools/call")
    assert (
        await _status(guard, _post([]), _chunks(b'{"name": ', b'"x", "arguments": {}, "pad": "' + b"x" * 40 + b'"}'))
        == 503
    )
    assert budget.buffered == 100  # released again
    assert await _status(guard, _post([]), _chunks(b'{"name": "x"}')) == 200


@pytest.mark.anyio
async def test_a_declared_length_that_does_not_fit_the_budget_is_refused_before_reading() -> None:
    budget = BodyBudget(max_bytes=100, max_depth=8, max_buffered=150, buffered=100)
    guard = BodyGuard(_record, budget, "tools/call")
    assert await _status(guard, _post([(b"content-length", b"60")]), _chunks()) == 503
    assert await _status(guard, _post([(b"content-length", b"13")]), _chunks(b'{"name": "x"}')) == 200
    assert budget.buffered == 100
