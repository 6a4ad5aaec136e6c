"""Which scopes the MCP operations of a request need.

The same rules hold on /mcp (JSON-RPC: `params.name` of `tools/call`) and on the REST endpoints (`name` in the
body of /mcp/tools/call). Every protected request needs `required_scopes`; a tool may need more (`tool_scopes`).
`/metrics`, when protected, has its own policy (`metrics_scopes` only). A granted scope also grants what it implies.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from horologe.http.auth.tokens import expand_scopes
from horologe.http.request import Operation


@dataclass(frozen=True)
class ScopePolicy:
    """Scopes needed per operation on the routes a policy guards, and the scope hierarchy."""

    required: tuple[str, ...]
    per_tool: dict[str, tuple[str, ...]] = field(default_factory=dict)
    implied: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def needed(self, performed: Iterable[Operation]) -> tuple[str, ...]:
        """Every scope a request needs for the operations it performs, in a stable order."""
        scopes = list(self.required)
        for operation in performed:
            scopes.extend(self.per_tool.get(operation.tool or "", ()))
        return tuple(dict.fromkeys(scopes))

    def missing(self, needed: Iterable[str], granted: Iterable[str]) -> list[str]:
        """The needed scopes that the granted ones (with what they imply) do not cover."""
        have = expand_scopes(granted, self.implied)
        return [scope for scope in needed if scope not in have]
