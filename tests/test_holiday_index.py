"""The packaged index of which countries name each holiday matches the `holidays` package it was built from."""

from __future__ import annotations

from datetime import date
from importlib.metadata import version

from horologe.core.holiday_names import find_holiday, names_of_country
from horologe.holiday_index import built_with, holiday_index


def test_the_index_was_built_from_the_installed_holidays_package() -> None:
    assert built_with() == version("holidays"), "run scripts/build_holiday_names.py after upgrading holidays"


def test_the_index_has_every_name_of_some_countries_this_year() -> None:
    index = holiday_index()
    for country in ("AT", "US", "JP", "IN", "BR"):
        missing = [key for key in names_of_country(country, 2026) if country not in index.get(key, frozenset())]
        assert missing == [], country


def test_a_name_looked_up_in_the_index_answers_as_reading_every_country_would() -> None:
    today = date(2026, 11, 23)
    for name in ("thanksgiving", "easter", "diwali", "noel"):
        packaged = find_holiday(name, mode="upcoming", year=None, today=today, home="AT", index=holiday_index())
        read = find_holiday(name, mode="upcoming", year=None, today=today, home="AT")
        assert packaged == read, name
