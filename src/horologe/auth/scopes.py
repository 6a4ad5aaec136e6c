"""Which MCP operations a request asks for, and which scopes each needs.

The same rules hold on /mcp (JSON-RPC: `params.name` of `tools/call`) and on the REST endpoints (`name` in the
body of /mcp/tools/call). Every protected request needs `required_scopes`; a tool may need more (`tool_scopes`);
`/metrics`, when protected, needs only `metrics_scopes`. A granted scope also grants what it implies.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from horologe.auth.tokens import expand_scopes

# REST path -> the MCP method it performs.
REST_METHODS = {
    "/mcp/tools/call": "tools/call",
    "/mcp/resources/read": "resources/read",
    "/mcp/prompts/get": "prompts/get",
    "/mcp/capabilities": "capabilities",
}


@dataclass(frozen=True, slots=True)
class Operation:
    """One MCP operation: its method ('' when the request carries none, e.g. GET /mcp) and tool, if any."""

    method: str
    tool: str | None = None


def operations(path: str, payload: object) -> list[Operation]:
    """The operations a request performs, read from its path and its parsed JSON body (a batch gives several)."""
    if path in REST_METHODS:
        method = REST_METHODS[path]
        name = payload.get("name") if isinstance(payload, dict) and method == "tools/call" else None
        return [Operation(method, name if isinstance(name, str) else None)]
    messages = payload if isinstance(payload, list) else [payload]
    found = [_jsonrpc_operation(message) for message in messages]
    return found or [Operation("")]


def _jsonrpc_operation(message: object) -> Operation:
    if not isinstance(message, dict) or not isinstance(message.get("method"), str):
        return Operation("")
    method: str = message["method"]
    params: Any = message.get("params")
    name = params.get("name") if method == "tools/call" and isinstance(params, dict) else None
    return Operation(method, name if isinstance(name, str) else None)


@dataclass(frozen=True)
class ScopePolicy:
    """Scopes needed per path and operation, and the scope hierarchy."""

    required: tuple[str, ...]
    per_tool: dict[str, tuple[str, ...]] = field(default_factory=dict)
    implied: dict[str, tuple[str, ...]] = field(default_factory=dict)
    metrics: tuple[str, ...] | None = None
    public: frozenset[str] = frozenset()

    def needed(self, path: str, payload: object) -> tuple[str, ...] | None:
        """Every scope this request needs, in a stable order; None when the path is public."""
        if path == "/metrics":
            return self.metrics
        if path in self.public:
            return None
        scopes = list(self.required)
        for operation in operations(path, payload):
            scopes.extend(self.per_tool.get(operation.tool or "", ()))
        return tuple(dict.fromkeys(scopes))

    def missing(self, needed: Iterable[str], granted: Iterable[str]) -> list[str]:
        """The needed scopes that the granted ones (with what they imply) do not cover."""
        have = expand_scopes(granted, self.implied)
        return [scope for scope in needed if scope not in have]
