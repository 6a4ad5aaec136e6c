"""Requests that arrive without a JSON-RPC session (REST, `horologe call`) take the path of a 2026-07-28 request.

`dispatch` wraps the call in the 2026-07-28 per-request envelope and hands it to the SDK's single-exchange
entry (`modern_on_request`), so it passes exactly what a `/mcp` request passes: the SDK's params validation,
the server's pipeline (context, language, state, errors, metrics) and the handler, and its answer carries the
same `_meta`. Errors come back raised, as `MCPError`, for the caller to put in its own format.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

import anyio
from mcp.server.lowlevel.server import Server
from mcp.server.runner import modern_on_request
from mcp.shared.exceptions import NoBackChannelError
from mcp.shared.message import MessageMetadata, ServerMessageMetadata
from mcp.shared.transport_context import TransportContext
from mcp_types import CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY, RequestId
from mcp_types.version import LATEST_MODERN_VERSION

from horologe import __version__
from horologe.wire import meta_of

CLIENT_INFO: Final = {"name": "horologe-direct", "version": __version__}
"""Who is calling, when the entry point cannot say: a REST caller or the command line."""


@dataclass
class DirectExchange:
    """The `DispatchContext` of one request answered in place, with no channel back to its client: server requests
    are refused, notifications (progress among them) dropped. REST, `horologe call` and the HTTP edge's direct
    serving (`horologe.http.direct`) all use it: one hand-written context for the SDK's `serve_one`."""

    transport: TransportContext
    request_id: RequestId
    message_metadata: MessageMetadata = None
    cancel_requested: anyio.Event = field(default_factory=anyio.Event)
    can_send_request: bool = False

    async def send_raw_request(
        self, method: str, params: Mapping[str, Any] | None, opts: object | None = None
    ) -> dict[str, Any]:
        """Refused: there is nobody to answer a server-initiated request."""
        raise NoBackChannelError(method)

    async def notify(self, method: str, params: Mapping[str, Any] | None, opts: object | None = None) -> None:
        """Dropped: the caller gets one answer and nothing beside it."""

    async def progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        """Dropped, like every notification."""


_request_ids = itertools.count(1)


async def dispatch(
    server: Server[Any], method: str, params: Mapping[str, Any], *, kind: str, request: object | None = None
) -> dict[str, Any]:
    """Serve one request through `server`'s pipeline and handler; raises `MCPError` for an error answer.

    `params._meta` may carry what a client would send (language, client context, state); the 2026-07-28 envelope
    keys it lacks are filled in. `request` is the HTTP request behind it, if any.
    """
    meta = dict(meta_of(params) or {})
    meta.setdefault(PROTOCOL_VERSION_META_KEY, LATEST_MODERN_VERSION)
    meta.setdefault(CLIENT_INFO_META_KEY, CLIENT_INFO)
    meta.setdefault(CLIENT_CAPABILITIES_META_KEY, {})
    metadata = ServerMessageMetadata(request_context=request) if request is not None else None
    exchange = DirectExchange(TransportContext(kind=kind, can_send_request=False), next(_request_ids), metadata)
    handle = modern_on_request(server, {})
    return await handle(exchange, method, {**params, "_meta": meta})
