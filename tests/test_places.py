"""The names people type, read with the packaged places table: cities, exemplar cities in six languages, former
names, countries, coordinates, ambiguous names, and suggestions that name their offsets."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from horologe import datafiles, holiday_index
from horologe import places as places_module
from horologe.cli import main
from horologe.core import tzdb
from horologe.core.client_context import read_client_context
from horologe.core.errors import AmbiguousTimezone, InvalidTimezone
from horologe.core.gazetteer import Gazetteer, fold
from horologe.core.zones import resolve_zone
from horologe.datafiles import DataFileError, packaged
from horologe.places import TABLE, gazetteer, open_table, zone_at

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
    [("Springfield", ("America/Chicago", "America/New_York")), ("Valencia", ("Europe/Madrid", "America/Caracas"))],
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
    table = sqlite3.connect(f"{packaged(TABLE).as_uri()}?mode=ro", uri=True)
    rows = table.execute("SELECT name, zone, row FROM city").fetchall()
    assert len(rows) > 30_000
    assert {zone for _, zone, _ in rows} <= tzdb.zone_names()
    own = set(table.execute("SELECT name, row FROM city_name WHERE alternate = 0"))
    assert all((fold(name), row) in own for name, _, row in rows)
    regions = table.execute("SELECT zones FROM division").fetchall()
    assert len(regions) > 3_000
    assert {entry.split("=")[0] for (zones,) in regions for entry in zones.split("|")} <= tzdb.zone_names()
    assert all(name == fold(name) for (name,) in table.execute("SELECT name FROM division_name"))
    assert all(name == fold(name) for (name,) in table.execute("SELECT name FROM city_name LIMIT 5000"))
    about = table.execute("SELECT text FROM about").fetchone()[0]
    assert "GeoNames" in about and "CC BY 4.0" in about
    assert table.execute("PRAGMA quick_check").fetchone() == ("ok",)


# --- issue 27: qualified places, regions, coordinates, more scripts ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("Santiago, Chile", "America/Santiago"),
        ("Sydney, Australia", "Australia/Sydney"),
        ("Vienna, Austria", "Europe/Vienna"),
        ("Vienna, AT", "Europe/Vienna"),
        ("Vienna, at", "Europe/Vienna"),
        ("Portland, Oregon", "America/Los_Angeles"),
        ("Portland, OR", "America/Los_Angeles"),
        ("Portland, Maine", "America/New_York"),
        ("Portland, ME, US", "America/New_York"),
        ("Portland, Oregon, USA", "America/Los_Angeles"),
        ("Washington, DC", "America/New_York"),
        ("Washington, D.C.", "America/New_York"),
        ("London, ON", "America/Toronto"),
        ("London, UK", "Europe/London"),
        ("Sydney, NSW", "Australia/Sydney"),
        ("Springfield, Illinois", "America/Chicago"),
        ("Springfield, Massachusetts", "America/New_York"),
        # the qualifier in the six languages and six more scripts
        ("Wien, Österreich", "Europe/Vienna"),  # de
        ("Viena, Austria", "Europe/Vienna"),  # es
        ("Vienne, Autriche", "Europe/Vienna"),  # fr
        ("ウィーン, オーストリア", "Europe/Vienna"),  # ja
        ("维也纳, 奥地利", "Europe/Vienna"),  # zh-Hans
        ("Вена, Австрия", "Europe/Vienna"),  # ru
        ("Відень, Австрія", "Europe/Vienna"),  # uk
        ("빈, 오스트리아", "Europe/Vienna"),  # ko
        ("فيينا, النمسا", "Europe/Vienna"),  # ar
        ("Βιέννη, Αυστρία", "Europe/Vienna"),  # el
        ("וינה, אוסטריה", "Europe/Vienna"),  # he
        # without the comma, where only one split names a place
        ("Portland Oregon", "America/Los_Angeles"),
        ("Paris France", "Europe/Paris"),
        ("Sydney Australia", "Australia/Sydney"),
    ],
)
def test_qualified_places_by_country_or_state_in_names_and_codes(text: str, zone: str) -> None:
    assert resolve(text) == (zone, "city")


def test_a_qualifier_that_does_not_match_says_so_and_names_the_places_that_do() -> None:
    error = unknown("Vienna, Germany")
    assert "There is no 'Vienna' in 'Germany' that we know" in str(error)
    assert "'Vienna, AT' (Europe/Vienna, UTC+02:00)" in str(error)
    assert error.suggestions[0] == "Europe/Vienna"


def test_an_unknown_qualifier_names_the_forms_accepted() -> None:
    error = unknown("Vienn, Narnia")
    assert "'Narnia' in 'Vienn, Narnia' is neither a country nor a state or province we know." in str(error)
    assert "'Portland, Oregon'" in str(error) and "'48.21, 16.37'" in str(error)


@pytest.mark.parametrize("text", ["Vienna, Narnia", "Viena, Austira"])
def test_a_known_name_with_an_unknown_qualifier_says_where_the_name_is(text: str) -> None:
    error = unknown(text)
    qualifier = text.split(", ")[1]
    assert f"{qualifier!r} is not a country, state or province we know; {text.split(', ')[0]!r} is in " in str(error)
    assert "'Vienna, AT' (Europe/Vienna, UTC+02:00)" in str(error)
    assert error.suggestions[0] == "Europe/Vienna"


@pytest.mark.parametrize("text", ["Vienna, , Austria", "a, b, c, d", "Vienna, Austria, Europe, Earth"])
def test_a_broken_qualified_name_is_refused_with_the_form(text: str) -> None:
    assert "write a city and then its state or country" in str(unknown(text))


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        # the regions, answered before by a same-named small place elsewhere
        ("Arizona", "America/Phoenix"),
        ("Colorado", "America/Denver"),
        ("Virginia", "America/New_York"),
        ("Montana", "America/Denver"),
        ("Oregon", "America/Los_Angeles"),
        ("Ontario", "America/Toronto"),
        ("Goa", "Asia/Kolkata"),
        ("Bali", "Asia/Makassar"),
        ("Tuscany", "Europe/Rome"),
        ("Bavaria", "Europe/Berlin"),
        ("Xinjiang", "Asia/Shanghai"),  # Beijing time, as its cities and coordinates are read
        # by name in the six languages and six more scripts
        ("Bayern", "Europe/Berlin"),  # de (and native)
        ("Bavière", "Europe/Berlin"),  # fr
        ("Toscana", "Europe/Rome"),  # es (and native)
        ("Baviera", "Europe/Berlin"),  # es (CLDR's subdivision names)
        ("Katalonien", "Europe/Madrid"),  # de, without CLDR's 'Autonome Gemeinschaft'
        ("Catalogne", "Europe/Madrid"),  # fr
        ("Cataluña", "Europe/Madrid"),  # es
        ("カタルーニャ", "Europe/Madrid"),  # ja, without CLDR's '州'
        ("加泰罗尼亚", "Europe/Madrid"),  # zh-Hans
        ("Baja California", "America/Tijuana"),
        ("Papua", "Asia/Jayapura"),  # GeoNames' name, though ISO also calls the western region 'Papua'
        ("Estado de México", "America/Mexico_City"),  # es: the state, not Mexico City joined to the same ISO code
        ("バイエルン", "Europe/Berlin"),  # ja
        ("巴伐利亚", "Europe/Berlin"),  # zh-Hans
        ("Бавария", "Europe/Berlin"),  # ru
        ("Баварія", "Europe/Berlin"),  # uk
        ("온타리오", "America/Toronto"),  # ko
        ("Βιρτζίνια", "America/New_York"),  # el
        ("אריזונה", "America/Phoenix"),  # he
        ("Queensland, Australia", "Australia/Brisbane"),
    ],
)
def test_regions_of_one_clock_resolve_to_it(text: str, zone: str) -> None:
    assert resolve(text) == (zone, "region")


@pytest.mark.parametrize(("text", "zone"), [("Belize", "America/Belize"), ("Odessa", "Europe/Kyiv"),
                                            ("Vila Real", "Europe/Lisbon"), ("Sinnār", "Africa/Khartoum"),
                                            ("Palau", "Pacific/Palau"),
                                            ("Saint Barthelemy", "America/St_Barthelemy")])  # fmt: skip
def test_an_area_is_never_answered_by_a_smaller_namesake_elsewhere(text: str, zone: str) -> None:
    # a city inside the area under another name of it (Belize City, Odesa) stands for the area with its weight; a
    # small country by its own name outweighs a foreign town (Palaú, Mexico; Saint-Barthélémy, a Marseille quarter)
    assert resolve(text)[0] == zone


def test_a_small_country_and_a_town_of_its_name_in_the_clients_country_tie() -> None:
    with pytest.raises(AmbiguousTimezone):
        resolve("Palau", "MX")


def test_an_area_of_several_clocks_is_not_answered_by_a_city_once_named_like_it() -> None:
    with pytest.raises(AmbiguousTimezone, match="Nayarit, MX keeps 2 clocks"):
        resolve("Nayarit, Mexico")  # 'Nayarit' is also an other name of Tepic, its capital


def test_a_region_of_one_main_clock_names_the_others() -> None:
    zone = resolve_zone("Texas", places=gazetteer())
    assert (zone.key, zone.kind, zone.place, zone.others) == (
        "America/Chicago",
        "region",
        "Texas, US",
        ("America/Denver",),
    )


@pytest.mark.parametrize(("text", "zones"), [("Indiana", ("America/Indiana/Indianapolis", "America/Chicago")),
                                             ("Kentucky", ("America/New_York", "America/Chicago"))])  # fmt: skip
def test_a_region_of_several_clocks_is_refused_with_its_main_zones_and_offsets(
    text: str, zones: tuple[str, ...]
) -> None:
    with pytest.raises(AmbiguousTimezone) as caught:
        resolve(text)
    assert caught.value.suggestions[:2] == zones
    assert f"keeps 2 clocks: '{zones[0]}' (UTC" in str(caught.value)


@pytest.mark.parametrize(
    ("text", "country", "zone"),
    [
        # a city in the client's country beats a foreign country's name
        ("Salvador", "BR", "America/Bahia"),
        ("Granada", "ES", "Europe/Madrid"),
        ("Armenia", "CO", "America/Bogota"),
        ("Bo", "SL", "Africa/Freetown"),
        ("Guadalupe", "MX", "America/Monterrey"),
        ("LA", "US", "America/Los_Angeles"),
        ("Georgia", "US", "America/New_York"),
        ("Georgia", "GE", "Asia/Tbilisi"),
    ],
)
def test_the_clients_country_ranks_its_places_first(text: str, country: str, zone: str) -> None:
    assert resolve(text, country)[0] == zone


@pytest.mark.parametrize(("text", "zone"), [("Salvador", "America/Bahia"), ("Islamabad", "Asia/Karachi"),
                                            ("Cancún", "America/Cancun"), ("Armenia", "Asia/Yerevan")])  # fmt: skip
def test_a_citys_own_name_beats_another_places_foreign_or_former_name(text: str, zone: str) -> None:
    assert resolve(text)[0] == zone


@pytest.mark.parametrize(
    ("text", "candidates"),
    [
        ("Georgia", {"America/New_York", "Asia/Tbilisi"}),
        ("Washington", {"America/Los_Angeles", "America/New_York"}),
        ("LA", {"America/Los_Angeles", "Asia/Vientiane"}),
        # a province and its town against a foreign city of the name
        ("Armavir", {"Asia/Yerevan", "Europe/Moscow"}),
        ("San Juan", {"America/Argentina/San_Juan", "America/Puerto_Rico"}),
    ],
)
def test_a_tie_between_places_of_other_clocks_is_refused_never_guessed(text: str, candidates: set[str]) -> None:
    with pytest.raises(AmbiguousTimezone) as caught:
        resolve(text)
    assert set(caught.value.suggestions) == candidates
    assert "Add the country or state" in str(caught.value)


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("Москва", "Europe/Moscow"),  # ru
        ("Київ", "Europe/Kyiv"),  # uk
        ("서울", "Asia/Seoul"),  # ko
        ("القاهرة", "Africa/Cairo"),  # ar
        ("Αθήνα", "Europe/Athens"),  # el
        ("תל אביב", "Asia/Jerusalem"),  # he
        ("Venedig", "Europe/Rome"),  # de
        ("Venise", "Europe/Rome"),  # fr
        ("Venecia", "Europe/Rome"),  # es
    ],
)
def test_city_names_in_more_scripts_and_of_smaller_cities(text: str, zone: str) -> None:
    assert resolve(text) == (zone, "city")


@pytest.mark.parametrize(
    "text", ["48.2082, 16.3738", "48.2082,16.3738", "48.2°N 16.4°E", "48°12′30″N 16°22′21″E", "N 48.2 E 16.4"]
)
def test_coordinates_typed_as_a_zone(text: str) -> None:
    zone = resolve_zone(text, places=gazetteer())
    assert (zone.key, zone.kind) == ("Europe/Vienna", "coordinates")
    assert zone.reading() == {"input": text, "timezone": "Europe/Vienna", "read_as": "coordinates", "place": zone.place}


def test_one_place_one_answer_by_name_and_by_coordinates() -> None:
    """Xinjiang keeps Beijing time by name, by its cities and by coordinates (the decision: official time)."""
    by_name = {resolve(text)[0] for text in ("Ürümqi", "Urumqi", "Kashgar", "Xinjiang")}
    by_coordinates = {resolve(text)[0] for text in ("43.8, 87.6", "39.47, 75.99")}
    assert by_name == by_coordinates == {"Asia/Shanghai"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("95, 10", "Latitude 95 in '95, 10' is out of range"),
        ("10, 200", "Longitude 200 in '10, 200' is out of range"),
        ("48.2", "'48.2' is not a pair of coordinates"),
        ("48.2°N", "'48.2°N' is not a pair of coordinates"),
        ("48.2°N 16.4°N", "gives two latitudes or two longitudes"),
        ("1.2.3", "'1.2.3' is not a pair of coordinates"),
        ("48.2, 16.3, 5", "is not a pair of coordinates"),
    ],
)
def test_coordinates_that_cannot_be_read_are_refused_clearly(text: str, message: str) -> None:
    error = unknown(text)
    assert message in str(error)
    assert "'48.2082, 16.3738'" in str(error)


def test_an_unknown_place_names_the_forms_accepted_and_the_nearest_places() -> None:
    error = unknown("Mumbaii, India")
    assert "Unknown place or timezone 'Mumbaii, India'." in str(error)
    assert "Did you mean 'Mumbai, IN' (Asia/Kolkata, UTC+05:30)?" in str(error)
    assert "a city with its country or state ('Vienna, Austria', 'Portland, Oregon')" in str(error)


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("Singapore", "Asia/Singapore"),
        ("Australia/Queensland", "Australia/Brisbane"),
        ("US/Eastern", "America/New_York"),
    ],
)
def test_legacy_names_are_answered_by_their_current_zone_and_the_reading_says_so(text: str, zone: str) -> None:
    resolved = resolve_zone(text, places=gazetteer())
    assert resolved.key == zone
    assert resolved.reading() == {"input": text, "timezone": zone, "read_as": "alias"}


def test_the_table_loads_names_of_twelve_languages() -> None:
    places = gazetteer()
    assert {places.countries[name] for name in ("австрия", "오스트리아", "النمسا", "αυστρια", "אוסטריה")} == {"AT"}


@pytest.mark.parametrize(
    ("location", "zone"),
    [
        ({"city": "Portland", "region": "Maine", "country": "US"}, "America/New_York"),
        ({"city": "Portland", "region": "OR", "country": "US"}, "America/Los_Angeles"),
        ({"region": "Bavaria", "country": "DE"}, "Europe/Berlin"),
        ({"region": "Queensland", "country": "AU"}, "Australia/Brisbane"),
    ],
)
def test_the_client_contexts_region_places_its_user(location: dict[str, str], zone: str) -> None:
    context = read_client_context({"userLocation": location}, places=gazetteer(), zone_at=zone_at)
    assert context.zone is not None and context.zone.key == zone


def test_a_client_region_of_several_clocks_gives_no_zone_and_says_why() -> None:
    context = read_client_context({"userLocation": {"region": "Indiana", "country": "US"}}, places=gazetteer())
    assert context.zone is None
    assert "keeps 2 clocks" in context.ignored["userLocation.region"]


# --- a missing or damaged table stops start-up, naming the file ----------------------------------------------------


def test_a_missing_damaged_truncated_or_foreign_table_is_refused_naming_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "places.sqlite3"
    with pytest.raises(DataFileError, match=f"the data file {missing} is missing; reinstall horologe"):
        open_table(missing)
    missing.write_bytes(b"not a database at all" * 100)
    with pytest.raises(DataFileError, match=f"the data file {missing} is damaged \\(not a SQLite file\\)"):
        open_table(missing)
    whole = packaged(TABLE).read_bytes()
    missing.write_bytes(whole[:-4096])
    with pytest.raises(DataFileError, match=r"is damaged \(its header says"):
        open_table(missing)
    damaged = bytearray(whole)
    damaged[4096 * 3 : 4096 * 4] = bytes(4096)  # a page of the schema's tables zeroed
    missing.write_bytes(damaged)
    with pytest.raises(DataFileError, match=f"the data file {missing} is damaged"):
        open_table(missing)("SELECT count(*) FROM city_name WHERE name > ''", ())
    missing.write_bytes(whole)
    assert open_table(missing)("SELECT count(*) FROM country", ()) == [(250,)]
    with pytest.raises(DataFileError, match="has layout 1, this horologe reads 2"):
        open_table(missing, version=2)


def test_serving_stops_at_start_up_when_a_data_file_is_missing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gone = tmp_path / "places.sqlite3"
    monkeypatch.setattr(places_module, "gazetteer", lambda: Gazetteer(lambda: open_table(gone)))
    assert main(["serve"]) == 2
    assert f"horologe: the data file {gone} is missing; reinstall horologe" in capsys.readouterr().err


def test_a_damaged_holiday_index_is_refused_naming_the_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    damaged = tmp_path / "holiday_names.tsv.gz"
    damaged.write_bytes(packaged("holiday_names.tsv.gz").read_bytes()[:-9])
    monkeypatch.setattr(datafiles, "packaged", lambda name: damaged)
    with pytest.raises(DataFileError, match=f"the data file {damaged} is damaged"):
        holiday_index.check()
