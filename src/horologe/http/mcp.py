"""POST/GET/DELETE /mcp: the SDK's Streamable HTTP transport, answering JSON, or SSE when progress is asked for.

GET opens the server-to-client stream. A stateless server has nothing to send on it, so it answers 405 in every
era (the texts let a server refuse it; clients then stop asking, where a stream cut by the request timeout made
the TypeScript SDK report a disconnect every 30 s). A stateful server holds it (`horologe.http.streams`).

Two of the SDK's answers are mended on the way out (`settled`): its 2026-07-28 path answers an unacceptable
`Accept` with an empty 406, which gets the error table's JSON-RPC body; and with sessions on, a request without a
session that is refused (400 "Missing session ID", 406, ...) opened no session, so its answer names none (the SDK
sends the id of the session it admitted and discarded again). A single 2025-era message that is not JSON-RPC 2.0
is refused here as Invalid Request, as stdio and a batch's members are, before the SDK answers it -32602 with
pydantic's whole report.
"""

from __future__ import annotations

from functools import partial

from mcp.server.streamable_http import check_accept_headers
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from starlette.requests import Request
from starlette.types import Message as ASGIMessage
from starlette.types import Receive, Scope, Send

from horologe.core.messages import Message
from horologe.http.asgi import header, refuse
from horologe.http.cancel import Cancellations, until_gone
from horologe.http.direct import DirectServing
from horologe.http.errors import MethodNotAllowed, NotAcceptable
from horologe.http.request import RequestFacts, facts_of
from horologe.http.streams import held_stream, primed
from horologe.protocol.errors import InvalidRequest
from horologe.wire import shape_problem


class MCPEndpoint:
    """JSON responses by default; an SSE stream for a request that carries a progress token (or with sessions on),
    so progress notifications are never silently dropped."""

    def __init__(
        self,
        json_manager: StreamableHTTPSessionManager,
        sse_manager: StreamableHTTPSessionManager,
        stateful: bool,
        cancellations: Cancellations,
        direct: DirectServing | None = None,
    ) -> None:
        self.json_manager = json_manager
        self.sse_manager = sse_manager
        self.stateful = stateful
        self.cancellations = cancellations
        self.direct = direct

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] == "GET":
            if not self.stateful:
                error = MethodNotAllowed(method="GET", path=scope["path"], allowed="POST")
                await refuse(send, error, headers=ALLOW_POST)
                return
            await held_stream(self.sse_manager.handle_request, scope, receive, send)
            return
        facts = facts_of(scope)
        serve = partial(self._serve, scope, facts)
        if facts is None or facts.method is None:
            await serve(receive, send)
            return
        version = header(scope, b"mcp-protocol-version")
        if version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS:
            if facts.request_id is not None and not facts.wants_progress and not self.stateful:
                await until_gone(scope, serve, receive, send)  # (the SDK watches the SSE answers it streams itself)
                return
        elif facts.request_id is not None:
            await self.cancellations.serve(scope, facts.request_id, serve, receive, send)
            return
        elif facts.method == "notifications/cancelled":
            self.cancellations.cancel(scope, facts.payload.get("params"))
        await serve(receive, send)

    async def _serve(self, scope: Scope, facts: RequestFacts | None, receive: Receive, send: Send) -> None:
        """A POST, answered directly when it can be, else by the SDK's transport (its answer mended)."""
        streamed = facts is not None and facts.wants_progress
        if self.direct is not None and not streamed and not self.stateful:
            taken = self.direct.takes(scope, facts)
            if taken is not None:
                await self.direct.answer(taken, send)
                return
        problem = _handshake_shape_problem(scope, facts)
        if problem is not None:
            await refuse(send, InvalidRequest(reason=problem), facts.request_id if facts else None, scope=scope)
            return
        manager = self.sse_manager if streamed else self.json_manager
        settled = _settled(send, scope, facts, streamed or self.stateful)
        await manager.handle_request(scope, receive, primed(settled, _protocol_version(scope, facts)))


ALLOW_POST = ((b"allow", b"POST"),)


def _settled(send: Send, scope: Scope, facts: RequestFacts | None, streamed: bool) -> Send:
    """`send`, with an empty 406 given its JSON-RPC body and a refused session opening's session id dropped."""
    opening = header(scope, b"mcp-session-id") is None
    held: ASGIMessage | None = None

    async def settled(message: ASGIMessage) -> None:
        nonlocal held
        if message["type"] == "http.response.start" and message["status"] >= 400:
            if opening:
                headers = [
                    (key, value) for key, value in message.get("headers", []) if key.lower() != b"mcp-session-id"
                ]
                message = {**message, "headers": headers}
            if message["status"] == 406:
                held = message
                return
        if held is not None and message["type"] == "http.response.body":
            start, held = held, None
            if not message.get("body") and not message.get("more_body"):
                await refuse(
                    send, _not_acceptable(scope, facts, streamed), facts.request_id if facts else None, scope=scope
                )
                return
            await send(start)
        await send(message)

    return settled


def _handshake_shape_problem(scope: Scope, facts: RequestFacts | None) -> Message | None:
    """Why a single 2025-era message is not JSON-RPC 2.0, or None: the SDK would answer it -32602 with pydantic's
    whole report, where stdio and a batch's members say Invalid Request (-32600) and what a message looks like."""
    if facts is None or not isinstance(facts.payload, dict):
        return None
    version = header(scope, b"mcp-protocol-version")
    if version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS:
        return None  # 2026-07-28: the SDK's envelope ladder answers -32600 itself
    return shape_problem(facts.payload)


def _not_acceptable(scope: Scope, facts: RequestFacts | None, streamed: bool) -> NotAcceptable:
    """What the Accept header lacks: JSON always, and SSE when the answer is a stream."""
    has_json, has_sse = check_accept_headers(Request(scope))
    needs_sse = streamed or (facts is not None and facts.method == "subscriptions/listen")
    missing = [kind for kind, has in (("application/json", has_json), ("text/event-stream", has_sse)) if not has]
    wanted = missing if needs_sse else ["application/json"]
    return NotAcceptable(types=" and ".join(wanted or ["application/json"]))


def _protocol_version(scope: Scope, facts: RequestFacts | None) -> str | None:
    """The revision a POST speaks: its header, or for `initialize` (which has none yet) the one it asks for."""
    version = header(scope, b"mcp-protocol-version")
    if version is None and facts is not None and facts.method == "initialize" and isinstance(facts.payload, dict):
        params = facts.payload.get("params")
        asked = params.get("protocolVersion") if isinstance(params, dict) else None
        version = asked if isinstance(asked, str) else None
    return version
