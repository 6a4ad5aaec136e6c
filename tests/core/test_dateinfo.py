"""Date facts, locale week numbers and other calendars."""

from __future__ import annotations

from datetime import date

import pytest

from horologe.core.dateinfo import date_facts, japanese_era, locale_week_rules, other_calendars, week_number
from horologe.core.errors import InvalidArgument


def test_date_facts_of_a_leap_day() -> None:
    facts = date_facts(date(2024, 2, 29))
    assert facts["day_of_week"] == "Thursday"
    assert facts["iso_week_date"] == "2024-W09-4"
    assert (facts["day_of_year"], facts["quarter"], facts["days_in_month"], facts["leap_year"]) == (60, 1, 29, True)
    assert facts["iso_week_monday"] == "2024-02-26"


@pytest.mark.parametrize(
    ("day", "monday"),
    [
        (date(2021, 1, 1), "2020-12-28"),  # a Friday in the last ISO week of the year before
        (date(2026, 11, 23), "2026-11-23"),  # a Monday is its own week's Monday
        (date(2026, 11, 29), "2026-11-23"),  # a Sunday ends the ISO week
        (date(1, 1, 1), "0001-01-01"),  # the first date there is, a Monday
        (date(9999, 12, 31), "9999-12-27"),
    ],
)
def test_the_iso_week_monday(day: date, monday: str) -> None:
    assert date_facts(day)["iso_week_monday"] == monday
    assert date.fromisoformat(monday).isocalendar()[:2] == day.isocalendar()[:2]


@pytest.mark.parametrize(
    ("locale", "day", "expected"),
    [
        ("de_AT", date(2021, 1, 1), (2020, 53)),  # ISO rules: Friday 1 Jan belongs to the last week of 2020
        ("en_US", date(2021, 1, 1), (2021, 1)),  # US: the week holding Jan 1 is week 1
        ("en_US", date(2024, 12, 29), (2025, 1)),  # Sunday starting the week of Jan 1 2025
        ("de-AT", date(2026, 12, 31), (2026, 53)),
    ],
)
def test_week_numbers_follow_the_locale_rules(locale: str, day: date, expected: tuple[int, int]) -> None:
    assert week_number(day, locale_week_rules(locale)) == expected


def test_iso_locale_weeks_agree_with_isocalendar_for_a_decade() -> None:
    rules = locale_week_rules("de_DE")
    for ordinal in range(date(2020, 1, 1).toordinal(), date(2030, 1, 1).toordinal(), 3):
        day = date.fromordinal(ordinal)
        assert week_number(day, rules) == tuple(day.isocalendar())[:2]


def test_an_unknown_locale_is_refused() -> None:
    with pytest.raises(InvalidArgument):
        locale_week_rules("xx_YY_ZZ")


def test_rosh_hashanah_5786_and_nowruz_1404_are_recognised() -> None:
    assert other_calendars(date(2025, 9, 23))["hebrew"] == {"year": 5786, "month": 7, "day": 1, "month_name": "Tishri"}
    assert other_calendars(date(2025, 3, 21))["persian"]["year"] == 1404
    assert other_calendars(date(2025, 3, 21))["persian"]["month"] == 1


def test_the_julian_calendar_is_13_days_behind_in_2025() -> None:
    assert other_calendars(date(2025, 1, 14))["julian"]["date"] == "2025-01-01"


@pytest.mark.parametrize(
    ("day", "text"), [(date(2019, 5, 1), "Reiwa 1"), (date(2019, 4, 30), "Heisei 31"), (date(1989, 1, 7), "Shōwa 64")]
)
def test_japanese_eras_start_on_the_official_dates(day: date, text: str) -> None:
    era = japanese_era(day)
    assert era is not None and era["text"] == text


def test_years_1_and_9999_give_null_where_a_calendar_has_no_answer() -> None:
    first, last = other_calendars(date(1, 1, 1)), other_calendars(date(9999, 12, 31))
    assert first["islamic"] is None and first["japanese_era"] is None
    assert last["persian"] is None
    assert last["hebrew"] is not None
