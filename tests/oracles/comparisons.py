"""horologe against oracles nobody here wrote, one function per area; the tests and `report.py` both use them.

Every function returns a `Comparison`: how many cases were compared and a line per mismatch naming the zone (or
rule) and the instant. Only public entry points are called (tzdb, parse_timestamp, add_amount, the tools), so the
same comparisons run against an older checkout to count what it got wrong.
"""

from __future__ import annotations

import email.utils
import wsgiref.handlers
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from itertools import islice, pairwise
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

from pydantic import BaseModel

from horologe.context import RequestContext
from horologe.core import tzdb
from horologe.core.arithmetic import Amount, add_amount, parse_amount
from horologe.core.errors import AmbiguousLocalTime, NonexistentLocalTime
from horologe.core.format import format_instant
from horologe.core.localtime import Disambiguation
from horologe.core.parse import parse_timestamp
from horologe.core.recurrence import expand, parse_rule
from horologe.core.zones import resolve_zone
from horologe.tools.schedule import next_occurrences
from horologe.tools.schemas.calendar import NextOccurrencesArgs
from horologe.tools.spec import ToolOptions
from tests.oracles import zic
from tests.oracles.rfc5545 import EXAMPLES

WINDOW = (1970, 2038)  # zdump -c: from 1970-01-01T00:00Z up to, not including, 2038-01-01T00:00Z
POLICIES: tuple[Disambiguation, ...] = ("compatible", "earlier", "later", "reject")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_OPTIONS = ToolOptions(supported_formats=("iso8601",), precision="seconds")
_ONE_DAY = timedelta(days=1)
_Model = TypeVar("_Model", bound=BaseModel)


@dataclass
class Comparison:
    """One area: cases compared and the mismatches found (each naming where)."""

    area: str
    oracle: str
    cases: int = 0
    mismatches: list[str] = field(default_factory=list)

    def check(self, where: str | Callable[[], str], ours: object, theirs: object) -> None:
        """Count one case; record it when the two answers differ. `where` may be a function that writes it: the
        large comparisons name a case only when it differs (writing the name was a fifth of their time)."""
        self.cases += 1
        if ours != theirs:
            named = where() if callable(where) else where
            self.mismatches.append(f"{named}: horologe {_shown(ours)}, {self.oracle} {_shown(theirs)}")

    def summary(self, limit: int = 20) -> str:
        """The first mismatches, for an assertion message."""
        shown = "\n".join(self.mismatches[:limit])
        return f"{len(self.mismatches)} of {self.cases} cases differ from {self.oracle} ({self.area}):\n{shown}"


def _instant(ts: int) -> datetime:
    return _EPOCH + timedelta(seconds=ts)


def _stamp(ts: int) -> str:
    return _instant(ts).isoformat().replace("+00:00", "Z")


def _shown(answer: object) -> str:
    """An answer in a mismatch line: an instant (as `_ours` and `_theirs` give it, seconds) as a UTC stamp."""
    return _stamp(answer) if isinstance(answer, int) and not isinstance(answer, bool) else repr(answer)


def _window() -> tuple[datetime, datetime]:
    return datetime(WINDOW[0], 1, 1, tzinfo=UTC), datetime(WINDOW[1], 1, 1, tzinfo=UTC)


def names() -> list[str]:
    """Every key of the package: canonical zones and links."""
    return sorted(tzdb.zone_names())


# --- zdump -----------------------------------------------------------------------------------------------------


def zdump_transitions(dumps: dict[str, list[zic.Period]]) -> Comparison:
    """Every zone's state at the window's start and every transition in it: instant, offsets, abbreviations, DST."""
    result = Comparison("transitions 1970-2037: instant, offsets, abbreviation, DST flag", "zdump")
    low, high = _window()
    for name in names():
        zone, periods = tzdb.get_zone(name), dumps[name]
        first = tzdb.offset_facts(zone, low)
        result.check(f"{name} {_stamp(int(low.timestamp()))} (state)", _facts(first), _period(periods[0]))
        expected = {p.start: (_period(before), _period(p)) for before, p in pairwise(periods) if p.start is not None}
        found = {
            int(t.at.timestamp()): (
                (int(t.offset_before.total_seconds()), t.abbreviation_before, t.dst_before),
                (int(t.offset_after.total_seconds()), t.abbreviation_after, t.dst_after),
            )
            for t in tzdb.transitions(zone, low - timedelta(seconds=1), high - timedelta(seconds=1))
        }
        for at in sorted(set(expected) | set(found)):
            result.check(f"{name} {_stamp(at)}", found.get(at), expected.get(at))
    return result


def zdump_standard_offsets(real: dict[str, list[zic.Period]], zero: dict[str, list[zic.Period]]) -> Comparison:
    """The standard offset three hours either side of every change (zic's and its SAVE-0 compilation's)."""
    result = Comparison("standard offset around every change 1970-2037", "zdump (SAVE 0)")
    low, high = (int(bound.timestamp()) for bound in _window())
    margin = 3 * 3600  # more than any SAVE: a Zone line's wall-clock UNTIL moves by SAVE when SAVE is 0
    for name in names():
        zone, periods = tzdb.get_zone(name), zero[name]
        changes = [p.start for p in real[name][1:] + periods[1:] if p.start is not None]
        samples = {low + margin, high - margin} | {c + d for c in changes for d in (-margin, margin)}
        for ts in sorted(s for s in samples if low <= s < high):
            ours = int(tzdb.offset_facts(zone, _instant(ts)).standard_offset.total_seconds())
            result.check(f"{name} {_stamp(ts)}", ours, zic.state_at(periods, ts).utoff)
    return result


def _facts(facts: tzdb.OffsetFacts) -> tuple[int, str, bool]:
    return int(facts.utc_offset.total_seconds()), facts.abbreviation, facts.dst_active


def _period(period: zic.Period) -> tuple[int, str, bool]:
    return period.utoff, period.abbreviation, period.isdst


# --- zoneinfo on the package's TZif files ----------------------------------------------------------------------


def zoneinfo_offsets(first_year: int = 1800, end_year: int = 2100) -> Comparison:
    """Offset and abbreviation either side of each transition, and mid-way between them, against zoneinfo."""
    result = Comparison(f"offsets and abbreviations {first_year}-{end_year - 1}, all zones", "zoneinfo (TZif)")
    low, high = datetime(first_year, 1, 1, tzinfo=UTC), datetime(end_year, 1, 1, tzinfo=UTC)
    for name in sorted(tzdb.canonical_names()):
        ours, theirs = tzdb.get_zone(name), _packaged(name)
        instants = [int(t.at.timestamp()) for t in tzdb.transitions(ours, low, high)]
        bounds = [int(low.timestamp()), *instants, int(high.timestamp())]
        samples = {t + d for t in instants for d in (-1, 0)} | {(a + b) // 2 for a, b in pairwise(bounds)}
        for ts in sorted(samples):
            at = _instant(ts)
            facts = tzdb.offset_facts(ours, at)
            local = at.astimezone(theirs)
            offset = local.utcoffset() or timedelta(0)
            result.check(f"{name} {_stamp(ts)}", _facts(facts)[:2], (int(offset.total_seconds()), local.tzname()))
    return result


def _packaged(name: str) -> ZoneInfo:
    """zoneinfo reading the package's own TZif file (never the host's), without horologe in between."""
    from importlib.resources import files

    node = files("tzdata").joinpath("zoneinfo", *name.split("/"))
    with node.open("rb") as handle:
        return ZoneInfo.from_file(handle, key=name)


# --- whenever --------------------------------------------------------------------------------------------------


def _whenever() -> Any:
    import whenever

    whenever.reset_tzpath([])  # the tzdata package, as horologe: never the host's zone files
    return whenever


def _gaps_and_folds(first_year: int, end_year: int) -> Iterator[tuple[str, int, int, int]]:
    """(zone, instant, offset before, offset after) of every offset change in those years, canonical zones."""
    first, end = datetime(first_year, 1, 1, tzinfo=UTC), datetime(end_year, 1, 1, tzinfo=UTC)
    for name in sorted(tzdb.canonical_names()):
        for t in tzdb.transitions(tzdb.get_zone(name), first - timedelta(seconds=1), end - timedelta(seconds=1)):
            before, after = int(t.offset_before.total_seconds()), int(t.offset_after.total_seconds())
            if before != after:
                yield name, int(t.at.timestamp()), before, after


def _walls(at: int, before: int, after: int) -> list[datetime]:
    """Wall times around a change: just outside it, its first and last seconds and its middle."""
    first, last = at + min(before, after), at + max(before, after)  # the skipped or repeated local times
    points = {first - 1, first, (first + last) // 2, last - 1, last}
    return [_instant(point).replace(tzinfo=None) for point in sorted(points)]


def _ours(compute: Callable[[], datetime]) -> int | str:
    """horologe's instant in Unix seconds, or which DST refusal it raised."""
    try:
        instant = compute()
    except NonexistentLocalTime:
        return "skipped"
    except AmbiguousLocalTime:
        return "repeated"
    return int(instant.timestamp())


def _theirs(whenever: Any, compute: Callable[[], Any]) -> int | str:
    """whenever's instant in Unix seconds, or which DST refusal it raised."""
    try:
        zoned = compute()
    except whenever.SkippedTime:
        return "skipped"
    except whenever.RepeatedTime:
        return "repeated"
    return int(zoned.timestamp())


def _read(wall: str, zone: ZoneInfo, policy: Disambiguation) -> datetime:
    return parse_timestamp(wall, zone, disambiguation=policy).instant


def _add(instant: datetime, amount: Amount, zone: ZoneInfo, policy: Disambiguation) -> datetime:
    return add_amount(instant, amount, zone, policy).instant


def _their_policy(policy: str) -> str:
    return "raise" if policy == "reject" else policy


def whenever_conversions(first_year: int = 1970, end_year: int = 2038) -> Comparison:
    """Local wall times in and around every gap and fold, read under each policy."""
    whenever = _whenever()
    area = f"wall time to instant at every gap and fold {first_year}-{end_year - 1}, 4 policies"
    result = Comparison(area, "whenever")
    for name, at, before, after in _gaps_and_folds(first_year, end_year):
        zone = tzdb.get_zone(name)
        for wall in _walls(at, before, after):
            fields = (wall.year, wall.month, wall.day, wall.hour, wall.minute, wall.second)
            text = wall.isoformat()  # what a caller sends; read once per policy
            for policy in POLICIES:
                ours = _ours(partial(_read, text, zone, policy))
                theirs = _theirs(whenever, partial(whenever.ZonedDateTime, *fields, tz=name,
                                                   disambiguation=_their_policy(policy)))  # fmt: skip
                result.check(partial(_named, name, text, policy, at), ours, theirs)
    return result


def _named(name: str, wall: str, policy: str, at: int) -> str:
    return f"{name} {wall} {policy} (change at {_stamp(at)})"


AMOUNTS: dict[str, dict[str, int]] = {
    "P1D": {"days": 1},
    "-P1D": {"days": -1},
    "P1W": {"weeks": 1},
    "-P1W": {"weeks": -1},
    "P1M": {"months": 1},
    "-P1M": {"months": -1},
    "P1Y": {"years": 1},
    "PT1H": {"hours": 1},
    "-PT90M": {"minutes": -90},
    "PT24H": {"hours": 24},
    "P1DT1H": {"days": 1, "hours": 1},
    "1 month -1 day": {"months": 1, "days": -1},
}


def whenever_arithmetic(first_year: int = 2024, end_year: int = 2028) -> Comparison:
    """Calendar and exact amounts added to instants placed so that they start in, or land in, a gap or fold."""
    whenever = _whenever()
    area = f"adding amounts at and into every gap and fold {first_year}-{end_year - 1}, 4 policies"
    result = Comparison(area, "whenever")
    amounts = {text: parse_amount(text) for text in AMOUNTS}  # read once: the sums are compared, not the reading
    for name, at, before, after in _gaps_and_folds(first_year, end_year):
        zone = tzdb.get_zone(name)
        middle = _walls(at, before, after)[2]
        starts = [_instant(at - 1), _instant(at)]
        starts += [parse_timestamp((middle + shift).isoformat(), zone).instant for shift in (-_ONE_DAY, 7 * _ONE_DAY)]
        for instant in starts:
            for text, units in AMOUNTS.items():
                for policy in POLICIES:
                    ours = _ours(partial(_add, instant, amounts[text], zone, policy))
                    theirs = _theirs(whenever, partial(_their_sum, whenever, instant, name, units, policy))
                    where = partial(_summed, name, instant, zone, text, policy)
                    result.check(where, ours, theirs)
    return result


def _summed(name: str, instant: datetime, zone: ZoneInfo, amount: str, policy: str) -> str:
    return f"{name} {instant.astimezone(zone).isoformat()} + {amount} {policy}"


def _their_sum(whenever: Any, instant: datetime, name: str, units: dict[str, int], policy: str) -> Any:
    """TC39 Temporal's AddZonedDateTime with the policy in place of its fixed 'compatible': the calendar units on
    the wall clock (whenever's PlainDateTime), the result placed in the zone, then the exact units on the timeline.
    (whenever's own ZonedDateTime.add keeps the starting offset in a fold, which Temporal's algorithm does not.)"""
    zoned = whenever.Instant.from_timestamp(int(instant.timestamp())).to_tz(name)
    calendar = {unit: units[unit] for unit in ("years", "months", "weeks", "days") if unit in units}
    exact = {unit: value for unit, value in units.items() if unit not in calendar}
    if calendar:
        zoned = zoned.to_plain().add(**calendar).assume_tz(name, disambiguation=_their_policy(policy))
    return zoned.add(**exact) if exact else zoned


# --- cronsim ---------------------------------------------------------------------------------------------------

# Vixie cron's five fields, plus the two extensions both libraries read: 'L' (last day of the month) and '#' (nth
# weekday). Quartz's '5L' (last Friday) only cronsim reads, and '?' only croniter: neither is compared; nor is a
# date that never comes ('0 0 30 2 *': cronsim refuses it, horologe lists no occurrence).
CRON_EXPRESSIONS = (
    "* * * * *", "*/7 * * * *", "0 9 * * MON-FRI", "30 2 * * *", "0 0 1 * *", "0 0 31 * *", "0 0 29 2 *",
    "15 10 * * 1,3,5", "0 */3 * * *", "0 9-17/2 * * *", "0 0 1,15 * MON", "0 12 * JAN,JUL *", "5 4 * * SUN",
    "0 0 * * 0", "0 0 * * 7", "59 23 31 12 *", "0 0 13 * FRI", "0 8 1-7 * *", "*/15 9-10 * * *", "0 0 L * *",
    "0 6 * * MON#2", "0 0 1 */3 *", "0 22 * * 1-5", "10-20/5 * * * *", "0 0 * * 6#5",
    "0 0 L 2 *", "1,2,3 4-5 6 7 *", "0 0 1-10/3 * 2-4",
)  # fmt: skip
CRON_STARTS = tuple(datetime(year, month, 28, 23, 59, 30) for year in (2024, 2025, 2026) for month in (1, 2, 6, 12))


def cronsim_schedules(occurrences: int = 40) -> Comparison:
    """The wall times cron expressions match (no zone: placement in a zone is the conversions' area)."""
    from cronsim import CronSim, CronSimError

    result = Comparison("cron expressions: next matching times", "cronsim")
    for expression in CRON_EXPRESSIONS:
        for start in CRON_STARTS:
            try:
                theirs = [moment.isoformat() for moment in islice(CronSim(expression, start), occurrences)]
            except CronSimError:
                theirs = ["not a cron expression"]
            ours = _our_cron(expression, start, len(theirs))
            for index, (mine, other) in enumerate(zip(ours, theirs, strict=False)):
                result.check(f"{expression!r} after {start.isoformat()} #{index + 1}", mine, other)
            if len(ours) != len(theirs):
                result.check(f"{expression!r} after {start.isoformat()} (count)", len(ours), len(theirs))
    return result


def _our_cron(expression: str, start: datetime, count: int) -> list[str]:
    from horologe.core.errors import InvalidArgument

    try:
        found = expand(parse_rule(expression), UTC, start.replace(tzinfo=UTC) + timedelta(seconds=1))
        return [occurrence.wall.isoformat() for occurrence in islice(found, count)]
    except InvalidArgument:
        return ["not a cron expression"]


# --- RFC 5545 §3.8.5.3 -----------------------------------------------------------------------------------------


def rfc5545_examples() -> Comparison:
    """Every example of RFC 5545 §3.8.5.3 with its DTSTART, through the next_occurrences tool."""
    result = Comparison("RFC 5545 §3.8.5.3 examples with their DTSTART", "RFC 5545 text")
    context = RequestContext(now=datetime(2026, 11, 22, 3, 11, 30, tzinfo=UTC), default_zone=resolve_zone("UTC"))
    for example in EXAMPLES:
        listed = example.expected()
        arguments = _arguments(
            NextOccurrencesArgs, rule=example.rule, start="1990-01-01T00:00:00Z", count=len(listed) + 1
        )
        body = next_occurrences(arguments, context, _OPTIONS)
        found = [entry["timestamp"] for entry in body["occurrences"]]
        for index, expected in enumerate(listed):
            ours = found[index] if index < len(found) else None
            result.check(f"{example.title} #{index + 1}", ours, expected)
        if example.bounded:
            result.check(f"{example.title} (no more occurrences)", len(found), len(listed))
    return result


# --- the standard library's mail and HTTP date writers ---------------------------------------------------------


DATE_ZONES = ("Europe/Vienna", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "Africa/Casablanca",
              "America/St_Johns", "Pacific/Chatham", "Europe/Dublin", "America/Santiago", "Asia/Tehran")  # fmt: skip


def stdlib_date_writers() -> Comparison:
    """RFC 2822 and HTTP dates written and read back at instants either side of transitions."""
    result = Comparison("RFC 2822 and HTTP dates at transitions 2000-2030", "email.utils / wsgiref")
    low, high = datetime(2000, 1, 1, tzinfo=UTC), datetime(2030, 1, 1, tzinfo=UTC)
    for name in DATE_ZONES:
        zone = tzdb.get_zone(name)
        for change in tzdb.transitions(zone, low, high):
            for shift in (-1, 0, 1800):
                local = (change.at + timedelta(seconds=shift)).astimezone(zone)
                _writes(result, name, local)
    return result


def _writes(result: Comparison, name: str, local: datetime) -> None:
    where = f"{name} {local.isoformat()}"
    mail = email.utils.format_datetime(local)
    result.check(f"{where} rfc2822", format_instant(local, "rfc2822"), mail)
    http = wsgiref.handlers.format_date_time(local.timestamp())
    result.check(f"{where} http", format_instant(local, "http"), http)
    for text in (mail, http):
        result.check(
            f"{where} read {text!r}", parse_timestamp(text, UTC).instant, email.utils.parsedate_to_datetime(text)
        )


# --- the classes, against the definitions the RFCs and the schemas state --------------------------------


_RENAMED: dict[str, tuple[str, ...]] = {"start": ("start_time", "start_date"), "end": ("end_time", "end_date")}


def _arguments(model: type[_Model], **values: Any) -> _Model:
    """Tool arguments under this checkout's names: 'start' and 'end' are 'start_time'/'start_date' where the model
    says so (the vocabulary changed between releases, and the report compares releases)."""
    fields = model.model_fields
    named = {}
    for key, value in values.items():
        name = key if key in fields else next((n for n in _RENAMED.get(key, ()) if n in fields), key)
        named[name] = value
    return model.model_validate(named)


def _context(now: datetime) -> RequestContext:
    return RequestContext(now=now, default_zone=resolve_zone("UTC"))


def rfc9110_two_digit_years() -> Comparison:
    """RFC 850 dates with every two-digit year, read at several clocks, against RFC 9110 §5.6.7 by brute force."""
    from horologe.tools.schemas.time import FormatTimeArgs
    from horologe.tools.time import format_time

    result = Comparison("RFC 850 two-digit years, 100 years x 6 clocks", "RFC 9110 §5.6.7 (brute force)")
    for now in (datetime(year, 5, 1, 12, tzinfo=UTC) for year in (1990, 2000, 2026, 2049, 2050, 2090)):
        horizon = now.replace(year=now.year + 50)
        for two in range(100):
            text = f"Saturday, 01-Jun-{two:02d} 00:00:00 GMT"
            candidates = [year for year in range(now.year - 150, now.year + 151) if year % 100 == two]
            expected = max(y for y in candidates if datetime(y, 6, 1, tzinfo=UTC) <= horizon)
            body = format_time(
                FormatTimeArgs(timestamp=text, format="iso8601", timezone="UTC"), _context(now), _OPTIONS
            )
            result.check(f"{text!r} at {now.date()}", body["timestamp"][:4], f"{expected:04d}")
    return result


def reversed_business_days() -> Comparison:
    """business_days over ranges of both directions, against the schema's signed definition counted day by day."""
    from horologe.core.calendar import holiday_calendar
    from horologe.tools.calendar import business_days
    from horologe.tools.schemas.calendar import BusinessDaysArgs

    result = Comparison("business_days: ranges of both directions, with and without include_end",
                        "schema definition (day by day)")  # fmt: skip
    calendar = holiday_calendar("AT")
    context = _context(datetime(2026, 11, 22, tzinfo=UTC))
    base = datetime(2025, 12, 20).date()
    for start_shift in range(14):
        for span in range(-12, 13):
            start = base + timedelta(days=start_shift)
            end = start + timedelta(days=span)
            for include_end in (False, True):
                step = 1 if span >= 0 else -1
                walked = [start + timedelta(days=step * i) for i in range(abs(span) + (1 if include_end else 0))]
                expected = step * sum(1 for day in walked if calendar.is_business_day(day))
                fields = {"start": start.isoformat(), "end": end.isoformat(), "include_end": include_end}
                arguments = _arguments(BusinessDaysArgs, country="AT", **fields)
                body = business_days(arguments, context, _OPTIONS)
                result.check(f"{start}..{end} include_end={include_end}", body["business_days"], expected)
    return result


MIXED_AMOUNTS = ("1 month -1 day", "-1 month 1 day", "1 day -90 minutes", "-2 weeks 3 days", "1 year -1 month",
                 "P1M", "-P1M1D", "1 day 2 hours", "-1 day -1 hour", "2 months -3 days 4 hours")  # fmt: skip


def add_time_echoes() -> Comparison:
    """add_time's echoed amount, added again, must reach the same instant as the amount that was asked for."""
    from horologe.tools.calendar import add_time
    from horologe.tools.schemas.calendar import AddTimeArgs

    result = Comparison("add_time: the echoed amount means what was added", "the amount as given")
    context = _context(datetime(2026, 11, 22, tzinfo=UTC))
    for zone in ("Europe/Vienna", "America/New_York", "Australia/Lord_Howe", "UTC"):
        for month in range(1, 13):
            start = f"2026-{month:02d}-28T12:00:00"
            for amount in MIXED_AMOUNTS:
                first = add_time(AddTimeArgs(timestamp=start, amount=amount, timezone=zone), context, _OPTIONS)
                again = add_time(AddTimeArgs(timestamp=start, amount=first["amount"], timezone=zone), context, _OPTIONS)
                where = f"{zone} {start} + {amount!r} (echoed {first['amount']!r})"
                result.check(where, datetime.fromisoformat(again["result"]), datetime.fromisoformat(first["result"]))
    return result


def gap_explanations(first_year: int = 2024, end_year: int = 2028) -> Comparison:
    """add_time into every gap: the explanation names the wall time that does not exist."""
    from horologe.tools.calendar import add_time
    from horologe.tools.schemas.calendar import AddTimeArgs

    result = Comparison(f"add_time into every gap {first_year}-{end_year - 1}: the wall time named",
                        "the calendar step's wall time")  # fmt: skip
    context = _context(datetime(2026, 11, 22, tzinfo=UTC))
    for name, at, before, after in _gaps_and_folds(first_year, end_year):
        if after < before:
            continue
        wall = _walls(at, before, after)[2]  # the middle of the gap
        arguments = AddTimeArgs(timestamp=(wall - timedelta(days=1)).isoformat(), amount="P1D", timezone=name)
        body = add_time(arguments, context, _OPTIONS)
        named = f"The wall time {wall.isoformat()} falls in a DST gap" in body["explanation"]
        result.check(f"{name} {wall.isoformat()}", named, True)
    return result


def recurrence_anchoring() -> Comparison:
    """next_occurrences: no DTSTART takes nothing from the clock; TZID and UTC DTSTARTs keep their zone."""
    result = Comparison("next_occurrences: anchoring (RFC 5545 §3.3.5, §3.3.10)", "the rule's own fields")
    rules = ("FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=9;BYMINUTE=0", "FREQ=DAILY;BYHOUR=9", "FREQ=HOURLY;INTERVAL=2",
             "FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=8;BYMINUTE=30")  # fmt: skip
    for second in (0, 17, 59):
        context = _context(datetime(2026, 11, 22, 3, 11, second, tzinfo=UTC))
        for rule in rules:
            body = next_occurrences(_arguments(NextOccurrencesArgs, rule=rule, count=5), context, _OPTIONS)
            for entry in body["occurrences"]:
                stamp = datetime.fromisoformat(entry["timestamp"])
                minute = 30 if "BYMINUTE=30" in rule else 0
                result.check(
                    f"{rule!r} at :{second:02d} -> {entry['timestamp']}", (stamp.minute, stamp.second), (minute, 0)
                )
    context = _context(datetime(2026, 11, 22, tzinfo=UTC))
    for source, shown in (("DTSTART;TZID=America/New_York:20260105T090000", "Europe/Vienna"),
                          ("DTSTART:20260105T140000Z", "America/New_York"),
                          ("DTSTART;TZID=Asia/Tokyo:20260301T083000", "Europe/London")):  # fmt: skip
        rule = f"{source}\nRRULE:FREQ=WEEKLY;COUNT=20"
        listing = _arguments(NextOccurrencesArgs, rule=rule, start="2026-01-01T00:00:00Z", count=20)
        alone = next_occurrences(listing, context, _OPTIONS)
        moved = next_occurrences(listing.model_copy(update={"timezone": shown}), context, _OPTIONS)
        for index, (own, displayed) in enumerate(zip(alone["occurrences"], moved["occurrences"], strict=True)):
            instants = datetime.fromisoformat(displayed["timestamp"]), datetime.fromisoformat(own["timestamp"])
            result.check(f"{source} shown in {shown} #{index + 1}", *instants)
    return result


# Database keys that are abbreviations a person types: the abbreviation rule reads them as their region's clock in
# every season (in July EST is New York's EDT, like PST is Los Angeles' PDT), not as the database's fixed zone.
ABBREVIATION_KEYS = {
    "EST": "America/New_York",
    "MST": "America/Denver",
    "HST": "Pacific/Honolulu",
    "CET": "Europe/Paris",
    "MET": "Europe/Paris",
    "EET": "Europe/Athens",
    "WET": "Europe/Lisbon",
}


def zone_name_resolution() -> Comparison:
    """Every name of the database resolves to a zone with that name's offset and abbreviation (zoneinfo's); the
    abbreviation-named keys, typed by a person, to their region's clock."""
    result = Comparison("every zone name resolves to its own zone (offset, abbreviation)", "zoneinfo (TZif)")
    at = datetime(2026, 7, 1, tzinfo=UTC)
    for name in names():
        local = at.astimezone(resolve_zone(name).tz)
        theirs = at.astimezone(_packaged(ABBREVIATION_KEYS.get(name, name)))
        result.check(name, (local.utcoffset(), local.tzname()), (theirs.utcoffset(), theirs.tzname()))
    return result


def silent_zones() -> Comparison:
    """previous_transition is null only for zones whose TZif data never changes (no transition, no rule)."""
    from importlib.resources import files

    result = Comparison("previous_transition null only for zones that never changed", "TZif files (RFC 8536)")
    now = datetime(2026, 11, 22, tzinfo=UTC)
    for name in sorted(tzdb.canonical_names()):
        count, types = _tzif_counts(files("tzdata").joinpath("zoneinfo", *name.split("/")).read_bytes())
        changed = count > 0 or types > 1
        result.check(name, tzdb.previous_transition(tzdb.get_zone(name), now) is not None, changed)
    return result


def _tzif_counts(data: bytes) -> tuple[int, int]:
    """(transition times, local time types) of the version 2+ data block of a TZif file (RFC 8536 §3)."""
    isut, isstd, leap, times, types, chars = (int.from_bytes(data[i : i + 4], "big") for i in range(20, 44, 4))
    second = 44 + times * 5 + types * 6 + chars + leap * 8 + isstd + isut
    counts = [int.from_bytes(data[i : i + 4], "big") for i in range(second + 20, second + 44, 4)]
    return counts[3], counts[4]


def phantom_transitions() -> Comparison:
    """No reported transition leaves offset, abbreviation and DST flag as they were (1800-2099, all zones)."""
    result = Comparison("transitions that change nothing reported, 1800-2099", "the transition's own fields")
    low, high = datetime(1800, 1, 1, tzinfo=UTC), datetime(2100, 1, 1, tzinfo=UTC)
    for name in sorted(tzdb.canonical_names()):
        for t in tzdb.transitions(tzdb.get_zone(name), low, high):
            before = (t.offset_before, t.abbreviation_before, t.dst_before)
            result.check(
                f"{name} {t.at.isoformat()}", before != (t.offset_after, t.abbreviation_after, t.dst_after), True
            )
    return result


AREAS: dict[str, Callable[..., Comparison]] = {
    "whenever_conversions": whenever_conversions,
    "whenever_arithmetic": whenever_arithmetic,
    "cronsim": cronsim_schedules,
    "rfc5545": rfc5545_examples,
    "stdlib_dates": stdlib_date_writers,
    "zoneinfo": zoneinfo_offsets,
    "rfc9110": rfc9110_two_digit_years,
    "business_days": reversed_business_days,
    "echo": add_time_echoes,
    "gap_explanations": gap_explanations,
    "anchoring": recurrence_anchoring,
    "names": zone_name_resolution,
    "silence": silent_zones,
    "phantoms": phantom_transitions,
}
