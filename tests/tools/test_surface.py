"""The surface a model meets: each default list promises only what it offers, one tool per kind of question, and
output schemas that keep what a client validates without prose."""

from __future__ import annotations

import json
import re

import pytest
from jsonschema import Draft202012Validator

from horologe.config import load_settings
from horologe.protocol.listing import tool_definition
from horologe.protocol.prompts import TOOL_USES
from horologe.protocol.server import default_zone_from, instructions
from horologe.tools import preferences
from horologe.tools.registry import DEFAULT_TOOLSETS, TOOLS_BY_NAME, TOOLSETS, selected_tools, tool_schemas
from horologe.tools.spec import ToolSpec
from tests.samples import SAMPLES

SURFACES = [(["default"], "stdio"), (["default"], "http"), (["core"], "stdio"), (["core", "calendar"], "http")]
WORDS_OR_SECONDS = [{"type": "string", "maxLength": 200}, {"type": "number"}]
NAMES = re.compile("|".join(sorted(TOOLS_BY_NAME, key=len, reverse=True)))


@pytest.mark.parametrize(("toolsets", "transport"), SURFACES)
def test_a_surface_mentions_only_the_tools_it_offers(toolsets: list[str], transport: str) -> None:
    offered = {spec.name for spec in selected_tools(toolsets, transport)}
    settings = load_settings(overrides={"server": {"transport": transport}, "time": {"default_timezone": "UTC"}})
    texts = [instructions(default_zone_from(settings), settings)]
    texts += [tool_definition(spec)["description"] for spec in selected_tools(toolsets, transport)]
    texts += [json.dumps(tool_schemas(spec)[0]) for spec in selected_tools(toolsets, transport)]
    mentioned = {name for text in texts for name in NAMES.findall(text)}
    assert mentioned <= offered


def test_the_default_surfaces_are_the_everyday_toolsets() -> None:
    assert DEFAULT_TOOLSETS == {
        "stdio": ("core", "relative", "calendar"),
        "http": ("core", "relative", "calendar"),
    }
    # The specification's six tools (seed 002), always offered.
    assert [spec.name for spec in TOOLSETS["core"]] == [
        "get_current_time",
        "convert_timezone",
        "calculate_duration",
        "format_time",
        "get_timezone_info",
        "list_timezones",
    ]
    for transport in ("stdio", "http"):
        everyday = {spec.name for spec in selected_tools(["default"], transport)}
        assert everyday == set(TOOL_USES)  # the prompt knows a use for each
        assert {spec.name for spec in selected_tools(["core"], transport)} == {spec.name for spec in TOOLSETS["core"]}


def test_preferences_take_what_the_offered_tools_use() -> None:
    def preferences(toolsets: list[str]) -> ToolSpec:
        return next(spec for spec in selected_tools(toolsets, "stdio") if spec.name == "preferences")

    def taken(toolsets: list[str]) -> set[str]:
        return set(tool_schemas(preferences(toolsets))[0]["properties"])

    assert "format" in taken(["memory"]) and "working_hours" not in taken(["memory"])
    assert "meeting" not in preferences(["memory"]).description
    assert {"working_hours", "format"} <= taken(["memory", "schedule"]) == taken(["all"])
    assert "find_meeting_time" in preferences(["all"]).description


@pytest.mark.parametrize("name", sorted(TOOLS_BY_NAME))
def test_output_schemas_keep_types_and_required_fields_without_prose(name: str) -> None:
    schema = tool_schemas(TOOLS_BY_NAME[name])[1]
    Draft202012Validator.check_schema(schema)
    text = json.dumps(schema)
    assert '"description"' not in text and '"title"' not in text and '"additionalProperties": true' not in text
    assert schema["type"] == "object" and schema["required"]


# The MCP Inspector's schema portability check (modelcontextprotocol/inspector, core/json/schemaLint.ts, #1005 and
# #2286) flags four legal JSON Schema constructs that some MCP clients refuse or mishandle. The walk below visits
# the same subschema positions it does.
_SUBSCHEMA: tuple[str, ...] = ("items", "contains", "not", "propertyNames", "if", "then", "else", "contentSchema")
_SUBSCHEMA += ("additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems")
_SUBSCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SUBSCHEMA_MAPS = ("properties", "patternProperties", "dependentSchemas", "dependencies", "$defs", "definitions")
_BOOLEAN_ALLOWED = frozenset({"additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems"})
_ANNOTATIONS = frozenset({"title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly"})
_ANNOTATIONS |= {"$comment", "$defs", "definitions", "$id", "$schema", "$anchor", "$vocabulary", "if", "then", "else"}


def unportable(node: object, path: str, keyword: str | None = None) -> list[str]:
    """Where a schema uses a construct the Inspector's portability check flags: a `type` list, a bare boolean
    schema (outside the keywords made for one), a schema that constrains nothing, a `$ref` outside the document."""
    if isinstance(node, bool):
        return [] if keyword in _BOOLEAN_ALLOWED else [f"{path}: bare {node} as a schema"]
    if not isinstance(node, dict):
        return []
    found = []
    if isinstance(node.get("type"), list):
        found.append(f"{path}: type list {node['type']}")
    if isinstance(node.get("$ref"), str) and not node["$ref"].startswith("#"):
        found.append(f"{path}: remote $ref")
    conditional = "if" in node and ("then" in node or "else" in node)
    if keyword != "not" and not conditional and set(node) <= _ANNOTATIONS:
        found.append(f"{path}: constrains nothing")
    for key in _SUBSCHEMA_MAPS:
        for name, child in (node.get(key) or {}).items():
            found += unportable(child, f"{path}.{key}.{name}", key)
    for key in _SUBSCHEMA_LISTS:
        for index, child in enumerate(node.get(key) or []):
            found += unportable(child, f"{path}.{key}[{index}]", key)
    for key in _SUBSCHEMA:
        if key in node:
            children = node[key] if key == "items" and isinstance(node[key], list) else [node[key]]
            for child in children:
                found += unportable(child, f"{path}.{key}", key)
    return found


def every_published_tool() -> list[ToolSpec]:
    """Every tool as some surface lists it (`preferences` takes different arguments with different toolsets)."""
    variants = [preferences.offered(hours=hours) for hours in (False, True)]
    return [*TOOLS_BY_NAME.values(), *variants]


def test_the_unportable_walk_finds_what_the_inspector_flags() -> None:
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "a": {"type": ["string", "null"]},
            "b": True,
            "c": {"description": "x"},
            "d": {"$ref": "x.json"},
        },
    }
    assert unportable(schema, "s") == [
        "s.properties.a: type list ['string', 'null']",
        "s.properties.b: bare True as a schema",
        "s.properties.c: constrains nothing",
        "s.properties.d: remote $ref",
    ]


@pytest.mark.parametrize("spec", every_published_tool(), ids=lambda spec: spec.name)
def test_every_schema_passes_the_inspectors_portability_check(spec: ToolSpec) -> None:
    input_schema, output_schema = tool_schemas(spec)
    assert unportable(input_schema, "inputSchema") + unportable(output_schema, "outputSchema") == []


@pytest.mark.parametrize("name", sorted(TOOLS_BY_NAME))
def test_portable_schemas_still_take_unix_seconds_and_refuse_booleans(name: str) -> None:
    """`anyOf` of single types validates what the `type` list did: a time is words or Unix seconds, never true."""
    validator = Draft202012Validator(tool_schemas(TOOLS_BY_NAME[name])[0])
    for arguments in SAMPLES[name]:
        validator.validate(arguments)
    times = {
        field for field, schema in validator.schema["properties"].items() if schema.get("anyOf") == WORDS_OR_SECONDS
    }
    for field in times:
        base = {**SAMPLES[name][0], field: 1767225600}
        assert validator.is_valid(base), field
        assert not validator.is_valid({**base, field: True}), field


def test_times_are_published_as_words_or_unix_seconds() -> None:
    unions = [
        f"{name}.{field}"
        for name, spec in TOOLS_BY_NAME.items()
        for field, schema in tool_schemas(spec)[0]["properties"].items()
        if schema.get("anyOf") == WORDS_OR_SECONDS
    ]
    assert {"convert_timezone.timestamp", "calculate_duration.start_time", "date_info.date"} <= set(unions)
