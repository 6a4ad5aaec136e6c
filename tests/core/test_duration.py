"""Durations: exact elapsed time, a calendar breakdown that adds back up, and English prose."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import cache
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from horologe.core.duration import Breakdown, add_breakdown, measure
from horologe.core.errors import InvalidArgument

VIENNA = ZoneInfo("Europe/Vienna")
NEW_YORK = ZoneInfo("America/New_York")
LORD_HOWE = ZoneInfo("Australia/Lord_Howe")
APIA = ZoneInfo("Pacific/Apia")

# Zones with unusual transitions: 30-minute DST, a skipped day, a +15 minute shift, negative DST,
# midnight transitions, Ramadan suspensions, a half-hour zone and a two-hour DST.
TRANSITION_ZONES = {
    "Europe/Vienna": (2026,),
    "America/New_York": (2026,),
    "Australia/Lord_Howe": (2026,),
    "Pacific/Apia": (2011,),
    "Asia/Kathmandu": (1985,),  # 1986-01-01 local is still 1985 in UTC
    "Europe/Dublin": (2026,),
    "America/Sao_Paulo": (2018,),
    "Africa/Casablanca": (2026,),
    "America/St_Johns": (2026,),
    "Antarctica/Troll": (2026,),
}
THREE_HOURS_MS = 3 * 3600 * 1000


def _first_instant_with_new_offset(zone: ZoneInfo, before: datetime, after: datetime) -> datetime:
    def offset(second: int) -> timedelta | None:
        return datetime.fromtimestamp(second, zone).utcoffset()

    low, high = int(before.timestamp()), int(after.timestamp())
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if offset(middle) == offset(low) else (low, middle)
    return datetime.fromtimestamp(high, UTC)


@cache
def transitions(zone_name: str) -> tuple[datetime, ...]:
    """Every UTC instant at which `zone_name` changes its offset in its listed years."""
    zone, found = ZoneInfo(zone_name), []
    for year in TRANSITION_ZONES[zone_name]:
        day = datetime(year, 1, 1, tzinfo=UTC)
        while day.year == year:
            following = day + timedelta(days=1)
            if day.astimezone(zone).utcoffset() != following.astimezone(zone).utcoffset():
                found.append(_first_instant_with_new_offset(zone, day, following))
            day = following
    return tuple(found)


@st.composite
def near_transition(draw: st.DrawFn, zone_name: str | None = None) -> datetime:
    """An aware instant within 3 hours (millisecond steps) of a real transition, in that zone."""
    name = zone_name or draw(st.sampled_from(sorted(TRANSITION_ZONES)))
    instant = draw(st.sampled_from(transitions(name)))
    shift = timedelta(milliseconds=draw(st.integers(-THREE_HOURS_MS, THREE_HOURS_MS)))
    return (instant + shift).astimezone(ZoneInfo(name))


@st.composite
def pair_near_transitions(draw: st.DrawFn) -> tuple[datetime, datetime]:
    """Two instants in one zone, each near one of its transitions (possibly the same one)."""
    name = draw(st.sampled_from(sorted(TRANSITION_ZONES)))
    return draw(near_transition(name)), draw(near_transition(name))


def test_all_transition_tables_are_found():
    for name in TRANSITION_ZONES:
        assert transitions(name), name


# Aware datetimes inside a fold never compare equal across zones (PEP 495), so properties compare in UTC.
def at(
    zone: ZoneInfo, year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0, *, fold: int = 0
) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=zone, fold=fold)


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=UTC)


BREAKDOWN_CASES = [
    # start, end, expected breakdown (y, mo, d, h, mi, s), total seconds, prose
    (utc(2025, 8, 17, 10), utc(2025, 8, 17, 11), (0, 0, 0, 1, 0, 0), 3600, "1 hour"),
    (utc(2025, 8, 17, 10), utc(2025, 8, 17, 10), (0, 0, 0, 0, 0, 0), 0, "0 seconds"),
    (
        utc(2025, 8, 17, 10),
        utc(2025, 8, 17, 10, 0, 42) + timedelta(milliseconds=500),
        (0,) * 5 + (42.5,),
        42.5,
        "42.5 seconds",
    ),
    (utc(2025, 8, 17), utc(2025, 8, 19, 3, 5), (0, 0, 2, 3, 5, 0), 183900, "2 days, 3 hours and 5 minutes"),
    (utc(2024, 6, 17), utc(2025, 8, 17), (1, 2, 0, 0, 0, 0), 36806400, "1 year and 2 months"),
    (utc(2025, 8, 17), utc(2025, 8, 17, 0, 0, 1), (0, 0, 0, 0, 0, 1), 1, "1 second"),
    # Month ends clamp: Jan 31 + 1 month is the last day of February.
    (utc(2025, 1, 31), utc(2025, 2, 28), (0, 1, 0, 0, 0, 0), 2419200, "1 month"),
    (utc(2024, 1, 31), utc(2024, 2, 29), (0, 1, 0, 0, 0, 0), 2505600, "1 month"),
    (utc(2025, 1, 30), utc(2025, 3, 1), (0, 1, 1, 0, 0, 0), 2592000, "1 month and 1 day"),
    (utc(2025, 1, 31, 10), utc(2025, 2, 28, 12), (0, 1, 0, 2, 0, 0), 2426400, "1 month and 2 hours"),
    # A calendar day across a DST change is 23 or 25 hours of elapsed time.
    (at(VIENNA, 2026, 3, 29), at(VIENNA, 2026, 3, 30), (0, 0, 1, 0, 0, 0), 82800, "1 day"),
    (at(VIENNA, 2026, 10, 25), at(VIENNA, 2026, 10, 26), (0, 0, 1, 0, 0, 0), 90000, "1 day"),
    # Within the day of the change, hours are exact elapsed hours.
    (at(VIENNA, 2026, 3, 29), at(VIENNA, 2026, 3, 29, 12), (0, 0, 0, 11, 0, 0), 39600, "11 hours"),
    (at(NEW_YORK, 2026, 11, 1, 1, 30), at(NEW_YORK, 2026, 11, 1, 1, 30, fold=1), (0, 0, 0, 1, 0, 0), 3600, "1 hour"),
    (
        at(NEW_YORK, 2026, 11, 1, 1, 30, fold=1),
        at(NEW_YORK, 2026, 11, 2, 1),
        (0, 0, 0, 23, 30, 0),
        84600,
        "23 hours and 30 minutes",
    ),
    (at(LORD_HOWE, 2026, 4, 4, 12), at(LORD_HOWE, 2026, 4, 5, 12), (0, 0, 1, 0, 0, 0), 88200, "1 day"),
    # Samoa skipped 2011-12-30: two calendar days passed in 24 hours.
    (at(APIA, 2011, 12, 29, 12), at(APIA, 2011, 12, 31, 12), (0, 0, 2, 0, 0, 0), 86400, "2 days"),
]


@pytest.mark.parametrize(("start", "end", "parts", "total", "prose"), BREAKDOWN_CASES)
def test_measure_gives_exact_total_and_calendar_breakdown(start, end, parts, total, prose):
    duration = measure(start, end)
    assert duration.total_seconds == total
    assert type(duration.total_seconds) is type(total)
    assert duration.negative is False
    assert duration.breakdown == Breakdown(*parts)
    assert duration.human_readable == prose
    assert add_breakdown(start, duration.breakdown).astimezone(UTC) == end.astimezone(UTC)


@pytest.mark.parametrize(("start", "end", "parts", "total", "prose"), BREAKDOWN_CASES)
def test_measure_backwards_negates_totals_but_keeps_the_breakdown(start, end, parts, total, prose):
    duration = measure(end, start, zone=start.tzinfo)
    assert duration.total_seconds == -total
    assert duration.negative is (total != 0)
    assert duration.breakdown == Breakdown(*parts)
    assert duration.human_readable == prose


def test_measure_uses_the_given_zone_for_calendar_steps():
    start, end = at(VIENNA, 2026, 3, 29).astimezone(UTC), at(VIENNA, 2026, 3, 30).astimezone(UTC)
    assert measure(start, end).breakdown == Breakdown(hours=23)
    assert measure(start, end, zone=VIENNA).breakdown == Breakdown(days=1)


@pytest.mark.parametrize(
    ("unit", "value"),
    [("seconds", 5400), ("minutes", 90), ("hours", 1.5), ("days", 0.0625)],
)
def test_measure_reports_the_value_in_the_requested_unit(unit, value):
    duration = measure(utc(2025, 8, 17), utc(2025, 8, 17, 1, 30), unit=unit)
    assert duration.unit == unit
    assert duration.value == value


def test_measure_rounds_unit_values_to_six_decimals():
    duration = measure(utc(2025, 8, 17), utc(2025, 8, 17, 0, 0, 1), unit="hours")
    assert duration.value == 0.000278


def test_measure_keeps_microseconds_in_the_total():
    duration = measure(utc(2025, 8, 17), utc(2025, 8, 17) + timedelta(microseconds=1))
    assert duration.total_seconds == 0.000001
    assert duration.human_readable == "0.000001 seconds"


def test_as_dict_has_the_seed_shape_plus_every_unit_total():
    body = measure(utc(2025, 8, 17, 10), utc(2025, 8, 17, 11), unit="minutes").as_dict()
    assert body == {
        "total_seconds": 3600,
        "seconds": 3600,
        "minutes": 60,
        "hours": 1,
        "days": 0.041667,
        "calendar_days": 0,
        "unit": "minutes",
        "value": 60,
        "negative": False,
        "breakdown": {"years": 0, "months": 0, "days": 0, "hours": 1, "minutes": 0, "seconds": 0},
        "human_readable": "1 hour",
    }


@pytest.mark.parametrize(
    ("parts", "stated"),
    [
        ((36, 8, 25, 15, 13, 2.5), (36, 8, 25, 0, 0, 0)),  # an age, however late in the day
        ((0, 0, 1, 23, 59, 59.9), (0, 0, 1, 23, 59, 0)),  # never "2 days"
        ((0, 1, 0, 21, 14, 3), (0, 1, 0, 21, 14, 0)),  # the three largest non-zero units
        ((0, 0, 0, 0, 5, 59.99), (0, 0, 0, 0, 5, 59)),  # whole seconds after a larger unit
        ((0, 0, 0, 0, 0, 42.56), (0, 0, 0, 0, 0, 42.5)),  # seconds alone: one decimal, floored
        ((0, 0, 0, 0, 0, 0.000001), (0, 0, 0, 0, 0, 0.000001)),  # below 0.1: exact
        ((0,) * 6, (0,) * 6),
    ],
)
def test_stated_keeps_the_three_largest_parts_and_never_rounds_up(parts, stated):
    assert Breakdown(*parts).stated() == Breakdown(*stated)


def test_parts_leave_out_the_zeros():
    assert Breakdown(36, 8, 25).parts() == {"years": 36, "months": 8, "days": 25}
    assert Breakdown().parts() == {"seconds": 0}


@pytest.mark.parametrize(
    ("start", "end", "dates"),
    [
        (utc(2026, 11, 23, 9), utc(2026, 12, 24), 31),  # 30.625 days of 24 hours
        (utc(2026, 11, 23, 23, 59), utc(2026, 11, 24, 0, 1), 1),  # two minutes, one date apart
        (at(NEW_YORK, 2026, 11, 22), at(NEW_YORK, 2027, 5, 31), 190),  # a DST change between: 189.96 x 24 hours
        (utc(2026, 12, 24), utc(2026, 11, 23, 9), -31),
    ],
)
def test_calendar_days_count_the_dates_apart_on_the_start_wall_clock(start, end, dates):
    assert measure(start, end).calendar_days == dates


def test_as_dict_totals_are_signed_when_end_is_before_start():
    body = measure(utc(2025, 8, 17, 11), utc(2025, 8, 17, 10)).as_dict()
    assert (body["total_seconds"], body["hours"], body["negative"]) == (-3600, -1, True)
    assert body["human_readable"] == "1 hour"


def test_measure_refuses_an_unknown_unit():
    with pytest.raises(InvalidArgument, match="Use one of: seconds, minutes, hours, days"):
        measure(utc(2025, 8, 17), utc(2025, 8, 18), unit="weeks")  # type: ignore[arg-type]


def test_measure_refuses_naive_datetimes():
    with pytest.raises(InvalidArgument, match="timezone"):
        measure(datetime(2025, 8, 17), utc(2025, 8, 18))


def test_measure_spans_the_whole_supported_range():
    duration = measure(utc(1, 1, 1), datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC))
    assert duration.breakdown == Breakdown(9998, 11, 30, 23, 59, 59.999999)


@settings(max_examples=200, deadline=None)
@given(pair_near_transitions())
def test_total_seconds_is_utc_arithmetic_near_transitions(pair):
    start, end = pair
    expected = (end.astimezone(UTC) - start.astimezone(UTC)) / timedelta(seconds=1)
    assert measure(start, end).total_seconds == pytest.approx(expected, abs=1e-6)


@settings(max_examples=200, deadline=None)
@given(pair_near_transitions())
def test_breakdown_adds_back_up_near_transitions(pair):
    start, end = pair
    duration = measure(start, end)
    earlier, later = (end, start) if duration.negative else (start, end)
    parts = duration.breakdown
    assert min(parts.years, parts.months, parts.days, parts.hours, parts.minutes, parts.seconds) >= 0
    assert parts.months < 12 and parts.minutes < 60 and parts.seconds < 60
    assert add_breakdown(earlier, parts).astimezone(UTC) == later.astimezone(UTC)


@settings(max_examples=200, deadline=None)
@given(near_transition(), st.integers(0, 400 * 24 * 3600 * 1000))
def test_breakdown_adds_back_up_over_long_spans(start, milliseconds):
    # Arithmetic on a zoned datetime is wall-clock arithmetic that drops `fold`; step in UTC instead.
    end = (start.astimezone(UTC) + timedelta(milliseconds=milliseconds)).astimezone(start.tzinfo)
    assert add_breakdown(start, measure(start, end).breakdown).astimezone(UTC) == end.astimezone(UTC)


@settings(max_examples=200, deadline=None)
@given(pair_near_transitions())
def test_breakdown_in_another_zone_adds_back_up_in_that_zone(pair):
    start, end = pair[0].astimezone(UTC), pair[1].astimezone(UTC)
    zone = pair[0].tzinfo
    duration = measure(start, end, zone=zone)
    earlier, later = (end, start) if duration.negative else (start, end)
    assert add_breakdown(earlier, duration.breakdown, zone).astimezone(UTC) == later.astimezone(UTC)
