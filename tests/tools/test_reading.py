"""One grammar for time in every time argument: words, bare times and a zone said with the time, read the same way by
every tool, and results that say how they read them (fixed clock: Sunday 2026-11-22T03:11:30Z, default zone UTC)."""

from __future__ import annotations

from typing import Any

import pytest
from mcp.client import Client

from horologe.core.zones import resolve_zone
from horologe.tools import reading
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
        "abbreviation": "JST",
        "dst_active": False,
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
    assert body["original"] == {
        "timestamp": "2026-11-23T15:00:00-03:00",
        "timezone": "-03:00",
        "day_of_week": "Monday",
        "dst_active": False,
    }
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
    assert body["duration"]["elapsed_days"] == pytest.approx(32.825, abs=1e-3)
    assert body["duration"]["calendar_days"] == 33
    assert "Christmas" in body["end_read_as"]["understood"]
    assert "start_read_as" not in body  # 'now' needs no saying


async def test_a_duration_without_units_is_said_in_its_three_largest_parts_never_rounded_up(client: Client) -> None:
    arguments = {"start_time": "2026-01-01T00:00:00Z", "end_time": "2026-02-05T23:59:40.5Z"}
    body = await structured(client, "calculate_duration", arguments)
    assert body["duration"]["human_readable"] == "1 month, 4 days, and 23 hours"
    assert body["duration"]["parts"] == {"months": 1, "days": 4, "hours": 23, "minutes": 59, "seconds": 40.5}


async def test_an_age_is_stated_as_people_state_it(client: Client) -> None:
    arguments = {"start_time": "1990-03-03", "end_time": "2026-11-28", "timezone": "Europe/Vienna"}
    duration = (await structured(client, "calculate_duration", arguments))["duration"]
    assert duration["human_readable"] == "36 years, 8 months, and 25 days"  # not "36 years and 9 months"
    assert duration["parts"] == {"years": 36, "months": 8, "days": 25}
    assert duration["calendar_days"] == duration["elapsed_days"] == 13419


async def test_calendar_days_count_dates_where_elapsed_days_count_24_hours(client: Client) -> None:
    # A DST change lies between (New York, 2027-03-14): 190 dates apart, 189.958333 days of 24 hours.
    arguments = {"start_time": "2026-11-22T00:00", "end_time": "2027-05-31", "timezone": "America/New_York"}
    duration = (await structured(client, "calculate_duration", arguments))["duration"]
    assert (duration["calendar_days"], duration["elapsed_days"]) == (190, 189.958333)
    assert duration["human_readable"] == "6 months and 9 days"  # calendar days, 23 or 25 hours across DST
    backwards = {**arguments, "start_time": arguments["end_time"], "end_time": arguments["start_time"]}
    duration = (await structured(client, "calculate_duration", backwards))["duration"]
    assert (duration["calendar_days"], duration["elapsed_days"], duration["negative"]) == (-190, -189.958333, True)


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


async def test_a_zone_after_a_time_is_looked_for_only_in_the_last_words(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reading is linear in the text: a phrase of the longest allowed length asks at most ZONE_WORDS times
    whether its tail names a zone (it asked once per word split, each over the whole tail), and never searches for
    close names to suggest."""
    asked: list[tuple[str, bool]] = []
    real = resolve_zone

    def counted(text: str, **options: Any) -> Any:
        asked.append((text, options.get("suggest", True)))
        return real(text, **options)

    monkeypatch.setattr(reading, "resolve_zone", counted)
    reading._zone_named.cache_clear()
    error = await error_of(client, "convert_timezone", {"timestamp": "b " * 99, "to_timezone": "UTC"})
    assert "b b b" in error["message"]
    tails = [text for text, suggest in asked if not suggest]
    assert 0 < len(tails) <= reading.ZONE_WORDS and max(len(text.split()) for text in tails) <= reading.ZONE_WORDS
    found = await structured(
        client, "convert_timezone", {"timestamp": "3pm Santa Cruz de la Sierra time", "to_timezone": "UTC"}
    )
    assert found["original"]["timezone"] == "America/La_Paz"
