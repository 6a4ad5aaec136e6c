"""GET /mcp and SSE answers, byte for byte: a stateless server refuses the stream in every era; a stateful one
primes it, keeps it past the request timeout, ignores `Last-Event-ID` (no event store) and ends it cleanly at
shutdown, and a second GET on the session is a quiet stream, never 409; 2025-11-25 POST SSE answers start with a
priming event."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import anyio
import pytest
from starlette.types import ASGIApp, Message

from horologe.clock import FixedClock
from horologe.config import Settings
from horologe.http.app import create_app
from horologe.http.asgi import replay
from horologe.http.connection import CLOSING_STATE_KEY
from horologe.http.streams import RETRY_MS, priming
from tests.asgi import running
from tests.conftest import FIXED_NOW
from tests.http.conftest import BASE_HEADERS, RawPost

pytestmark = pytest.mark.anyio

GET_405 = (
    b'{"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": '
    b'"Method GET is not allowed on /mcp; use POST."}}'
)


INITIALIZE = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
).encode()


def scope_of(method: str, headers: list[tuple[bytes, bytes]], state: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": "/mcp",
        "raw_path": b"/mcp",
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 40000),
        "server": ("127.0.0.1", 8080),
        "state": state if state is not None else {},
    }


async def never() -> Message:
    await anyio.sleep_forever()
    raise AssertionError("unreachable")


@pytest.mark.parametrize("version", [None, b"2025-03-26", b"2025-06-18", b"2025-11-25", b"2026-07-28"])
async def test_a_stateless_server_refuses_the_get_stream_in_every_era(
    settings: Settings, version: bytes | None
) -> None:
    app = create_app(settings, FixedClock(FIXED_NOW))
    headers = [(b"host", b"127.0.0.1"), (b"accept", b"text/event-stream")]
    if version is not None:
        headers.append((b"mcp-protocol-version", version))
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    async with running(app):
        with anyio.fail_after(10):
            await app(scope_of("GET", headers), replay(b"", never), send)
    start, body = sent[0], sent[1]
    assert start["status"] == 405
    assert (b"allow", b"POST") in start["headers"]
    assert (b"content-type", b"application/json") in start["headers"]
    assert body["body"] == GET_405


def test_the_priming_bytes_are_an_id_and_empty_data_from_2025_11_25_and_a_bare_retry_before() -> None:
    retry = f"retry: {RETRY_MS}\n".encode()
    assert priming("2025-06-18") == retry + b"\n"
    assert priming(None) == retry + b"\n"
    for version in ("2025-11-25", "2026-07-28"):
        primed = priming(version)
        lines = primed.split(b"\n")
        assert lines[0].startswith(b"id: ") and len(lines[0]) == 4 + 16
        assert primed.endswith(b"\n" + retry + b"data: \n\n")


async def open_session(app: ASGIApp, initialize: bytes) -> bytes:
    """The id of a session `initialize` (POSTed to the stateful app) opens."""
    answer: list[Message] = []

    async def collect(message: Message) -> None:
        answer.append(message)

    post_headers = [*BASE_HEADERS, (b"content-length", str(len(initialize)).encode())]
    await app(scope_of("POST", post_headers), replay(initialize, never), collect)
    session: bytes = next(v for k, v in answer[0]["headers"] if k == b"mcp-session-id")
    return session


def stream_headers(session: bytes) -> list[tuple[bytes, bytes]]:
    """The headers of a 2025-11-25 GET for the session's server-to-client stream."""
    return [
        (b"host", b"127.0.0.1"),
        (b"accept", b"text/event-stream"),
        (b"mcp-session-id", session),
        (b"mcp-protocol-version", b"2025-11-25"),
    ]


async def test_a_stateful_get_stream_is_primed_outlives_the_timeout_and_ends_cleanly_at_shutdown(
    settings: Settings, raw_post_stateful: RawPost
) -> None:
    # The timeout covers the opening initialize too: at 0.2 s a loaded machine ran past it there, and the session
    # ended with its cut opening request (the GET then found no session). 1 s leaves that room.
    http = settings.http.model_copy(update={"stateful": True, "request_timeout_seconds": 1.0})
    app = create_app(settings.model_copy(update={"http": http}), FixedClock(FIXED_NOW))
    initialize = INITIALIZE
    closing = asyncio.Event()
    sent: list[Message] = []
    primed = anyio.Event()

    async def send(message: Message) -> None:
        sent.append(message)
        if message["type"] == "http.response.body":
            primed.set()

    async with running(app):
        headers = [*stream_headers(await open_session(app, initialize)), (b"last-event-id", b"no-such-event")]
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(app, scope_of("GET", headers, {CLOSING_STATE_KEY: closing}), replay(b"", never), send)
            with anyio.fail_after(10):
                await primed.wait()
            await anyio.sleep(3.0)  # three request timeouts: the stream is not cut
            assert sent[-1].get("more_body", False) is True
            closing.set()
    start = sent[0]
    assert start["status"] == 200
    assert (b"content-type", b"text/event-stream") in [(k, v.split(b";")[0]) for k, v in start["headers"]]
    first = sent[1]["body"]
    assert first.startswith(b"id: ") and first.endswith(f"retry: {RETRY_MS}\ndata: \n\n".encode())
    assert sent[-1] == {"type": "http.response.body", "body": b"", "more_body": False}


async def test_a_2025_11_25_post_answered_with_sse_starts_with_a_priming_event(raw_post_stateful: RawPost) -> None:
    initialize = INITIALIZE
    answer = await raw_post_stateful([*BASE_HEADERS, (b"connection", b"close")], initialize)
    assert answer.header(b"content-type")[0].startswith(b"text/event-stream")
    assert answer.header(b"connection") == []  # uvicorn alone says it (close, here), never beside keep-alive
    assert answer.body.startswith(b"id: ")
    assert b"\nretry: 3000\ndata: \n\n" in answer.body.split(b"event: message")[0]
    assert answer.json()["result"]["protocolVersion"] == "2025-11-25"


async def test_a_second_get_on_a_session_is_a_quiet_stream_never_409_and_a_resuming_get_is_one_too(
    settings: Settings,
) -> None:
    http = settings.http.model_copy(update={"stateful": True})
    app = create_app(settings.model_copy(update={"http": http}), FixedClock(FIXED_NOW))
    closing = asyncio.Event()
    async with running(app):
        session = await open_session(app, INITIALIZE)
        headers = stream_headers(session)
        streams: list[list[Message]] = [[], [], []]
        primed = [anyio.Event(), anyio.Event(), anyio.Event()]
        gone = anyio.Event()  # the third client goes away

        def sender(index: int) -> Any:
            async def send(message: Message) -> None:
                streams[index].append(message)
                if message["type"] == "http.response.body":
                    primed[index].set()

            return send

        async def leaving() -> Message:
            await gone.wait()
            return {"type": "http.disconnect"}

        resuming = [*headers, (b"last-event-id", b"0123456789abcdef")]
        async with anyio.create_task_group() as tasks:
            state = {CLOSING_STATE_KEY: closing}
            tasks.start_soon(app, scope_of("GET", headers, state), replay(b"", never), sender(0))
            with anyio.fail_after(10):
                await primed[0].wait()
            tasks.start_soon(app, scope_of("GET", headers, state), replay(b"", never), sender(1))
            tasks.start_soon(app, scope_of("GET", resuming, state), replay(b"", leaving), sender(2))
            with anyio.fail_after(10):
                await primed[1].wait()
                await primed[2].wait()
            gone.set()
            await anyio.sleep(0.1)
            assert streams[2][-1].get("more_body", False) is True  # left: nothing more is sent to it
            assert len(streams[2]) == 2
            closing.set()
    for sent in streams:
        start = sent[0]
        assert start["status"] == 200
        assert (b"mcp-session-id", session) in start["headers"]
        first = sent[1]["body"]
        assert len(first) == 4 + 16 + 1 + len(f"retry: {RETRY_MS}\ndata: \n\n")
        assert first[:4] == b"id: " and first[20:] == f"\nretry: {RETRY_MS}\ndata: \n\n".encode()
    for quiet in streams[1:]:
        assert [(k, v) for k, v in quiet[0]["headers"] if k != b"x-request-id"] == [
            (b"content-type", b"text/event-stream"),
            (b"cache-control", b"no-cache, no-transform"),
            (b"mcp-session-id", session),
        ]
    assert streams[0][-1] == streams[1][-1] == {"type": "http.response.body", "body": b"", "more_body": False}
