"""The places table compiled and searched, on a small table written here (the packaged one: tests/test_places.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from horologe.core.errors import AmbiguousTimezone, InvalidTimezone
from horologe.core.gazetteer import Country, Division, Gazetteer, Place, Query
from horologe.core.zones import resolve_zone
from horologe.places import compile_table, from_text

TABLE = "\n".join(
    [
        "# a comment line",
        "c\tGuangzhou\tguangzhou\tcanton|広州\tCN\t30\t11000000\tAsia/Shanghai",
        "c\tValencia\tvalencia\t\tVE\t07\t1600000\tAmerica/Caracas",
        "c\tValencia\tvalencia\t\tES\t60\t800000\tEurope/Madrid",
        "c\tBiel/Bienne\tbiel bienne|biel|bienne\t\tCH\tBE\t150000\tEurope/Zurich",
        "c\tCanton\tcanton\t\tUS\tOH\t70000\tAmerica/New_York",
        "c\tPortland\tportland\t\tUS\tOR\t650000\tAmerica/Los_Angeles",
        "c\tPortland\tportland\t\tUS\tME\t66000\tAmerica/New_York",
        "c\tSmallville\tsmallville\tkent town\tUS\tKS\t20000\tAmerica/Chicago",
        "c\tArizona\tarizona\t\tHN\t01\t20000\tAmerica/Tegucigalpa",
        "z\tEurope/Vienna\twien|vienne|ウィーン",
        "k\tJP\t126000000\tjapan\tjapon|日本\tAsia/Tokyo=90000000\t",
        "k\tUS\t330000000\tunited states\tetats unis\tAmerica/New_York=100000000|America/Chicago=60000000\tétats unis",
        "r\tUS\tOR\tOregon\toregon|us or\tорегон\tor\t3000000\tAmerica/Los_Angeles=3000000",
        "r\tUS\tME\tMaine\tmaine|us me\t\tme\t900000\tAmerica/New_York=900000",
        "r\tUS\tAZ\tArizona\tarizona|us az\t\taz\t7000000\tAmerica/Phoenix=6900000|America/Denver=100000",
        "r\tUS\tIN\tIndiana\tindiana\t\tin\t4500000\tAmerica/Indiana/Indianapolis=3600000|America/Chicago=900000",
        "s\tDE\tBY\tBayern\tbayern|bavaria|baviere",
        "",
    ]
)


def table() -> Gazetteer:
    return from_text(TABLE)


def test_the_table_is_opened_on_the_first_search_only() -> None:
    opened: list[int] = []
    compiled = compile_table(TABLE)

    def open_table() -> Query:
        opened.append(1)
        return lambda sql, parameters: compiled.execute(sql, parameters).fetchall()

    places = Gazetteer(open_table)
    assert opened == []
    assert len(places) == 9
    places.matches("valencia")
    assert opened == [1]


def test_a_name_finds_its_cities_largest_first() -> None:
    found = table().matches("valencia")
    assert [(m.place.country, m.place.zone, m.alternate) for m in found] == [
        ("VE", "America/Caracas", False),
        ("ES", "Europe/Madrid", False),
    ]
    assert found[0].place == Place("Valencia", "VE", 1_600_000, "America/Caracas", "07")


def test_an_alternate_name_weighs_a_twentieth_of_the_population() -> None:
    found = table().matches("canton")
    assert [(m.place.name, m.weight, m.alternate) for m in found] == [
        ("Guangzhou", 550_000.0, True),
        ("Canton", 70_000.0, False),
    ]


def test_every_part_of_a_slashed_name_is_a_name() -> None:
    assert [m.place.name for m in table().matches("bienne")] == ["Biel/Bienne"]


def test_exemplars_and_country_names() -> None:
    places = table()
    assert places.exemplars("ウィーン") == ("Europe/Vienna",)
    assert places.exemplars("narnia") == ()
    assert places.countries["japon"] == "JP"
    assert places.country("japan") == Country("JP", 126_000_000, True, (("Asia/Tokyo", 90_000_000),))
    assert places.country("japon") == Country("JP", 126_000_000, False, (("Asia/Tokyo", 90_000_000),))
    assert places.country("narnia") is None
    assert places.country_coded("ZZ") == Country("ZZ", 0, True, ())


def test_divisions_by_name_other_name_and_code() -> None:
    places = table()
    oregon = Division("US", "OR", "Oregon", 3_000_000, (("America/Los_Angeles", 3_000_000),), ("or",))
    assert places.divisions("oregon") == [(oregon, False)]
    assert places.divisions("орегон") == [(oregon, True)]
    assert places.divisions_coded("or") == (oregon,)
    assert places.division("US", "OR") == oregon
    assert places.division("US", "XX") is None
    assert places.divisions("narnia") == []


def test_subdivisions_holiday_calendars_take() -> None:
    assert table().subdivisions("DE") == (("BY", "Bayern", ("bayern", "bavaria", "baviere")),)
    assert table().subdivisions("AT") == ()


def test_spellings_are_the_larger_cities_names_by_initial_and_length() -> None:
    spellings = table().spellings("g", 1, 20)
    assert spellings["guangzhou"].zone == "Asia/Shanghai"
    assert list(spellings) == ["guangzhou"] and len(spellings) == 1
    assert list(table().spellings("c", 1, 20)) == ["canton"]  # Guangzhou's other name; Canton, Ohio is small
    assert "smallville" not in table().spellings("s", 1, 20) and "kent town" not in table().spellings("k", 1, 20)
    assert list(table().spellings("g", 1, 8)) == []


def test_zones_of_a_country_by_population() -> None:
    assert table().zones_by_population("US") == ["America/Los_Angeles", "America/New_York", "America/Chicago"]


# --- the resolver reading the table ------------------------------------------------------------------------------


def test_a_city_of_one_clock_resolves_and_names_the_place_and_smaller_namesakes() -> None:
    zone = resolve_zone("Portland", places=table())
    assert (zone.key, zone.kind, zone.place, zone.others) == (
        "America/Los_Angeles",
        "city",
        "Portland, US",
        ("America/New_York",),
    )
    assert zone.reading() == {
        "input": "Portland",
        "timezone": "America/Los_Angeles",
        "read_as": "city",
        "place": "Portland, US",
        "other_zones": ["America/New_York"],
    }


def test_cities_of_similar_size_in_other_zones_are_an_ambiguity_with_offsets() -> None:
    with pytest.raises(AmbiguousTimezone) as caught:
        resolve_zone("Valencia", places=table(), now=datetime(2026, 7, 1, tzinfo=UTC))
    assert caught.value.suggestions == ("America/Caracas", "Europe/Madrid")
    assert "'Valencia, VE' (America/Caracas, UTC-04:00), 'Valencia, ES' (Europe/Madrid, UTC+02:00)" in str(caught.value)


def test_the_clients_country_settles_an_ambiguous_city() -> None:
    assert resolve_zone("Valencia", places=table(), country_hint="ES").key == "Europe/Madrid"


def test_a_former_name_of_a_big_city_beats_a_small_city_of_that_name() -> None:
    assert resolve_zone("Canton", places=table()).key == "Asia/Shanghai"


def test_without_the_table_a_city_not_named_by_the_database_is_unknown() -> None:
    with pytest.raises(InvalidTimezone):
        resolve_zone("Portland")


# --- places the table ranks, coordinates without a lookup -----------------------------------------------------


@pytest.mark.parametrize("text", ["48°61′N 16°E", "-48.2°S 16.4°E", "48.5°30′N 16°E", "N48.2N, 16.4"])
def test_coordinates_with_impossible_parts_are_refused(text: str) -> None:
    with pytest.raises(InvalidTimezone, match="is not a pair of coordinates"):
        resolve_zone(text, places=table())


def test_coordinates_need_a_lookup() -> None:
    with pytest.raises(InvalidTimezone, match="are not read here"):
        resolve_zone("48.2, 16.4", places=table())
    with pytest.raises(InvalidTimezone, match="are not read here"):
        resolve_zone("48.2, 16.4")


def test_coordinates_where_the_lookup_knows_no_zone_are_refused() -> None:
    with pytest.raises(InvalidTimezone, match=r"No timezone is known at 48\.2, 16\.4"):
        resolve_zone("48.2, 16.4", places=from_text(TABLE, lambda latitude, longitude: None))


def test_a_region_of_the_table_by_name_code_and_other_name() -> None:
    assert resolve_zone("Oregon", places=table()).key == "America/Los_Angeles"
    assert resolve_zone("Орегон", places=table()).place == "Oregon, US"
    assert resolve_zone("Portland, OR", places=table()).place == "Portland, US"
    assert resolve_zone("Portland ME", places=table()).key == "America/New_York"


def test_a_state_sized_name_never_resolves_to_a_same_named_small_place() -> None:
    zone = resolve_zone("Arizona", places=table())
    assert (zone.key, zone.kind, zone.others) == ("America/Phoenix", "region", ("America/Denver",))


def test_a_region_of_several_clocks_is_refused() -> None:
    with pytest.raises(AmbiguousTimezone, match="Indiana, US keeps 2 clocks"):
        resolve_zone("Indiana", places=table())


def test_a_country_of_the_table_answers_its_one_clock_and_several_are_refused() -> None:
    assert resolve_zone("Japon", places=table()).key == "Asia/Tokyo"
    with pytest.raises(AmbiguousTimezone, match="United States"):
        resolve_zone("United States", places=table())


def test_words_of_a_qualifier_without_comma_that_name_no_place_are_unknown() -> None:
    with pytest.raises(InvalidTimezone, match="Unknown place or timezone"):
        resolve_zone("Nowhere Oregon", places=table())
