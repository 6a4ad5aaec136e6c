"""What the HTTP edge tells the protocol layer about a tool call, read from the request it arrived in.

The protocol layer never reads the ASGI scope: `horologe.http.app` hands these two functions to `build_server`,
as it hands its language observer.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any, Final

import mcp_types as types
from mcp.server.context import ServerRequestContext

BATCH_DEADLINE_KEY: Final = "horologe.batch_deadline"
"""Where an HTTP batch leaves, in each message's scope state, when its shared tool budget ends (monotonic clock)."""


def batch_deadline(ctx: ServerRequestContext[Any, Any]) -> float | None:
    """When the tool budget of the HTTP batch this request belongs to ends, if it belongs to one."""
    scope = getattr(ctx.request, "scope", None)
    state = scope.get("state") if isinstance(scope, Mapping) else None
    ends = state.get(BATCH_DEADLINE_KEY) if isinstance(state, Mapping) else None
    return ends if isinstance(ends, float) else None


def caller_key(ctx: ServerRequestContext[Any, Any], request_id: types.RequestId | None) -> tuple[object, ...] | None:
    """Who made an HTTP request, as far as a later cancellation can tell: the peer address, a digest of its
    credentials and its session (if any), with the request id. None when the request came another way.

    Anonymous callers behind one address share ids: one of them can stop another's call with a guessed id, no
    more than it could by using the server itself; with tokens, only the token's holder can.
    """
    scope = getattr(ctx.request, "scope", None)
    if request_id is None or not isinstance(scope, Mapping) or scope.get("type") != "http":
        return None
    headers = dict(scope.get("headers") or ())
    credentials = hashlib.sha256(headers.get(b"authorization", b"")).digest()
    client = scope.get("client")
    peer = client[0] if isinstance(client, tuple | list) and client else None
    return (peer, credentials, headers.get(b"mcp-session-id"), request_id)
