"""Measuring the time between two instants: exact elapsed time plus a calendar breakdown.

Semantics:

- ``total_seconds`` (and the per-unit totals) are exact elapsed time, ``end - start`` computed in UTC,
  signed: negative when end is before start.
- The breakdown describes ``|end - start|`` from the earlier instant to the later one, in a zone
  (``zone``, else the start's own tzinfo). Years, months and days are calendar steps on the wall clock
  (Jan 31 + 1 month = Feb 28/29; a day is a calendar day, 23 or 25 hours across DST); hours, minutes and
  seconds are exact elapsed time after those steps. Each calendar count is the largest whose wall time,
  placed in the zone with the 'compatible' policy, is not after the later instant.
- So the breakdown adds back up: ``add_breakdown(earlier, breakdown, zone) == later`` (compare in UTC:
  PEP 495 makes a datetime inside a fold unequal to every datetime in another zone).
- ``calendar_days`` counts the dates from the start's to the end's on that wall clock (signed): how many days
  "until Christmas" is to a person, which differs from the elapsed 24-hour days when the times of day differ or a
  DST change lies between.
- ``human_readable`` carries no sign; ``negative`` says which way the interval runs. ``Breakdown.stated`` is the
  breakdown as a person states it: its three largest units, never rounded up (an age: 36 years, 8 months and 25 days,
  however many hours are left; 1 day, 23 hours and 59 minutes stays that, never "2 days").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Final, Literal, get_args

from horologe.core.arithmetic import days_in_month
from horologe.core.errors import InvalidArgument
from horologe.core.localtime import resolve_local
from horologe.core.messages import N_

DurationUnit = Literal["seconds", "minutes", "hours", "days"]
DURATION_UNITS: tuple[DurationUnit, ...] = get_args(DurationUnit)

_UNIT_SECONDS: Final = {"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400}
_ONE_MICROSECOND: Final = timedelta(microseconds=1)


@dataclass(frozen=True, slots=True)
class Breakdown:
    """Calendar years, months and days, then exact hours, minutes and seconds; all non-negative."""

    years: int = 0
    months: int = 0
    days: int = 0
    hours: int = 0
    minutes: int = 0
    seconds: float = 0

    def as_dict(self) -> dict[str, float]:
        """The breakdown as JSON-ready numbers."""
        return {
            "years": self.years,
            "months": self.months,
            "days": self.days,
            "hours": self.hours,
            "minutes": self.minutes,
            "seconds": self.seconds,
        }

    def stated(self, parts: int = 3) -> Breakdown:
        """The breakdown as a person states it: its `parts` largest non-zero units, the rest dropped, never rounded
        up. Seconds after a larger unit are whole; seconds alone keep one decimal (or their exact value below 0.1)."""
        values: list[float] = [self.years, self.months, self.days, self.hours, self.minutes, self.seconds]
        kept = [index for index, value in enumerate(values) if value][:parts]
        stated = [value if index in kept else 0 for index, value in enumerate(values)]
        seconds = stated[-1]
        if seconds and kept != [5]:
            seconds = math.floor(seconds)
        elif seconds >= 0.1:
            seconds = math.floor(seconds * 10) / 10
        years, months, days, hours, minutes = (int(value) for value in stated[:5])
        whole = int(seconds) if float(seconds).is_integer() else seconds
        return Breakdown(years, months, days, hours, minutes, whole)

    def parts(self) -> dict[str, float]:
        """The non-zero units (`{"seconds": 0}` for none): what the breakdown says, without its zeros."""
        return {name: value for name, value in self.as_dict().items() if value} or {"seconds": 0}

    @property
    def human_readable(self) -> str:
        """English text such as '2 days, 3 hours and 5 minutes' or '0 seconds'."""
        counts = (
            (self.years, "year"),
            (self.months, "month"),
            (self.days, "day"),
            (self.hours, "hour"),
            (self.minutes, "minute"),
            (self.seconds, "second"),
        )
        parts = [_count(amount, noun) for amount, noun in counts if amount]
        if not parts:
            return "0 seconds"
        return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


@dataclass(frozen=True, slots=True)
class Duration:
    """The interval from start to end: exact signed totals and an unsigned calendar breakdown."""

    total_seconds: float
    unit: DurationUnit
    value: float
    negative: bool
    breakdown: Breakdown
    calendar_days: int

    @property
    def human_readable(self) -> str:
        """English text for the breakdown, without a sign (see `negative`)."""
        return self.breakdown.human_readable

    def total(self, unit: DurationUnit) -> float:
        """The signed elapsed time in `unit`, rounded to 6 decimals (an int when whole)."""
        return _number(self.total_seconds / _UNIT_SECONDS[unit])

    def as_dict(self) -> dict[str, object]:
        """The JSON shape: exact totals in every unit, the requested unit and value, breakdown and prose."""
        return {
            "total_seconds": self.total_seconds,
            **{unit: self.total(unit) for unit in DURATION_UNITS},
            "calendar_days": self.calendar_days,
            "unit": self.unit,
            "value": self.value,
            "negative": self.negative,
            "breakdown": self.breakdown.as_dict(),
            "human_readable": self.human_readable,
        }


def measure(start: datetime, end: datetime, *, unit: DurationUnit = "seconds", zone: tzinfo | None = None) -> Duration:
    """Measure from start to end: exact elapsed time and a calendar breakdown in `zone` (default start's zone)."""
    _check_unit(unit)
    _check_aware(start, end)
    elapsed = end.astimezone(UTC) - start.astimezone(UTC)
    total = _seconds(elapsed)
    place = zone or start.tzinfo
    assert place is not None  # _check_aware guarantees it
    earlier, later = (start, end) if elapsed >= timedelta(0) else (end, start)
    breakdown = calendar_breakdown(earlier.astimezone(place), later.astimezone(place), place)
    value = _number(total / _UNIT_SECONDS[unit])
    dates = (_wall(end, place).date() - _wall(start, place).date()).days
    return Duration(total, unit, value, elapsed < timedelta(0), breakdown, dates)


def calendar_breakdown(earlier: datetime, later: datetime, zone: tzinfo) -> Breakdown:
    """Split earlier..later (earlier first, both aware) into calendar y/m/d in `zone` and exact h/m/s."""
    wall, later_wall, end = _wall(earlier, zone), _wall(later, zone), later.astimezone(UTC)
    months = (later_wall.year - wall.year) * 12 + later_wall.month - wall.month
    while months > 0 and _placed(earlier, zone, months, 0) > end:
        months -= 1
    days = max((later_wall.date() - _shift(wall, months, 0).date()).days, 0)
    while days > 0 and _placed(earlier, zone, months, days) > end:
        days -= 1
    rest = end - _placed(earlier, zone, months, days)
    hours, rest = divmod(rest, timedelta(hours=1))
    minutes, rest = divmod(rest, timedelta(minutes=1))
    return Breakdown(months // 12, months % 12, days, hours, minutes, _seconds(rest))


def add_breakdown(start: datetime, breakdown: Breakdown, zone: tzinfo | None = None) -> datetime:
    """Add a breakdown to an aware instant: calendar y/m/d on the wall clock in `zone`, then exact h/m/s."""
    place = zone or start.tzinfo
    if place is None:
        raise ValueError("add_breakdown takes an aware datetime")
    anchor = _placed(start, place, breakdown.years * 12 + breakdown.months, breakdown.days)
    exact = timedelta(hours=breakdown.hours, minutes=breakdown.minutes, seconds=breakdown.seconds)
    return (anchor + exact).astimezone(place)


def _placed(start: datetime, zone: tzinfo, months: int, days: int) -> datetime:
    """The UTC instant `months` and `days` of wall clock after `start` in `zone`.

    Compared in UTC because same-zone comparison ignores `fold`; no steps keep start itself, even in a fold.
    """
    if not months and not days:
        return start.astimezone(UTC)
    return resolve_local(_shift(_wall(start, zone), months, days), zone, "compatible").instant.astimezone(UTC)


def _shift(wall: datetime, months: int, days: int) -> datetime:
    year, month_index = divmod(wall.month - 1 + months, 12)
    year += wall.year
    day = min(wall.day, days_in_month(year, month_index + 1))
    return wall.replace(year=year, month=month_index + 1, day=day) + timedelta(days=days)


def _wall(instant: datetime, zone: tzinfo) -> datetime:
    return instant.astimezone(zone).replace(tzinfo=None, fold=0)


def _seconds(delta: timedelta) -> float:
    micros = delta // _ONE_MICROSECOND
    return micros // 1_000_000 if micros % 1_000_000 == 0 else micros / 1_000_000


def _number(amount: float) -> float:
    rounded = round(float(amount), 6)
    return int(rounded) if rounded.is_integer() else rounded


def _count(amount: float, noun: str) -> str:
    text = str(amount) if isinstance(amount, int) else f"{amount:.6f}".rstrip("0").rstrip(".")
    return f"{text} {noun}" if amount == 1 else f"{text} {noun}s"


def _check_unit(unit: str) -> None:
    if unit not in DURATION_UNITS:
        raise InvalidArgument(
            N_("Unknown duration unit {unit}. Use one of: {known}."),
            unit=repr(unit),
            known=", ".join(DURATION_UNITS),
            suggestions=DURATION_UNITS,
        )


def _check_aware(*instants: datetime) -> None:
    if any(instant.utcoffset() is None for instant in instants):
        raise InvalidArgument(N_("Both ends of a duration must carry a timezone or UTC offset."))
