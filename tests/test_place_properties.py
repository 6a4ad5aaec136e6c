"""Fuzzing every way of naming a place (hypothesis): coordinates in each notation, qualified names, region names and
subdivisions. Whatever is typed, the answer is a zone of this database or a clear refusal (a domain error with a
message), never a crash; readable coordinates come back as the lookup's zone at that point."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from horologe.core import tzdb
from horologe.core.calendar import holiday_calendar
from horologe.core.coordinates import read_coordinates
from horologe.core.errors import InvalidArgument, InvalidTimezone
from horologe.core.gazetteer import Gazetteer
from horologe.core.zones import resolve_zone
from horologe.places import from_text, gazetteer

NOW = datetime(2026, 7, 1, 12, tzinfo=UTC)
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LATITUDES = st.floats(min_value=-90, max_value=90, allow_nan=False).map(lambda value: round(value, 4))
LONGITUDES = st.floats(min_value=-180, max_value=180, allow_nan=False).map(lambda value: round(value, 4))
QUALIFIERS = [
    "Austria",
    "AT",
    "Österreich",
    "Oregon",
    "OR",
    "US",
    "USA",
    "Japon",
    "日本",
    "Бавария",
    "NSW",
    "D.C.",
    "zz",
]
NAMES = ["Vienna", "Portland", "Springfield", "Washington", "Sydney", "東京", "Москва", "Georgia", "x", "São Paulo"]
TEXT = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=40)


def answered_or_refused(text: str, places: Gazetteer) -> None:
    """The answer is a zone of this database, or a domain error that says something."""
    try:
        zone = resolve_zone(text, places=places, now=NOW)
    except InvalidTimezone as error:
        assert str(error)
    else:
        assert zone.key == "UTC" or zone.kind == "fixed_offset" or zone.key in tzdb.zone_names()


def hemisphere(value: float, positive: str, negative: str) -> str:
    return f"{abs(value)}°{positive if value >= 0 else negative}"


def dms(value: float, positive: str, negative: str) -> tuple[str, float]:
    """Degrees, minutes and whole seconds, and the value they stand for."""
    total = round(abs(value) * 3600)
    degrees, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    exact = (degrees + minutes / 60 + seconds / 3600) * (1 if value >= 0 else -1)
    return f"{degrees}°{minutes}′{seconds}″{positive if value >= 0 else negative}", exact


class Recorder:
    """A coordinates lookup that remembers the point it was asked about."""

    def __init__(self) -> None:
        self.asked: list[tuple[float, float]] = []

    def __call__(self, latitude: float, longitude: float) -> str:
        self.asked.append((latitude, longitude))
        return "Europe/Vienna"


@FUZZ
@given(LATITUDES, LONGITUDES, st.sampled_from(["comma", "tight", "space", "hemisphere", "prefix", "dms", "geo"]))
def test_coordinates_in_every_notation_reach_the_lookup_at_that_point(
    latitude: float, longitude: float, form: str
) -> None:
    expected = (latitude, longitude)
    if form == "comma":
        text = f"{latitude}, {longitude}"
    elif form == "tight":
        text = f"{latitude},{longitude}"
    elif form == "space":
        text = f"{latitude:.4f} {longitude:.4f}"
    elif form == "hemisphere":
        text = f"{hemisphere(latitude, 'N', 'S')} {hemisphere(longitude, 'E', 'W')}"
    elif form == "prefix":
        text = f"{'N' if latitude >= 0 else 'S'} {abs(latitude)} {'E' if longitude >= 0 else 'W'} {abs(longitude)}"
    elif form == "dms":
        (north, lat), (east, lon) = dms(latitude, "N", "S"), dms(longitude, "E", "W")
        text, expected = f"{north} {east}", (lat, lon)
    else:
        text = f"geo:{latitude},{longitude}"
    recorder = Recorder()
    zone = resolve_zone(text, places=from_text("", recorder))
    assert (zone.key, zone.kind) == ("Europe/Vienna", "coordinates")
    assert len(recorder.asked) == 1
    assert all(math.isclose(got, want, abs_tol=1e-9) for got, want in zip(recorder.asked[0], expected, strict=True))


@FUZZ
@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1000, max_value=1000), LONGITUDES)
def test_coordinates_out_of_range_are_refused_never_looked_up(latitude: float, longitude: float) -> None:
    text = f"{round(latitude, 3)}, {longitude}"
    recorder = Recorder()
    try:
        resolve_zone(text, places=from_text("", recorder))
    except InvalidTimezone as error:
        assert recorder.asked == []
        assert "out of range" in str(error) or "not a pair" in str(error)
    else:
        assert -90 <= round(latitude, 3) <= 90


@FUZZ
@given(st.text(alphabet="0123456789.,;:-+ °′″'\"NSEWnsew", min_size=1, max_size=30))
def test_text_that_only_looks_like_numbers_is_answered_or_refused(text: str) -> None:
    answered_or_refused(text, from_text("", Recorder()))


@FUZZ
@given(st.sampled_from(NAMES), st.lists(st.sampled_from(QUALIFIERS), min_size=1, max_size=3), st.booleans())
def test_qualified_names_are_answered_or_refused(name: str, qualifiers: list[str], comma: bool) -> None:
    answered_or_refused((", " if comma else " ").join([name, *qualifiers]), gazetteer())


@FUZZ
@given(TEXT, st.sampled_from(QUALIFIERS))
def test_any_name_with_a_qualifier_is_answered_or_refused(name: str, qualifier: str) -> None:
    answered_or_refused(f"{name}, {qualifier}", gazetteer())


@FUZZ
@given(TEXT)
def test_any_text_as_a_place_is_answered_or_refused(text: str) -> None:
    answered_or_refused(text, gazetteer())


REGIONS = st.sampled_from(["Arizona", "Bavaria", "Bayern", "Texas", "Indiana", "Ontario", "Xinjiang", "Georgia"])


@FUZZ
@given(REGIONS, st.sampled_from([str.lower, str.upper, str.title, lambda text: f"  {text}  "]))
def test_region_names_in_any_case_are_answered_or_refused(region: str, spelling: object) -> None:
    answered_or_refused(spelling(region), gazetteer())  # type: ignore[operator]


@pytest.mark.parametrize("country", ["DE", "US", "GB", "AU"])
@settings(max_examples=60, deadline=None)
@given(subdivision=TEXT.filter(str.strip))
def test_any_subdivision_is_taken_or_refused_with_suggestions(country: str, subdivision: str) -> None:
    try:
        calendar = holiday_calendar(country, subdivision, names=gazetteer().subdivisions)
    except InvalidArgument as error:
        assert "Unknown subdivision" in str(error)
        assert len(error.suggestions) <= 3
    else:
        assert calendar.subdivision in calendar.source.subdivisions


def test_reading_coordinates_refuses_half_a_pair() -> None:
    with pytest.raises(InvalidTimezone, match="not a pair of coordinates"):
        read_coordinates("48.2°N")
