"""Relative time expressions resolved against a reference instant in a zone: instants and half-open periods.

Decisions worth knowing:

- Periods are half-open, ``[start, end)``, both ends placed in the zone with `resolve_local`. Day, week,
  month, quarter and year bounds come from calendar arithmetic on wall dates, never from adding 24 hours,
  so "yesterday" in Vienna on 2026-03-30 is 23 hours long and a fall-back day 25.
- Shifts by seconds, minutes and hours are exact elapsed time; by days and longer they keep the wall-clock
  time ("in 1 day" across a DST change is the same clock time tomorrow). Months clamp to the month's end
  (Jan 31 + 1 month = Feb 28/29).
- Weeks start on `week_start` (0 = Monday .. 6 = Sunday); the server derives it from the locale.
- "Friday"/"this Friday" is the next Friday on or after the reference day, "next Friday" the first one
  strictly after it, "last Friday" the last one strictly before it; "since Monday" starts at the most
  recent Monday on or before the reference day.
- Where an expression has a known double reading, the resolution names the other one (`alternative`):
  "next Tuesday" said on a Monday is tomorrow (the first Tuesday after today), or Tuesday of next week;
  "this weekend" said during a weekend is the one in progress, or the following one; "next weekend" said on a
  weekday is the coming one, or the one after. Weekends are the locale's (Saturday-Sunday unless told).
- "last week" is the previous calendar week; "last 7 days" and "the past 24 hours" are rolling windows
  ending at the reference instant. "end of month" is the month's last day; "start of month" its first.
- An expression no rule reads is an `UnknownExpression` error with examples, never "now".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from functools import lru_cache
from typing import Literal

from horologe.core.errors import InvalidArgument
from horologe.core.localtime import LocalResolution, resolve_local
from horologe.core.messages import N_
from horologe.core.relative_grammar import (
    MAX_EXPRESSION_LENGTH,
    At,
    Calendar,
    Day,
    DayRef,
    Edge,
    Named,
    Now,
    Rolling,
    Shift,
    Since,
    Spec,
    ToDate,
    Weekend,
    parse_expression,
)
from horologe.core.relative_lang import EXAMPLES, LANGUAGES, Unit

LANGUAGE_CODES: tuple[str, ...] = tuple(LANGUAGES)
_EXACT_UNITS = {"second": 1, "minute": 60, "hour": 3600}


class UnknownExpression(InvalidArgument):
    """A relative time expression no grammar rule understands."""

    kind = "unknown_expression"


@dataclass(frozen=True, slots=True)
class Alternative:
    """The other common reading of a doubly read expression: an instant, or a period [start, end)."""

    start: datetime
    end: datetime | None
    interpretation: str


@dataclass(frozen=True, slots=True)
class Resolution:
    """What an expression means at a reference instant: an instant, or a half-open period [start, end)."""

    kind: Literal["instant", "period"]
    start: datetime
    end: datetime | None
    granularity: str
    language: str
    interpretation: str
    local_time: LocalResolution | None = None
    alternative: Alternative | None = None

    def contains(self, instant: datetime) -> bool:
        """Whether a period contains the instant (start <= instant < end, compared in UTC)."""
        if self.end is None:
            return False
        return self.start.astimezone(UTC) <= instant.astimezone(UTC) < self.end.astimezone(UTC)


def resolve_expression(
    expression: str,
    *,
    reference: datetime,
    zone: tzinfo,
    week_start: int = 0,
    weekend: tuple[int, int] = (5, 6),
    languages: Sequence[str] = (),
) -> Resolution:
    """Resolve `expression` at the aware instant `reference` in `zone`; `languages` are tried first, in order.
    `weekend` is the (first, last) weekend day, 0 = Monday."""
    if reference.utcoffset() is None:
        raise ValueError("resolve_expression takes an aware reference instant")
    if not 0 <= week_start <= 6:
        raise InvalidArgument(
            N_("week_start must be 0 (Monday) .. 6 (Sunday), not {week_start}."), week_start=week_start
        )
    if len(expression) > MAX_EXPRESSION_LENGTH:
        raise UnknownExpression(
            N_("The expression is too long ({length} characters, at most {limit})."),
            length=len(expression),
            limit=MAX_EXPRESSION_LENGTH,
        )
    order = [code for code in languages if code in LANGUAGES]
    order += [code for code in LANGUAGE_CODES if code not in order]
    parsed = _parsed(expression, tuple(order))
    if parsed is None:
        raise unknown_expression(expression, order[0])
    spec, language = parsed
    return _Resolver(reference, zone, week_start, weekend, language).resolve(spec)


@lru_cache(maxsize=1024)
def _parsed(expression: str, order: tuple[str, ...]) -> tuple[Spec, str] | None:
    # Parsing is pure and tries dozens of patterns per language; resolving the parsed spec at a reference is cheap.
    # Models repeat the same few expressions, so each (text, language order) is parsed once.
    return parse_expression(expression, order)


def unknown_expression(expression: str, language: str = "en") -> UnknownExpression:
    """The error for text no rule reads, with examples in the preferred language and in English."""
    examples = list(EXAMPLES.get(language, EXAMPLES["en"]))
    if language != "en":
        examples += [example for example in EXAMPLES["en"] if example not in examples][:6]
    shown = ", ".join(repr(example) for example in examples)
    return UnknownExpression(
        N_(
            "Could not understand the time expression {expression}. It must be a relative time or period "
            "in English, German, French, Spanish or Japanese, e.g. {examples}. For an absolute time use an ISO 8601 "
            "timestamp such as '2025-11-12T14:23:00+01:00' with the other tools."
        ),
        expression=repr(expression[:80]),
        examples=shown,
        suggestions=examples[:5],
        details={"languages": list(LANGUAGE_CODES)},
    )


@dataclass(frozen=True, slots=True)
class _Resolver:
    reference: datetime
    zone: tzinfo
    week_start: int
    weekend: tuple[int, int]
    language: str

    @property
    def today(self) -> date:
        return self.reference.astimezone(self.zone).date()

    def resolve(self, spec: Spec) -> Resolution:
        if isinstance(spec, Now):
            return self._instant(self.reference.astimezone(self.zone), "second", "the reference instant")
        if isinstance(spec, Shift):
            moved = shift(self.reference, spec.amount, spec.unit, self.zone)
            return self._instant(moved, spec.unit, f"the reference instant {spec.amount:+d} {spec.unit}(s)")
        if isinstance(spec, At):
            clock = time(spec.hour, spec.minute)
            day, other = self._day(spec.day), self._other_day(spec.day)
            placed = resolve_local(datetime.combine(day, clock), self.zone)
            text = f"{spec.hour:02d}:{spec.minute:02d} on {day.isoformat()}"
            alternative = None
            if other is not None:
                text += f" ({self._first_after(spec.day)})"
                instant = resolve_local(datetime.combine(other, clock), self.zone).instant
                alternative = Alternative(instant, None, f"{clock:%H:%M} on {other.isoformat()} ({_next_week(other)})")
            return Resolution("instant", placed.instant, None, "minute", self.language, text, placed, alternative)
        if isinstance(spec, Day):
            first, other = self._day(spec.day), self._other_day(spec.day)
            resolution = self._period(first, first + timedelta(days=1), "day", self._describe(spec.day))
            if other is None:
                return resolution
            alternative = Alternative(
                day_start(other, self.zone),
                day_start(other + timedelta(days=1), self.zone),
                f"{other.isoformat()} ({_next_week(other)})",
            )
            text = f"{resolution.interpretation} ({self._first_after(spec.day)})"
            return replace(resolution, interpretation=text, alternative=alternative)
        if isinstance(spec, Weekend):
            return self._weekend(spec)
        if isinstance(spec, Calendar):
            first, after = period_dates(spec.unit, self.today, spec.offset, self.week_start)
            which = {0: "this", -1: "the previous", 1: "the next"}.get(spec.offset, f"{spec.offset:+d}")
            return self._period(first, after, spec.unit, f"{which} calendar {spec.unit}")
        if isinstance(spec, Named):
            return self._named(spec)
        if isinstance(spec, Rolling):
            start = shift(self.reference, -spec.amount, spec.unit, self.zone)
            text = f"the {spec.amount} {spec.unit}(s) before the reference instant"
            return Resolution("period", start, self.reference.astimezone(self.zone), spec.unit, self.language, text)
        if isinstance(spec, Since):
            return self._since(spec)
        if isinstance(spec, ToDate):
            first, _ = period_dates(spec.unit, self.today, 0, self.week_start)
            text = f"from the start of this {spec.unit} to the reference instant"
            start = day_start(first, self.zone)
            return Resolution("period", start, self.reference.astimezone(self.zone), spec.unit, self.language, text)
        return self._edge(spec)

    def _instant(self, instant: datetime, granularity: str, text: str) -> Resolution:
        return Resolution("instant", instant, None, granularity, self.language, text)

    def _period(self, first: date, after: date, granularity: str, text: str) -> Resolution:
        start, end = day_start(first, self.zone), day_start(after, self.zone)
        return Resolution("period", start, end, granularity, self.language, text)

    def _named(self, spec: Named) -> Resolution:
        year = spec.year if spec.year is not None else self.today.year
        if not 1 <= year <= 9998:
            raise InvalidArgument(N_("Year {year} is outside the supported range 1..9998."), year=year)
        if spec.unit == "year":
            return self._period(date(year, 1, 1), date(year + 1, 1, 1), "year", f"the year {year}")
        if spec.unit == "quarter":
            first = date(year, 3 * spec.index - 2, 1)
            return self._period(first, add_months(first, 3), "quarter", f"Q{spec.index} {year}")
        first = date(year, spec.index, 1)
        return self._period(first, add_months(first, 1), "month", f"{first:%Y-%m}")

    def _since(self, spec: Since) -> Resolution:
        ref = spec.day
        if ref.kind == "weekday" and ref.mode == "upcoming":
            ref = DayRef("offset", offset=-((self.today.weekday() - ref.weekday) % 7))
        start = day_start(self._day(ref), self.zone)
        if start.astimezone(UTC) > self.reference.astimezone(UTC):
            raise InvalidArgument(
                N_("'since {day}' starts after the reference instant {reference}; name a day in the past."),
                day=self._describe(spec.day),
                reference=self.reference.isoformat(),
            )
        text = f"from the start of {self._describe(ref)} to the reference instant"
        return Resolution("period", start, self.reference.astimezone(self.zone), "day", self.language, text)

    def _edge(self, spec: Edge) -> Resolution:
        first, after = period_dates(spec.unit, self.today, spec.offset, self.week_start)
        day = first if spec.which == "start" else after - timedelta(days=1)
        text = f"the {'first' if spec.which == 'start' else 'last'} day of that {spec.unit}"
        return self._period(day, day + timedelta(days=1), "day", text)

    def _weekend(self, spec: Weekend) -> Resolution:
        first_day, last_day = self.weekend
        length = (last_day - first_day) % 7 + 1
        into = (self.today.weekday() - first_day) % 7
        during = into < length
        current = self.today - timedelta(days=into) if during else self.today + timedelta(days=7 - into)
        offset = (1 if during else 0) if spec.loose else spec.offset
        first = current + timedelta(weeks=offset)
        resolution = self._period(first, first + timedelta(days=length), "day", _weekend_text(first, length))
        doubly_read = (spec.loose and not during) or (spec.offset == 0 and during and not spec.loose)
        if not doubly_read:
            return replace(resolution, granularity="weekend")
        other = first + timedelta(weeks=1)
        taken = "the weekend in progress" if during else "the coming weekend"
        alternative = Alternative(
            day_start(other, self.zone),
            day_start(other + timedelta(days=length), self.zone),
            f"{_weekend_text(other, length)} (the following weekend)",
        )
        text = f"{resolution.interpretation} ({taken})"
        return replace(resolution, granularity="weekend", interpretation=text, alternative=alternative)

    def _other_day(self, ref: DayRef) -> date | None:
        """For "next <weekday>" landing in the current week: the same weekday of next week, its other reading."""
        if ref.kind != "weekday" or ref.mode != "next":
            return None
        day = self._day(ref)
        week_first, week_after = period_dates("week", self.today, 0, self.week_start)
        return day + timedelta(weeks=1) if week_first <= day < week_after else None

    def _first_after(self, ref: DayRef) -> str:
        return f"the first {_WEEKDAYS[ref.weekday]} after today"

    def _day(self, ref: DayRef) -> date:
        today = self.today
        if ref.kind == "date" and ref.day is not None:
            return ref.day
        if ref.kind == "offset":
            return today + timedelta(days=ref.offset)
        if ref.kind == "weekday_week":
            first, _ = period_dates("week", today, ref.offset, self.week_start)
            return first + timedelta(days=(ref.weekday - self.week_start) % 7)
        if ref.mode == "next":
            return today + timedelta(days=(ref.weekday - today.weekday() - 1) % 7 + 1)
        if ref.mode == "last":
            return today - timedelta(days=(today.weekday() - ref.weekday - 1) % 7 + 1)
        return today + timedelta(days=(ref.weekday - today.weekday()) % 7)

    def _describe(self, ref: DayRef) -> str:
        return self._day(ref).isoformat()


_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _next_week(day: date) -> str:
    return f"{_WEEKDAYS[day.weekday()]} of next week"


def _weekend_text(first: date, length: int) -> str:
    last = first + timedelta(days=length - 1)
    return (
        f"the weekend {first.isoformat()}" if length == 1 else f"the weekend {first.isoformat()} to {last.isoformat()}"
    )


def day_start(day: date, zone: tzinfo) -> datetime:
    """The first instant of a calendar day in a zone (a midnight skipped by DST starts at the gap's end)."""
    return resolve_local(datetime.combine(day, time()), zone).instant


def period_dates(unit: Unit, today: date, offset: int, week_start: int = 0) -> tuple[date, date]:
    """First day and first day after of the calendar `unit` containing `today`, moved by `offset` units."""
    if unit == "day":
        first = today + timedelta(days=offset)
        return first, first + timedelta(days=1)
    if unit == "week":
        first = today - timedelta(days=(today.weekday() - week_start) % 7) + timedelta(weeks=offset)
        return first, first + timedelta(weeks=1)
    months = {"month": 1, "quarter": 3, "year": 12}[unit]
    month_index = (today.month - 1) // months * months
    first = add_months(date(today.year, 1, 1), month_index + offset * months)
    return first, add_months(first, months)


def add_months(day: date, months: int) -> date:
    """The same day `months` later, clamped to the end of shorter months."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    if not 1 <= year <= 9999:
        raise InvalidArgument(N_("The result lies outside years 1..9999 (year {year})."), year=year)
    return date(year, month + 1, min(day.day, _days_in_month(year, month + 1)))


def shift(instant: datetime, amount: int, unit: Unit, zone: tzinfo) -> datetime:
    """Move an instant: exact elapsed time for seconds..hours, wall-clock calendar arithmetic for days and up."""
    try:
        if unit in _EXACT_UNITS:
            moved = instant.astimezone(UTC) + timedelta(seconds=amount * _EXACT_UNITS[unit])
            return moved.astimezone(zone)
        wall = instant.astimezone(zone).replace(tzinfo=None)
        if unit in ("day", "week"):
            wall += timedelta(days=amount * (7 if unit == "week" else 1))
        else:
            months = amount * {"month": 1, "quarter": 3, "year": 12}[unit]
            wall = datetime.combine(add_months(wall.date(), months), wall.time())
        return resolve_local(wall, zone).instant
    except OverflowError:
        raise InvalidArgument(N_("The result lies outside years 1..9999.")) from None


def _days_in_month(year: int, month: int) -> int:
    following = date(year + 1, 1, 1) if month == 12 else date(year, month + 1, 1)
    return (following - timedelta(days=1)).day
