"""One grammar for time in every time argument: words, bare times and a zone said with the time, read the same way by
every tool, and results that say how they read them (fixed clock: Sunday 2026-11-22T03:11:30Z, default zone UTC)."""

from __future__ import annotations

from typing import Any

import pytest
from mcp.client import Client

from tests.calls import error_of, request_meta, structured

pytestmark = pytest.mark.anyio
CHICAGO = request_meta({"io.modelcontextprotocol/clientContext": {"timezone": "America/Chicago"}})


async def test_a_phrase_is_a_timestamp_and_the_result_says_how_it_was_read(client: Client) -> None:
    body = await structured(client, "convert_timezone", {"timestamp": "next Tuesday 4pm", "to_timezone": "Tokyo"})
    assert body["original"]["timestamp"] == "2026-11-24T16:00:00Z"
    assert body["converted"] == {
        "timestamp": "2026-11-25T01:00:00+09:00",
        "timezone": "Asia/Tokyo",
        "day_of_week": "Wednesday",
    }
    read_as = body["original"]["read_as"]
    assert read_as["understood"] == "16:00 on 2026-11-24 (the first Tuesday after today)"
    assert read_as["alternative"]["timestamp"] == "2026-12-01T16:00:00Z"


async def test_a_zone_said_with_the_time_is_the_source_of_every_derived_field(client: Client) -> None:
    body = await structured(client, "convert_timezone", {"timestamp": "9am PST", "to_timezone": "London"})
    assert body["original"]["timezone"] == "America/Los_Angeles"
    assert body["original"]["timestamp"] == "2026-11-21T09:00:00-08:00"  # today in Los Angeles
    assert body["converted"]["timestamp"] == "2026-11-21T17:00:00+00:00"
    assert body["time_difference"] == "+8h"
    assert {reading["input"] for reading in body["timezone_input"]} == {"PST", "London"}
    worded = await structured(client, "convert_timezone", {"timestamp": "3pm New York time", "to_timezone": "UTC"})
    assert worded["original"]["timezone"] == "America/New_York"
    assert worded["converted"]["timestamp"] == "2026-11-21T20:00:00Z"


async def test_a_bare_time_is_today_in_the_zone_the_argument_is_read_in(client: Client) -> None:
    arguments = {"timestamp": "09:00", "from_timezone": "America/New_York", "to_timezone": "UTC"}
    body = await structured(client, "convert_timezone", arguments)
    # 03:11 UTC on the 22nd is still the 21st in New York.
    assert body["original"]["timestamp"] == "2026-11-21T09:00:00-05:00"
    assert body["converted"]["timestamp"] == "2026-11-21T14:00:00Z"


async def test_a_bare_time_with_seconds_reads_as_one_without(client: Client) -> None:
    arguments = {"timestamp": "09:00:00", "from_timezone": "America/New_York", "to_timezone": "UTC"}
    body = await structured(client, "convert_timezone", arguments)
    assert body["original"]["timestamp"] == "2026-11-21T09:00:00-05:00"
    assert body["original"]["read_as"] == {"understood": "09:00 on 2026-11-21"}


async def test_an_offset_in_the_timestamp_is_the_source_not_the_users_zone(client: Client) -> None:
    # The user is in Chicago; the time came from São Paulo (-03:00): Lagos is 4 hours ahead of it, not 7.
    arguments = {"timestamp": "2026-11-23T15:00:00-03:00", "to_timezone": "Africa/Lagos"}
    result = await client.call_tool("convert_timezone", arguments, meta=CHICAGO)
    body: dict[str, Any] = result.structured_content or {}
    assert body["original"] == {"timestamp": "2026-11-23T15:00:00-03:00", "timezone": "-03:00"}
    assert body["converted"]["timestamp"] == "2026-11-23T19:00:00+01:00"
    assert body["time_difference"] == "+4h"


async def test_a_zone_argument_names_the_place_of_a_timestamp_with_an_offset(client: Client) -> None:
    arguments = {"timestamp": "2026-11-23T15:00:00-03:00", "from_timezone": "Sao Paulo", "to_timezone": "UTC"}
    body = await structured(client, "convert_timezone", arguments)
    assert body["original"]["timezone"] == "America/Sao_Paulo" and body["time_difference"] == "+3h"


async def test_equal_offsets_differ_by_zero_hours(client: Client) -> None:
    arguments = {"timestamp": "2026-11-23T12:00", "from_timezone": "Europe/Paris", "to_timezone": "Europe/Berlin"}
    assert (await structured(client, "convert_timezone", arguments))["time_difference"] == "0h"


async def test_a_duration_between_words_in_the_unit_asked(client: Client) -> None:
    arguments = {"start_time": "now", "end_time": "Christmas", "timezone": "Europe/Vienna", "units": "days"}
    body = await structured(client, "calculate_duration", arguments)
    assert body["end"] == "2026-12-25T00:00:00+01:00"
    assert body["duration"]["human_readable"] == "32.8 days"
    assert body["duration"]["days"] == pytest.approx(32.825, abs=1e-3)
    assert "Christmas" in body["end_read_as"]["understood"]
    assert "start_read_as" not in body  # 'now' needs no saying


async def test_a_duration_without_units_is_said_in_its_two_largest_units(client: Client) -> None:
    arguments = {"start_time": "2026-01-01T00:00:00Z", "end_time": "2026-02-05T03:02:40.5Z"}
    body = await structured(client, "calculate_duration", arguments)
    assert body["duration"]["human_readable"] == "1 month and 4 days"


async def test_add_time_answers_the_weekday_of_the_result(client: Client) -> None:
    body = await structured(client, "add_time", {"timestamp": "next Friday 9am", "amount": "45 minutes"})
    assert (body["result"], body["day_of_week"]) == ("2026-11-27T09:45:00Z", "Friday")
    assert body["read_as"]["understood"].startswith("09:00 on 2026-11-27")


async def test_dates_take_words_too(client: Client) -> None:
    info = await structured(client, "date_info", {"date": "next Friday"})
    assert (info["date"], info["day_of_week"]) == ("2026-11-27", "Friday")
    counted = await structured(client, "business_days", {"country": "AT", "end_date": "Christmas Eve"})
    assert counted["end"] == "2026-12-24"
    zone = await structured(client, "get_timezone_info", {"timezone": "Europe/Vienna", "timestamp": "tomorrow noon"})
    assert zone["local_time"] == "2026-11-23T12:00:00+01:00"


async def test_words_nobody_reads_are_refused_with_what_to_write(client: Client) -> None:
    error = await error_of(client, "convert_timezone", {"timestamp": "when pigs fly", "to_timezone": "UTC"})
    assert error["kind"] == "unknown_expression" and error["suggestions"]
    formal = await error_of(client, "convert_timezone", {"timestamp": "2026-13-45", "to_timezone": "UTC"})
    assert formal["kind"] == "invalid_timestamp" and "month must be in 1..12" in formal["message"]


async def test_the_policy_places_a_phrase_in_a_gap_too(client: Client) -> None:
    arguments = {
        "timestamp": "2:30 on the last Sunday of March 2026",
        "from_timezone": "Europe/Vienna",
        "to_timezone": "UTC",
    }
    placed = await structured(client, "convert_timezone", arguments)
    assert placed["original"]["dst"]["dst_gap"] is True
    refused = await error_of(client, "convert_timezone", {**arguments, "disambiguation": "reject"})
    assert refused["kind"] == "nonexistent_local_time"


async def test_a_duration_between_times_said_in_another_zone_is_shown_in_it(client: Client) -> None:
    body = await structured(client, "calculate_duration", {"start_time": "9am PST", "end_time": "5pm PST"})
    assert (body["start"], body["end"]) == ("2026-11-21T09:00:00-08:00", "2026-11-21T17:00:00-08:00")
    assert body["duration"]["hours"] == 8
