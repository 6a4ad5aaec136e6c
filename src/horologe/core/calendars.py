"""Other calendars of a Gregorian date, by arithmetic: Julian, Hebrew, Islamic (tabular) and Persian (Solar Hijri).

The Hebrew and tabular Islamic calendars are arithmetic by definition; the functions follow the algorithms of
Fourmilab's calendar converter as the `convertdate` package writes them (a test compares every day of 1990-2040 and
every eleventh of 1800-2200 with it), except that a Hebrew date is found from its year's first day and length (the
converter recomputes the year for every month it steps over: ten times slower).
The Persian calendar is astronomical (the year begins on the day of the March equinox at Tehran, before noon); its
33-year arithmetic rule (8 leap years in 33) gives the same new year as `convertdate`'s astronomical
computation every year from 1277 to 1502 AP (1898-2123), the years answered here; outside them, None (the rule
drifts a day from the equinox in 10 of the 480 years 1170-1649 AP).
"""

from __future__ import annotations

from datetime import date
from math import ceil, floor
from typing import Final

JD_OF_ORDINAL: Final = 1721424.5
"""The Julian day at the midnight that begins `date.toordinal()` day 0."""
HEBREW_EPOCH: Final = 347995.5
ISLAMIC_EPOCH: Final = 1948439.5
PERSIAN_BASE: Final = date(622, 3, 21).toordinal()
"""The day the 33-year rule counts its years from."""
PERSIAN_YEARS: Final = range(1277, 1502)
"""The Persian years (1898-2123) where the 33-year rule keeps the astronomical calendar's days."""
TISHRI: Final = 7
HEBREW_MONTHS: Final = (
    "Nisan", "Iyyar", "Sivan", "Tammuz", "Av", "Elul", "Tishri", "Heshvan", "Kislev", "Teveth", "Shevat", "Adar",
    "Adar Bet",
)  # fmt: skip
ISLAMIC_MONTHS: Final = (  # as convertdate wrote them
    "al-Muḥarram",
    "Ṣafar",
    "Rabīʿ al-ʾAwwal",  # noqa: RUF001
    "Rabīʿ ath-Thānī",
    "Jumādā al-ʾAwwal",  # noqa: RUF001
    "Jumādā ath-Thāniyah",
    "Rajab",
    "Shaʿbān",
    "Ramaḍān",
    "Shawwāl",
    "Zū al-Qaʿdah",
    "Zū al-Ḥijjah",
)
PERSIAN_MONTHS: Final = (
    "Farvardin", "Ordibehesht", "Khordad", "Tir", "Mordad", "Shahrivar", "Mehr", "Aban", "Azar", "Dey", "Bahman",
    "Esfand",
)  # fmt: skip


def julian(day: date) -> tuple[int, int, int]:
    """The Julian calendar's (year, month, day) of a date."""
    c = day.toordinal() + 1721425 + 32082
    d = (4 * c + 3) // 1461
    e = c - 1461 * d // 4
    m = (5 * e + 2) // 153
    return d - 4800 + m // 10, m + 3 - 12 * (m // 10), e - (153 * m + 2) // 5 + 1


def islamic(day: date) -> tuple[int, int, int]:
    """The tabular Islamic calendar's (year, month, day) of a date."""
    jd = day.toordinal() + JD_OF_ORDINAL
    year = floor(((30 * (jd - ISLAMIC_EPOCH)) + 10646) / 10631)
    month = min(12, ceil((jd - (29 + _islamic_jd(year, 1, 1))) / 29.5) + 1)
    return year, month, int(jd - _islamic_jd(year, month, 1)) + 1


def _islamic_jd(year: int, month: int, day: int) -> float:
    return (day + ceil(29.5 * (month - 1)) + (year - 1) * 354 + floor((3 + (11 * year)) / 30) + ISLAMIC_EPOCH) - 1


def hebrew(day: date) -> tuple[int, int, int]:
    """The Hebrew calendar's (year, month, day) of a date, months counted from Nisan (1) to Adar Bet (13)."""
    ordinal = day.toordinal()
    year = floor(((ordinal + JD_OF_ORDINAL - HEBREW_EPOCH) * 98496.0) / 35975351.0) - 1
    while _hebrew_new_year(year + 1) <= ordinal:
        year += 1
    start = _hebrew_new_year(year)
    length = _hebrew_new_year(year + 1) - start
    days = ordinal - start
    *months, last = _hebrew_month_order(year)
    for month in months:
        month_days = _hebrew_month_length(year, month, length)
        if days < month_days:
            return year, month, days + 1
        days -= month_days
    return year, last, days + 1


def _hebrew_new_year(year: int) -> int:
    """The ordinal (as `date.toordinal()`) of Tishri 1 of a Hebrew year."""
    return int(HEBREW_EPOCH - JD_OF_ORDINAL) + _hebrew_delay_1(year) + _hebrew_delay_2(year) + 2


def _hebrew_leap(year: int) -> bool:
    return ((year * 7) + 1) % 19 < 7


def _hebrew_delay_1(year: int) -> int:
    """The start of the year moved to avoid weekdays the feasts may not fall on."""
    months = floor(((235 * year) - 234) / 19)
    parts = 12084 + (13753 * months)
    day = (months * 29) + floor(parts / 25920)
    return day + 1 if (3 * (day + 1)) % 7 < 3 else day


def _hebrew_delay_2(year: int) -> int:
    """The start of the year moved for the lengths of the years around it."""
    last, present, following = _hebrew_delay_1(year - 1), _hebrew_delay_1(year), _hebrew_delay_1(year + 1)
    if following - present == 356:
        return 2
    return 1 if present - last == 382 else 0


def _hebrew_month_order(year: int) -> tuple[int, ...]:
    """The months of a year in the order they come: from Tishri (7) through Adar (12) or Adar Bet (13), then from
    Nisan (1) to Elul (6)."""
    return (*range(TISHRI, 14 if _hebrew_leap(year) else 13), *range(1, TISHRI))


def _hebrew_month_length(year: int, month: int, year_days: int) -> int:
    """A month's days; Heshvan (8) and Kislev (9) follow the year's length (353-355 or 383-385 days)."""
    if month in (2, 4, 6, 10, 13) or (month == 12 and not _hebrew_leap(year)):
        return 29
    if month == 8 and year_days % 10 != 5:
        return 29
    if month == 9 and year_days % 10 == 3:
        return 29
    return 30


def persian(day: date) -> tuple[int, int, int] | None:
    """The Persian (Solar Hijri) calendar's (year, month, day) of a date, or None outside `PERSIAN_YEARS`."""
    ordinal = day.toordinal()
    year = (ordinal - PERSIAN_BASE) * 33 // 12053 + 1
    while _persian_new_year(year) > ordinal:
        year -= 1
    while _persian_new_year(year + 1) <= ordinal:
        year += 1
    if year not in PERSIAN_YEARS:
        return None
    days = ordinal - _persian_new_year(year)
    if days < 186:
        return year, days // 31 + 1, days % 31 + 1
    return year, (days - 186) // 30 + 7, (days - 186) % 30 + 1


def _persian_new_year(year: int) -> int:
    """The ordinal of 1 Farvardin of a year: 365 days a year and the leap years before it by the 33-year rule."""
    return PERSIAN_BASE + 365 * (year - 1) + (8 * year + 21) // 33
