"""Deadlines for slow clients, on uvicorn's HTTP/1.1 connections (httptools, or h11 when httptools is missing).

uvicorn bounds the idle time between requests (`timeout_keep_alive`) but not the time a client takes to send
one: a partial request line, partial headers or a body that drips in held the connection (and what was read of
the body) forever. These protocol classes add two deadlines, counted from the first byte of a request (or from
the connection's opening, for its first request) and never extended by more bytes:

- `header_timeout`: the request line and headers must be complete within it;
- `body_timeout`: then the declared body must be complete within it.

A client that misses one gets 408 with a JSON-RPC error body and `Connection: close` (a connection that sent
nothing is just closed, as keep-alive connections are); an app still waiting for the body sees a disconnect.
A head larger than `max_header_bytes` gets 431: httptools would otherwise collect headers without end.

This module imports only uvicorn and `listen`: the supervisor of several workers passes these classes to its workers
without importing the app (the error body is built on first use, in a worker).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import socket
from typing import Any, Literal

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.flow_control import FlowControl
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import Server

from horologe.http.listen import mcp_url

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # the `fast` extra (httptools) is not installed: uvicorn serves with h11
    HttpToolsProtocol = None  # type: ignore[assignment,misc]

logger = logging.getLogger("horologe.http")

Phase = Literal["open", "head", "body"] | None
"""What a connection waits for: its first request ("open"), the rest of a request's head, its body, or nothing."""


class DeadlineConfig(Config):
    """uvicorn's configuration, plus the deadlines and the head size (picklable, so worker processes receive them)."""

    def __init__(
        self, app: Any, *, header_timeout: float, body_timeout: float, max_header_bytes: int, **options: Any
    ) -> None:
        # h11 refuses (400) a head still incomplete past this size, checked before ours sees the chunk that brought
        # it there; a read brings at most 256 KiB, so with this margin ours is the check that answers (431).
        super().__init__(app, h11_max_incomplete_event_size=max_header_bytes + 1_048_576, **options)
        self.header_timeout = header_timeout
        self.body_timeout = body_timeout
        self.max_header_bytes = max_header_bytes


CLOSING_STATE_KEY = "horologe.closing"
"""The app's lifespan state holds an `asyncio.Event` here; `DrainingServer` sets it when shutdown begins, so
long-lived streams end with a complete answer instead of waiting out the grace period."""

_ANSWERS: dict[tuple[str, float], bytes] = {}
REASONS = {408: "Request Timeout", 431: "Request Header Fields Too Large"}


def edge_response(kind: Literal["slow", "large"], limit: float) -> bytes:
    """The raw answer (with `Connection: close`) for a request that missed a deadline or sent too large a head."""
    raw = _ANSWERS.get((kind, limit))
    if raw is None:
        from horologe.http.errors import HeadersTooLarge, RequestTooSlow, http_answer  # a worker has them

        error = RequestTooSlow(seconds=f"{limit:g}") if kind == "slow" else HeadersTooLarge(limit=int(limit))
        status, body = http_answer(error)
        head = (
            f"HTTP/1.1 {status} {REASONS[status]}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
        )
        raw = _ANSWERS[(kind, limit)] = head.encode() + body
    return raw


async def _within_capacity(
    limit: int, connections: set[Any], tasks: set[Any], app: Any, scope: Any, receive: Any, send: Any
) -> None:
    """Run the app, unless the process holds `limit` connections or requests already (this one counts itself)."""
    if scope["type"] == "http" and (len(connections) >= limit or len(tasks) > limit):
        from horologe.http.errors import ServerBusy, http_answer

        logger.warning(
            "refused a request: %d connections, %d requests open (http.max_connections)", len(connections), len(tasks)
        )
        status, body = http_answer(ServerBusy(seconds=1))
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"retry-after", b"1"),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
        return
    await app(scope, receive, send)


class _Deadlines(asyncio.Protocol):
    """What both protocol classes share: one timer per connection, moved along as the request's phase changes."""

    config: Config
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport
    flow: FlowControl
    cycle: Any
    app: Any
    limit_concurrency: int | None
    connections: set[Any]
    tasks: set[Any]

    _phase: Phase = None
    _timer: asyncio.TimerHandle | None = None
    _head_bytes = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # uvicorn answers requests past `limit_concurrency` with a plain-text 503; ours says why, as JSON-RPC.
        limit: int | None = self.limit_concurrency
        if limit is not None:
            self.app = functools.partial(_within_capacity, limit, self.connections, self.tasks, self.app)
            self.limit_concurrency = None

    def _track(self, phase: Phase) -> None:
        """Start the deadline of a new phase; a phase already under way keeps its deadline."""
        if phase == self._phase:
            return
        self._phase = phase
        if phase not in ("open", "head"):
            self._head_bytes = 0
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if phase is not None:
            self._timer = self.loop.call_later(self._seconds(phase), self._expired)

    def _seconds(self, phase: Phase) -> float:
        seconds: float = self.config.body_timeout if phase == "body" else self.config.header_timeout  # type: ignore[attr-defined]
        return seconds

    def _expired(self) -> None:
        self._timer = None
        phase = self._phase
        if self.transport.is_closing():
            return
        if self.flow.read_paused:  # uvicorn stopped reading (pipelining, a body the app has not taken): not the client
            self._timer = self.loop.call_later(self._seconds(phase), self._expired)
            return
        self._close(edge_response("slow", self._seconds(phase)) if phase != "open" else b"")

    def _head_too_large(self, data: bytes) -> bool:
        """Count the bytes of a request's line and headers in a chunk that arrives while no body is due (up to the
        blank line that ends the head, when the chunk holds it); True when the head is past the size limit, whether
        it is still arriving or complete in this chunk: it is refused (431) before the parser sees it. Data that
        arrives on a closing connection is dropped too."""
        if self.transport.is_closing():
            return True
        if self._phase == "body":
            return False
        end = data.find(b"\r\n\r\n")
        self._head_bytes += len(data) if end < 0 else end + 4
        limit: int = self.config.max_header_bytes  # type: ignore[attr-defined]
        if self._head_bytes <= limit:
            return False
        self._close(edge_response("large", limit))
        return True

    def _close(self, answer: bytes) -> None:
        """Answer (unless an answer to this request, or an earlier one, is under way) and close the connection."""
        cycle = self.cycle  # this request's while its body is due; before that, the previous request's
        body_due = self._phase == "body"
        free = not cycle.response_started if body_due else cycle is None or cycle.response_complete
        self._track(None)
        if answer and free:
            self.transport.write(answer)
        self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the first request's header deadline."""
        super().connection_made(transport)
        self._track("open")

    def connection_lost(self, exc: Exception | None) -> None:
        """Drop the deadline."""
        self._track(None)
        super().connection_lost(exc)

    def _begin(self) -> None:
        """A request's first byte: its head is due by the deadline already running from the connection's opening."""
        if self._phase == "open":
            self._phase = "head"
        else:
            self._track("head")


if HttpToolsProtocol is not None:

    class HttpToolsDeadlines(_Deadlines, HttpToolsProtocol):
        """uvicorn's httptools protocol with the header and body deadlines."""

        def data_received(self, data: bytes) -> None:
            """Feed the parser, unless the head is past the limit."""
            if not self._head_too_large(data):
                super().data_received(data)

        def on_message_begin(self) -> None:
            """A request starts: its head is due."""
            super().on_message_begin()
            self._begin()

        def on_headers_complete(self) -> None:
            """The head is in: the body is due. An absolute-form target's authority replaces the Host header (RFC 9112
            §3.2.2), so the Host allow-list judges the host the request names."""
            _take_target_authority(self.url, self.headers)
            super().on_headers_complete()
            self._track("body")

        def on_message_complete(self) -> None:
            """The request is in: no deadline until the next one starts."""
            super().on_message_complete()
            self._track(None)


class H11Deadlines(_Deadlines, H11Protocol):
    """uvicorn's h11 protocol with the header and body deadlines (read from h11's state after each chunk)."""

    def data_received(self, data: bytes) -> None:
        """Feed h11 (unless the head is past the limit), then move the deadline along with the request's phase."""
        if self._head_too_large(data):
            return
        super().data_received(data)
        if self.transport.is_closing():
            self._track(None)
        elif self.conn.their_state is h11.SEND_BODY:
            self._track("body")
        elif self.conn.their_state is h11.IDLE and self.conn.trailing_data[0]:
            self._begin()
        else:  # the request is in (or the connection is done)
            self._track(None)


def _take_target_authority(target: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    """Replace the Host header with the authority of an absolute-form request target (`http://host:port/path`)."""
    if target.startswith(b"/") or b"://" not in target[:16]:
        return
    authority = target.split(b"://", 1)[1].split(b"/", 1)[0].split(b"?", 1)[0].rsplit(b"@", 1)[-1]
    headers[:] = [(name, value) for name, value in headers if name.lower() != b"host"]
    headers.append((b"host", authority))


def deadline_protocol() -> type[asyncio.Protocol]:
    """The protocol class uvicorn's "auto" would pick (httptools when installed, else h11), with the deadlines."""
    return HttpToolsDeadlines if HttpToolsProtocol is not None else H11Deadlines


class DrainingServer(Server):
    """uvicorn's server on a socket bound beforehand, and SIGTERM answers the connections clients already opened.

    uvicorn's shutdown closes the listening socket (the kernel resets the connections queued on it, not yet
    accepted) and then closes every connection whose request has not been read yet. After a call that kept the
    event loop busy, that is every request that arrived meanwhile. This shutdown first accepts what is queued,
    stops listening, and lets each connection that has begun a request read its head (a client that opened a
    connection and sent nothing gets a second); then uvicorn's shutdown answers them all within the grace period.
    Long-lived streams are told first (`CLOSING_STATE_KEY`), so they end cleanly rather than at the grace period.
    """

    QUIET_SECONDS = 1.0

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """Start as uvicorn does, then say where requests are accepted (uvicorn says nothing on sockets handed in)."""
        await super().startup(sockets)
        if self.started and sockets:
            port = sockets[0].getsockname()[1]
            logging.getLogger("horologe").info("listening on %s", mcp_url(self.config.host, port))

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Accept what is queued, stop listening, read the heads of begun requests, then shut down as uvicorn does."""
        loop = asyncio.get_running_loop()
        closing = self.lifespan.state.get(CLOSING_STATE_KEY)
        if isinstance(closing, asyncio.Event):
            closing.set()
        queued = [accepted for server in self.servers for accepted in _accept_queued(server)]
        for server in self.servers:
            server.close()
        for accepted in queued:
            await loop.connect_accepted_socket(self._protocol, accepted, ssl=self.config.ssl)
        await self._read_heads(loop)
        await super().shutdown(sockets)

    def _protocol(self) -> asyncio.Protocol:
        protocol: asyncio.Protocol = self.config.http_protocol_class(  # type: ignore[call-arg]
            config=self.config, server_state=self.server_state, app_state=self.lifespan.state
        )
        return protocol

    async def _read_heads(self, loop: asyncio.AbstractEventLoop) -> None:
        started = loop.time()
        limit = started + (self.config.timeout_graceful_shutdown or 0)
        while loop.time() < limit:
            quiet = loop.time() - started >= self.QUIET_SECONDS
            phases = [getattr(connection, "_phase", None) for connection in self.server_state.connections]
            if "head" not in phases and (quiet or "open" not in phases):
                return
            await asyncio.sleep(0.02)


def _accept_queued(server: asyncio.AbstractServer) -> list[socket.socket]:
    """The connections the kernel accepted on the server's listening sockets that the loop has not taken yet."""
    accepted: list[socket.socket] = []
    for listener in getattr(server, "sockets", None) or ():
        with socket.socket(fileno=os.dup(listener.fileno())) as own:
            own.setblocking(False)
            while True:
                try:
                    connection, _ = own.accept()
                except OSError:  # BlockingIOError: nothing more is queued
                    break
                connection.setblocking(False)
                accepted.append(connection)
    return accepted
