"""Typed zones through the tools: places, the abbreviation rule in both seasons, and `timezone_input` saying how
each was read (the fixed clock of the `client` fixture is 2026-11-22T03:11:30Z, winter in the north)."""

from __future__ import annotations

import json

import pytest
from mcp.client import Client

from horologe.tools.registry import TOOLS, tool_schemas
from tests.calls import error_of, structured


@pytest.mark.anyio
async def test_a_city_name_is_read_as_its_zone_and_the_result_says_so(client: Client) -> None:
    body = await structured(client, "get_current_time", {"timezone": "Mumbai"})
    assert (body["timezone"], body["utc_offset"]) == ("Asia/Kolkata", "+05:30")
    assert body["timezone_input"] == [
        {"input": "Mumbai", "timezone": "Asia/Kolkata", "read_as": "city", "place": "Mumbai, IN"}
    ]


@pytest.mark.anyio
async def test_an_iana_name_needs_no_reading(client: Client) -> None:
    body = await structured(client, "get_current_time", {"timezone": "Europe/Vienna"})
    assert "timezone_input" not in body


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("timestamp", "offset", "abbreviation"),
    [("2026-01-15T12:00:00Z", "-05:00", "EST"), ("2026-07-15T12:00:00Z", "-04:00", "EDT")],
)
async def test_est_is_new_yorks_clock_in_winter_and_summer_and_the_reading_is_named(
    client: Client, timestamp: str, offset: str, abbreviation: str
) -> None:
    body = await structured(client, "convert_timezone", {"timestamp": timestamp, "to_timezone": "EST"})
    converted = body["converted"]
    assert (converted["timezone"], converted["utc_offset"], converted["abbreviation"]) == (
        "America/New_York",
        offset,
        abbreviation,
    )
    assert body["timezone_input"] == [{"input": "EST", "timezone": "America/New_York", "read_as": "abbreviation"}]


@pytest.mark.anyio
async def test_two_typed_zones_are_both_reported(client: Client) -> None:
    body = await structured(
        client,
        "convert_timezone",
        {"timestamp": "2026-07-15T09:00:00", "from_timezone": "München", "to_timezone": "San Francisco"},
    )
    assert body["time_difference"] == "-9h"
    assert [(r["input"], r["timezone"]) for r in body["timezone_input"]] == [
        ("München", "Europe/Berlin"),
        ("San Francisco", "America/Los_Angeles"),
    ]


@pytest.mark.anyio
async def test_an_unknown_name_is_answered_with_close_places_and_their_offsets(client: Client) -> None:
    error = await error_of(client, "get_current_time", {"timezone": "Bejjing"})
    assert "Did you mean 'Beijing, CN' (Asia/Shanghai, UTC+08:00)?" in error["message"]
    assert error["suggestions"] == ["Asia/Shanghai"]


@pytest.mark.anyio
async def test_an_ambiguous_city_is_answered_with_its_candidates(client: Client) -> None:
    error = await error_of(client, "get_current_time", {"timezone": "Springfield"})
    assert "'Springfield, US' (America/Chicago, UTC-06:00)" in error["message"]
    assert error["suggestions"] == ["America/Chicago", "America/New_York"]


def test_every_tool_that_takes_a_zone_declares_timezone_input_in_its_output_schema() -> None:
    for spec in TOOLS:
        takes_zone = "timezone" in json.dumps(tool_schemas(spec)[0].get("properties", {}))
        declared = "timezone_input" in tool_schemas(spec)[1].get("properties", {})
        assert takes_zone == declared, spec.name
