"""Server-Sent Event streams on /mcp: primed for reconnection, and GET's long-lived stream kept and closed cleanly.

- Every SSE answer starts with what a client needs to reconnect well: from 2025-11-25 on, a priming event (an
  event id and an empty `data` field, that revision's SHOULD) with `retry`; earlier revisions get the `retry`
  field alone (it dispatches no event, so no client of theirs sees anything new).
- A stateful server's GET stream (server-to-client messages) lives outside the request timeout (its route has
  none), carries the SDK's keep-alive comments, and ends with a complete chunked answer when the server shuts
  down (uvicorn's `DrainingServer` sets the closing event the app's lifespan shared), so clients see a clean end
  and reconnect elsewhere instead of a reset. `Last-Event-ID` is not replayed (horologe keeps no event store:
  nothing a time server sends on that stream is worth replaying), so a reconnecting client gets a fresh stream.
- A second GET on a session that holds one gets a stream too (the texts allow an event stream or 405, never the
  SDK's 409, on which the TypeScript client's resumption GET hangs): a quiet one, primed and kept alive, while the
  first stream carries what the server sends (each message goes on one stream only, as the texts ask). A
  resuming client (`Last-Event-ID`) gets one the same way whether or not its old stream is still held.
"""

from __future__ import annotations

import asyncio
import random
from http import HTTPStatus
from typing import Any, Final

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from horologe.http.asgi import header
from horologe.http.connection import CLOSING_STATE_KEY

RETRY_MS: Final = 3000
"""How long a client should wait before reconnecting a stream that ended (SSE `retry`, milliseconds)."""
PRIMING_SINCE: Final = "2025-11-25"
"""The first revision that asks for a priming event on every SSE stream."""
KEEP_ALIVE_SECONDS: Final = 15.0
"""How often a quiet stream sends a comment, so proxies keep it open (the SDK's streams use the same interval)."""
KEEP_ALIVE: Final = b": keep-alive\r\n\r\n"


def priming(version: str | None) -> bytes:
    """The first bytes of an SSE stream for a client of this protocol revision."""
    retry = f"retry: {RETRY_MS}\n".encode()
    if version is None or version < PRIMING_SINCE:
        return retry + b"\n"
    return b"id: " + f"{random.getrandbits(64):016x}".encode() + b"\n" + retry + b"data: \n\n"


def primed(send: Send, version: str | None) -> Send:
    """`send`, but an SSE answer's head (without the SDK's `Connection`) is followed at once by the priming bytes
    (JSON answers pass as they are)."""

    async def priming_send(message: Message) -> None:
        if message["type"] != "http.response.start":
            await send(message)
            return
        headers = message.get("headers", [])
        content_type = next((v for k, v in headers if k.lower() == b"content-type"), b"")
        if not content_type.startswith(b"text/event-stream"):
            await send(message)
            return
        # `Connection` is hop-by-hop: the server (uvicorn) decides it, so the SDK's `keep-alive` would sit beside
        # uvicorn's `close` when the client asked for that.
        await send({**message, "headers": [(k, v) for k, v in headers if k.lower() != b"connection"]})
        await send({"type": "http.response.body", "body": priming(version), "more_body": True})

    return priming_send


async def held_stream(app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
    """Serve a long-lived GET stream with `app`, ending it with a complete answer when the server shuts down."""
    closing: asyncio.Event | None = scope.get("state", {}).get(CLOSING_STATE_KEY)
    headers = [(k, v) for k, v in scope["headers"] if k != b"last-event-id"]
    scope = {**scope, "headers": headers}
    state: dict[str, Any] = {"started": False, "ended": False, "second": False}

    async def guarded(message: Message) -> None:
        if state["ended"]:
            return
        if message["type"] == "http.response.start" and message["status"] == HTTPStatus.CONFLICT:
            state["second"] = True  # the SDK's answer to a second GET (the session was found, the headers agreed)
            return
        if state["second"] and not state["started"] and message["type"] == "http.response.body":
            return  # the 409's body
        if message["type"] == "http.response.start":
            state["started"] = True
        elif message["type"] == "http.response.body" and not message.get("more_body", False):
            state["ended"] = True
        await send(message)

    sending = primed(guarded, header(scope, b"mcp-protocol-version"))
    async with anyio.create_task_group() as tasks:
        if closing is not None:

            async def end_at_shutdown() -> None:
                await closing.wait()
                if state["started"] and not state["ended"]:
                    state["ended"] = True
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                tasks.cancel_scope.cancel()

            tasks.start_soon(end_at_shutdown)
        await app(scope, receive, sending)
        if state["second"]:
            await _quiet_stream(scope, receive, sending)
        tasks.cancel_scope.cancel()


async def _quiet_stream(scope: Scope, receive: Receive, send: Send) -> None:
    """An SSE stream that carries nothing but keep-alive comments, until the client goes away (or the caller's
    cancel scope ends it)."""
    headers = [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache, no-transform")]
    session = header(scope, b"mcp-session-id")
    if session is not None:
        headers.append((b"mcp-session-id", session.encode("latin-1")))
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    async with anyio.create_task_group() as tasks:

        async def keep_alive() -> None:
            while True:
                await anyio.sleep(KEEP_ALIVE_SECONDS)
                await send({"type": "http.response.body", "body": KEEP_ALIVE, "more_body": True})

        tasks.start_soon(keep_alive)
        while (await receive())["type"] != "http.disconnect":
            pass
        tasks.cancel_scope.cancel()
