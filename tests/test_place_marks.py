"""Letters with marks read as people type them, without turning one place into another, and countries by their names
in their own languages (issue 36, item 3), on the packaged places table."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from horologe.core.errors import AmbiguousTimezone, InvalidTimezone
from horologe.core.gazetteer import fold, mark_fold
from horologe.core.zones import resolve_zone
from horologe.places import gazetteer

JULY = datetime(2026, 7, 1, 12, tzinfo=UTC)


def place(text: str) -> tuple[str, str | None]:
    zone = resolve_zone(text, places=gazetteer(), now=JULY)
    return zone.key, zone.place


@pytest.mark.parametrize(
    ("text", "folded", "marked"),
    [
        ("Åland", "aland", "åland"),
        ("Tromsø", "tromso", "tromsø"),
        ("Łódź", "lodz", "łódź"),
        ("Straße", "strasse", "strasse"),
        ("Færøerne", "faeroerne", "færøerne"),
        ("भारत", "भारत", "भारत"),  # a vowel sign is part of its word, not a space
        ("São_Paulo", "sao paulo", "são paulo"),
    ],
)
def test_letters_fold_as_people_type_them_and_marks_are_kept_apart(text: str, folded: str, marked: str) -> None:
    assert (fold(text), mark_fold(text)) == (folded, marked)


@pytest.mark.parametrize(
    ("text", "zone", "label"),
    [
        ("Münster", "Europe/Berlin", "Münster, DE"),  # not Munster, Ireland
        ("Åland", "Europe/Mariehamn", "Åland Islands"),  # not Aland, India
        ("Tromso", "Europe/Oslo", "Tromsø, NO"),
        ("Lodz", "Europe/Warsaw", "Łódź, PL"),
        ("アルトヴィン", "Europe/Istanbul", "Artvin, TR"),  # Artvin in Japanese, not Haiti's Artibonite
        ("Zürich", "Europe/Zurich", "Zürich, CH"),
        ("San José", "America/Costa_Rica", "San José, CR"),  # not San Jose, California
        ("Córdoba", "America/Argentina/Cordoba", "Córdoba, AR"),  # its province, written "Cordoba", stays
    ],
)
def test_a_name_with_marks_is_the_place_so_written(text: str, zone: str, label: str) -> None:
    assert place(text) == (zone, label)


def test_a_name_without_marks_is_every_place_it_folds_to() -> None:
    assert place("Munster") == ("Europe/Dublin", "Munster, IE")
    assert resolve_zone("Munster", places=gazetteer()).others == ("Europe/Berlin",)
    assert place("Aland") == ("Asia/Kolkata", "Aland, IN")


@pytest.mark.parametrize(
    ("text", "zone"),
    [("Polska", "Europe/Warsaw"), ("Norge", "Europe/Oslo"), ("Suomi", "Europe/Helsinki"), ("भारत", "Asia/Kolkata")],
)
def test_countries_by_their_names_in_their_own_languages(text: str, zone: str) -> None:
    assert place(text)[0] == zone


def test_a_city_qualified_by_a_countrys_own_name() -> None:
    assert place("Kraków, Polska") == ("Europe/Warsaw", "Kraków, PL")
    assert place("Bergen, Norge")[0] == "Europe/Oslo"


def test_an_unknown_qualifier_is_said_to_be_unknown_not_to_lack_the_place() -> None:
    with pytest.raises(InvalidTimezone) as caught:
        resolve_zone("Kraków, Narnia", places=gazetteer(), now=JULY)
    assert str(caught.value).startswith("'Narnia' is not a country, state or province we know; 'Kraków' is in")
    with pytest.raises(InvalidTimezone, match="There is no 'Vienna' in 'Germany' that we know"):
        resolve_zone("Vienna, Germany", places=gazetteer(), now=JULY)


def test_a_shared_country_name_is_still_a_tie() -> None:
    with pytest.raises(AmbiguousTimezone):
        resolve_zone("Georgia", places=gazetteer())
