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
from horologe.tools.registry import DEFAULT_TOOLSETS, TOOLS_BY_NAME, TOOLSETS, selected_tools, tool_schemas
from horologe.tools.spec import ToolSpec

SURFACES = [(["default"], "stdio"), (["default"], "http"), (["core"], "stdio"), (["core", "calendar"], "http")]
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
        "stdio": ("core", "relative", "calendar", "memory"),
        "http": ("core", "relative", "calendar"),
    }
    assert [spec.name for spec in TOOLSETS["core"]] == [
        "get_current_time",
        "convert_timezone",
        "calculate_duration",
        "get_timezone_info",
    ]
    everyday = {spec.name for spec in selected_tools(["default"], "http")}
    assert everyday == set(TOOL_USES)  # the prompt knows a use for each


def test_preferences_take_what_the_offered_tools_use() -> None:
    def preferences(toolsets: list[str]) -> ToolSpec:
        return next(spec for spec in selected_tools(toolsets, "stdio") if spec.name == "preferences")

    def taken(toolsets: list[str]) -> set[str]:
        return set(tool_schemas(preferences(toolsets))[0]["properties"])

    assert {"working_hours", "format"}.isdisjoint(taken(["default"]))
    assert "meeting" not in preferences(["default"]).description
    assert "working_hours" in taken(["default", "schedule"]) and "format" not in taken(["default", "schedule"])
    assert "format" in taken(["default", "format"]) and "working_hours" not in taken(["default", "format"])
    assert {"working_hours", "format"} <= taken(["all"])
    assert "find_meeting_time" in preferences(["all"]).description


@pytest.mark.parametrize("name", sorted(TOOLS_BY_NAME))
def test_output_schemas_keep_types_and_required_fields_without_prose(name: str) -> None:
    schema = tool_schemas(TOOLS_BY_NAME[name])[1]
    Draft202012Validator.check_schema(schema)
    text = json.dumps(schema)
    assert '"description"' not in text and '"title"' not in text and '"additionalProperties": true' not in text
    assert schema["type"] == "object" and schema["required"]
