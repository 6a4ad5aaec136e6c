"""Cancellation over HTTP, as each era's texts say: the cancelled request stops, and nothing answers it.

- 2026-07-28: a client cancels a request by closing its connection. The SDK watches for that on the SSE answers it
  streams; `until_gone` does it for the JSON answers (its own path and direct serving), so a call whose client left
  stops at once instead of computing to its budget for nobody.
- 2025 revisions: `notifications/cancelled`, which over stateless HTTP arrives in an exchange of its own.
  `Cancellations` knows the exchanges in flight by who sent them, as the rate limits see the client (the token's
  subject, else the address through the trusted proxies: behind one proxy, anonymous clients are told apart by
  their forwarded address, not the proxy's), their session (with `--stateful`) and their request id. The
  notification stops the named request's exchange, and the call in it (its worker stops at its next check); the
  request is not answered (the texts: a receiver SHOULD NOT answer a cancelled request, and the sender ignores a
  late answer). An HTTP request is owed a response, so its POST gets an empty event stream (no event, no id: a
  client has nothing to resume), which the transport allows for any request; an SSE answer already under way just
  ends. A JSON answer already started is past cancelling. The notification still goes on to the SDK, whose session
  (with `--stateful`) stops its own handler.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Final

import anyio
from starlette.types import Message, Receive, Scope, Send

from horologe.http.asgi import header, replay
from horologe.http.ratelimit import ClientAddress
from horologe.http.request import CLIENT_GONE_KEY

Serve = Callable[[Receive, Send], Awaitable[None]]
"""The rest of a request's serving, given the receive and send it should use."""

WATCH_AFTER: Final = 0.05
"""Seconds a 2026-07-28 request runs before its connection is watched for the client going away."""
EMPTY_STREAM_HEADERS = [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache, no-transform")]


@dataclass(slots=True)
class _Exchange:
    """One request in flight: the scope that stops it, and how far its answer got."""

    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)
    started: bool = False
    streaming: bool = False
    ended: bool = False

    def sending(self, send: Send) -> Send:
        """`send`, noting how far the answer got."""

        async def noting(message: Message) -> None:
            if message["type"] == "http.response.start":
                self.started = True
                self.streaming = any(
                    key == b"content-type" and value.startswith(b"text/event-stream")
                    for key, value in message.get("headers", [])
                )
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                self.ended = True
            await send(message)

        return noting


class Cancellations:
    """The 2025-era requests in flight on this process, by who sent them, so a `notifications/cancelled` in another
    exchange stops the one it names."""

    def __init__(self, addresses: ClientAddress) -> None:
        self.addresses = addresses
        self._running: dict[Hashable, _Exchange] = {}

    def key(self, scope: Scope, request_id: Any) -> Hashable:
        """Who sent a request, as a cancellation from the same client names it."""
        return (self.addresses.identity(scope), header(scope, b"mcp-session-id"), request_id)

    async def serve(self, scope: Scope, request_id: Any, serve: Serve, receive: Receive, send: Send) -> None:
        """Serve a request that a later `cancel` may stop; stopped, it is not answered (an empty event stream)."""
        key = self.key(scope, request_id)
        exchange = _Exchange()
        self._running[key] = exchange  # a reused id: the newer request is the one a cancellation means
        try:
            with exchange.scope:
                await serve(receive, exchange.sending(send))
        finally:
            if self._running.get(key) is exchange:
                del self._running[key]
        if not exchange.scope.cancelled_caught:
            return
        if not exchange.started:
            await send({"type": "http.response.start", "status": 200, "headers": EMPTY_STREAM_HEADERS})
        if not exchange.ended:
            await send({"type": "http.response.body", "body": b"", "more_body": False})

    def cancel(self, scope: Scope, params: object) -> bool:
        """Stop the request a `notifications/cancelled` (its `params`) names, if the same client has it in flight and
        its answer has not begun (a JSON answer under way is past stopping; an SSE one only ends)."""
        request_id = params.get("requestId") if isinstance(params, dict) else None
        if not isinstance(request_id, str | int) or isinstance(request_id, bool):
            return False
        exchange = self._running.get(self.key(scope, request_id))
        if exchange is None or (exchange.started and not exchange.streaming):
            return False
        exchange.scope.cancel()
        return True


async def until_gone(scope: Scope, serve: Serve, receive: Receive, send: Send) -> None:
    """Serve a 2026-07-28 request, cancelled when its client goes away before the answer is complete.

    The request's body is taken from `receive` first (the body guard's replay) and handed to `serve` again, so the
    watch reads only the connection's own events: a disconnect is a state of the connection, which every reader
    sees. The watch (a task) starts only once the request has run `WATCH_AFTER`: most answers are complete before
    that, and a task per request cost a quarter of a call (bench/asgi_cost.py); a client gone earlier is seen at
    once when the watch starts."""
    first = await receive()
    again = replay(first.get("body", b""), receive)
    ended = False

    async def sending(message: Message) -> None:
        nonlocal ended
        if message["type"] == "http.response.body" and not message.get("more_body", False):
            ended = True
        await send(message)

    watching: list[asyncio.Future[Message]] = []

    def gone(watch: asyncio.Future[Message]) -> None:
        if not ended and not watch.cancelled() and watch.exception() is None:
            scope.setdefault("state", {})[CLIENT_GONE_KEY] = True
            cancelling.cancel()  # the watch only ends on a disconnect (see `_disconnect`)

    def watch() -> None:
        watching.append(asyncio.ensure_future(_disconnect(receive)))
        watching[0].add_done_callback(gone)

    with anyio.CancelScope() as cancelling:
        timer = asyncio.get_running_loop().call_later(WATCH_AFTER, watch)
        try:
            await serve(again, sending)
        finally:
            timer.cancel()
            for task in watching:
                task.cancel()


async def _disconnect(receive: Receive) -> Message:
    """The connection's disconnect event (a server also reports one once the answer is complete)."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return message
