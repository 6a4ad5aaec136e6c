"""The names people give their country's clocks: 'Pacific', 'Eastern time'."""

from __future__ import annotations

import pytest

from horologe.core.zone_words import clock_named
from horologe.core.zones import resolve_zone
from horologe.places import gazetteer


@pytest.mark.parametrize(
    ("text", "country", "zone", "place"),
    [
        ("Pacific", None, "America/Los_Angeles", "Pacific Time, US"),
        ("pacific time", "DE", "America/Los_Angeles", "Pacific Time, US"),  # a country without it: the US clock
        ("Eastern", "CA", "America/Toronto", "Eastern Time, CA"),
        ("Eastern Standard Time", "AU", "Australia/Sydney", "Eastern Time, AU"),
        ("Central Daylight Time", "US", "America/Chicago", "Central Time, US"),
        ("Central", "MX", "America/Mexico_City", "Central Time, MX"),
        ("Mountain  time", None, "America/Denver", "Mountain Time, US"),
    ],
)
def test_a_clock_named_in_words_is_the_callers_countrys(text: str, country: str | None, zone: str, place: str) -> None:
    assert clock_named(text, country) == (zone, place)
    resolved = resolve_zone(text, country_hint=country, places=gazetteer())
    assert (resolved.key, resolved.kind, resolved.place) == (zone, "region", place)
    assert resolve_zone(text, country_hint=country).key == zone  # without the places table too


@pytest.mark.parametrize("text", ["Central European Time", "Pacific Ocean", "Westerly", "time", "Pacific/Auckland"])
def test_other_words_are_no_clock_name(text: str) -> None:
    assert clock_named(text, None) is None
