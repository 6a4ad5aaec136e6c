"""Every tool, grouped in toolsets, in listing order, and their published JSON Schemas. A new tool family adds its
TOOLS to a toolset here (and the toolset's name to `horologe.config.Toolset`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any, Final

from horologe.tools import calendar, preferences, relative, schedule, time, timers
from horologe.tools.schemas import clean_schema, output_schema
from horologe.tools.spec import ToolSpec

TOOLSETS: Final[Mapping[str, tuple[ToolSpec, ...]]] = {
    "core": time.TOOLS,
    "relative": relative.TOOLS,
    "calendar": calendar.TOOLS,
    "schedule": schedule.TOOLS,
    "memory": (*preferences.TOOLS, *timers.TOOLS),
}
"""The toolsets, in listing order. `core` (the seed's six) is always offered."""
DEFAULT_TOOLSETS: Final[Mapping[str, tuple[str, ...]]] = {
    # stdio serves one user, whose preferences and timers it can keep itself when the client keeps no state.
    "stdio": ("core", "relative", "calendar", "memory"),
    # HTTP keeps nothing of its own: the memory tools only help clients that keep state, so they are opt-in.
    "http": ("core", "relative", "calendar"),
}
TOOLS: Final[tuple[ToolSpec, ...]] = tuple(tool for tools in TOOLSETS.values() for tool in tools)
TOOLS_BY_NAME: Final[dict[str, ToolSpec]] = {tool.name: tool for tool in TOOLS}
TOOLSET_OF: Final[dict[str, str]] = {tool.name: name for name, tools in TOOLSETS.items() for tool in tools}


def selected_tools(toolsets: Iterable[str], transport: str) -> tuple[ToolSpec, ...]:
    """The tools the named toolsets offer ('default': the transport's; 'all': every one), in listing order."""
    names = {"core"}
    for name in toolsets:
        if name == "all":
            names |= set(TOOLSETS)
        elif name == "default":
            names |= set(DEFAULT_TOOLSETS.get(transport, DEFAULT_TOOLSETS["http"]))
        else:
            names.add(name)
    return tuple(tool for name, tools in TOOLSETS.items() if name in names for tool in tools)


@cache
def tool_schemas(spec: ToolSpec) -> tuple[dict[str, Any], dict[str, Any]]:
    """A tool's input and output JSON Schemas, built once: pydantic schema generation is slow (read-only results)."""
    return clean_schema(spec.arguments.model_json_schema()), output_schema(spec.result.model_json_schema())
