"""Typed zones through the tools: places, the abbreviation rule in both seasons, and `timezone_input` saying how
each was read (the fixed clock of the `client` fixture is 2026-11-22T03:11:30Z, winter in the north); `zone_of`
resolves each spelling once, per country hint, and never keeps an error."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from mcp.client import Client

from horologe.context import RequestContext
from horologe.core.errors import AmbiguousTimezone, InvalidTimezone
from horologe.core.zones import resolve_zone
from horologe.places import gazetteer
from horologe.tools.present import zone_of
from horologe.tools.registry import TOOLS, tool_schemas
from tests.calls import error_of, structured

NOW = datetime(2026, 11, 25, 12, tzinfo=UTC)


@pytest.mark.anyio
async def test_a_city_name_is_read_as_its_zone_and_the_result_says_so(client: Client) -> None:
    body = await structured(client, "get_current_time", {"timezone": "Mumbai"})
    assert (body["timezone"], body["timestamp"][-6:]) == ("Asia/Kolkata", "+05:30")
    assert body["timezone_input"] == [
        {"input": "Mumbai", "timezone": "Asia/Kolkata", "read_as": "city", "place": "Mumbai, IN"}
    ]


NAMESAKES: list[tuple[str, str, list[str]]] = [
    # Smaller places by their own name, a tenth of the answer's people or more: a reader may mean them.
    ("Portland", "America/Los_Angeles", ["America/New_York"]),
    ("Birmingham", "Europe/London", ["America/Chicago"]),
    ("Hyderabad", "Asia/Kolkata", ["Asia/Karachi"]),
    # Places the name calls by another of their names, named only when it is a short form of their own.
    ("Santiago", "America/Santiago", ["America/Santo_Domingo"]),  # Santiago de los Caballeros
    ("Salvador", "America/Bahia", ["America/El_Salvador"]),
    ("Cancún", "America/Cancun", []),  # also a foreign name of Changchun, Asia/Shanghai
    ("Islamabad", "Asia/Karachi", []),  # Chattogram's old name, Asia/Dhaka
    ("Zaragoza", "Europe/Madrid", []),  # another name of Tijuana
    ("Kita", "Asia/Tokyo", ["Africa/Bamako"]),  # Kita, Mali by its own name; not Quito
]


@pytest.mark.anyio
@pytest.mark.parametrize(("name", "zone", "others"), NAMESAKES)
async def test_a_reading_names_only_namesakes_a_reader_may_mean(
    client: Client, name: str, zone: str, others: list[str]
) -> None:
    body = await structured(client, "get_current_time", {"timezone": name})
    (reading,) = body["timezone_input"]
    assert (reading["timezone"], reading.get("other_zones", [])) == (zone, others)


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
    assert (converted["timezone"], converted["timestamp"][-6:]) == ("America/New_York", offset)
    reading = {"input": "EST", "timezone": "America/New_York", "read_as": "abbreviation"}
    if abbreviation == "EDT":  # a standard abbreviation read as a clock that keeps daylight time then says so
        reading["note"] = (
            "EST was read as the clock of America/New_York, which on 2026-07-15 keeps daylight time (EDT, UTC-04:00)."
        )
    assert body["timezone_input"] == [reading]


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
    assert "'Springfield, Missouri, US' (America/Chicago, UTC-06:00)" in error["message"]
    assert error["suggestions"] == ["America/Chicago", "America/New_York"]


def test_every_tool_that_takes_a_zone_declares_timezone_input_in_its_output_schema() -> None:
    for spec in TOOLS:
        takes_zone = "timezone" in json.dumps(tool_schemas(spec)[0].get("properties", {}))
        declared = "timezone_input" in tool_schemas(spec)[1].get("properties", {})
        assert takes_zone == declared, spec.name


def context(country: str | None = None) -> RequestContext:
    """A request context with the client's country."""
    return RequestContext(now=NOW, default_zone=resolve_zone("Europe/Vienna"), country=country)


def test_a_spelling_resolves_as_resolve_zone_does_and_is_resolved_once() -> None:
    first = zone_of("new york", context())
    assert first == resolve_zone("new york", places=gazetteer())
    assert zone_of("new york", context()) is first


def test_the_country_hint_is_part_of_the_reading() -> None:
    assert zone_of("IST", context("IN")).key == "Asia/Kolkata"
    assert zone_of("IST", context("IE")).key == "Europe/Dublin"
    with pytest.raises(AmbiguousTimezone):
        zone_of("IST", context())


def test_errors_are_raised_every_time_and_local_is_the_users_zone() -> None:
    for _ in range(2):
        with pytest.raises(InvalidTimezone):
            zone_of("Mars/Olympus", context())
    assert zone_of(" Local ", context()).key == "Europe/Vienna"
