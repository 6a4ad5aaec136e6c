"""Parsing relative time expressions into specs: a small, deterministic grammar over `relative_lang` tables.

The parser never guesses: text is folded (NFKC, lower case, Latin accents removed), then each rule of a
language must match the *whole* text. What no rule matches is `None`, and the caller reports it.
Instants are a day reference plus a time of day in either order ("next Friday at 3pm", "3pm tomorrow",
"明日の正午"); a day reference alone is the whole day. A recurrence ("every weekday at 9:30") is read the same way:
its form, then a time of day before or after it. A holiday's name ("Christmas", "Easter 2027") is the last reading
tried, and only when nothing else reads the text: whether the name is a holiday is for the data to say, when the
expression is resolved.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Final, Literal

from horologe.core.budget import UNLIMITED, Budget
from horologe.core.relative_lang import LANGUAGES, Unit, Vocab

CALENDAR_UNITS: tuple[Unit, ...] = ("week", "month", "quarter", "year")
MAX_EXPRESSION_LENGTH = 200
_ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_EDGE_PUNCTUATION = " \t.!?,;:\u3002\u3001"  # after NFKC; ideographic full stop and comma


@dataclass(frozen=True, slots=True)
class MonthRef:
    """A month: relative to the reference month (`offset`), or named (`month` 1..12, `year` None: not said)."""

    kind: Literal["offset", "named"]
    offset: int = 0
    month: int = 0
    year: int | None = None


@dataclass(frozen=True, slots=True)
class DayRef:
    """A calendar day relative to the reference day.

    `nth`: the `ordinal` (1..5, -1 the last) `weekday` of `month`; `month_day`: day `ordinal` (-1 the last) of
    `month`; `month_date`: day `ordinal` of `month` (a named month); `holiday`: the holiday called `name` (`mode`
    upcoming, next, last, this or year, with `year`), in the country `country` names when the text named one.
    """

    kind: Literal["offset", "weekday", "weekday_week", "date", "nth", "month_day", "month_date", "holiday"]
    offset: int = 0
    weekday: int = 0
    mode: Literal["upcoming", "next", "last", "this", "year", ""] = ""
    day: date | None = None
    ordinal: int = 0
    month: MonthRef | None = None
    name: str = ""
    year: int | None = None
    country: str | None = None


@dataclass(frozen=True, slots=True)
class Now:
    """The reference instant itself."""


@dataclass(frozen=True, slots=True)
class Shift:
    """The reference moved by a signed amount of a unit ("in 2 hours", "3 days ago"); `said` is the unit as said when
    it is not the one counted ("fortnight": 2 weeks)."""

    amount: int
    unit: Unit
    said: str = ""


@dataclass(frozen=True, slots=True)
class At:
    """A wall-clock time on a day ("tomorrow at 15:00", "09:30:15")."""

    day: DayRef
    hour: int
    minute: int
    second: int = 0


@dataclass(frozen=True, slots=True)
class Day:
    """A whole calendar day ("yesterday", "next Friday")."""

    day: DayRef


@dataclass(frozen=True, slots=True)
class Calendar:
    """A calendar week, month, quarter or year relative to the current one ("last month")."""

    unit: Unit
    offset: int


@dataclass(frozen=True, slots=True)
class Named:
    """A named quarter, month or year ("Q3 2025", "March", "2024"); year None means the reference year."""

    unit: Unit
    index: int
    year: int | None


@dataclass(frozen=True, slots=True)
class Rolling:
    """A window ending at the reference instant ("last 7 days", "the past 24 hours")."""

    amount: int
    unit: Unit


@dataclass(frozen=True, slots=True)
class Since:
    """From the start of a day up to the reference instant ("since Monday")."""

    day: DayRef


@dataclass(frozen=True, slots=True)
class ToDate:
    """From the start of the current period up to the reference instant ("month to date")."""

    unit: Unit


@dataclass(frozen=True, slots=True)
class Edge:
    """The first or last day of a period ("end of month" is the month's last day)."""

    unit: Unit
    which: Literal["start", "end"]
    offset: int


@dataclass(frozen=True, slots=True)
class Weekend:
    """A weekend: the one in progress or coming (offset 0), the one after (1), the last one (-1). `loose` is
    "next weekend", the coming one on a weekday (and then doubly read), the following one during a weekend."""

    offset: int
    loose: bool = False


Frequency = Literal["MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"]


@dataclass(frozen=True, slots=True)
class Every:
    """A recurring event in words, as the parts of an RFC 5545 rule: every `interval` `frequency` units, on the
    `weekdays` (the `ordinal` one of the month for a monthly rule), on day `monthday` (-1: the last) of `month`, at
    `hour`:`minute`:`second` (hour None: all day). `workdays`: the locale's days that are not weekend days. `other`
    is the second reading of a doubly read phrase ("every second Tuesday": every other Tuesday, or the second of each
    month)."""

    frequency: Frequency
    interval: int = 1
    weekdays: tuple[int, ...] = ()
    ordinal: int = 0
    monthday: int = 0
    month: int = 0
    workdays: bool = False
    hour: int | None = None
    minute: int = 0
    second: int = 0
    other: Every | None = None


Spec = Now | Shift | At | Day | Calendar | Named | Rolling | Since | ToDate | Edge | Weekend | Every


def fold(text: str) -> str:
    """Text prepared for matching: NFKC, lower case, Latin accents dropped, spaces collapsed, edges trimmed."""
    out = []
    for char in unicodedata.normalize("NFKC", text).replace("\u2019", "'").casefold():
        base = unicodedata.normalize("NFD", char)
        out.append(base[0] if len(base) > 1 and base[0].isascii() else char)
    return " ".join("".join(out).split()).strip(_EDGE_PUNCTUATION)


def parse_expression(text: str, languages: Iterable[str], budget: Budget = UNLIMITED) -> tuple[Spec, str] | None:
    """The spec and language of the first language (in the order given) whose grammar reads the whole text; a
    holiday's name is tried only when no language reads the text otherwise. Each split of the text tried is a step of
    `budget`."""
    folded = fold(text)
    if not folded:
        return None
    order = tuple(languages)
    for holidays in (False, True):
        for code in order:
            spec = _parse_in(folded, LANGUAGES[code], budget, holidays)
            if spec is not None:
                return spec, code
    return None


def _parse_in(text: str, vocab: Vocab, budget: Budget, holidays: bool = False) -> Spec | None:
    if not holidays:
        for pattern, kind in _table(vocab.code, "rules"):
            match = pattern.fullmatch(text)
            if match:
                spec = _build(match, kind, vocab)
                if spec is not None:
                    return spec
        every = _recurrence(text, vocab, budget)
        if every is not None:
            return every
    return _instant_or_day(text, vocab, budget, holidays)


def _instant_or_day(text: str, vocab: Vocab, budget: Budget, holidays: bool = False) -> Spec | None:
    day = _day(text, vocab, holidays)
    if day is not None:
        return Day(day)
    clock = _time(text, vocab)
    if clock is not None:
        return At(DayRef("offset"), *clock)
    for left, right in _cuts(text, vocab, budget):
        for day_text, time_text in ((left, right), (right, left)):
            day = _day(day_text, vocab, holidays)
            if day is not None and (clock := _time(time_text, vocab)) is not None:
                return At(day, *clock)
    return None


def _cuts(text: str, vocab: Vocab, budget: Budget) -> Iterable[tuple[str, str]]:
    """Every split of the text in two non-empty parts, joining words trimmed (between words, or anywhere in
    Japanese, written without spaces); each split tried a step of `budget`."""
    for cut in range(1, len(text)):
        budget.spend()
        if vocab.code != "ja" and text[cut] != " " and text[cut - 1] != " " and not text[cut].isdigit():
            continue
        left, right = _trim(text[:cut], vocab), _trim(text[cut:], vocab)
        if left and right:
            yield left, right


def _recurrence(text: str, vocab: Vocab, budget: Budget) -> Every | None:
    """A recurring event, with a time of day before or after its form ("every weekday at 9:30")."""
    every = _every(text, vocab)
    if every is not None:
        return every
    for left, right in _cuts(text, vocab, budget):
        for form, time_text in ((left, right), (right, left)):
            every = _every(form, vocab)
            if every is not None and every.frequency not in ("HOURLY", "MINUTELY"):
                clock = _time(time_text, vocab)
                if clock is not None:
                    return _at(every, *clock)
    return None


def _at(every: Every, hour: int, minute: int, second: int) -> Every:
    other = _at(every.other, hour, minute, second) if every.other is not None else None
    return Every(
        every.frequency,
        every.interval,
        every.weekdays,
        every.ordinal,
        every.monthday,
        every.month,
        every.workdays,
        hour,
        minute,
        second,
        other,
    )


def _every(text: str, vocab: Vocab) -> Every | None:
    for pattern, kind in _table(vocab.code, "recurrences"):
        match = pattern.fullmatch(text)
        if match:
            return _build_every(match, kind, vocab)
    return None


def _build_every(match: re.Match[str], kind: str, vocab: Vocab) -> Every | None:
    groups = match.groupdict()
    weekdays = _weekdays(groups.get("wds") or groups.get("wd") or "", vocab)
    count = _count(groups.get("n"), vocab) if groups.get("n") else _ordinal(groups.get("ordn"), vocab) or 1
    if count < 1:
        return None
    if kind == "workdays":
        return Every("WEEKLY", workdays=True)
    if kind in ("daily", "daily_n"):
        return Every("DAILY", count)
    if kind in ("weekly", "weekly_n", "weekly_other", "weekly_other_n"):
        interval = 2 if kind == "weekly_other" else count
        return Every("WEEKLY", interval, weekdays)
    if kind == "every_nth":
        monthly = Every("MONTHLY", weekdays=weekdays, ordinal=count)
        return Every("WEEKLY", count, weekdays, other=monthly)
    if kind == "monthly_nth":
        return Every("MONTHLY", weekdays=weekdays, ordinal=_ordinal(groups["ord"], vocab))
    if kind in ("monthly_day", "monthly_last"):
        day = -1 if kind == "monthly_last" else int(groups["d"])
        return Every("MONTHLY", monthday=day) if day == -1 or 1 <= day <= 31 else None
    if kind == "monthly":
        return Every("MONTHLY")
    if kind == "yearly_date":
        month, day = _index(groups["m"], vocab.months) + 1, int(groups["d"])
        return Every("YEARLY", month=month, monthday=day) if 1 <= day <= _MONTH_DAYS[month - 1] else None
    if kind == "yearly":
        return Every("YEARLY")
    return Every("HOURLY" if kind == "hourly" else "MINUTELY", count)


_MONTH_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _weekdays(text: str, vocab: Vocab) -> tuple[int, ...]:
    found = re.findall(f"(?:{_alternation(vocab.weekdays)})", text) if text else []
    return tuple(sorted({_index(name, vocab.weekdays) for name in found}))


def _ordinal(text: str | None, vocab: Vocab) -> int:
    if not text:
        return 0
    return next((value for pattern, value in vocab.ordinals if re.fullmatch(pattern, text)), 0)


def _trim(text: str, vocab: Vocab) -> str:
    stripped = text.strip(" ,")
    joiner = re.compile(f"^{vocab.connector}|{vocab.connector}$") if vocab.code == "ja" else None
    return joiner.sub("", stripped) if joiner else stripped


def _day(text: str, vocab: Vocab, holidays: bool = False) -> DayRef | None:
    iso = _ISO_DATE.fullmatch(text)
    if iso:
        try:
            return DayRef("date", day=date(int(iso[1]), int(iso[2]), int(iso[3])))
        except ValueError:
            return None
    for pattern, kind in _table(vocab.code, "days"):
        match = pattern.fullmatch(text)
        if match is None:
            continue
        found = _build_day(match, kind, vocab)
        if found is not None:
            return found
    return _holiday(text, vocab) if holidays else None


def _build_day(match: re.Match[str], kind: str, vocab: Vocab) -> DayRef | None:
    name, _, value = kind.partition(":")
    groups = match.groupdict()
    if name == "offset":
        return DayRef("offset", offset=int(value))
    if name in ("nth", "month_day", "month_date"):
        month = _month_ref(groups["mref"], vocab) if groups.get("mref") else None
        if name == "month_date":
            month = MonthRef("named", month=_index(groups["m"], vocab.months) + 1, year=_year(groups.get("y")))
        if month is None:
            return None
        ordinal = int(value) if value else int(groups["d"]) if groups.get("d") else _ordinal(groups.get("ord"), vocab)
        if name != "nth" and not (ordinal == -1 or 1 <= ordinal <= 31):
            return None
        weekday = _index(groups["wd"], vocab.weekdays) if name == "nth" else 0
        return DayRef(name, weekday=weekday, ordinal=ordinal, month=month)  # type: ignore[arg-type]
    weekday = _index(groups["wd"], vocab.weekdays)
    if name == "weekday_week":
        return DayRef("weekday_week", offset=int(value), weekday=weekday)
    return DayRef("weekday", weekday=weekday, mode=value)  # type: ignore[arg-type]


def _month_ref(text: str, vocab: Vocab) -> MonthRef | None:
    for pattern, kind in _table(vocab.code, "month_refs"):
        match = pattern.fullmatch(text)
        if match is None:
            continue
        if kind == "named":
            return MonthRef("named", month=_index(match["m"], vocab.months) + 1, year=_year(match.groupdict().get("y")))
        return MonthRef("offset", offset=int(kind.partition(":")[2]))
    return None


_HOLIDAY_NAME = re.compile(r"[^\W\d_](?:[^\d:]{0,58}[^\W\d_])?")


def _holiday(text: str, vocab: Vocab) -> DayRef | None:
    """A holiday by name ("Christmas", "next Easter", "Thanksgiving 2027"); whether it is one is for the data to say.
    A year said before the country ("Diwali 2027 in India") is read as if said last."""
    found = _holiday_as_said(text, vocab)
    moved = _YEAR_INSIDE.fullmatch(text)
    return found if found is not None or moved is None else _holiday_as_said(f"{moved[1]} {moved[3]} {moved[2]}", vocab)


_YEAR_INSIDE = re.compile(r"(.*\D) (\d{4}) (\D.*)")


def _holiday_as_said(text: str, vocab: Vocab) -> DayRef | None:
    for pattern, mode in _table(vocab.code, "holidays"):
        match = pattern.fullmatch(text)
        if match is None:
            continue
        name = match["hol"].strip(" ,")
        if not _HOLIDAY_NAME.fullmatch(name) or len(name.split()) > 6:
            continue
        if mode == "year" and match["y"] is None:
            continue
        return DayRef("holiday", mode=mode, name=name, year=_year(match.groupdict().get("y")))  # type: ignore[arg-type]
    return None


def _time(text: str, vocab: Vocab) -> tuple[int, int, int] | None:
    """A time of day as (hour, minute, second), seconds only after minutes ("09:30:15")."""
    for pattern, kind in _table(vocab.code, "times"):
        match = pattern.fullmatch(text)
        if match is None:
            continue
        if kind.startswith("fixed:"):
            return int(kind[6:]), 0, 0
        hour = int(match["h"])
        minute = 30 if kind.endswith("_half") else int(match.groupdict().get("mm") or 0)
        second = int(match.groupdict().get("ss") or 0)
        meridiem = match.groupdict().get("mer")
        if meridiem or kind.startswith("clock_pm"):
            if not 1 <= hour <= 12:
                return None
            pm = kind.startswith("clock_pm") or re.fullmatch(vocab.pm, meridiem or "") is not None
            hour = hour % 12 + (12 if pm else 0)
        if hour > 23 or minute > 59 or second > 59:
            return None
        return hour, minute, second
    return None


def _build(match: re.Match[str], kind: str, vocab: Vocab) -> Spec | None:
    parts = kind.split(":")
    groups = match.groupdict()
    name = parts[0]
    if name == "now":
        return Now()
    if name == "quarter":
        return Named("quarter", int(groups["q"]), _year(groups.get("y")))
    if name == "month":
        return Named("month", _index(groups["m"], vocab.months) + 1, _year(groups.get("y")))
    if name == "year":
        return Named("year", 1, int(groups["y"]))
    if name == "since":
        day = _day(groups["day"], vocab)
        return Since(day) if day is not None else None
    if name == "weekend":
        return Weekend(1, loose=True) if parts[1] == "next" else Weekend(int(parts[1]))
    if parts[-1] == "fortnight":
        return Rolling(2, "week") if name == "rolling" else Shift(2 * int(parts[1]), "week", "fortnight")
    unit = _unit(groups.get("p") or groups.get("u"), vocab) or _fixed_unit(parts[-1])
    if unit is None:
        return None
    count = _count(groups.get("n"), vocab)
    if name == "calendar":
        return Calendar(unit, int(parts[1]))
    if name == "rolling":
        return Rolling(count, unit) if count > 0 else None
    if name == "shift":
        return Shift(count * int(parts[1]), unit)
    if name == "todate":
        return ToDate(unit)
    return Edge(unit, parts[1], int(parts[2]))  # type: ignore[arg-type]


def _fixed_unit(text: str) -> Unit | None:
    return next((unit for unit in CALENDAR_UNITS if unit == text), None)


def _year(text: str | None) -> int | None:
    return int(text) if text else None


def _count(text: str | None, vocab: Vocab) -> int:
    if text is None:
        return 1
    return int(text) if text.isdigit() else vocab.numbers[text]


def _unit(text: str | None, vocab: Vocab) -> Unit | None:
    if text is None:
        return None
    return next((unit for unit, pattern in vocab.units.items() if re.fullmatch(pattern, text)), None)


def _index(text: str, options: tuple[str, ...]) -> int:
    return next(i for i, pattern in enumerate(options) if re.fullmatch(pattern, text))


# --- compiled tables ----------------------------------------------------------------------------------------------


def _alternation(options: Iterable[str]) -> str:
    return "|".join(f"(?:{option})" for option in sorted(options, key=len, reverse=True))


def _expand(template: str, vocab: Vocab) -> re.Pattern[str]:
    numbers = _alternation(re.escape(word) for word in vocab.numbers)
    weekday = _alternation(vocab.weekdays)
    ordinals = _alternation(pattern for pattern, _ in vocab.ordinals)
    counted = _alternation(pattern for pattern, value in vocab.ordinals if value > 1)
    pieces = {
        "{ORDN}": f"(?P<ordn>{counted})",
        "{ORD}": f"(?P<ord>{ordinals})",
        "{MREF}": "(?P<mref>.+?)",
        "{WDS}": f"(?P<wds>(?:{weekday})s?(?:{vocab.joiner}(?:{weekday})s?)*)",
        "{WDP}": f"(?P<wds>(?:{weekday})s(?:{vocab.joiner}(?:{weekday})s)*)",
        "{D}": "(?P<d>\\d{1,2})",
        "{HOL}": "(?P<hol>.+?)",
        "{N}": f"(?P<n>\\d{{1,4}}|{numbers})",
        "{U}": f"(?P<u>{_alternation(vocab.units.values())})",
        "{P}": f"(?P<p>{_alternation(vocab.units[unit] for unit in CALENDAR_UNITS)})",
        "{Y}": "(?P<y>\\d{4})",
        "{Q}": "(?P<q>[1-4])",
        "{M}": f"(?P<m>{_alternation(vocab.months)})",
        "{WD}": f"(?P<wd>{_alternation(vocab.weekdays)})",
        "{DAY}": "(?P<day>.+)",
        "{H}": "(?P<h>\\d{1,2})",
        "{MM}": "(?:(?P<mm>\\d{2})(?::(?P<ss>\\d{2}))?)",
        "{MER}": f"(?P<mer>{vocab.am}|{vocab.pm})",
    }
    pattern = template
    for placeholder, regex in pieces.items():
        pattern = pattern.replace(placeholder, regex)
    return re.compile(pattern)


def _alternatives(template: str) -> list[str]:
    """A template's top-level alternatives: each is compiled alone, so a placeholder's group may recur in them."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(template):
        if char == "(" and template[index - 1 : index] != "\\":
            depth += 1
        elif char == ")" and template[index - 1 : index] != "\\":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(template[start:index])
            start = index + 1
    return [*parts, template[start:]]


def _compiled(vocab: Vocab, rules: Iterable[tuple[str, str]]) -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((_expand(part, vocab), kind) for template, kind in rules for part in _alternatives(template))


TABLES: Final = ("rules", "days", "times", "month_refs", "recurrences", "holidays")


def compile_tables() -> None:
    """Compile every language's tables now rather than on the first phrase each needs (start-up warming)."""
    for code in LANGUAGES:
        for name in TABLES:
            _table(code, name)


@cache
def _table(code: str, name: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """One of a language's tables (`rules`, `days`, `times`, `month_refs`, `recurrences`, `holidays`), compiled."""
    vocab = LANGUAGES[code]
    rules: tuple[tuple[str, str], ...] = getattr(vocab, name)
    return _compiled(vocab, rules)
