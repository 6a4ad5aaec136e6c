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
  "next Tuesday" is the first Tuesday after today, or the one a week later ("not this Tuesday, the next one"; on a
  Monday that one is Tuesday of next week), unless today is a Tuesday; "this weekend" said during a weekend is the
  one in progress, or the following one; "next weekend" said on a weekday is the coming one, or the one after.
  Weekends are the locale's (Saturday-Sunday unless told).
- "last week" is the previous calendar week; "last 7 days" and "the past 24 hours" are rolling windows
  ending at the reference instant. "end of month" is the month's last day; "start of month" its first.
- A day of a named month said without a year ("the last Friday in March", "the last day of February", "July 4")
  is the next one on or after today; the latest one before today is its other reading. "the fifth Tuesday" of a
  month that has four is an error, never the fourth.
- "in a fortnight" is two weeks (so is French "dans quinze jours" and Spanish "en quince días").
- A holiday's name ("Christmas", "Easter 2027", "Thanksgiving in Canada") is read from the `holidays` package's
  data (`horologe.core.holiday_names`), for the country the text names, else `country`, else by what every
  country's data agree on.
- A recurrence in words ("every weekday at 9:30", "every second Tuesday of the month at 10:00", "every 2 weeks on
  Monday") becomes an RFC 5545 rule on the zone's wall clock, expanded from the reference instant: at most `count`
  occurrences within `HORIZON_YEARS` years, under the call's budget. Without a time of day, its occurrences are
  whole days. A series every N weeks starts on its first day on or after today. "every second Tuesday" is every
  other Tuesday, or (the other reading) the second Tuesday of each month; "weekday" means the locale's working days.
- An expression no rule reads is an `UnknownExpression` error that says which form it looks like, with examples of
  that form, never "now".
"""

from __future__ import annotations

import contextlib
import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Final, Literal

from horologe.core import relative_text as said
from horologe.core import tzdb
from horologe.core.arithmetic import days_in_month
from horologe.core.budget import UNLIMITED, Budget
from horologe.core.errors import InvalidArgument
from horologe.core.gazetteer import Gazetteer
from horologe.core.holiday_names import NameIndex, close_names, find_holiday
from horologe.core.localtime import Disambiguation, LocalResolution, resolve_local
from horologe.core.messages import N_, Message, msg
from horologe.core.recurrence import expand, parse_rule
from horologe.core.relative_grammar import (
    MAX_EXPRESSION_LENGTH,
    At,
    Calendar,
    Day,
    DayRef,
    Edge,
    Every,
    Named,
    Now,
    Rolling,
    Shift,
    Since,
    Spec,
    ToDate,
    Weekend,
    fold,
    parse_expression,
)
from horologe.core.relative_lang import EXAMPLES, FORM_EXAMPLES, LANGUAGES, Unit
from horologe.core.weekdays import DAY_NAMES

LANGUAGE_CODES: tuple[str, ...] = tuple(LANGUAGES)
_EXACT_UNITS = {"second": 1, "minute": 60, "hour": 3600}
DEFAULT_COUNT = 5
MAX_COUNT = 50
HORIZON_YEARS = 20
_RRULE_DAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")


class UnknownExpression(InvalidArgument):
    """A relative time expression no grammar rule understands."""

    kind = "unknown_expression"


@dataclass(frozen=True, slots=True)
class Alternative:
    """The other common reading of a doubly read expression: an instant, or a period [start, end)."""

    start: datetime
    end: datetime | None
    interpretation: Message


@dataclass(frozen=True, slots=True)
class Resolution:
    """What an expression means at a reference instant: an instant, or a half-open period [start, end)."""

    kind: Literal["instant", "period", "recurrence"]
    start: datetime
    end: datetime | None
    granularity: str
    language: str
    interpretation: Message
    """What was understood, said back (rendered in the request's language at the edge)."""
    local_time: LocalResolution | None = None
    alternative: Alternative | None = None
    occurrences: tuple[datetime, ...] = ()
    """A recurrence's next occurrences (the first is `start`); whole days when `granularity` is 'day'."""
    rule: str | None = None
    """A recurrence as an RFC 5545 rule on the zone's wall clock (DTSTART and RRULE lines): its DTSTART is the first
    occurrence listed, with the zone (`dtstart_line`), so a calendar expands it to the occurrences listed."""

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
    country: str | None = None,
    count: int = DEFAULT_COUNT,
    budget: Budget = UNLIMITED,
    policy: Disambiguation = "compatible",
    holidays: NameIndex | None = None,
    places: Gazetteer | None = None,
) -> Resolution:
    """Resolve `expression` at the aware instant `reference` in `zone`; `languages` are tried first, in order.
    `weekend` is the (first, last) weekend day, 0 = Monday; `country` (ISO code) is whose holidays a name means
    when the text names no country; `count` how many occurrences a recurrence lists; `policy` places a time of day in
    a DST gap or fold; `holidays` says which countries name each holiday (`horologe.core.holiday_names.NameIndex`);
    `places` adds its country names in twelve languages to the English ones a holiday's country is read by."""
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
    if not 1 <= count <= MAX_COUNT:
        raise InvalidArgument(N_("count must be 1..{limit}, not {count}."), count=count, limit=MAX_COUNT)
    parsed = _parsed(expression, tuple(order), budget)

    def resolver(at: datetime, language: str) -> _Resolver:
        return _Resolver(
            at, zone, week_start, weekend, language, country, count, budget, expression, policy, holidays, places
        )

    if parsed is not None and not _a_name(parsed[0]):
        return resolver(reference, parsed[1]).resolve(parsed[0])
    started = _starting(expression, tuple(order), budget)
    if started is not None:
        (rule, rule_language), (start, start_language) = started
        begins = resolver(reference, start_language).resolve(start)
        occurring = resolver(begins.start, rule_language).resolve(rule)
        understood = msg(
            N_("{recurrence}, from {start}"), recurrence=occurring.interpretation, start=begins.interpretation
        )
        return replace(occurring, interpretation=understood)
    if parsed is None:
        raise unknown_expression(expression, order[0])
    return resolver(reference, parsed[1]).resolve(parsed[0])


def _a_name(spec: Spec) -> bool:
    """Whether the grammar read the whole text only as a holiday's name (its last resort)."""
    return isinstance(spec, Day) and spec.day.kind == "holiday"


def _starting(
    expression: str, order: tuple[str, ...], budget: Budget
) -> tuple[tuple[Spec, str], tuple[Spec, str]] | None:
    """A schedule and its start, when the text says a schedule and then when it starts; None when it does not. A
    schedule read whose start is not raises an error naming the start."""
    found = _START_CLAUSE.fullmatch(expression.strip())
    if found is None:
        return None
    rule = _parsed(found["rule"], order, budget)
    if rule is None or not isinstance(rule[0], Every):
        return None
    start = _parsed(found["start"], order, budget)
    if start is None or _a_name(start[0]):
        raise UnknownExpression(
            N_(
                "Read {schedule} as a schedule but not its start {start}. Write the start as a date, e.g. 'starting "
                "December 4' or 'starting 2026-12-04'."
            ),
            schedule=repr(found["rule"][:80]),
            start=repr(found["start"][:80]),
            suggestions=[f"{found['rule']} starting 2026-12-04"[:MAX_EXPRESSION_LENGTH]],
        )
    return rule, start


_START_CLAUSE: Final = re.compile(
    r"(?P<rule>.+?)[,;]?\s+(?:starting(?:\s+(?:on|from))?|beginning(?:\s+on)?|from|as\s+of|ab(?:\s+dem)?"
    r"|beginnend(?:\s+am)?|à\s+partir\s+du|à\s+partir\s+de|a\s+partir\s+del?|desde\s+el)\s+(?P<start>.+?)(?:\s+(?:on|onwards|an))?",
    re.IGNORECASE,
)
"""A schedule with its first day said after it: 'every other Friday at 4pm starting December 4', 'every Monday
from January 5 on', 'jeden Montag ab dem 5. Januar', 'cada lunes a partir del 5 de enero'."""


_PARSED: Final[OrderedDict[tuple[str, tuple[str, ...]], tuple[Spec, str] | None]] = OrderedDict()
_MOST_PARSED: Final = 1024


def _parsed(expression: str, order: tuple[str, ...], budget: Budget) -> tuple[Spec, str] | None:
    # Parsing is pure and tries dozens of patterns per language; resolving the parsed spec at a reference is cheap.
    # Models repeat the same few expressions, so each (text, language order) is parsed once: an LRU of its own
    # rather than lru_cache, which would key on the budget too. A parse stopped by the budget is not kept.
    key = (expression, order)
    try:
        found = _PARSED[key]
    except KeyError:
        found = parse_expression(expression, order, budget)
        _PARSED[key] = found
        while len(_PARSED) > _MOST_PARSED:
            _PARSED.popitem(last=False)
        return found
    with contextlib.suppress(KeyError):  # another thread may have just dropped it
        _PARSED.move_to_end(key)
    return found


def unknown_expression(expression: str, language: str = "en", hint: Message | None = None) -> UnknownExpression:
    """The error for text no rule reads: the form it looks like and two or three of that form's accepted phrasings
    when it looks like one (a recurrence, a weekday or day of a month, a holiday), else examples in the preferred
    language and in English. `hint` adds what else was found out (no holiday of that name)."""
    form = looks_like(expression)
    if form is not None:
        name, code = form
        examples = list(FORM_EXAMPLES[name].get(code, FORM_EXAMPLES[name]["en"]))
        return UnknownExpression(
            N_(
                "Could not read {expression}: it looks like {form}, but not all of it was understood. Write it like "
                "{examples}."
            ),
            expression=repr(expression[:80]),
            form=_FORM_NAMES[name],
            examples=", ".join(repr(example) for example in examples),
            also=(hint,) if hint is not None else (),
            suggestions=examples,
            details={"form": name, "languages": list(LANGUAGE_CODES)},
        )
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
        also=(hint,) if hint is not None else (),
        suggestions=examples[:5],
        details={"languages": list(LANGUAGE_CODES)},
    )


_FORM_NAMES = {
    "recurrence": msg(N_("a recurring event ('every ...')")),
    "nth": msg(N_("a weekday of a month ('the second Tuesday of ...')")),
    "month_day": msg(N_("a day of a month ('the last day of ...')")),
}
_NTH = {
    "en": r"\b(?:first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last|\d+(?:st|nd|rd|th))\b.*\b(?:of|in)\b",
    "de": r"\b(?:erste|zweite|dritte|vierte|funfte|letzte|\d+\.)\w*\b.*\b(?:im|des|von)\b",
    "fr": r"\b(?:premier|deuxieme|second|troisieme|quatrieme|cinquieme|dernier|\d+e)\w*\b.*\b(?:de|du|d')",
    "es": r"\b(?:primer|segund|tercer|cuart|quint|ultim)\w*\b.*\b(?:de|del)\b",
    "ja": r"第|最終",
}
_MONTH_DAY = {
    "en": r"\bday (?:of|in)\b|\b(?:end|start|beginning) of\b",
    "de": r"\btag (?:im|des|von)\b|\b(?:ende|anfang|beginn)\b",
    "fr": r"\bjour (?:de|du|d')|\b(?:fin|debut)\b",
    "es": r"\bdia (?:de|del)\b|\b(?:fin|final|principio|inicio)\b",
    "ja": r"末日|最終日|初日|月末",
}


def looks_like(expression: str) -> tuple[str, str] | None:
    """Which newer form an expression no rule read looks like, and in which language: a recurrence, a weekday of
    a month or a day of a month (what the error about it then says was understood)."""
    folded = fold(expression)
    for code, vocab in LANGUAGES.items():
        if re.search(rf"(?:^|\s)(?:{vocab.every})(?:\s|$)" if code != "ja" else vocab.every, folded):
            return "recurrence", code
    for name, table in (("month_day", _MONTH_DAY), ("nth", _NTH)):
        for code, pattern in table.items():
            if re.search(pattern, folded):
                return name, code
    return None


@dataclass(frozen=True, slots=True)
class _Reading:
    """A day a day reference names, how it was read (when that needs saying) and its other reading, if any."""

    day: date
    note: Message | None = None
    other: date | None = None
    other_note: Message | None = None


@dataclass(frozen=True, slots=True)
class _Resolver:
    reference: datetime
    zone: tzinfo
    week_start: int
    weekend: tuple[int, int]
    language: str
    country: str | None = None
    count: int = DEFAULT_COUNT
    budget: Budget = UNLIMITED
    expression: str = ""
    policy: Disambiguation = "compatible"
    holidays: NameIndex | None = None
    places: Gazetteer | None = None

    @property
    def today(self) -> date:
        return self.reference.astimezone(self.zone).date()

    def resolve(self, spec: Spec) -> Resolution:
        if isinstance(spec, Now):
            return self._instant(self.reference.astimezone(self.zone), "second", said.reference())
        if isinstance(spec, Shift):
            moved = shift(self.reference, spec.amount, spec.unit, self.zone)
            return self._instant(moved, spec.unit, said.shifted(spec.amount, spec.unit, fortnight=bool(spec.said)))
        if isinstance(spec, At):
            return self._at(spec)
        if isinstance(spec, Day):
            reading = self._read(spec.day)
            first = reading.day
            text = said.noted(said.plain(first.isoformat()), reading.note)
            resolution = self._period(first, first + timedelta(days=1), "day", text)
            if reading.other is None:
                return resolution
            other = reading.other
            alternative = Alternative(
                day_start(other, self.zone),
                day_start(other + timedelta(days=1), self.zone),
                said.noted(said.plain(other.isoformat()), reading.other_note),
            )
            return replace(resolution, alternative=alternative)
        if isinstance(spec, Weekend):
            return self._weekend(spec)
        if isinstance(spec, Calendar):
            first, after = period_dates(spec.unit, self.today, spec.offset, self.week_start)
            return self._period(first, after, spec.unit, said.calendar_period(spec.unit, spec.offset))
        if isinstance(spec, Named):
            return self._named(spec)
        if isinstance(spec, Rolling):
            start = shift(self.reference, -spec.amount, spec.unit, self.zone)
            text = said.rolling(spec.amount, spec.unit)
            return Resolution("period", start, self.reference.astimezone(self.zone), spec.unit, self.language, text)
        if isinstance(spec, Since):
            return self._since(spec)
        if isinstance(spec, ToDate):
            first, _ = period_dates(spec.unit, self.today, 0, self.week_start)
            text = said.to_date(spec.unit)
            start = day_start(first, self.zone)
            return Resolution("period", start, self.reference.astimezone(self.zone), spec.unit, self.language, text)
        if isinstance(spec, Every):
            return self._every(spec)
        return self._edge(spec)

    def _at(self, spec: At) -> Resolution:
        clock = time(spec.hour, spec.minute, spec.second)
        reading = self._read(spec.day)
        placed = resolve_local(datetime.combine(reading.day, clock), self.zone, self.policy)
        text = said.at_clock(clock, reading.day, reading.note)
        alternative = None
        if reading.other is not None:
            instant = resolve_local(datetime.combine(reading.other, clock), self.zone).instant
            alternative = Alternative(instant, None, said.at_clock(clock, reading.other, reading.other_note))
        granularity = "second" if spec.second else "minute"
        return Resolution("instant", placed.instant, None, granularity, self.language, text, placed, alternative)

    def _instant(self, instant: datetime, granularity: str, text: Message) -> Resolution:
        return Resolution("instant", instant, None, granularity, self.language, text)

    def _period(self, first: date, after: date, granularity: str, text: Message) -> Resolution:
        start, end = day_start(first, self.zone), day_start(after, self.zone)
        return Resolution("period", start, end, granularity, self.language, text)

    def _named(self, spec: Named) -> Resolution:
        year = spec.year if spec.year is not None else self.today.year
        if not 1 <= year <= 9998:
            raise InvalidArgument(N_("Year {year} is outside the supported range 1..9998."), year=year)
        if spec.unit == "year":
            first = date(year, 1, 1)
            return self._period(first, date(year + 1, 1, 1), "year", said.named_period("year", 1, first))
        if spec.unit == "quarter":
            first = date(year, 3 * spec.index - 2, 1)
            return self._period(first, add_months(first, 3), "quarter", said.named_period("quarter", spec.index, first))
        first = date(year, spec.index, 1)
        return self._period(first, add_months(first, 1), "month", said.named_period("month", spec.index, first))

    def _since(self, spec: Since) -> Resolution:
        ref = spec.day
        if ref.kind == "weekday" and ref.mode == "upcoming":
            ref = DayRef("offset", offset=-((self.today.weekday() - ref.weekday) % 7))
        start = day_start(self._day(ref), self.zone)
        if start.astimezone(UTC) > self.reference.astimezone(UTC):
            raise InvalidArgument(
                N_("'since {day}' starts after the reference instant {reference}; name a day in the past."),
                day=self._day(spec.day).isoformat(),
                reference=self.reference.isoformat(),
            )
        text = said.since(self._day(ref))
        return Resolution("period", start, self.reference.astimezone(self.zone), "day", self.language, text)

    def _edge(self, spec: Edge) -> Resolution:
        first, after = period_dates(spec.unit, self.today, spec.offset, self.week_start)
        day = first if spec.which == "start" else after - timedelta(days=1)
        return self._period(day, day + timedelta(days=1), "day", said.edge(spec.unit, spec.which))

    def _weekend(self, spec: Weekend) -> Resolution:
        first_day, last_day = self.weekend
        length = (last_day - first_day) % 7 + 1
        into = (self.today.weekday() - first_day) % 7
        during = into < length
        current = self.today - timedelta(days=into) if during else self.today + timedelta(days=7 - into)
        offset = (1 if during else 0) if spec.loose else spec.offset
        first = current + timedelta(weeks=offset)
        last = timedelta(days=length - 1)
        resolution = self._period(first, first + timedelta(days=length), "day", said.weekend(first, first + last))
        doubly_read = (spec.loose and not during) or (spec.offset == 0 and during and not spec.loose)
        if not doubly_read:
            return replace(resolution, granularity="weekend")
        other = first + timedelta(weeks=1)
        alternative = Alternative(
            day_start(other, self.zone),
            day_start(other + timedelta(days=length), self.zone),
            said.noted(said.weekend(other, other + last), said.following_weekend()),
        )
        text = said.noted(resolution.interpretation, said.weekend_taken(during))
        return replace(resolution, granularity="weekend", interpretation=text, alternative=alternative)

    # --- day references ---------------------------------------------------------------------------------------

    def _read(self, ref: DayRef) -> _Reading:
        """The day a reference names, with its other reading where it has one."""
        if ref.kind == "weekday" and ref.mode == "next":
            day = self._day(ref)
            if day.weekday() == self.today.weekday():
                return _Reading(day)
            other = day + timedelta(weeks=1)
            week_first, week_after = period_dates("week", self.today, 0, self.week_start)
            if week_first <= day < week_after:
                other_note = said.of_next_week(other.weekday())
            else:
                other_note = said.after_the_coming_one(ref.weekday)
            return _Reading(day, said.first_after_today(ref.weekday), other, other_note)
        if ref.kind in ("nth", "month_day", "month_date"):
            return self._in_month(ref)
        if ref.kind == "holiday":
            return self._holiday(ref)
        return _Reading(self._day(ref))

    def _in_month(self, ref: DayRef) -> _Reading:
        """A day of a month; of a named month without a year, the next one, the latest past one its other reading."""
        month = ref.month
        assert month is not None  # the grammar gives every such reference its month
        if month.kind == "offset":
            first = add_months(self.today.replace(day=1), month.offset)
            return _Reading(self._month_day(ref, first.year, first.month), self._describe_month_day(ref))
        if month.year is not None:
            return _Reading(self._month_day(ref, month.year, month.month), self._describe_month_day(ref))
        note = self._describe_month_day(ref)
        this_year = _month_day(ref, self.today.year, month.month)
        if this_year is not None and this_year >= self.today:
            other = _month_day(ref, self.today.year - 1, month.month)
            return _Reading(this_year, note, other, said.latest_before_today() if other else None)
        upcoming = self._month_day(ref, self.today.year + 1, month.month)
        return _Reading(upcoming, note, this_year, said.latest_before_today() if this_year else None)

    def _month_day(self, ref: DayRef, year: int, month: int) -> date:
        """The day of a month a reference names; an error saying why when there is none."""
        found = _month_day(ref, year, month)
        if found is not None:
            return found
        if not 1 <= year <= 9999:
            raise InvalidArgument(N_("The result lies outside years 1..9999 (year {year})."), year=year)
        days = days_in_month(year, month)
        if ref.kind == "nth":
            raise InvalidArgument(
                N_("{month} has no {ordinal} {weekday}: name one that exists, such as the last {weekday}."),
                month=f"{year:04d}-{month:02d}",
                ordinal=said.ordinal(ref.ordinal),
                weekday=said.WEEKDAYS[ref.weekday],
                suggestions=[f"the last {DAY_NAMES[ref.weekday]} of {date(year, month, 1):%B %Y}"],
            )
        raise InvalidArgument(
            N_("{month} has {days} days, so it has no day {day}."),
            month=f"{year:04d}-{month:02d}",
            days=days,
            day=ref.ordinal,
            suggestions=[f"the last day of {date(year, month, 1):%B %Y}"],
        )

    def _describe_month_day(self, ref: DayRef) -> Message | None:
        if ref.kind == "nth":
            return said.nth_of_its_month(ref.ordinal, ref.weekday)
        if ref.kind == "month_day" and ref.ordinal == -1:
            return said.last_day_of_its_month()
        return None

    def _holiday(self, ref: DayRef) -> _Reading:
        year = ref.year
        if year is not None and not 1 <= year <= 9999:
            raise InvalidArgument(N_("Year {year} is outside the supported range 1..9998."), year=year)
        answer = find_holiday(
            ref.name,
            mode=ref.mode or "upcoming",
            year=year,
            today=self.today,
            home=self.country,
            language=self.language,
            budget=self.budget,
            index=self.holidays,
            places=self.places,
        )
        if answer is None:
            raise self._not_a_holiday(ref, year)
        if answer.reading is None:
            listed = "; ".join(
                f"{candidate.day.isoformat()} {said.holiday(candidate).render()}" for candidate in answer.candidates[:5]
            )
            name = ref.name.title() if ref.name.isascii() else ref.name
            examples = [f"{name} in {candidate.countries[0]}" for candidate in answer.candidates[:3]]
            raise UnknownExpression(
                N_(
                    "{name} falls on different days in different countries' holidays data: {candidates}. Name the "
                    "country, e.g. {examples}."
                ),
                name=repr(ref.name[:60]),
                candidates=listed,
                examples=", ".join(repr(example) for example in examples),
                suggestions=examples,
                details={"form": "holiday"},
            )
        reading = answer.reading
        note = said.holiday(reading, answer.country)
        if answer.other is None:
            return _Reading(reading.day, note)
        return _Reading(reading.day, note, answer.other.day, said.holiday(answer.other))

    def _not_a_holiday(self, ref: DayRef, year: int | None) -> UnknownExpression:
        """The error for text read as a holiday's name that no holidays data has: what it looks like, else the
        holidays of that name the country has."""
        if looks_like(self.expression) is not None:
            return unknown_expression(self.expression, self.language)
        names = close_names(ref.name, self.country, year or self.today.year, self.language, self.places)
        times = EXAMPLES.get(self.language, EXAMPLES["en"])[:3]
        examples = names or list(FORM_EXAMPLES["holiday"].get(self.language, FORM_EXAMPLES["holiday"]["en"]))[:2]
        return UnknownExpression(
            N_(
                "Could not read {expression}: it is no time expression in English, German, French, Spanish or "
                "Japanese, and {name} is no holiday in any country's holidays data. Write a time like {times}, or a "
                "holiday as the data name it, e.g. {examples}."
            ),
            expression=repr(self.expression[:80]),
            name=repr(ref.name[:60]),
            times=", ".join(repr(example) for example in times),
            examples=", ".join(repr(example) for example in examples),
            suggestions=examples if names else [*times[:2], *examples],
            details={"form": "holiday", "country": self.country, "languages": list(LANGUAGE_CODES)},
        )

    def _day(self, ref: DayRef) -> date:
        today = self.today
        if ref.kind == "date" and ref.day is not None:
            return ref.day
        if ref.kind == "offset":
            return today + timedelta(days=ref.offset)
        if ref.kind == "weekday_week":
            first, _ = period_dates("week", today, ref.offset, self.week_start)
            return first + timedelta(days=(ref.weekday - self.week_start) % 7)
        if ref.kind in ("nth", "month_day", "month_date", "holiday"):
            return self._read(ref).day
        if ref.mode == "next":
            return today + timedelta(days=(ref.weekday - today.weekday() - 1) % 7 + 1)
        if ref.mode == "last":
            return today - timedelta(days=(today.weekday() - ref.weekday - 1) % 7 + 1)
        return today + timedelta(days=(ref.weekday - today.weekday()) % 7)

    # --- recurrences ------------------------------------------------------------------------------------------

    def _every(self, spec: Every) -> Resolution:
        rule = self._rule(spec)
        all_day = spec.hour is None and spec.frequency not in ("HOURLY", "MINUTELY")
        after = day_start(self.today, self.zone) if all_day else self.reference
        until = shift(after, HORIZON_YEARS, "year", self.zone) if after.year + HORIZON_YEARS <= 9999 else None
        found = [
            item.resolution.instant
            for item, _ in zip(
                expand(parse_rule(rule), self.zone, after, until=until, budget=self.budget),
                range(self.count),
                strict=False,
            )
        ]
        if not found:
            raise InvalidArgument(
                N_("{expression} has no occurrence in the next {years} years."),
                expression=repr(self.expression[:80]),
                years=HORIZON_YEARS,
            )
        text = self._described(spec)
        alternative = None
        if spec.other is not None:
            other = next(
                iter(expand(parse_rule(self._rule(spec.other)), self.zone, after, until=until, budget=self.budget)),
                None,
            )
            if other is not None:
                alternative = Alternative(other.resolution.instant, None, self._described(spec.other))
        granularity = "day" if all_day else "minute"
        first_line = dtstart_line(found[0], self.zone)
        return Resolution(
            "recurrence",
            found[0],
            None,
            granularity,
            self.language,
            text,
            alternative=alternative,
            occurrences=tuple(found),
            rule=f"{first_line}\n{rule.split(chr(10), 1)[1]}" if first_line is not None else None,
        )

    def _described(self, spec: Every) -> Message:
        """A recurrence described ("every Monday to Friday at 09:30")."""
        workdays = [day for day in range(7) if not _in_weekend(day, self.weekend)] if spec.workdays else []
        return said.every(
            spec.frequency,
            spec.interval,
            spec.weekdays,
            workdays=workdays,
            number=spec.ordinal,
            month=spec.month,
            monthday=spec.monthday,
            clock=time(spec.hour, spec.minute, spec.second) if spec.hour is not None else None,
        )

    def _rule(self, spec: Every) -> str:
        """The RFC 5545 rule of a recurrence in words, starting today (a series every N weeks: on its first day)."""
        today = self.today
        parts = [f"FREQ={spec.frequency}"]
        if spec.interval > 1:
            parts.append(f"INTERVAL={spec.interval}")
        weekdays = spec.weekdays
        if spec.workdays:
            weekdays = tuple(day for day in range(7) if not _in_weekend(day, self.weekend))
        if spec.frequency == "WEEKLY" and not weekdays:
            weekdays = (today.weekday(),)
        if spec.ordinal:
            parts.append(f"BYDAY={spec.ordinal}{_RRULE_DAYS[weekdays[0]]}")
        elif weekdays:
            parts.append("BYDAY=" + ",".join(_RRULE_DAYS[day] for day in weekdays))
        if spec.frequency == "YEARLY":
            parts.append(f"BYMONTH={spec.month or today.month}")
        if spec.frequency in ("MONTHLY", "YEARLY") and not spec.ordinal:
            parts.append(f"BYMONTHDAY={spec.monthday or today.day}")
        start = today
        if spec.frequency == "WEEKLY" and spec.interval > 1:
            start = today + timedelta(days=min((day - today.weekday()) % 7 for day in weekdays))
        hour, minute, second = (spec.hour, spec.minute, spec.second) if spec.hour is not None else (0, 0, 0)
        if spec.frequency not in ("HOURLY", "MINUTELY"):
            parts.append(f"BYHOUR={hour};BYMINUTE={minute};BYSECOND={second}")
        return f"DTSTART:{_stamp(datetime.combine(start, time(hour, minute, second)))}\nRRULE:{';'.join(parts)}"


def dtstart_line(first: datetime, zone: tzinfo) -> str | None:
    """The DTSTART line of a rule whose first occurrence is `first`, on `zone`'s wall clock: TZID with the IANA name,
    'Z' for UTC, an Etc/GMT zone for a whole-hour fixed offset. A fixed offset of a fraction of an hour, which no
    IANA name keeps by definition, is written as a zone that keeps that offset from `first` on with no change
    scheduled (+05:30: Asia/Colombo, the first such by name), whose wall clock gives the same occurrences; None when
    no zone does (no rule string then: one in UTC would move the rule's hours)."""
    local = first.astimezone(zone)
    key = getattr(zone, "key", None)
    offset = local.utcoffset() or timedelta(0)
    if isinstance(key, str) and key not in ("UTC", "Etc/UTC"):
        return f"DTSTART;TZID={key}:{_stamp(local)}"
    if key is None and offset and offset % timedelta(hours=1) == timedelta(0):
        hours = offset // timedelta(hours=1)
        return f"DTSTART;TZID=Etc/GMT{-hours:+d}:{_stamp(local)}"  # POSIX signs: Etc/GMT-5 is UTC+5
    if not offset:
        return f"DTSTART:{_stamp(first.astimezone(UTC))}Z"
    steady = _steady_zone(offset, first)
    return f"DTSTART;TZID={steady}:{_stamp(local)}" if steady is not None else None


def _steady_zone(offset: timedelta, first: datetime) -> str | None:
    """The first zone (by name) at `offset` at `first` with no transition scheduled after it."""
    for key in sorted(tzdb.canonical_names()):
        zone = tzdb.get_zone(key)
        if first.astimezone(zone).utcoffset() == offset and tzdb.next_transition(zone, first) is None:
            return key
    return None


def _stamp(wall: datetime) -> str:
    """An RFC 5545 DATE-TIME without its zone (years below 1000 zero-padded, which strftime's %Y is not)."""
    return f"{wall.year:04d}{wall.month:02d}{wall.day:02d}T{wall.hour:02d}{wall.minute:02d}{wall.second:02d}"


def _month_day(ref: DayRef, year: int, month: int) -> date | None:
    """The day of a month a reference names ("the second Tuesday", "the last day", "the 4th"), or None."""
    if not 1 <= year <= 9999:
        return None
    days = days_in_month(year, month)
    if ref.kind == "nth":
        if ref.ordinal == -1:
            last = date(year, month, days)
            return last - timedelta(days=(last.weekday() - ref.weekday) % 7)
        first = date(year, month, 1)
        day = first + timedelta(days=(ref.weekday - first.weekday()) % 7 + 7 * (ref.ordinal - 1))
        return day if day.month == month else None
    number = days if ref.ordinal == -1 else ref.ordinal
    return date(year, month, number) if number <= days else None


def _in_weekend(day: int, weekend: tuple[int, int]) -> bool:
    first, last = weekend
    return (day - first) % 7 <= (last - first) % 7


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
    return date(year, month + 1, min(day.day, days_in_month(year, month + 1)))


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
