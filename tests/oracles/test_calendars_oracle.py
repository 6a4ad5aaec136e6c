"""The other calendars of date_info against `convertdate` (a dev dependency, no longer the server's): in the Julian,
Hebrew and tabular Islamic calendars every day of 1990-2040 and every eleventh day of 1800-2200, and every new year
and some month starts of the Persian years the 33-year rule answers (1277-1501 AP), where convertdate computes the
March equinox astronomically."""

from __future__ import annotations

import warnings
from datetime import date, timedelta
from functools import cache

import pytest
from convertdate import hebrew, islamic, julian, persian  # type: ignore[import-untyped]

from horologe.core import calendars


def days() -> list[date]:
    every = [date(1990, 1, 1) + timedelta(days=n) for n in range((date(2041, 1, 1) - date(1990, 1, 1)).days)]
    return every + [date(1800, 1, 1) + timedelta(days=n) for n in range(0, 146_100, 11)]


def test_julian_hebrew_and_islamic_days_match_convertdate_from_1800_to_2200(monkeypatch: pytest.MonkeyPatch) -> None:
    # convertdate finds a Hebrew date by calling its own `to_jd` and `month_days` for the months around it, ~90 µs a
    # day (3 of this test's 4 CPU seconds). Both are pure functions of integers, so remembering their answers changes
    # no answer of convertdate's, only how often it works them out.
    for name in ("to_jd", "month_days"):
        monkeypatch.setattr(hebrew, name, cache(getattr(hebrew, name)))
    wrong = []
    with warnings.catch_warnings():  # convertdate's Hebrew code calls its own deprecated month_days
        warnings.simplefilter("ignore", DeprecationWarning)
        for day in days():
            gregorian = (day.year, day.month, day.day)
            if calendars.julian(day) != tuple(julian.from_gregorian(*gregorian)):
                wrong.append(("julian", day))
            if calendars.hebrew(day) != tuple(hebrew.from_gregorian(*gregorian)):
                wrong.append(("hebrew", day))
            if calendars.islamic(day) != tuple(islamic.from_gregorian(*gregorian)):
                wrong.append(("islamic", day))
    assert wrong == []


def test_persian_new_years_match_the_astronomical_calendar_in_the_years_answered() -> None:
    """Every fourth year and the first and last ones (convertdate's equinox takes a tenth of a second a call; all 225
    years agreed when the range was chosen)."""
    years = calendars.PERSIAN_YEARS
    wrong = []
    for year in sorted({*years[::4], years[0], years[1], years[-2], years[-1]}):
        march = [date(year + 621, 3, n) for n in (19, 20, 21, 22)]
        first = next(day for day in march if (calendars.persian(day) or (0, 0, 0))[1:] == (1, 1))
        if tuple(persian.from_gregorian(first.year, first.month, first.day)) != (year, 1, 1):
            wrong.append(year)
        before = first - timedelta(days=1)
        if tuple(persian.from_gregorian(before.year, before.month, before.day))[:2] != (year - 1, 12):
            wrong.append(year)
    assert wrong == []
    assert calendars.persian(date(1898, 3, 20)) is None and calendars.persian(date(2123, 3, 21)) is None
