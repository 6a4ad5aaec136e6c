"""How results name zones: `zone_of` resolves each spelling once, per country hint, and never keeps an error."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from horologe.context import RequestContext
from horologe.core.errors import AmbiguousTimezone, InvalidTimezone
from horologe.core.zones import resolve_zone
from horologe.tools.present import zone_of

NOW = datetime(2026, 11, 25, 12, tzinfo=UTC)


def context(country: str | None = None) -> RequestContext:
    """A request context with the client's country."""
    return RequestContext(now=NOW, default_zone=resolve_zone("Europe/Vienna"), country=country)


def test_a_spelling_resolves_as_resolve_zone_does_and_is_resolved_once() -> None:
    first = zone_of("new york", context())
    assert first == resolve_zone("new york")
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
