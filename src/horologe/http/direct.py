"""A stateless POST answered in JSON, served in the request's own task with the SDK's public entry, `serve_one`.

The SDK serves a stateless POST of the 2025 revisions by building a session for it: a transport, memory streams, a
JSON-RPC dispatcher and a server task in its task group, torn down again after one answer (about 400 µs of the
SDK's 620 per call on this machine, bench/asgi_cost.py). A 2026-07-28 POST it serves in the request's task, but
re-reads and re-parses the body our body guard already parsed, builds a Starlette request and response, and
validates the envelope the era guard has checked. `DirectServing` serves both with what the SDK's own paths call,
all of it its public surface: `serve_one` (the server's middleware stages, handlers, the result's validation and
serialisation, the connection's teardown), the envelope ladder (`classify_inbound_request`) and `Mcp-Param` check
for 2026-07-28, and each era's answer conventions: 2025, one JSON-RPC response with status 200 even for an error,
`exclude_unset` serialisation, the dispatcher's code 0 for an exception no stage mapped; 2026-07-28, the error
table's HTTP status, `exclude_none` serialisation, -32603 for an unmapped exception. Its dispatch context is the
one `horologe.protocol.dispatch` gives every request answered in place.

It takes only a single request (a batch's members one by one; never a notification, a response or `initialize`)
that the SDK would serve as is: a JSON `Content-Type`, an `Accept` naming JSON, an envelope that validates, no
header the SDK would refuse. Everything else is the SDK's to answer, unchanged (`MCPEndpoint` passes it on).
`mcp` is pinned to the release this was checked against (pyproject.toml): tests/http/test_direct.py holds the two
paths to the same answer (status, headers, JSON; in 2025 the same bytes), and fails on a release whose code
behind either path differs from the code checked.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any

import anyio
from mcp.server.connection import Connection
from mcp.server.lowlevel.server import Server
from mcp.server.runner import serve_one
from mcp.server.streamable_http import check_accept_headers
from mcp.shared.inbound import (
    ERROR_CODE_HTTP_STATUS,
    MCP_PARAM_HEADER_PREFIX,
    InboundLadderRejection,
    InboundModernRoute,
    classify_inbound_request,
    find_duplicated_routing_header,
    validate_mcp_param_headers,
)
from mcp.shared.jsonrpc_dispatcher import handler_exception_to_error_data
from mcp.shared.message import ServerMessageMetadata
from mcp.shared.transport_context import TransportContext
from mcp_types import (
    DEFAULT_NEGOTIATED_VERSION,
    INTERNAL_ERROR,
    ErrorData,
    JSONRPCError,
    JSONRPCRequest,
    JSONRPCResponse,
)
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from pydantic import ValidationError
from starlette.requests import Request
from starlette.types import Scope, Send

from horologe.http.asgi import header, respond
from horologe.http.request import RequestFacts
from horologe.protocol.dispatch import DirectExchange

logger = logging.getLogger("horologe.http")

_TRANSPORT = TransportContext(kind="streamable-http", can_send_request=False)
MCP_PARAM_PREFIX = MCP_PARAM_HEADER_PREFIX.lower()


@dataclass(frozen=True, slots=True)
class Taken:
    """A request served directly: the message, the revision it speaks, the HTTP request the SDK hands its handlers,
    and for 2026-07-28 its envelope."""

    message: JSONRPCRequest
    version: str
    request: Request
    envelope: InboundModernRoute | None = None


class DirectServing:
    """Serves the stateless JSON-answered requests of one MCP server in the request's own task."""

    def __init__(self, server: Server[Any]) -> None:
        self.server = server
        self._running: tuple[Any, anyio.Event] | None = None
        """While the app serves: the server's lifespan state, and the cancellation event every request shares."""

    @contextlib.asynccontextmanager
    async def run(self) -> AsyncIterator[None]:
        """Hold the server's lifespan while the app serves (the SDK's session manager holds its own the same way)."""
        # Nothing cancels a request served here (its client cancels by going away: the timeout and the ASGI server
        # see to that), so every request shares one event that is never set (an event each cost 4% of a call).
        async with self.server.lifespan(self.server) as state:
            self._running = (state, anyio.Event())
            try:
                yield
            finally:
                self._running = None

    def takes(self, scope: Scope, facts: RequestFacts | None) -> Taken | None:
        """The request, when it is served directly exactly as the SDK would; else None (the SDK answers it)."""
        if self._running is None or facts is None or not isinstance(facts.payload, dict) or "id" not in facts.payload:
            return None
        content_type = header(scope, b"content-type")
        if content_type is None or content_type.split(";")[0].strip() != "application/json":
            return None
        request = Request(scope)
        if not check_accept_headers(request)[0]:
            return None
        try:
            message = JSONRPCRequest.model_validate(facts.payload, by_name=False)
        except ValidationError:
            return None
        version = header(scope, b"mcp-protocol-version")
        if version is None or version in HANDSHAKE_PROTOCOL_VERSIONS:
            if message.method == "initialize":
                return None
            return Taken(message, version or DEFAULT_NEGOTIATED_VERSION, request)
        pairs = [(key.decode("latin-1"), value.decode("latin-1")) for key, value in scope["headers"]]
        if message.method == "subscriptions/listen" or find_duplicated_routing_header(pairs):
            return None
        first: dict[str, str] = {}
        for key, value in pairs:
            first.setdefault(key, value)  # what the SDK's `dict(request.headers)` holds: each header's first value
        envelope = classify_inbound_request(facts.payload, headers=first)
        if isinstance(envelope, InboundLadderRejection) or not self._headers_agree(message, request, first):
            return None
        return Taken(message, envelope.protocol_version, request, envelope)

    def _headers_agree(self, message: JSONRPCRequest, request: Request, first: Mapping[str, str]) -> bool:
        """Whether a 2026-07-28 `tools/call` passes the SDK's `Mcp-Param` check (its tool's schema against the
        headers); a server without a schema lookup is left to the SDK, which lists its tools to find one."""
        if message.method != "tools/call":
            return True
        lookup = self.server.get_tool_input_schema
        params = message.params or {}
        name, arguments = params.get("name"), params.get("arguments")
        if lookup is None or not isinstance(name, str) or not isinstance(arguments, Mapping | None):
            return lookup is not None
        if not arguments and not any(key.startswith(MCP_PARAM_PREFIX) for key in first):
            return True
        try:
            schema = lookup(name)
        except Exception:
            return False
        return schema is None or validate_mcp_param_headers(schema, arguments or {}, request.headers) is None

    async def answer(self, taken: Taken, send: Send) -> None:
        """Run the request through the server and send its JSON-RPC answer, as its era's SDK path would."""
        if self._running is None:
            raise RuntimeError("direct serving answers only while the app runs (and only what it took)")
        state, never = self._running
        message, envelope = taken.message, taken.envelope
        metadata = ServerMessageMetadata(request_context=taken.request)
        if envelope is None:
            exchange = DirectExchange(_TRANSPORT, message.id, metadata, never)
            connection = Connection.from_envelope(taken.version, None, None)
        else:
            transport = TransportContext(kind="streamable-http", can_send_request=False, headers=taken.request.headers)
            exchange = DirectExchange(transport, message.id, metadata, never)
            connection = Connection.from_envelope(
                envelope.protocol_version, envelope.client_info, envelope.client_capabilities
            )
        try:
            result = await serve_one(
                self.server, exchange, message.method, message.params, connection=connection, lifespan_state=state
            )
        except Exception as exc:
            error = handler_exception_to_error_data(exc)
            if error is None:
                logger.exception("handler for %r raised", message.method)
                # What each era's SDK path answers an exception no stage mapped.
                error = (
                    ErrorData(code=0, message=str(exc))
                    if envelope is None
                    else ErrorData(code=INTERNAL_ERROR, message="Internal server error")
                )
            failed = JSONRPCError(jsonrpc="2.0", id=message.id, error=error)
            await (_handshake_answer if envelope is None else _modern_answer)(send, failed)
            return
        answer = JSONRPCResponse(jsonrpc="2.0", id=message.id, result=result)
        await (_handshake_answer if envelope is None else _modern_answer)(send, answer)


async def _handshake_answer(send: Send, message: JSONRPCResponse | JSONRPCError) -> None:
    """The 2025 transport's JSON answer: status 200 whatever it says."""
    await respond(send, 200, message.model_dump_json(by_alias=True, exclude_unset=True).encode())


async def _modern_answer(send: Send, message: JSONRPCResponse | JSONRPCError) -> None:
    """The 2026-07-28 answer: an error's status from the SDK's table, the SDK's JSON (its path writes non-ASCII
    text as `\\u` escapes, this one as UTF-8, which its 2025 path does too: the same JSON, a quarter of the cost)."""
    status = ERROR_CODE_HTTP_STATUS.get(message.error.code, 200) if isinstance(message, JSONRPCError) else 200
    await respond(send, status, message.model_dump_json(by_alias=True, exclude_none=True).encode())
