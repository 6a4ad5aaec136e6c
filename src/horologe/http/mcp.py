"""POST/GET/DELETE /mcp: the SDK's Streamable HTTP transport, answering JSON, or SSE when progress is asked for.

GET opens the server-to-client stream. A stateless server has nothing to send on it, so it answers 405 in every
era (the texts let a server refuse it; clients then stop asking, where a stream cut by the request timeout made
the TypeScript SDK report a disconnect every 30 s). A stateful server holds it (`horologe.http.streams`).
"""

from __future__ import annotations

from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.types import Receive, Scope, Send

from horologe.http.asgi import header, refuse
from horologe.http.request import RequestFacts, facts_of
from horologe.http.streams import held_stream, primed
from horologe.protocol.errors import MethodNotAllowed


class MCPEndpoint:
    """JSON responses by default; an SSE stream for a request that carries a progress token (or with sessions on),
    so progress notifications are never silently dropped."""

    def __init__(
        self, json_manager: StreamableHTTPSessionManager, sse_manager: StreamableHTTPSessionManager, stateful: bool
    ) -> None:
        self.json_manager = json_manager
        self.sse_manager = sse_manager
        self.stateful = stateful

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] == "GET":
            if not self.stateful:
                await refuse(send, MethodNotAllowed(method="GET", path="/mcp", allowed="POST"), headers=ALLOW_POST)
                return
            await held_stream(self.sse_manager.handle_request, scope, receive, send)
            return
        facts = facts_of(scope)
        manager = self.sse_manager if facts is not None and facts.wants_progress else self.json_manager
        await manager.handle_request(scope, receive, primed(send, _protocol_version(scope, facts)))


ALLOW_POST = ((b"allow", b"POST"),)


def _protocol_version(scope: Scope, facts: RequestFacts | None) -> str | None:
    """The revision a POST speaks: its header, or for `initialize` (which has none yet) the one it asks for."""
    version = header(scope, b"mcp-protocol-version")
    if version is None and facts is not None and facts.method == "initialize" and isinstance(facts.payload, dict):
        params = facts.payload.get("params")
        asked = params.get("protocolVersion") if isinstance(params, dict) else None
        version = asked if isinstance(asked, str) else None
    return version
