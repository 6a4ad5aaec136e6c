"""What the HTTP edge tells the protocol layer about a tool call, read from the request it arrived in.

The protocol layer never reads the ASGI scope: `horologe.http.app` hands this function to `build_server`, as it
hands its language observer. (Who made a request, for a cancellation, is the edge's own business:
`horologe.http.cancel`.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from mcp.server.context import ServerRequestContext

BATCH_DEADLINE_KEY: Final = "horologe.batch_deadline"
"""Where an HTTP batch leaves, in each message's scope state, when its shared tool budget ends (monotonic clock)."""


def batch_deadline(ctx: ServerRequestContext[Any, Any]) -> float | None:
    """When the tool budget of the HTTP batch this request belongs to ends, if it belongs to one."""
    scope = getattr(ctx.request, "scope", None)
    state = scope.get("state") if isinstance(scope, Mapping) else None
    ends = state.get(BATCH_DEADLINE_KEY) if isinstance(state, Mapping) else None
    return ends if isinstance(ends, float) else None
