"""Protocol tests through the SDK's in-process client, in both protocol eras."""

from __future__ import annotations

import dataclasses
import json
import threading
from contextlib import AsyncExitStack
from typing import Any

import anyio
import pytest
from jsonschema import Draft202012Validator
from mcp.client import Client
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS, PromptReference, ResourceTemplateReference

from horologe.clock import FixedClock
from horologe.config import Settings, load_settings
from horologe.context import RequestContext
from horologe.protocol.server import build_server
from horologe.tools import registry as catalog
from horologe.wire import SERVER_INFO_META
from tests.calls import error_of, structured
from tests.conftest import CELLS, FIXED_NOW, IN_PROCESS
from tests.fixtures import connect, horologe_server
from tests.protocol.test_language import prefer

pytestmark = pytest.mark.anyio
ERAS = ["legacy", "2026-07-28"]
SIX_TOOLS = {
    "get_current_time",
    "convert_timezone",
    "calculate_duration",
    "format_time",
    "get_timezone_info",
    "list_timezones",
}


async def test_tools_list_offers_the_six_tools_with_titles_annotations_and_schemas(client: Client) -> None:
    listed = await client.list_tools()
    tools = {tool.name: tool for tool in listed.tools}
    assert SIX_TOOLS <= set(tools) == {spec.name for spec in catalog.TOOLS}
    for tool in tools.values():
        spec = catalog.TOOLS_BY_NAME[tool.name]
        assert tool.title
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is spec.read_only
        assert tool.annotations.destructive_hint is spec.destructive
        assert tool.annotations.idempotent_hint is spec.idempotent
        assert tool.annotations.open_world_hint is False
        assert tool.input_schema["type"] == "object"
        assert tool.output_schema is not None and tool.output_schema["type"] == "object"
        Draft202012Validator.check_schema(tool.input_schema)
        Draft202012Validator.check_schema(tool.output_schema)
        assert "anyOf" not in str(tool.input_schema.get("properties", {}).get("timezone", {}))


async def test_get_current_time_reports_the_clock_in_the_default_zone(client: Client) -> None:
    body = await structured(client, "get_current_time", {})
    assert body == {
        "timestamp": "2026-11-22T03:11:30.123Z",
        "timezone": "UTC",
        "abbreviation": "UTC",
        "day_of_week": "Sunday",
    }  # no DST in effect, no format asked: nothing more to say


async def test_get_current_time_in_vienna_is_cet_with_human_text(client: Client) -> None:
    body = await structured(client, "get_current_time", {"timezone": "europe/vienna", "format": "human"})
    assert body["timezone"] == "Europe/Vienna"
    assert body["timestamp"].endswith("+01:00")
    assert body["abbreviation"] == "CET"
    assert body["formatted"] == "Sunday, November 22, 2026 at 4:11 AM CET"


async def test_convert_timezone_answers_the_seed_example(client: Client) -> None:
    body = await structured(
        client,
        "convert_timezone",
        {"timestamp": "2025-08-17T10:30:00Z", "from_timezone": "UTC", "to_timezone": "America/New_York"},
    )
    assert body["original"]["timezone"] == "UTC"
    assert body["converted"]["timestamp"] == "2025-08-17T06:30:00-04:00"
    assert body["converted"]["timezone"] == "America/New_York"
    assert body["time_difference"] == "-4h"


async def test_convert_timezone_reports_a_fold_with_both_candidates(client: Client) -> None:
    body = await structured(
        client,
        "convert_timezone",
        {"timestamp": "2026-11-01T01:30:00", "from_timezone": "America/New_York", "to_timezone": "UTC"},
    )
    dst = body["original"]["dst"]
    assert dst["ambiguous"] is True and dst["dst_gap"] is False
    assert dst["candidates"] == ["2026-11-01T01:30:00-04:00", "2026-11-01T01:30:00-05:00"]
    assert body["converted"]["timestamp"] == "2026-11-01T05:30:00Z"


async def test_convert_timezone_later_policy_takes_the_second_occurrence(client: Client) -> None:
    body = await structured(
        client,
        "convert_timezone",
        {
            "timestamp": "2026-11-01T01:30:00",
            "from_timezone": "America/New_York",
            "to_timezone": "UTC",
            "disambiguation": "later",
        },
    )
    assert body["converted"]["timestamp"] == "2026-11-01T06:30:00Z"


async def test_convert_timezone_reports_a_gap_and_moves_forward(client: Client) -> None:
    body = await structured(
        client,
        "convert_timezone",
        {"timestamp": "2026-03-29 02:30", "from_timezone": "Europe/Vienna", "to_timezone": "UTC"},
    )
    assert body["original"]["dst"]["dst_gap"] is True
    assert body["original"]["timestamp"] == "2026-03-29T03:30:00+02:00"
    assert body["converted"]["timestamp"] == "2026-03-29T01:30:00Z"


async def test_convert_timezone_reject_policy_is_a_conversion_error(client: Client) -> None:
    error = await error_of(
        client,
        "convert_timezone",
        {
            "timestamp": "2026-03-29T02:30:00",
            "from_timezone": "Europe/Vienna",
            "to_timezone": "UTC",
            "disambiguation": "reject",
        },
    )
    assert error["code"] == -32002
    assert error["kind"] == "nonexistent_local_time"


async def test_calculate_duration_answers_the_seed_example(client: Client) -> None:
    body = await structured(
        client,
        "calculate_duration",
        {"start_time": "2025-08-17T10:30:00Z", "end_time": "2025-08-17T11:30:00Z", "units": "hours"},
    )
    duration = body["duration"]
    assert duration["total_seconds"] == 3600
    assert duration["hours"] == 1
    assert duration["minutes"] == 60
    assert duration["human_readable"] == "1 hour"
    assert "negative" not in duration  # said only when the end is first


async def test_calculate_duration_marks_negative_durations(client: Client) -> None:
    body = await structured(
        client, "calculate_duration", {"start_time": "2025-08-17T11:30:00Z", "end_time": "2025-08-17T10:00:00Z"}
    )
    assert body["duration"]["negative"] is True
    assert body["duration"]["total_seconds"] == -5400


async def test_format_time_writes_every_standard(client: Client) -> None:
    expected = {
        "iso8601": "2025-08-17T12:30:00+02:00",
        "rfc3339": "2025-08-17T12:30:00+02:00",
        "rfc2822": "Sun, 17 Aug 2025 12:30:00 +0200",
        "http": "Sun, 17 Aug 2025 10:30:00 GMT",
        "unix": 1755426600,
        "unix_ms": 1755426600000,
    }
    for fmt, want in expected.items():
        body = await structured(
            client, "format_time", {"timestamp": "2025-08-17T10:30:00Z", "format": fmt, "timezone": "Europe/Vienna"}
        )
        assert body["formatted"] == want, fmt


async def test_get_timezone_info_describes_vienna_and_its_next_transition(client: Client) -> None:
    body = await structured(client, "get_timezone_info", {"timezone": "Europe/Vienna"})
    assert body["local_time"] == "2026-11-22T04:11:30.123+01:00"
    assert body["dst_active"] is False
    assert body["abbreviation"] == "CET"
    assert body["country_codes"] == ["AT"]
    assert body["next_transition"] == {
        "before": "2027-03-28T02:00:00+01:00",
        "after": "2027-03-28T03:00:00+02:00",
        "abbreviation": "CEST",
        "dst": True,
    }
    assert body["previous_transition"]["after"] == "2026-10-25T02:00:00+01:00"


async def test_get_timezone_info_names_the_canonical_zone_of_an_alias(client: Client) -> None:
    body = await structured(
        client, "get_timezone_info", {"timezone": "US/Eastern", "timestamp": "2026-07-01T12:00:00Z"}
    )
    assert body["timezone"] == "America/New_York"  # a legacy name is answered by its zone's current name
    assert body.get("canonical", body["timezone"]) == "America/New_York"  # said apart only when it differs
    assert body["dst_active"] is True
    assert body["abbreviation"] == "EDT"


async def test_list_timezones_filters_by_country_region_and_query(client: Client) -> None:
    austria = await structured(client, "list_timezones", {"country": "AT"})
    assert [zone["name"] for zone in austria["timezones"]] == ["Europe/Vienna"]
    by_name = await structured(client, "list_timezones", {"country": "Austria"})
    assert by_name["total"] == 1
    york = await structured(client, "list_timezones", {"query": "york"})
    assert "America/New_York" in [zone["name"] for zone in york["timezones"]]
    europe = await structured(client, "list_timezones", {"region": "europe", "limit": 5})
    assert len(europe["timezones"]) == 5 and europe["truncated"] is True
    assert all(zone["name"].startswith("Europe/") for zone in europe["timezones"])


@pytest.mark.wire("errors")
async def test_unknown_timezone_is_an_error_with_suggestions(wire_client: Client) -> None:
    error = await error_of(wire_client, "get_current_time", {"timezone": "Europe/Viena"})
    assert error["code"] == -32000
    assert "Europe/Vienna" in error["suggestions"]


async def test_ambiguous_abbreviation_lists_the_candidates(client: Client) -> None:
    error = await error_of(client, "get_current_time", {"timezone": "IST"})
    assert error["code"] == -32000
    assert "Asia/Kolkata" in error["suggestions"]


@pytest.mark.parametrize(
    "timestamp", ["", "   ", "yesterday-ish", "0000-01-01T00:00:00Z", "10000-01-01T00:00:00Z", "x" * 5000, "2025-02-30"]
)
async def test_bad_timestamps_are_invalid_timestamp_errors(client: Client, timestamp: str) -> None:
    error = await error_of(client, "format_time", {"timestamp": timestamp, "format": "iso8601"})
    assert error["code"] in (-32001, -32602)


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("get_current_time", {"timezone": 5}),
        ("get_current_time", {"timezone": ""}),
        ("get_current_time", {"timezone": "x" * 300}),
        ("get_current_time", {"format": "klingon"}),
        ("get_current_time", {"tz": "UTC"}),
        ("get_current_time", {"format": "custom"}),
        ("get_current_time", {"format": "custom", "custom_format": "%Q"}),
        ("convert_timezone", {"timestamp": "2025-01-01T00:00:00Z"}),
        ("convert_timezone", {"timestamp": ["a"], "to_timezone": "UTC"}),
        ("convert_timezone", {"timestamp": "2025-01-01T00:00:00Z", "to_timezone": "UTC", "disambiguation": "maybe"}),
        ("calculate_duration", {"start_time": "2025-01-01T00:00:00Z"}),
        ("calculate_duration", {"start_time": True, "end_time": "2025-01-01T00:00:00Z"}),
        ("format_time", {"timestamp": "2025-01-01T00:00:00Z", "format": "custom", "custom_format": "%"}),
        ("get_timezone_info", {}),
        ("get_timezone_info", {"timezone": None}),
        ("list_timezones", {"limit": 0}),
        ("list_timezones", {"limit": "ten"}),
    ],
)
async def test_bad_arguments_are_tool_errors_that_name_the_problem(
    client: Client, name: str, arguments: dict[str, Any]
) -> None:
    error = await error_of(client, name, arguments)
    assert error["code"] in (-32000, -32001, -32602)
    assert error["kind"]


@pytest.mark.wire("errors")
async def test_unknown_tool_is_a_protocol_error(wire_client: Client) -> None:
    with pytest.raises(MCPError) as raised:
        await wire_client.call_tool("get_weather", {})
    assert raised.value.error.code == INVALID_PARAMS


async def test_a_mistyped_tool_name_is_answered_with_the_tool_meant_in_the_callers_language(client: Client) -> None:
    with pytest.raises(MCPError) as raised:
        await client.call_tool("get_curent_time", {})
    assert raised.value.error.message.endswith("Did you mean get_current_time?")
    with pytest.raises(MCPError) as translated:
        await client.call_tool("get_curent_time", {}, meta=prefer("de"))
    assert translated.value.error.message.endswith("Meinten Sie get_current_time?")


async def test_a_tool_outside_the_offered_toolsets_names_its_toolset() -> None:
    settings = load_settings(overrides={"capabilities": {"toolsets": ["core"]}})
    server = build_server(settings, FixedClock(FIXED_NOW))
    async with AsyncExitStack() as stack:
        client = await connect(server, settings, IN_PROCESS, stack)
        listed = {tool.name for tool in (await client.list_tools()).tools}
        assert listed == {spec.name for spec in catalog.TOOLSETS["core"]}
        with pytest.raises(MCPError) as raised:
            await client.call_tool("find_meeting_time", {})
    assert raised.value.error.code == INVALID_PARAMS
    assert "toolset 'schedule'" in raised.value.error.message and "--toolsets" in raised.value.error.message
    assert "get_current_time" in raised.value.error.message


def test_the_state_keeping_tools_say_they_change_things() -> None:
    preferences, timer = catalog.TOOLS_BY_NAME["preferences"], catalog.TOOLS_BY_NAME["timer"]
    assert (preferences.read_only, preferences.destructive, preferences.idempotent) == (False, True, True)
    assert (timer.read_only, timer.destructive, timer.idempotent) == (False, True, False)


@pytest.mark.wire("errors")
@pytest.mark.parametrize("cell", CELLS)
async def test_a_bug_becomes_a_generic_internal_error(
    cell: str, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(*args: object) -> dict[str, Any]:
        raise RuntimeError("secret internals")

    core = tuple(
        dataclasses.replace(spec, run=explode) if spec.name == "get_current_time" else spec
        for spec in catalog.TOOLSETS["core"]
    )
    monkeypatch.setitem(catalog.TOOLSETS, "core", core)  # a bug planted on purpose
    async with AsyncExitStack() as stack:
        client = await connect(build_server(settings, FixedClock(FIXED_NOW)), settings, cell, stack)
        with pytest.raises(MCPError) as raised:
            await client.call_tool("get_current_time", {})
    assert raised.value.error.code == INTERNAL_ERROR
    assert "secret" not in raised.value.error.message


async def test_resources_list_and_read_the_database_and_formats(client: Client) -> None:
    listed = await client.list_resources()
    uris = {str(resource.uri) for resource in listed.resources}
    assert uris == {"horologe://timezone_database", "horologe://time_formats"}
    database = await client.read_resource("horologe://timezone_database")
    text = database.contents[0].text  # type: ignore[union-attr]
    assert '"Europe/Vienna"' in text and '"US/Eastern": "America/New_York"' in text
    formats = await client.read_resource("horologe://time_formats")
    markdown = formats.contents[0].text  # type: ignore[union-attr]
    assert "RFC 2822" in markdown and "de_AT" in markdown and "%Y" in markdown


async def test_zone_template_reads_transitions_for_a_range_of_years(client: Client) -> None:
    templates = await client.list_resource_templates()
    assert [t.uri_template for t in templates.resource_templates] == ["timezone://{zone}{?from,to}"]
    read = await client.read_resource("timezone://Europe/Vienna?from=2025&to=2026")
    text = read.contents[0].text  # type: ignore[union-attr]
    assert "2025-03-30T03:00:00+02:00" in text and "2026-10-25T02:00:00+01:00" in text


@pytest.mark.parametrize("zone", ["America/New_York", "Pacific/Kiritimati", "Etc/GMT+12"])
@pytest.mark.parametrize("years", ["from=1&to=2", "from=9997&to=9998"])
async def test_zone_template_reads_the_first_and_last_years_of_the_calendar(
    client: Client, zone: str, years: str
) -> None:
    read = await client.read_resource(f"timezone://{zone}?{years}")
    body = json.loads(read.contents[0].text)  # type: ignore[union-attr]
    assert body["timezone"] == zone and body["years"] == [int(part.split("=")[1]) for part in years.split("&")]


@pytest.mark.parametrize("zone", ["America/New_York", "Pacific/Kiritimati"])
async def test_a_range_from_the_last_year_without_its_end_is_that_year_alone(client: Client, zone: str) -> None:
    read = await client.read_resource(f"timezone://{zone}?from=9998")  # "and next" would pass the calendar's end
    body = json.loads(read.contents[0].text)  # type: ignore[union-attr]
    assert body["years"] == [9998, 9998]


@pytest.mark.wire("errors")
async def test_unknown_resource_is_invalid_params(wire_client: Client) -> None:
    with pytest.raises(MCPError) as raised:
        await wire_client.read_resource("file:///etc/passwd")
    assert raised.value.error.code == INVALID_PARAMS


async def test_prompt_renders_the_question_with_the_current_context(client: Client) -> None:
    listed = await client.list_prompts()
    assert [prompt.name for prompt in listed.prompts] == ["time_query_assistant"]
    prompt = await client.get_prompt(
        "time_query_assistant", {"user_query": "When is noon in Tokyo?", "timezone": "Vienna"}
    )
    text = prompt.messages[0].content.text  # type: ignore[union-attr]
    assert "When is noon in Tokyo?" in text and "Europe/Vienna" in text


async def test_prompt_without_its_required_argument_is_an_error(client: Client) -> None:
    with pytest.raises(MCPError) as raised:
        await client.get_prompt("time_query_assistant", {})
    assert raised.value.error.code == INVALID_PARAMS


async def test_unknown_prompt_is_invalid_params(client: Client) -> None:
    with pytest.raises(MCPError) as raised:
        await client.get_prompt("nope", {})
    assert raised.value.error.code == INVALID_PARAMS


async def test_completion_suggests_timezones_for_prompt_and_template(client: Client) -> None:
    prompt = await client.complete(
        PromptReference(name="time_query_assistant"), {"name": "timezone", "value": "Europe/Vi"}
    )
    assert "Europe/Vienna" in prompt.completion.values
    template = await client.complete(
        ResourceTemplateReference(uri="timezone://{zone}{?from,to}"), {"name": "zone", "value": "america/new"}
    )
    assert "America/New_York" in template.completion.values
    other = await client.complete(PromptReference(name="time_query_assistant"), {"name": "user_query", "value": "x"})
    assert other.completion.values == []


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("format_time", {"timestamp": "9999-12-31T12:00:00Z", "timezone": "Pacific/Kiritimati", "format": "iso8601"}),
        ("convert_timezone", {"timestamp": "0001-01-01T00:00:00Z", "to_timezone": "America/New_York"}),
        ("resolve_time_expression", {"expression": "tomorrow", "reference_time": "9999-12-31T12:00:00Z"}),
        ("add_time", {"timestamp": "2026-01-01T00:00:00Z", "amount": "P" + "9" * 30 + "D"}),
    ],
)
async def test_a_result_off_years_1_to_9999_is_a_tool_error_saying_so(
    client: Client, tool: str, arguments: dict[str, Any]
) -> None:
    error = await error_of(client, tool, arguments)
    assert error["code"] in (-32001, -32602)
    assert "1-9999" in error["message"] or "9999" in error["message"], error


async def test_an_argument_error_lists_at_most_ten_problems(client: Client) -> None:
    junk = {f"junk{n}": n for n in range(5000)}
    error = await error_of(client, "get_current_time", junk)
    assert error["message"].count("unknown argument") == 10
    assert "and 4990 more" in error["message"] and len(error["message"]) < 1000


@pytest.mark.wire("cancellation")
@pytest.mark.parametrize("cell", CELLS)
async def test_a_call_the_client_abandons_stops_its_work_and_the_connection_keeps_serving(
    cell: str, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    started, stopped, released = threading.Event(), threading.Event(), threading.Event()

    def endless(arguments: object, context: RequestContext, options: object) -> dict[str, Any]:
        started.set()
        try:
            while not released.is_set():  # a long computation that checks its budget, as every loop of ours does
                context.budget.spend()
            return {}
        finally:
            stopped.set()

    core = tuple(
        dataclasses.replace(spec, run=endless) if spec.name == "get_timezone_info" else spec
        for spec in catalog.TOOLSETS["core"]
    )
    monkeypatch.setitem(catalog.TOOLSETS, "core", core)
    patient = settings.model_copy(update={"execution": settings.execution.model_copy(update={"budget_seconds": 120})})
    async with AsyncExitStack() as stack:
        stack.callback(released.set)  # whatever the outcome, no thread of this test outlives it
        client = await connect(horologe_server(patient), patient, cell, stack)
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(client.call_tool, "get_timezone_info", {"timezone": "UTC"})
            assert await anyio.to_thread.run_sync(started.wait, 30)
            tasks.cancel_scope.cancel()
        # Far less than the budget: the cancellation, not the budget, ends the work.
        assert await anyio.to_thread.run_sync(stopped.wait, 10), "the abandoned call is still computing"
        after = await structured(client, "get_current_time", {})
    assert after["timezone"] == "UTC"


async def test_a_tool_result_carries_the_servers_own_stamp_in_the_2026_era(client: Client) -> None:
    # The handler stamps tool results itself (the SDK would deep-copy the stamp into each): the same identity the SDK
    # stamps on every other 2026-07-28 result, and a fresh `_meta` each time.
    first = await client.call_tool("get_current_time", {})
    second = await client.call_tool("get_current_time", {"timezone": "Asia/Tokyo"})
    listed = await client.list_tools()
    assert first.meta is not None and second.meta is not None and listed.meta is not None
    assert first.meta[SERVER_INFO_META] == listed.meta[SERVER_INFO_META] == second.meta[SERVER_INFO_META]
    assert first.meta[SERVER_INFO_META]["name"] == "horologe"
