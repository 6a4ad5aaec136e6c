"""Recurring events from RFC 5545 rules (RRULE, RDATE, EXDATE) and cron expressions, expanded in a zone.

Expansion happens on naive wall times in the event's zone (dateutil's rrule, croniter), so "9:00 every
Monday" stays 9:00 across DST changes. The event's zone is DTSTART's own when it has one (its TZID, or UTC for
a 'Z' time: RFC 5545 §3.3.5, `Rule.tzid`), else the caller's. Each wall time is then placed with
`resolve_local`, and times in a DST gap or fold carry that fact and the policy applied (RFC 5545 §3.3.5 reads a
gap time with the offset before the gap, which is the 'compatible' policy). Wall times that land on the same
instant (two gap times) are reported once.

`expand` is a generator: callers take as many occurrences as they want (and can report progress).
"""

from __future__ import annotations

import heapq
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any, Final, Literal

from horologe.core.budget import UNLIMITED, Budget
from horologe.core.errors import InvalidArgument
from horologe.core.localtime import Disambiguation, LocalResolution, resolve_local
from horologe.core.messages import N_, English, Message, msg
from horologe.core.parse import clock_problem, date_problem
from horologe.core.zones import resolve_zone

RuleKind = Literal["rrule", "cron"]
MAX_RULE_LENGTH: Final = 1000
MAX_SKIPPED: Final = 200_000
RRULE_EXAMPLES: Final = ("FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=9;BYMINUTE=0", "0 9 * * MON-FRI")
_PROPERTY = re.compile(r"(?P<name>[A-Z-]+)(?P<params>(?:;[A-Z-]+=[^:;]*)*):(?P<value>.+)", re.IGNORECASE)
_STAMP = re.compile(r"(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?", re.IGNORECASE)
_NAIVE: Final = "%Y%m%dT%H%M%S"
_A_MONDAY: Final = datetime(2001, 1, 1)
NARROW_RULE: Final = msg(
    N_("Ask for fewer occurrences, move DTSTART closer to the start, or use a rule that matches more often.")
)


@dataclass(frozen=True, slots=True)
class Rule:
    """A parsed recurrence: its kind, the series start (wall time) and the zone named inside it, if any."""

    kind: RuleKind
    text: str
    dtstart: datetime | None
    tzid: str | None


@dataclass(frozen=True, slots=True)
class Occurrence:
    """One occurrence: the wall time the rule produced and how it was placed in the zone."""

    wall: datetime
    resolution: LocalResolution


def parse_rule(text: str) -> Rule:
    """Recognise an RFC 5545 rule (with optional DTSTART/RDATE/EXDATE lines) or a cron expression."""
    if not isinstance(text, str) or not text.strip():
        raise _bad_rule(str(text), msg(N_("it is empty")))
    cleaned = text.strip()
    if len(cleaned) > MAX_RULE_LENGTH:
        raise _bad_rule(cleaned[:40] + "...", msg(N_("it is longer than {limit} characters"), limit=MAX_RULE_LENGTH))
    if "FREQ=" in cleaned.upper() or cleaned.upper().startswith(("DTSTART", "RRULE", "RDATE")):
        dtstart, tzid = _dtstart(cleaned)
        return Rule("rrule", cleaned, dtstart, tzid)
    return Rule("cron", cleaned, None, None)


def expand(
    rule: Rule,
    zone: tzinfo,
    after: datetime,
    *,
    policy: Disambiguation = "compatible",
    until: datetime | None = None,
    budget: Budget = UNLIMITED,
) -> Iterator[Occurrence]:
    """Occurrences at or after the aware instant `after` (and not after `until`), oldest first.

    Every wall time the rules produce (kept, excluded or skipped) is one step of `budget`.
    """
    after_wall = after.astimezone(zone).replace(tzinfo=None, fold=0)
    cron = rule.kind == "cron"
    walls = _cron_walls(rule.text, after_wall) if cron else _rrule_walls(rule, zone, after_wall, budget)
    previous: datetime | None = None
    for wall in walls:
        budget.spend(NARROW_RULE)
        resolution = resolve_local(wall, zone, policy)
        instant = resolution.instant
        if instant < after or (previous is not None and instant == previous):
            continue
        if until is not None and instant > until:
            return
        previous = instant
        yield Occurrence(wall, resolution)


def _rrule_walls(rule: Rule, zone: tzinfo, after_wall: datetime, budget: Budget) -> Iterator[datetime]:
    # RFC 5545 takes unset BYHOUR/BYMINUTE/BYSECOND (and the weekday, the day) from DTSTART; without one, the
    # series starts at midnight of the listing's first day, never at the clock's minutes and seconds.
    start = rule.dtstart or after_wall.replace(hour=0, minute=0, second=0, microsecond=0)
    included: list[Iterator[datetime]] = []
    excluded: list[Iterator[datetime]] = []
    for line in _content_lines(rule.text):
        if line.upper().startswith("DTSTART"):
            continue
        name, _, value = _wall_line(line, zone).partition(":")
        if name in ("RRULE", "EXRULE"):
            walls = _rule_walls(line, value, start, budget)
        else:
            walls = iter(sorted(datetime.strptime(stamp, _NAIVE) for stamp in value.split(",")))
        (included if name in ("RRULE", "RDATE") else excluded).append(walls)
    # The set is merged here rather than by dateutil's rruleset, whose exclusion loop runs without yielding (an
    # EXRULE equal to the RRULE would spin to year 9999 out of the budget's reach).
    walls = _without(heapq.merge(*included), heapq.merge(*excluded))
    # The set cannot start from `after`: skip from DTSTART, within a bound so a far DTSTART cannot hang us.
    skipped = 0
    for wall in walls:
        if wall >= after_wall - timedelta(days=2):
            yield wall
            continue
        skipped += 1
        if skipped > MAX_SKIPPED:
            raise InvalidArgument(
                N_(
                    "More than {limit} occurrences lie between DTSTART {start} and the start of the listing. "
                    "Move DTSTART closer to the start, or use a coarser rule."
                ),
                limit=MAX_SKIPPED,
                start=start.isoformat(),
                details={"limit": MAX_SKIPPED},
            )


def _rule_walls(line: str, value: str, start: datetime, budget: Budget) -> Iterator[datetime]:
    """The wall times of one RRULE or EXRULE, each a step of the budget; a rule dateutil cannot expand is refused."""
    from dateutil.rrule import rrulestr

    parts = _rule_parts(value)
    try:
        expanded = iter(rrulestr(_bounded(value, parts), dtstart=start, ignoretz=True))
    except (ValueError, TypeError, KeyError, IndexError, OverflowError) as exc:
        reason = msg(N_("it is not a valid RFC 5545 rule ({detail})"), detail=English(str(exc) or type(exc).__name__))
        raise _bad_rule(line, reason) from None
    _check_feasible(line, parts, start, budget)
    while True:
        budget.spend(NARROW_RULE)
        # One next() may search for centuries without a match (date and time parts that rarely meet): watched,
        # so the budget reaches inside it.
        wall = budget.watched(_next_wall, expanded, narrow=NARROW_RULE)
        if wall is None:
            return
        yield wall


def _next_wall(expanded: Iterator[datetime]) -> datetime | None:
    """dateutil's next wall time; None at the end of the series."""
    try:
        return next(expanded, None)
    except (ValueError, OverflowError):
        return None  # dateutil steps past year 9999 while looking for the next match: the series ends there


def _without(walls: Iterator[datetime], exclusions: Iterator[datetime]) -> Iterator[datetime]:
    """Merged wall times, once each, minus those the exclusions (sorted too) name."""
    excluded = next(exclusions, None)
    previous: datetime | None = None
    for wall in walls:
        if wall == previous:
            continue
        previous = wall
        while excluded is not None and excluded < wall:
            excluded = next(exclusions, None)
        if excluded != wall:
            yield wall


def _rule_parts(value: str) -> dict[str, str]:
    return {k.upper(): v.upper() for k, _, v in (p.partition("=") for p in value.split(";")) if v}


def _bounded(value: str, parts: dict[str, str]) -> str:
    """A DAILY rule with date filters as the YEARLY rule with the same occurrences, which dateutil scans a year at a
    time instead of a day at a time (a rare date such as a 29 February that is a Monday would take seconds)."""
    if parts.get("FREQ") != "DAILY" or parts.get("INTERVAL", "1") != "1" or "BYSETPOS" in parts:
        return value
    if not parts.keys() & {"BYMONTH", "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO"}:
        return value
    rewritten = {**parts, "FREQ": "YEARLY"}
    if not parts.keys() & {"BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYDAY"}:
        # YEARLY;BYMONTH alone means DTSTART's day of those months; DAILY means every day of them.
        rewritten["BYMONTHDAY"] = ",".join(str(day) for day in range(1, 32))
    return ";".join(f"{key}={val}" for key, val in rewritten.items())


def _check_feasible(line: str, parts: dict[str, str], start: datetime, budget: Budget) -> None:
    """Refuse rules that can never produce an occurrence: dateutil would search to year 9999 without yielding. The
    probe's search is watched by `budget` like the expansion's."""
    from dateutil.rrule import rrulestr

    frequency = parts.get("FREQ", "")
    positions = [int(p) for p in parts.get("BYSETPOS", "").split(",") if re.fullmatch(r"[+-]?\d+", p)]
    most = _most_per_period(frequency, parts)
    if positions and most is not None and min(abs(p) for p in positions) > most:
        reason = msg(
            N_("BYSETPOS asks for position {position} in a period that holds at most {most} candidates"),
            position=min(abs(p) for p in positions),
            most=most,
        )
        raise _bad_rule(line, reason)
    if not _in_step(frequency, parts, start):
        reason = msg(
            N_("counted from DTSTART in steps of INTERVAL={interval}, it never reaches the times its BY parts allow"),
            interval=parts.get("INTERVAL", "1"),
        )
        raise _bad_rule(line, reason)
    days = {k: v for k, v in parts.items() if k in ("BYMONTH", "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO")}
    if not days:
        return
    weekdays = parts.get("BYDAY", "")
    if weekdays and (frequency == "YEARLY" or not re.search(r"\d", weekdays)):
        days["BYDAY"] = weekdays
    probe = ";".join(["FREQ=YEARLY", *(f"{k}={v}" for k, v in days.items())])
    # Dates and weekdays repeat every 400 years: probing the last such span before 9999 (same leap and weekday
    # pattern as DTSTART's year) answers for every year, in a few hundred yearly steps instead of thousands.
    year = start.year + 400 * ((9599 - start.year) // 400)
    try:
        probed = iter(rrulestr(probe, dtstart=start.replace(year=year, hour=0, minute=0, second=0)))
        found = budget.watched(next, probed, None, narrow=NARROW_RULE)
    except (ValueError, TypeError, KeyError, IndexError, OverflowError):
        return  # dateutil refuses the probe (not the rule): the budget remains the bound
    if found is None:
        raise _bad_rule(line, msg(N_("its BYMONTH/BYMONTHDAY/BYYEARDAY parts never match a real date")))


def _in_step(frequency: str, parts: dict[str, str], start: datetime) -> bool:
    """Whether a sub-daily rule's steps (DTSTART + k x INTERVAL units, on naive wall time) can ever land on a
    weekday and time its limiting BY parts allow; exact, as steps and allowed times both repeat every week.

    dateutil checks each BY part alone (BYSECOND against a SECONDLY interval); INTERVAL=7;BYSECOND=0;BYMINUTE=0
    from second 1 passes that yet never matches together, and would be searched towards year 9999.
    """
    unit = {"SECONDLY": 1, "MINUTELY": 60, "HOURLY": 3600}.get(frequency)
    weekdays = parts.get("BYDAY", "")
    if unit is None or re.search(r"\d", weekdays):
        return True
    step = math.gcd(int(parts.get("INTERVAL", "1")), 7 * 86400 // unit)  # steps reach one class modulo this

    def offsets(name: str, seconds: int, count: int) -> set[int]:
        """The part's allowed offsets in the week, in units, modulo the step; {0} for a part finer than FREQ,
        which expands each period instead of limiting it."""
        if seconds < unit:
            return {0}
        values = [int(v) for v in parts[name].split(",")] if name in parts else range(count)
        return {v * seconds // unit % step for v in values}

    names = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
    days = [names.index(day) for day in weekdays.split(",")] if weekdays else range(7)
    coarse = {(day * 86400 // unit + h) % step for day in days for h in offsets("BYHOUR", 3600, 24)}
    fine = {(m + s) % step for m in offsets("BYMINUTE", 60, 60) for s in offsets("BYSECOND", 1, 60)}
    first = (start - _A_MONDAY) // timedelta(seconds=unit) % step
    return any((first - c) % step in fine for c in coarse)


def _most_per_period(frequency: str, parts: dict[str, str]) -> int | None:
    """An upper bound on the candidates one period of the rule holds (what BYSETPOS may index), if known."""

    def count(name: str) -> int:
        return len([p for p in parts.get(name, "").split(",") if p]) or 1

    times = {"SECONDLY": 1, "MINUTELY": count("BYSECOND"), "HOURLY": count("BYMINUTE") * count("BYSECOND")}
    if frequency in times:
        return times[frequency]
    per_day = count("BYHOUR") * count("BYMINUTE") * count("BYSECOND")
    weekdays = count("BYDAY") if "BYDAY" in parts and not re.search(r"\d", parts["BYDAY"]) else None
    bounds = {"DAILY": [1], "WEEKLY": [7], "MONTHLY": [31], "YEARLY": [366]}.get(frequency)
    if bounds is None:
        return None
    if weekdays is not None:
        bounds.append({"DAILY": 1, "WEEKLY": weekdays, "MONTHLY": 5 * weekdays, "YEARLY": 53 * weekdays}[frequency])
    if "BYMONTHDAY" in parts and frequency in ("MONTHLY", "YEARLY"):
        bounds.append(count("BYMONTHDAY") * (12 if frequency == "YEARLY" else 1))
    if "BYYEARDAY" in parts and frequency == "YEARLY":
        bounds.append(count("BYYEARDAY"))
    return min(bounds) * per_day


def _cron_walls(expression: str, after_wall: datetime) -> Iterator[datetime]:
    from croniter import CroniterError, croniter  # type: ignore[import-untyped]

    try:
        iterator = croniter(expression, after_wall - timedelta(seconds=1), ret_type=datetime)
    except (CroniterError, ValueError, KeyError, TypeError) as exc:
        reason = msg(N_("it is not a valid cron expression ({detail})"), detail=English(str(exc)))
        raise _bad_rule(expression, reason) from None
    # Not watched: croniter jumps field by field and gives up after 50 years without a match (at most 20 ms for
    # any of 19,600 hostile combinations of fields), and a watch would double the cost of every cron call.
    while True:
        try:
            wall: Any = iterator.get_next(datetime)
        except (CroniterError, ValueError, OverflowError):
            return  # no further match (e.g. Feb 30) or past year 9999
        yield wall


def _content_lines(text: str) -> list[str]:
    lines = [line.strip() for line in re.split(r"[\s]+", text) if line.strip()]
    return [line if ":" in line else f"RRULE:{line}" for line in lines]


def _dtstart(text: str) -> tuple[datetime | None, str | None]:
    for line in _content_lines(text):
        match = _PROPERTY.fullmatch(line)
        if match and match["name"].upper() == "DTSTART":
            tzid = _param(match["params"], "TZID")
            stamp = _stamp(match["value"], line)
            if match["value"].upper().endswith("Z"):
                tzid = "UTC"
            return stamp, tzid
    return None, None


def _wall_line(line: str, zone: tzinfo) -> str:
    """An RDATE/EXDATE/RRULE line with UTC or TZID stamps rewritten as naive wall times in `zone`."""
    match = _PROPERTY.fullmatch(line)
    if match is None:
        raise _bad_rule(line, msg(N_("a line must look like NAME:VALUE (RRULE:, RDATE:, EXDATE:, DTSTART:)")))
    name = match["name"].upper()
    if name not in ("RRULE", "RDATE", "EXDATE", "EXRULE"):
        raise _bad_rule(line, msg(N_("{name} is not supported (use DTSTART, RRULE, RDATE, EXDATE)"), name=name))
    if name in ("RRULE", "EXRULE"):
        value = re.sub(r"UNTIL=([0-9TZ]+)", lambda m: "UNTIL=" + _naive_stamp(m[1], zone, None, line), match["value"])
        return f"{name}:{value}"
    tzid = _param(match["params"], "TZID")
    stamps = [_naive_stamp(value, zone, tzid, line) for value in match["value"].split(",")]
    return f"{name}:{','.join(stamps)}"


def _naive_stamp(value: str, zone: tzinfo, tzid: str | None, line: str) -> str:
    stamp = _stamp(value, line)
    if value.upper().endswith("Z") or tzid:
        source = UTC if value.upper().endswith("Z") else resolve_zone(tzid or "UTC", source="database").tz
        stamp = stamp.replace(tzinfo=source).astimezone(zone).replace(tzinfo=None)
    return f"{stamp.year:04d}{stamp.month:02d}{stamp.day:02d}T{stamp.hour:02d}{stamp.minute:02d}{stamp.second:02d}"


def _stamp(value: str, line: str) -> datetime:
    match = _STAMP.fullmatch(value.strip())
    if match is None:
        reason = msg(N_("{value} is not a date-time such as 19970902T090000 or 19970902T090000Z"), value=repr(value))
        raise _bad_rule(line, reason)
    year, month, day, hour, minute, second = (int(p) if p else 0 for p in match.groups()[:6])
    problem = date_problem(year, month, day) or clock_problem(hour, minute, second)
    if problem is not None:
        raise _bad_rule(line, msg(N_("{value}: {problem}"), value=repr(value), problem=problem))
    return datetime(year, month, day, hour, minute, second)


def _param(params: str, name: str) -> str | None:
    for part in params.split(";"):
        key, _, value = part.partition("=")
        if key.upper() == name:
            return value.strip('"')
    return None


def _bad_rule(text: str, reason: Message) -> InvalidArgument:
    return InvalidArgument(
        N_(
            "Cannot read the recurrence rule {rule}: {reason}. Write an RFC 5545 RRULE such as {rrule} "
            "(optionally with DTSTART:, RDATE: and EXDATE: lines) or a cron expression such as {cron}."
        ),
        rule=repr(text[:120]),
        reason=reason,
        rrule=repr(RRULE_EXAMPLES[0]),
        cron=repr(RRULE_EXAMPLES[1]),
        suggestions=RRULE_EXAMPLES,
    )
