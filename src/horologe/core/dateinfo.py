"""Facts about a calendar date: weekday, ISO week, quarter, locale week number and other calendars.

Other calendars come from `calendars` (Julian, Hebrew, Islamic arithmetical/tabular, and Persian by the 33-year
rule within the years it keeps the astronomical calendar's days). Japanese eras use the era start dates of the
Japanese government (Gregorian dates since Meiji 6 = 1873; earlier dates are given no era). Week numbers by locale
follow CLDR's first day of the week and minimal days in the first week, read from Babel.
"""

from __future__ import annotations

import calendar as stdlib_calendar
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Final

from horologe.core import calendars
from horologe.core.arithmetic import days_in_month
from horologe.core.errors import InvalidArgument
from horologe.core.messages import N_
from horologe.core.weekdays import DAY_NAMES

MONTH_NAMES: Final = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
JAPANESE_ERAS: Final = (
    (date(2019, 5, 1), "Reiwa", "令和"),
    (date(1989, 1, 8), "Heisei", "平成"),
    (date(1926, 12, 25), "Shōwa", "昭和"),
    (date(1912, 7, 30), "Taishō", "大正"),
    (date(1873, 1, 1), "Meiji", "明治"),
)
_MEIJI_FIRST_YEAR: Final = 1868


@dataclass(frozen=True, slots=True)
class WeekRules:
    """How a locale numbers weeks: the first day of the week (Monday 0) and minimal days in week 1."""

    locale: str
    first_day: int
    min_days: int


def locale_week_rules(locale: str) -> WeekRules:
    """The CLDR week rules of a locale such as 'en_US', 'de-AT' or 'ar_SA'."""
    from babel import Locale, UnknownLocaleError

    try:
        parsed = Locale.parse(locale.replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        raise InvalidArgument(
            N_("Unknown locale {locale}. Use a language tag such as 'en_US', 'de_AT' or 'ar_SA'."),
            locale=repr(locale[:40]),
            suggestions=["en_US", "en_GB", "de_DE"],
        ) from None
    return WeekRules(str(parsed), parsed.first_week_day, parsed.min_week_days)


def week_number(day: date, rules: WeekRules) -> tuple[int, int]:
    """(week-based year, week number) of `day` under a locale's week rules (ISO is Monday + 4 days)."""
    year = day.year
    start = _first_week_start(year, rules)
    if day < start:
        year -= 1
        start = _first_week_start(year, rules)
    elif year < 9999 and day >= _first_week_start(year + 1, rules):
        year += 1
        start = _first_week_start(year, rules)
    return year, (day - start).days // 7 + 1


def _first_week_start(year: int, rules: WeekRules) -> date:
    jan1 = date(year, 1, 1)
    back = (jan1.weekday() - rules.first_day) % 7
    if 7 - back < rules.min_days:
        back -= 7  # the week holding Jan 1 is too short: week 1 starts the next week
    try:
        return jan1 - timedelta(days=back)
    except OverflowError:
        return date.min


def date_facts(day: date) -> dict[str, Any]:
    """Weekday, ISO week (and the date of its Monday), ordinal day, quarter, month length and leap year of a date."""
    iso_year, iso_week, iso_day = day.isocalendar()
    leap = stdlib_calendar.isleap(day.year)
    return {
        "date": day.isoformat(),
        "day_of_week": DAY_NAMES[day.weekday()],
        "iso_weekday": iso_day,
        "iso_week": iso_week,
        "iso_week_year": iso_year,
        "iso_week_date": f"{iso_year:04d}-W{iso_week:02d}-{iso_day}",
        "iso_week_monday": (day - timedelta(days=iso_day - 1)).isoformat(),  # 0001-01-01 is a Monday: no overflow
        "day_of_year": day.timetuple().tm_yday,
        "days_in_year": 366 if leap else 365,
        "quarter": (day.month - 1) // 3 + 1,
        "month_name": MONTH_NAMES[day.month - 1],
        "days_in_month": days_in_month(day.year, day.month),
        "leap_year": leap,
    }


def other_calendars(day: date) -> dict[str, Any]:
    """The date in the Julian, Hebrew, Islamic (tabular), Persian and Japanese-era calendars."""
    jy, jm, jd = calendars.julian(day)
    return {
        "julian": {"year": jy, "month": jm, "day": jd, "date": f"{jy:04d}-{jm:02d}-{jd:02d}"},
        "hebrew": _entry(calendars.hebrew(day), calendars.HEBREW_MONTHS),
        "islamic": _entry(calendars.islamic(day), calendars.ISLAMIC_MONTHS),
        "persian": _entry(calendars.persian(day), calendars.PERSIAN_MONTHS),
        "japanese_era": japanese_era(day),
    }


def _entry(reading: tuple[int, int, int] | None, names: tuple[str, ...]) -> Any:
    """One calendar's reading, or None before its epoch or outside the range it is given for."""
    if reading is None or reading[0] < 1:
        return None
    year, month, number = reading
    return {"year": year, "month": month, "day": number, "month_name": names[month - 1]}


def japanese_era(day: date) -> dict[str, Any] | None:
    """The Japanese era (gengō) and era year of a date since 1873, else None."""
    for start, name, kanji in JAPANESE_ERAS:
        if day >= start:
            first = _MEIJI_FIRST_YEAR if name == "Meiji" else start.year
            year = day.year - first + 1
            return {"era": name, "era_kanji": kanji, "year": year, "text": f"{name} {year}"}
    return None
