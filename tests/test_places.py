"""The names people type, read with the packaged places table: cities, exemplar cities in six languages, former
names, countries, coordinates, ambiguous names, and suggestions that name their offsets."""

from __future__ import annotations

import gzip
from datetime import UTC, datetime
from importlib.resources import files

import pytest

from horologe.core import tzdb
from horologe.core.errors import AmbiguousTimezone, InvalidTimezone
from horologe.core.zones import fold, resolve_zone
from horologe.places import TABLE, gazetteer, zone_at

JULY = datetime(2026, 7, 1, 12, tzinfo=UTC)


def resolve(text: str, country: str | None = None) -> tuple[str, str]:
    zone = resolve_zone(text, places=gazetteer(), now=JULY, country_hint=country)
    return zone.key, zone.kind


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        # the cities, refused or misread before
        ("Mumbai", "Asia/Kolkata"),
        ("Beijing", "Asia/Shanghai"),
        ("San Francisco", "America/Los_Angeles"),
        ("München", "Europe/Berlin"),
        ("munchen", "Europe/Berlin"),
        ("Munich", "Europe/Berlin"),
        ("Delhi", "Asia/Kolkata"),
        ("Bangalore", "Asia/Kolkata"),
        ("Lagos", "Africa/Lagos"),
        ("Rio de Janeiro", "America/Sao_Paulo"),
        ("Osaka", "Asia/Tokyo"),
        ("Barcelona", "Europe/Madrid"),
        ("Seattle", "America/Los_Angeles"),
        ("Houston", "America/Chicago"),
        ("Zürich", "Europe/Zurich"),
        ("Kraków", "Europe/Warsaw"),
        ("Pékin", "Asia/Shanghai"),
        ("北京", "Asia/Shanghai"),
        ("孟买", "Asia/Kolkata"),
    ],
)
def test_cities_of_15000_people_resolve_to_their_zone(text: str, zone: str) -> None:
    assert resolve(text) == (zone, "city")


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("Wien", "Europe/Vienna"),  # de
        ("Vienne", "Europe/Vienna"),  # fr
        ("Viena", "Europe/Vienna"),  # es
        ("ウィーン", "Europe/Vienna"),  # ja
        ("维也纳", "Europe/Vienna"),  # zh-Hans
        ("Tokio", "Asia/Tokyo"),  # de, es
        ("東京", "Asia/Tokyo"),  # ja
        ("东京", "Asia/Tokyo"),  # zh-Hans
        ("Nueva York", "America/New_York"),  # es
        ("ニューヨーク", "America/New_York"),  # ja
        ("纽约", "America/New_York"),  # zh-Hans
        ("Moskau", "Europe/Moscow"),  # de
        ("Londres", "Europe/London"),  # fr, es
    ],
)
def test_exemplar_cities_in_six_languages(text: str, zone: str) -> None:
    assert resolve(text) == (zone, "city")


@pytest.mark.parametrize(
    ("text", "zone", "place"),
    [
        ("Bombay", "Asia/Kolkata", "Mumbai, IN"),
        ("Saigon", "Asia/Ho_Chi_Minh", "Ho Chi Minh City, VN"),
        ("Kiev", "Europe/Kyiv", "Kyiv, UA"),
        ("Calcutta", "Asia/Kolkata", "Kolkata, IN"),
        ("Peking", "Asia/Shanghai", "Beijing, CN"),
        ("Madras", "Asia/Kolkata", "Chennai, IN"),
        ("Canton", "Asia/Shanghai", "Guangzhou, CN"),
    ],
)
def test_former_names(text: str, zone: str, place: str) -> None:
    resolved = resolve_zone(text, places=gazetteer())
    assert (resolved.key, resolved.kind, resolved.place) == (zone, "city", place)


@pytest.mark.parametrize(
    ("text", "zone"),
    [("Japan", "Asia/Tokyo"), ("India", "Asia/Kolkata"), ("Japon", "Asia/Tokyo"), ("日本", "Asia/Tokyo"),
     ("Indien", "Asia/Kolkata"), ("Autriche", "Europe/Vienna"), ("Österreich", "Europe/Vienna")],
)  # fmt: skip
def test_countries_with_one_zone(text: str, zone: str) -> None:
    assert resolve(text)[0] == zone


MANY_ZONES = [
    ("United States", "America/New_York"),
    ("Brasil", "America/Sao_Paulo"),
    ("Russia", "Europe/Moscow"),
    ("Australien", "Australia/Sydney"),
]


@pytest.mark.parametrize(("text", "main"), MANY_ZONES)
def test_a_country_of_many_zones_is_answered_with_its_main_zones_and_their_offsets(text: str, main: str) -> None:
    with pytest.raises(AmbiguousTimezone) as caught:
        resolve(text)
    assert caught.value.suggestions[0] == main
    assert f"'{main}' (UTC" in str(caught.value)


def test_the_united_states_main_zones_are_its_four_big_clocks_first() -> None:
    with pytest.raises(AmbiguousTimezone) as caught:
        resolve("US")
    assert list(caught.value.details["candidates"])[:4] == [  # type: ignore[call-overload]
        "America/New_York",
        "America/Chicago",
        "America/Los_Angeles",
        "America/Denver",
    ]
    assert "'America/New_York' (UTC-04:00), 'America/Chicago' (UTC-05:00)" in str(caught.value)


@pytest.mark.parametrize(
    ("text", "candidates"),
    [("Springfield", ("America/Chicago", "America/New_York")), ("Valencia", ("America/Caracas", "Europe/Madrid"))],
)
def test_cities_of_similar_size_in_different_zones_are_ambiguous(text: str, candidates: tuple[str, ...]) -> None:
    with pytest.raises(AmbiguousTimezone) as caught:
        resolve(text)
    assert caught.value.suggestions == candidates
    assert "UTC" in str(caught.value)  # each candidate with its offset


def test_the_clients_country_settles_an_ambiguous_city() -> None:
    assert resolve("Valencia", country="ES") == ("Europe/Madrid", "city")
    assert resolve("Valencia", country="Spain") == ("Europe/Madrid", "city")


def test_a_much_larger_namesake_wins_and_the_smaller_ones_are_named() -> None:
    zone = resolve_zone("Portland", places=gazetteer())
    assert (zone.key, zone.others) == ("America/Los_Angeles", ("America/New_York",))
    assert resolve_zone("Vienna", places=gazetteer()).key == "Europe/Vienna"


# --- suggestions -------------------------------------------------------------------------------------------------


def unknown(text: str) -> InvalidTimezone:
    with pytest.raises(InvalidTimezone) as caught:
        resolve(text)
    assert not isinstance(caught.value, AmbiguousTimezone)
    return caught.value


def test_a_typo_of_a_city_suggests_it_with_its_zone_and_offset() -> None:
    error = unknown("Mumbaii")
    assert error.suggestions == ("Asia/Kolkata",)
    assert "Did you mean 'Mumbai, IN' (Asia/Kolkata, UTC+05:30)?" in str(error)


LOOK_ALIKES = [
    ("Mumbau", "Asia/Dubai"),
    ("Bejjing", "Europe/Berlin"),
    ("San Franzisko", "Europe/San_Marino"),
    ("Muenchn", "Europe/Monaco"),
]


@pytest.mark.parametrize(("text", "far"), LOOK_ALIKES)
def test_a_zone_hours_away_is_never_suggested_for_a_look_alike_spelling(text: str, far: str) -> None:
    assert far not in unknown(text).suggestions


def test_a_name_like_nothing_gets_no_suggestion() -> None:
    error = unknown("Qwertzuiop")
    assert error.suggestions == ()
    assert "Did you mean" not in str(error)


def test_a_typo_of_an_iana_name_names_its_offset() -> None:
    assert "Did you mean 'Europe/Vienna' (UTC+02:00)?" in str(unknown("Europe/Viena"))


# --- coordinates -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("latitude", "longitude", "zone"),
    [
        (48.2082, 16.3738, "Europe/Vienna"),
        (34.0522, -118.2437, "America/Los_Angeles"),
        (19.0760, 72.8777, "Asia/Kolkata"),
        (-33.8688, 151.2093, "Australia/Sydney"),
        (33.4484, -112.0740, "America/Phoenix"),  # Arizona keeps standard time
        (0.0, -30.0, "Etc/GMT+2"),  # open ocean: the nautical zone
    ],
)
def test_coordinates_map_to_the_zone_there(latitude: float, longitude: float, zone: str) -> None:
    assert zone_at(latitude, longitude) == zone


# --- the table itself --------------------------------------------------------------------------------------------


def test_the_packaged_table_names_only_zones_of_this_tzdata_and_is_folded_as_the_resolver_folds() -> None:
    text = gzip.decompress(files("horologe.data").joinpath(TABLE).read_bytes()).decode("utf-8")
    rows = [line.split("\t") for line in text.splitlines() if line.startswith("c\t")]
    assert len(rows) > 30_000
    assert {row[7] for row in rows} <= tzdb.zone_names()
    assert all(row[2].split("|")[0] == fold(row[1]) for row in rows)
    regions = [line.split("\t") for line in text.splitlines() if line.startswith("r\t")]
    assert len(regions) > 3_000
    assert {entry.split("=")[0] for row in regions for entry in row[8].split("|")} <= tzdb.zone_names()
    assert all(name == fold(name) for row in regions for name in row[4].split("|") + row[5].split("|"))
    assert "GeoNames" in text.splitlines()[0] and "CC BY 4.0" in text.splitlines()[0]
