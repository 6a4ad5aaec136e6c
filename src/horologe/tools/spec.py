"""What a tool is: its wire identity, argument and result models, and its implementation."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from horologe.context import RequestContext
from horologe.core.format import OutputFormat

if TYPE_CHECKING:  # the models load with the tools, not with what only needs `ToolOptions` (start-up, issue 38)
    from pydantic import BaseModel

    from horologe.tools.schemas import Arguments


@dataclass(frozen=True, slots=True)
class ToolOptions:
    """Server-wide options the tools honour (from settings)."""

    supported_formats: tuple[OutputFormat, ...]
    precision: str


Run = Callable[[Any, RequestContext, ToolOptions], dict[str, Any]]
"""A tool's implementation: validated arguments, the request's context and the options in; the result out."""
Bounded = Callable[[Mapping[str, Any], RequestContext], bool]
"""Whether a call with these raw arguments takes only paths whose cost no argument can raise (exact zone keys,
ISO timestamps, no locale data): such a call runs on the event loop, without the hop to a worker thread."""


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool: its wire identity, argument model, result model, implementation and behaviour hints.

    The hints are MCP's tool annotations: a tool that only reads is `read_only`; one that may delete what the user
    kept is `destructive`; one whose repeated calls with the same arguments change nothing more is `idempotent`.
    `bounded`, when the tool has one, picks the calls cheap by construction (see `Bounded`).
    """

    name: str
    title: str
    description: str
    arguments: type[Arguments]
    result: type[BaseModel]
    run: Run
    read_only: bool = True
    destructive: bool = False
    idempotent: bool = True
    bounded: Bounded | None = None

    def call(self, arguments: Any, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
        """Run the tool; how a typed zone was read, when not by its own name, comes back as `timezone_input`."""
        result = self.run(arguments, ctx, options)
        if ctx.zone_readings:
            result["timezone_input"] = list(ctx.zone_readings)
        return result
