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

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any, Final, Literal

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
_SUB_DAILY: Final = ("HOURLY", "MINUTELY", "SECONDLY")


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
    rule: Rule, zone: tzinfo, after: datetime, *, policy: Disambiguation = "compatible", until: datetime | None = None
) -> Iterator[Occurrence]:
    """Occurrences at or after the aware instant `after` (and not after `until`), oldest first."""
    after_wall = after.astimezone(zone).replace(tzinfo=None, fold=0)
    walls = _cron_walls(rule.text, after_wall) if rule.kind == "cron" else _rrule_walls(rule, zone, after_wall)
    previous: datetime | None = None
    for wall in walls:
        resolution = resolve_local(wall, zone, policy)
        instant = resolution.instant
        if instant < after or (previous is not None and instant == previous):
            continue
        if until is not None and instant > until:
            return
        previous = instant
        yield Occurrence(wall, resolution)


def _rrule_walls(rule: Rule, zone: tzinfo, after_wall: datetime) -> Iterator[datetime]:
    from dateutil.rrule import rrulestr

    # RFC 5545 takes unset BYHOUR/BYMINUTE/BYSECOND (and the weekday, the day) from DTSTART; without one, the
    # series starts at midnight of the listing's first day, never at the clock's minutes and seconds.
    start = rule.dtstart or after_wall.replace(hour=0, minute=0, second=0, microsecond=0)
    lines = [_wall_line(line, zone) for line in _content_lines(rule.text) if not line.upper().startswith("DTSTART")]
    body = "\n".join(lines)
    try:
        ruleset = rrulestr(body, dtstart=start, forceset=True, ignoretz=True)
    except (ValueError, TypeError, KeyError, IndexError, OverflowError) as exc:
        reason = msg(N_("it is not a valid RFC 5545 rule ({detail})"), detail=English(str(exc) or type(exc).__name__))
        raise _bad_rule(rule.text, reason) from None
    _check_feasible(body, start)
    # The set cannot start from `after`: skip from DTSTART, within a bound so a far DTSTART cannot hang us.
    skipped = 0
    for wall in ruleset:
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


def _check_feasible(body: str, start: datetime) -> None:
    """Refuse sub-daily rules whose date filters never match: dateutil would search to year 9999 (seconds)."""
    from dateutil.rrule import rrulestr

    for line in body.splitlines():
        if not line.upper().startswith("RRULE:"):
            continue
        parts = dict(p.split("=", 1) for p in line[6:].upper().split(";") if "=" in p)
        if parts.get("FREQ") not in (*_SUB_DAILY, "DAILY") or not parts.keys() & {"BYMONTH", "BYMONTHDAY", "BYYEARDAY"}:
            continue
        days = {k: v for k, v in parts.items() if k in ("BYMONTH", "BYMONTHDAY", "BYYEARDAY", "BYDAY")}
        probe = ";".join(["FREQ=YEARLY", *(f"{k}={v}" for k, v in days.items())])
        if next(iter(rrulestr(probe, dtstart=start.replace(hour=0, minute=0, second=0))), None) is None:
            raise _bad_rule(line, msg(N_("its BYMONTH/BYMONTHDAY/BYYEARDAY parts never match a real date")))


def _cron_walls(expression: str, after_wall: datetime) -> Iterator[datetime]:
    from croniter import CroniterError, croniter  # type: ignore[import-untyped]

    try:
        iterator = croniter(expression, after_wall - timedelta(seconds=1), ret_type=datetime)
    except (CroniterError, ValueError, KeyError, TypeError) as exc:
        reason = msg(N_("it is not a valid cron expression ({detail})"), detail=English(str(exc)))
        raise _bad_rule(expression, reason) from None
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
