"""Every tool, grouped in toolsets, in listing order, and their published JSON Schemas. A new tool goes into a toolset
here (a new toolset's name also into `horologe.config.Toolset`)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any, Final

from horologe.datafiles import read_json
from horologe.tools import calendar, preferences, relative, schedule, time, timers
from horologe.tools.schemas import clean_schema, output_schema
from horologe.tools.spec import ToolSpec

_FAMILIES: Final = (time.TOOLS, relative.TOOLS, calendar.TOOLS, schedule.TOOLS, preferences.TOOLS, timers.TOOLS)
_BY_NAME: Final = {tool.name: tool for family in _FAMILIES for tool in family}


def _named(*names: str) -> tuple[ToolSpec, ...]:
    return tuple(_BY_NAME[name] for name in names)


TOOLSETS: Final[Mapping[str, tuple[ToolSpec, ...]]] = {
    "core": _named(
        "get_current_time",
        "convert_timezone",
        "calculate_duration",
        "format_time",
        "get_timezone_info",
        "list_timezones",
    ),
    "relative": _named("resolve_time_expression"),
    "calendar": _named("add_time", "business_days", "list_holidays", "date_info"),
    "schedule": _named("next_occurrences", "find_meeting_time"),
    "zones": _named("timezone_history"),
    "memory": _named("preferences", "timer"),
}
"""The toolsets, in listing order: one obvious tool per kind of question. `core`, the specification's six tools (now,
conversion, durations, formatting, zone facts, zone listing), is always offered."""
DEFAULT_TOOLSETS: Final[Mapping[str, tuple[str, ...]]] = {
    # The memory tools are opt-in on both: over stdio the user's zone is already this computer's, and every tool
    # listed costs a model tokens on every turn (the default list stays within 1,600 o200k tokens with the
    # specification's six; bench/model_view.py).
    "stdio": ("core", "relative", "calendar"),
    # HTTP keeps nothing of its own: the memory tools only help clients that keep state.
    "http": ("core", "relative", "calendar"),
}
TOOLS: Final[tuple[ToolSpec, ...]] = tuple(tool for tools in TOOLSETS.values() for tool in tools)
TOOLS_BY_NAME: Final[dict[str, ToolSpec]] = {tool.name: tool for tool in TOOLS}
TOOLSET_OF: Final[dict[str, str]] = {tool.name: name for name, tools in TOOLSETS.items() for tool in tools}


def selected_tools(toolsets: Iterable[str], transport: str) -> tuple[ToolSpec, ...]:
    """The tools the named toolsets offer ('default': the transport's; 'all': every one), in listing order.

    `preferences` takes working hours only with `find_meeting_time`: what nothing offered would use is not asked for.
    """
    names = {"core"}
    for name in toolsets:
        if name == "all":
            names |= set(TOOLSETS)
        elif name == "default":
            names |= set(DEFAULT_TOOLSETS.get(transport, DEFAULT_TOOLSETS["http"]))
        else:
            names.add(name)
    offered = tuple(tool for name, tools in TOOLSETS.items() if name in names for tool in tools)
    chosen = preferences.offered(hours="schedule" in names)
    return tuple(chosen if tool.name == "preferences" else tool for tool in offered)


SCHEMAS_FILE: Final = "tool_schemas.json"


@cache
def tool_schemas(spec: ToolSpec) -> tuple[dict[str, Any], dict[str, Any]]:
    """A tool's input and output JSON Schemas (read-only results), as compiled into the package: pydantic generates
    the eleven default tools' in about 0.1 s, which a stdio client's first `tools/list` waited for. A tool the file
    does not hold (a test's) has them generated."""
    compiled = _compiled_schemas().get(schema_key(spec))
    return (compiled[0], compiled[1]) if compiled is not None else generated_schemas(spec)


def generated_schemas(spec: ToolSpec) -> tuple[dict[str, Any], dict[str, Any]]:
    """A tool's input and output JSON Schemas from its models: what scripts/build_tool_schemas.py compiles."""
    return clean_schema(spec.arguments.model_json_schema()), output_schema(spec.result.model_json_schema())


def schema_key(spec: ToolSpec) -> str:
    """Where the compiled file holds a tool's schemas: its name and models (`preferences` has two argument models)."""
    return f"{spec.name} {spec.arguments.__qualname__} {spec.result.__qualname__}"


def every_spec() -> tuple[ToolSpec, ...]:
    """Every tool this server can offer, in each of its forms, each once (`TOOLS` holds one form of `preferences`)."""
    return tuple(dict.fromkeys((*TOOLS, *(preferences.offered(hours=hours) for hours in (False, True)))))


def compiled_schemas() -> str:
    """The compiled file's text (scripts/build_tool_schemas.py writes it): each tool form's key and its [input, output]
    schemas, in listing order, indented so that a change to what a model publishes shows in review."""
    return json.dumps({schema_key(spec): generated_schemas(spec) for spec in every_spec()}, indent=1) + "\n"


def check_schemas() -> None:
    """Read the compiled schemas now, so that a missing or damaged file stops start-up naming it."""
    _compiled_schemas()


@cache
def _compiled_schemas() -> dict[str, list[dict[str, Any]]]:
    held: dict[str, list[dict[str, Any]]] = read_json(SCHEMAS_FILE)
    return held
