"""Tool helpers held to the formatting functions they stand in for, and the zone facts the time tools report."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from mcp.client import Client

from horologe.core.format import format_instant
from horologe.tools.present import iso, truncate
from tests.calls import structured
from tests.core.test_duration import near_transition


@given(near_transition())
def test_the_timestamp_is_the_iso8601_format_at_millisecond_precision(instant: datetime) -> None:
    # get_current_time reuses its timestamp as `formatted` for the default format instead of writing it twice.
    at_millis = truncate(instant, "milliseconds")
    assert iso(at_millis) == format_instant(at_millis, "iso8601")


@pytest.mark.parametrize(
    ("zone", "instant"),
    [
        ("Europe/Amsterdam", datetime(1925, 6, 1, 12, 0, 0, 123000, tzinfo=UTC)),  # +00:19:32 (seconds in the offset)
        ("Africa/Monrovia", datetime(1960, 6, 1, 12, 0, 0, tzinfo=UTC)),  # -00:44:30
        ("Etc/UTC", datetime(2026, 11, 23, 14, 57, 40, 54000, tzinfo=UTC)),
        ("Asia/Kathmandu", datetime(1, 1, 1, 0, 0, 0, 1000, tzinfo=UTC)),
    ],
)
def test_the_timestamp_is_the_iso8601_format_for_odd_offsets_too(zone: str, instant: datetime) -> None:
    local = instant.astimezone(ZoneInfo(zone))
    assert iso(local) == format_instant(local, "iso8601")


# --- zone facts from the database's rules, through every transport (fixed clock: 2026-11-22T03:11:30Z) ----------


@pytest.mark.anyio
async def test_previous_transition_of_tokyo_is_its_last_change_in_1951(client: Client) -> None:
    body = await structured(client, "get_timezone_info", {"timezone": "Asia/Tokyo"})
    assert body["previous_transition"] == {
        "before": "1951-09-09T01:00:00+10:00",  # 1951-09-08T15:00Z: clocks went back from JDT to JST
        "after": "1951-09-09T00:00:00+09:00",
        "abbreviation": "JST",
        "dst": False,
    }
    assert body["abbreviation"] == "JST" and body["dst_active"] is False
    assert "next_transition" not in body


@pytest.mark.anyio
@pytest.mark.parametrize("name", ["GMT", "Etc/GMT", "Greenwich"])
async def test_gmt_is_reported_as_gmt_and_as_never_changing(client: Client, name: str) -> None:
    body = await structured(client, "get_timezone_info", {"timezone": name})
    assert (body["timezone"], body.get("canonical", "Etc/GMT"), body["abbreviation"]) == ("Etc/GMT", "Etc/GMT", "GMT")
    assert "previous_transition" not in body and "next_transition" not in body


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("zone", "at", "standard", "dst", "active"),
    [
        ("America/Inuvik", "2026-07-15T12:00:00Z", "-07:00", "+01:00", True),
        ("Europe/Dublin", "2026-01-15T12:00:00Z", "+01:00", "-01:00", True),
        ("Europe/Dublin", "2026-07-15T12:00:00Z", "+01:00", "+00:00", False),
        ("Europe/Vilnius", "1998-07-15T12:00:00Z", "+01:00", "+01:00", True),
        ("Africa/Windhoek", "1992-07-15T12:00:00Z", "+02:00", "+00:00", False),
    ],
)
async def test_standard_and_dst_offsets_are_the_rules_own(
    client: Client, zone: str, at: str, standard: str, dst: str, active: bool
) -> None:
    body = await structured(client, "get_timezone_info", {"timezone": zone, "timestamp": at})
    # Without a DST offset the offsets are left out: the standard offset is then the one in local_time.
    offsets = (body.get("standard_offset", body["local_time"][-6:]), body.get("dst_offset", "+00:00"))
    assert (*offsets, body["dst_active"]) == (standard, dst, active)
    assert ("dst_offset" in body) == (dst != "+00:00")


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("text", "utc"),
    [
        ("Sunday, 06-Nov-94 08:49:37 GMT", "1994-11-06T08:49:37Z"),
        ("Thursday, 01-Jan-70 00:00:00 GMT", "2070-01-01T00:00:00Z"),  # 44 years ahead: not more than 50
        ("Friday, 01-Jan-77 00:00:00 GMT", "1977-01-01T00:00:00Z"),  # 2077 would be more than 50 years ahead
    ],
)
async def test_rfc_850_years_follow_rfc_9110_from_the_request_clock(client: Client, text: str, utc: str) -> None:
    body = await structured(client, "format_time", {"timestamp": text, "format": "iso8601", "timezone": "UTC"})
    assert body["timestamp"] == utc


# --- conversions: both ends labelled, several targets in one call ---------------------------------------------------


@pytest.mark.anyio
async def test_both_ends_of_a_conversion_say_their_weekday_and_dst(client: Client) -> None:
    # Los Angeles has sprung forward on 2026-03-08, Berlin not until 2026-03-29: the gap is 8 hours, not 9.
    arguments = {"timestamp": "2026-03-20T10:00", "from_timezone": "Los Angeles", "to_timezone": "Berlin"}
    body = await structured(client, "convert_timezone", arguments)
    original, converted = body["original"], body["converted"]
    assert (original["day_of_week"], original["abbreviation"], original["dst_active"]) == ("Friday", "PDT", True)
    assert (converted["day_of_week"], converted["abbreviation"], converted["dst_active"]) == ("Friday", "CET", False)
    assert body["time_difference"] == "+8h"


@pytest.mark.anyio
async def test_several_target_zones_in_one_conversion(client: Client) -> None:
    arguments = {
        "timestamp": "2026-11-23T15:00",
        "from_timezone": "America/New_York",
        "to_timezone": ["Europe/London", "Tokyo", "Asia/Kolkata"],
        "format": "human",
    }
    body = await structured(client, "convert_timezone", arguments)
    assert "time_difference" not in body  # each entry has its own
    entries = [(c["timezone"], c["timestamp"], c["day_of_week"], c["time_difference"]) for c in body["converted"]]
    assert entries == [
        ("Europe/London", "2026-11-23T20:00:00+00:00", "Monday", "+5h"),
        ("Asia/Tokyo", "2026-11-24T05:00:00+09:00", "Tuesday", "+14h"),
        ("Asia/Kolkata", "2026-11-24T01:30:00+05:30", "Tuesday", "+10.5h"),
    ]
    assert all("formatted" in entry for entry in body["converted"])


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("targets", "words"),
    [
        ([], "at least one zone"),
        (["UTC"] * 25, "at most 24"),
        (["Europe/Vienna", "Mars/Olympus_Mons"], "Mars/Olympus_Mons"),
    ],
)
async def test_a_target_list_is_refused_saying_what_was_wrong(client: Client, targets: list[str], words: str) -> None:
    arguments = {"timestamp": "2026-11-23T15:00Z", "to_timezone": targets}
    result = await client.call_tool("convert_timezone", arguments)
    assert result.is_error and words in str(result.content[0])


@pytest.mark.anyio
@pytest.mark.parametrize(
    "arguments",
    [
        {"timestamp": "2026-07-15 9am PST", "to_timezone": "UTC"},
        {"timestamp": "2026-07-15T09:00", "from_timezone": "PST", "to_timezone": "UTC"},
    ],
)
async def test_a_standard_abbreviation_read_as_daylight_time_says_so(client: Client, arguments: dict[str, str]) -> None:
    body = await structured(client, "convert_timezone", arguments)
    assert body["original"]["timestamp"] == "2026-07-15T09:00:00-07:00"  # Los Angeles' clock, as people mean it
    (reading,) = body["timezone_input"]
    assert reading["note"] == (
        "PST was read as the clock of America/Los_Angeles, which on 2026-07-15 keeps daylight time (PDT, UTC-07:00)."
    )


@pytest.mark.anyio
async def test_an_abbreviation_that_matches_the_season_needs_no_note(client: Client) -> None:
    body = await structured(
        client,
        "convert_timezone",
        {"timestamp": "2026-01-15T09:00", "from_timezone": "PST", "to_timezone": ["EDT", "UTC"]},
    )
    notes = {reading["input"]: reading.get("note") for reading in body["timezone_input"]}
    assert notes == {
        "PST": None,
        "EDT": "EDT was read as the clock of America/New_York, which on 2026-01-15 keeps standard time "
        "(EST, UTC-05:00).",
    }
