"""The tz database's own rules (the zic source text `tzdata.zi`), applied the way `zic` applies them.

TZif files say when the offset, abbreviation and DST flag change, but not the standard offset: that lives only
in the rules (a Zone line's STDOFF; a Rule line's SAVE is what DST adds to it). So standard offset, DST amount
and DST flag are read here from the text of the database, with zic's algorithm (`outzone` in zic.c, documented
in zic(8)), and the oracle tests compare the result with `zdump` on zones compiled by zic from the same text.

The reading is the database's main form, as published: DST is whatever SAVE says, so Ireland's winter time
(GMT, SAVE -1:00 under IST) and Morocco's Ramadan time are negative DST with the DST flag set, as zic sets it.

Pure: `Database.parse` takes the text; `horologe.core.tzdb` loads it from the `tzdata` package once.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, NamedTuple

from horologe.core.weekdays import ARGUMENT_NAMES

_DAY: Final = 86_400
_MONTHS: Final = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
                  "october", "november", "december")  # fmt: skip
_MAX_YEAR: Final = 1 << 31  # "max" in a TO field
_TAIL_CACHE: Final = 4096


class State(NamedTuple):
    """What clocks in a zone read between two changes: offsets in seconds, DST flag and abbreviation."""

    utoff: int
    stdoff: int
    isdst: bool
    abbreviation: str

    @property
    def save(self) -> int:
        """What DST adds to the standard offset (negative for negative DST), in seconds."""
        return self.utoff - self.stdoff


@dataclass(frozen=True, slots=True)
class _Moment:
    """A date and time of day as a Rule's ON/AT or a Zone's UNTIL gives them, with the clock it is read on."""

    month: int  # 1..12
    day: int  # day of month, or the bound of a weekday rule
    weekday: int | None  # Monday 0; None for a plain day of month
    on_or_after: bool  # Sun>=8 (True) or Sun<=25 / lastSun (False)
    time: int  # seconds after midnight
    universal: bool  # 'u' (also 'g', 'z'): read on UT
    standard: bool  # 's' or 'u': read without DST

    def local_seconds(self, year: int) -> int:
        """Seconds from 1970-01-01T00:00 to this moment in `year`, on its own clock (zic's `rpytime`)."""
        day = self.day
        if self.month == 2 and day == 29 and not _is_leap(year) and not self.on_or_after:
            day = 28  # lastSun in February: the bound is the month's last day
        days = _days_from_civil(year, self.month, 1) + day - 1
        if self.weekday is not None and self.on_or_after:
            days += (self.weekday - _weekday(days)) % 7
        elif self.weekday is not None:
            days -= (_weekday(days) - self.weekday) % 7
        return days * _DAY + self.time


@dataclass(frozen=True, slots=True)
class _Rule:
    first: int
    last: int
    moment: _Moment
    save: int
    isdst: bool
    letters: str


@dataclass(frozen=True, slots=True)
class _Line:
    """One Zone line or continuation: standard offset, rules (a name, or a fixed SAVE), format, until."""

    stdoff: int
    rules: str  # a Rule name, or "" for a fixed save (then `save`, `isdst`)
    save: int
    isdst: bool
    format: str
    until_year: int | None
    until: _Moment | None


@dataclass(frozen=True, slots=True, eq=False)  # compared and hashed by identity: it is cached per zone
class Compiled:
    """A zone's changes as zic would write them, plus the yearly rules that go on after the last one.

    `starts[i]` is the first UT second of `states[i + 1]`; `states[0]` holds before every change. After
    `tail_from` (the first year whose changes are not listed) the changes of each year come from `tail_rules`
    on `tail_line`, each year starting from `states[-1]`.
    """

    starts: tuple[int, ...]
    states: tuple[State, ...]
    tail_from: int | None
    tail_line: _Line | None
    tail_rules: tuple[_Rule, ...]


class Database:
    """The Rule and Zone lines of one tzdata.zi text, read on demand: a zone's lines and rules when it is compiled."""

    def __init__(self, rules: dict[str, list[Sequence[str]]], zones: dict[str, list[Sequence[str]]]) -> None:
        self._rule_fields = rules
        self._zone_fields = zones
        self._rules: dict[str, tuple[_Rule, ...]] = {}  # parsed on first use; a parse is the same every time

    @classmethod
    def parse(cls, lines: Iterable[Sequence[str]]) -> Database:
        """Group tzdata.zi (or any zic source), already split into fields per line, by Rule and Zone name."""
        rules: dict[str, list[Sequence[str]]] = {}
        zones: dict[str, list[Sequence[str]]] = {}
        current: list[Sequence[str]] | None = None
        for fields in lines:
            if not fields or fields[0].startswith("#"):
                continue
            if current is None and _keyword(fields[0], ("rule",)):
                rules.setdefault(fields[1], []).append(fields[2:])
                continue
            if current is None and _keyword(fields[0], ("zone",)):
                current = zones.setdefault(fields[1], [])
                fields = fields[2:]
            elif current is None:
                continue  # a Link line: links are resolved by tzdb
            current.append(fields)
            current = current if len(fields) > 3 else None  # an UNTIL field: a continuation line follows
        return cls(rules, zones)

    def names(self) -> frozenset[str]:
        """The zone names (Zone lines), not links."""
        return frozenset(self._zone_fields)

    def compile(self, name: str) -> Compiled:
        """The changes of zone `name` (a Zone line's name, not a link); KeyError if there is none."""
        lines = tuple(_zone_line(fields) for fields in self._zone_fields[name])
        return _Compiler(lines, {line.rules: self._rule_set(line.rules) for line in lines if line.rules}).run()

    def _rule_set(self, name: str) -> tuple[_Rule, ...]:
        found = self._rules.get(name)
        if found is None:
            found = self._rules[name] = tuple(_rule(fields) for fields in self._rule_fields.get(name, ()))
        return found


# --- applying the rules --------------------------------------------------------------------------------------


class _Compiler:
    """zic's `outzone` for one zone, up to the year after the last one the zone's lines and rules name."""

    def __init__(self, lines: tuple[_Line, ...], rules: dict[str, tuple[_Rule, ...]]) -> None:
        self.lines = lines
        self.rules = [rules.get(line.rules, ()) if line.rules else () for line in lines]
        years = [1970]
        for line, own in zip(lines, self.rules, strict=True):
            years += [line.until_year] if line.until_year is not None else []
            years += [rule.first for rule in own] + [rule.last for rule in own if rule.last != _MAX_YEAR]
        self.min_year, self.last_year = min(years), max(years) + 1
        self.changes: list[tuple[int, State]] = []
        self.default: State | None = None  # zic's `defaulttype`: what holds before the first change
        self.first: State | None = None  # zic's type 0: the first state made

    def run(self) -> Compiled:
        start: int | None = None
        for index, line in enumerate(self.lines):
            start = self._line(line, self.rules[index], start, index == len(self.lines) - 1)
        assert self.first is not None  # every zone has at least one line, and every line makes a state
        changes = _optimized(sorted(self.changes, key=lambda change: change[0]), self.first)
        default = self.default or self.first
        starts: list[int] = []
        states = [default]
        for at, state in changes:
            if state != states[-1]:
                starts.append(at)
                states.append(state)
        listed = Compiled(tuple(starts), tuple(states), None, None, ())
        tail = tuple(rule for rule in self.rules[-1] if rule.last == _MAX_YEAR)
        if not tail:
            return listed
        compiled = Compiled(listed.starts, listed.states, self.last_year + 1, self.lines[-1], tail)
        year = _tail_year(compiled, self.last_year + 1)
        return compiled if any(visible(states[-1], state) for _, state in year) else listed

    def _made(self, state: State) -> State:
        self.first = self.first or state
        return state

    def _line(self, line: _Line, rules: tuple[_Rule, ...], start: int | None, last: bool) -> int | None:
        """Add the changes of one zone line; return the UT start of the next line."""
        save = 0
        use_start = start is not None
        if not rules:
            save = line.save
            state = self._made(
                State(line.stdoff + save, line.stdoff, line.isdst, _abbreviation(line, None, line.isdst, save))
            )
            if start is not None:
                self.changes.append((start, state))
            else:
                self.default = state
            return None if last else _until_ut(line, save)
        start_offset, start_abbreviation = line.stdoff, ""
        last_year = self.last_year if last or line.until_year is None else line.until_year
        for year in range(self.min_year, last_year + 1):
            todo = {rule: rule.moment.local_seconds(year) for rule in rules if rule.first <= year <= rule.last}
            while todo:
                until = None if last else _until_ut(line, save)
                rule, at = _earliest(todo, line.stdoff, save)
                del todo[rule]
                if until is not None and at >= until:
                    if not start_abbreviation and line.stdoff + rule.save == start_offset:
                        start_abbreviation = _abbreviation(line, rule.letters, rule.isdst, rule.save)
                    break
                save = rule.save
                if use_start and at == start:
                    use_start = False
                if use_start and start is not None:
                    if at < start:
                        start_offset = line.stdoff + save
                        start_abbreviation = _abbreviation(line, rule.letters, rule.isdst, rule.save)
                        continue
                    if not start_abbreviation and start_offset == line.stdoff + save:
                        start_abbreviation = _abbreviation(line, rule.letters, rule.isdst, rule.save)
                state = self._made(_rule_state(line, rule))
                if self.default is None and not rule.isdst:
                    self.default = state
                self.changes.append((at, state))
        if use_start and start is not None:
            isdst = start_offset != line.stdoff
            abbreviation = start_abbreviation or _abbreviation(line, None, isdst, save, letters_known=False)
            state = self._made(State(start_offset, line.stdoff, isdst, abbreviation))
            if self.default is None and not isdst:
                self.default = state
            self.changes.append((start, state))
        return None if last else _until_ut(line, save)


def _rule_state(line: _Line, rule: _Rule) -> State:
    abbreviation = _abbreviation(line, rule.letters, rule.isdst, rule.save)
    return State(line.stdoff + rule.save, line.stdoff, rule.isdst, abbreviation)


def _earliest(todo: dict[_Rule, int], stdoff: int, save: int) -> tuple[_Rule, int]:
    """The rule that takes effect first, and when (UT), reading each AT on its own clock."""
    best: tuple[_Rule, int] | None = None
    for rule, local in todo.items():
        offset = (0 if rule.moment.universal else stdoff) + (0 if rule.moment.standard else save)
        at = local - offset
        if best is None or at < best[1]:
            best = (rule, at)
    assert best is not None  # only called with rules to do
    return best


def _until_ut(line: _Line, save: int) -> int:
    assert line.until is not None and line.until_year is not None
    at = line.until.local_seconds(line.until_year)
    if not line.until.universal:
        at -= line.stdoff
    if not line.until.standard:
        at -= save
    return at


def _optimized(changes: list[tuple[int, State]], first: State) -> list[tuple[int, State]]:
    """zic's `writezone` clean-up: a change whose local time is not later than the previous one's replaces it,
    and a change to the state already in force is dropped."""
    kept: list[tuple[int, State]] = []
    for at, state in changes:
        if kept:
            previous_at, previous = kept[-1]
            before = kept[-2][1] if len(kept) > 1 else first
            if at + previous.utoff <= previous_at + before.utoff:
                if state == before:
                    kept.pop()
                else:
                    kept[-1] = (previous_at, state)
                continue
            if state == previous:
                continue
        kept.append((at, state))
    return kept


def _abbreviation(line: _Line, letters: str | None, isdst: bool, save: int, *, letters_known: bool = True) -> str:
    """zic's `doabbr`: FORMAT with %s (the rule's letters), %z (the offset) or 'STD/DST'."""
    text = line.format
    if "/" in text:
        standard, _, daylight = text.partition("/")
        return daylight if isdst else standard
    if "%z" in text:
        return text.replace("%z", _offset_abbreviation(line.stdoff + save))
    if not letters_known:
        return text.replace("%s", "")
    return text.replace("%s", letters or "")


def _offset_abbreviation(offset: int) -> str:
    sign = "-" if offset < 0 else "+"
    minutes, seconds = divmod(abs(offset), 60)
    hours, minutes = divmod(minutes, 60)
    text = f"{sign}{hours:02d}"
    if minutes or seconds:
        text += f"{minutes:02d}" + (f"{seconds:02d}" if seconds else "")
    return text


# --- looking changes up -------------------------------------------------------------------------------------


def visible(before: State, after: State) -> bool:
    """Whether a change shows on clocks or labels: the UTC offset, the DST flag or the abbreviation changes."""
    return (before.utoff, before.isdst, before.abbreviation) != (after.utoff, after.isdst, after.abbreviation)


def next_change(compiled: Compiled, ts: int, until: int) -> tuple[int, State, State] | None:
    """The first visible change with ts < at <= until, as (at, before, after)."""
    for index in range(bisect.bisect_right(compiled.starts, ts), len(compiled.starts)):
        at, before, after = compiled.starts[index], compiled.states[index], compiled.states[index + 1]
        if at > until:
            return None
        if visible(before, after):
            return at, before, after
    if compiled.tail_from is None:
        return None
    before = state_at(compiled, ts)
    for year in range(max(compiled.tail_from, _year_of(ts) - 1), _year_of(until) + 2):
        for at, state in _tail_year(compiled, year):
            if at > until:
                return None
            if at > ts and visible(before, state):
                return at, before, state
            before = state if at > ts else before
    return None


def previous_change(compiled: Compiled, ts: int) -> tuple[int, State, State] | None:
    """The last visible change with at <= ts, as (at, before, after), however long ago."""
    if compiled.tail_from is not None and ts >= _year_start(compiled.tail_from) - 2 * _DAY:
        for year in range(_year_of(ts) + 1, compiled.tail_from - 1, -1):
            changes = _tail_year(compiled, year)
            for index in range(len(changes) - 1, -1, -1):
                at, state = changes[index]
                before = changes[index - 1][1] if index else compiled.states[-1]
                if at <= ts and visible(before, state):
                    return at, before, state
    for index in range(bisect.bisect_right(compiled.starts, ts) - 1, -1, -1):
        before, after = compiled.states[index], compiled.states[index + 1]
        if visible(before, after):
            return compiled.starts[index], before, after
    return None


# --- the years after the last listed change ------------------------------------------------------------------


def state_at(compiled: Compiled, ts: int) -> State:
    """The state of the zone at UT second `ts`."""
    if compiled.tail_from is not None and ts >= _year_start(compiled.tail_from) - 2 * _DAY:
        year = _year_of(ts)
        for at, state in reversed(_tail_window(compiled, year - 1, year + 1)):
            if at <= ts:
                return state
    return compiled.states[bisect.bisect_right(compiled.starts, ts)]


def changes_between(compiled: Compiled, low: int, high: int) -> list[tuple[int, State, State]]:
    """Every change with low < at <= high, as (at, state before, state after), oldest first."""
    found: list[tuple[int, State, State]] = []
    first, last = bisect.bisect_right(compiled.starts, low), bisect.bisect_right(compiled.starts, high)
    for index in range(first, last):
        found.append((compiled.starts[index], compiled.states[index], compiled.states[index + 1]))
    if compiled.tail_from is None or high < _year_start(compiled.tail_from) - 2 * _DAY:
        return found
    before = compiled.states[-1]
    first_year = max(compiled.tail_from, _year_of(low) - 1)
    if first_year > compiled.tail_from:
        before = state_at(compiled, _year_start(first_year) - 2 * _DAY)
    for at, state in _tail_window(compiled, first_year, _year_of(high) + 1):
        if state != before and low < at <= high:
            found.append((at, before, state))
        before = state
    return found


def _tail_window(compiled: Compiled, first: int, last: int) -> list[tuple[int, State]]:
    changes: list[tuple[int, State]] = []
    for year in range(max(first, compiled.tail_from or first), last + 1):
        changes += _tail_year(compiled, year)
    return changes


@lru_cache(maxsize=_TAIL_CACHE)
def _tail_year(compiled: Compiled, year: int) -> tuple[tuple[int, State], ...]:
    """The changes of one year after the listed ones: each year starts as the last listed one ended."""
    line = compiled.tail_line
    assert line is not None
    save = compiled.states[-1].save
    todo = {rule: rule.moment.local_seconds(year) for rule in compiled.tail_rules if rule.first <= year}
    changes = []
    while todo:
        rule, at = _earliest(todo, line.stdoff, save)
        del todo[rule]
        save = rule.save
        changes.append((at, _rule_state(line, rule)))
    return tuple(changes)


# --- reading fields ------------------------------------------------------------------------------------------


def _rule(fields: Sequence[str]) -> _Rule:
    first_text, last_text, _type, month, day, at, save_text, letters = fields[:8]
    first = int(first_text)
    if _keyword(last_text, ("only",)):
        last = first
    elif _keyword(last_text, ("maximum",)):
        last = _MAX_YEAR
    else:
        last = int(last_text)
    save, isdst = _save(save_text)
    return _Rule(first, last, _moment(month, day, at), save, isdst, "" if letters == "-" else letters)


def _zone_line(fields: Sequence[str]) -> _Line:
    stdoff, rules, text = _seconds(fields[0]), fields[1], fields[2]
    named = bool(rules) and rules != "-" and not (rules[0].isdigit() or rules[0] in "+-")
    save, isdst = (0, False) if named or rules == "-" else _save(rules)
    until = fields[3:]
    if not until:
        return _Line(stdoff, rules if named else "", save, isdst, text, None, None)
    moment = _moment(until[1] if len(until) > 1 else "Jan", until[2] if len(until) > 2 else "1",
                     until[3] if len(until) > 3 else "0")  # fmt: skip
    return _Line(stdoff, rules if named else "", save, isdst, text, int(until[0]), moment)


def _moment(month_text: str, day_text: str, time_text: str) -> _Moment:
    month = _word(month_text, _MONTHS) + 1
    universal = standard = False
    suffix = time_text[-1:].lower()
    if suffix in ("u", "g", "z"):
        universal = standard = True
    elif suffix == "s":
        standard = True
    if suffix.isalpha():
        time_text = time_text[:-1]
    time = _seconds(time_text)
    if day_text.lower().startswith("last"):
        return _Moment(month, _month_length(2000, month), _word(day_text[4:], ARGUMENT_NAMES), False, time, universal,
                       standard)  # fmt: skip
    for operator, after in ((">=", True), ("<=", False)):
        if operator in day_text:
            name, _, bound = day_text.partition(operator)
            return _Moment(month, int(bound), _word(name, ARGUMENT_NAMES), after, time, universal, standard)
    return _Moment(month, int(day_text), None, True, time, universal, standard)


def _save(text: str) -> tuple[int, bool]:
    """A SAVE field: seconds, and the DST flag (an explicit 'd' or 's' suffix, else SAVE != 0)."""
    if text[-1:] in ("d", "s"):
        return _seconds(text[:-1]), text[-1] == "d"
    seconds = _seconds(text)
    return seconds, seconds != 0


def _seconds(text: str) -> int:
    """'-0:25:21', '5:45', '2', '0', '' or '-' as seconds (zic's `gethms`)."""
    sign = -1 if text.startswith("-") else 1
    parts = [int(part or 0) for part in text.lstrip("-").split(":")]
    hours, minutes, seconds = [*parts, 0, 0][:3]
    return sign * (hours * 3600 + minutes * 60 + seconds)


def _word(text: str, words: tuple[str, ...]) -> int:
    """The index of the word that `text` abbreviates (zic accepts any unambiguous prefix)."""
    lowered = text.lower()
    matches = [index for index, word in enumerate(words) if word.startswith(lowered)]
    if len(matches) != 1:
        raise ValueError(f"{text!r} is not one of {', '.join(words)}")
    return matches[0]


def _keyword(text: str, words: tuple[str, ...]) -> bool:
    return bool(text) and any(word.startswith(text.lower()) for word in words)


# --- the proleptic Gregorian calendar in days since 1970-01-01 -----------------------------------------------


def _is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _month_length(year: int, month: int) -> int:
    if month == 2:
        return 29 if _is_leap(year) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to a proleptic Gregorian date, for any year (H. Hinnant's algorithm)."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146_097 + day_of_era - 719_468


def _weekday(days: int) -> int:
    """Monday 0 for a day count since 1970-01-01 (a Thursday)."""
    return (days + 3) % 7


def _year_start(year: int) -> int:
    return _days_from_civil(year, 1, 1) * _DAY


def _year_of(ts: int) -> int:
    """The proleptic Gregorian year of UT second `ts` (H. Hinnant's `civil_from_days`)."""
    days = ts // _DAY + 719_468
    era = days // 146_097
    day_of_era = days - era * 146_097
    year_of_era = (day_of_era - day_of_era // 1460 + day_of_era // 36_524 - day_of_era // 146_096) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    month_index = (5 * day_of_year + 2) // 153  # March is 0
    return year_of_era + era * 400 + (1 if month_index >= 10 else 0)
