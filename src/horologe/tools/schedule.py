"""Recurrence, timezone history and meeting search: the tools that work across zones and long ranges."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from itertools import islice
from typing import Any

from pydantic import ValidationError

from horologe.context import RequestContext
from horologe.core import tzdb
from horologe.core.arithmetic import parse_amount
from horologe.core.errors import InvalidArgument
from horologe.core.localtime import LocalResolution, resolve_local
from horologe.core.meeting import Participant, find_slots, rank
from horologe.core.messages import N_
from horologe.core.recurrence import expand, parse_rule
from horologe.core.weekdays import ARGUMENT_NAMES, DAY_NAMES
from horologe.core.zones import ResolvedZone, resolve_zone
from horologe.i18n.language import Language
from horologe.tools.present import dst_report, iso, without_nulls, zone_of
from horologe.tools.present import transition_record as base_transition
from horologe.tools.reading import date_of, instant_of
from horologe.tools.schemas import WorkingHours
from horologe.tools.schemas import calendar as s
from horologe.tools.spec import ToolOptions, ToolSpec
from horologe.tools.text import text

MAX_HISTORY_YEARS = 200
HISTORY_START = datetime(1850, 1, 1, tzinfo=UTC)


def timezone_history(args: s.TimezoneHistoryArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Every offset, abbreviation and DST change of a zone in a range, from the tzdata in use."""
    zone = zone_of(args.timezone, ctx)
    start = HISTORY_START if args.start_time is None else instant_of(args.start_time, zone, ctx).instant
    end = _years_later(ctx.now, 5) if args.end_time is None else instant_of(args.end_time, zone, ctx).instant
    if end <= start:
        raise InvalidArgument(N_("'end_time' must be after 'start_time'."))
    if end - start > timedelta(days=366 * MAX_HISTORY_YEARS):
        raise InvalidArgument(
            N_("The range is longer than {years} years. Narrow it with 'start_time' and 'end_time'."),
            years=MAX_HISTORY_YEARS,
            details={"limit_years": MAX_HISTORY_YEARS},
        )
    changes = tzdb.transitions(zone.tz, start, end)
    return without_nulls(
        timezone=zone.key,
        start=iso(start.astimezone(UTC)),
        end=iso(end.astimezone(UTC)),
        count=min(len(changes), args.limit),
        truncated=True if len(changes) > args.limit else None,
        transitions=[_history(change, zone, ctx.language) for change in changes[: args.limit]],
        tzdata_version=tzdb.tzdata_version(),
    )


def find_meeting_time(args: s.FindMeetingTimeArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Slots inside everyone's working hours, ranked, shown in each participant's zone."""
    zones = [zone_of(person.timezone, ctx) for person in args.participants]
    labels = [
        person.name or f"{index + 1}: {zone.key}"
        for index, (person, zone) in enumerate(zip(args.participants, zones, strict=True))
    ]
    caller = _caller_index(args.participants, zones, ctx)
    hours = [
        _working_hours(person, ctx.preferences.get("working_hours") if index == caller else None)
        for index, person in enumerate(args.participants)
    ]
    days = [frozenset(ARGUMENT_NAMES.index(day) for day in chosen.days) for chosen, _ in hours]
    people = [
        Participant(zone.tz, _clock(chosen.start), _clock(chosen.end), working_days)
        for zone, (chosen, _), working_days in zip(zones, hours, days, strict=True)
    ]
    reference = zone_of(args.timezone, ctx) if args.timezone else zones[0]
    first = date_of(args.start_date, "start_date", ctx, reference)
    last = date_of(args.end_date, "end_date", ctx, reference) if args.end_date else first + timedelta(days=6)
    range_start = _midnight(first, reference)
    range_end = _midnight(last + timedelta(days=1), reference)
    duration = _meeting_duration(args.duration)
    slots = find_slots(people, range_start, range_end, duration, timedelta(minutes=args.step_minutes), ctx.budget)
    best, found = rank(slots, len(people), args.limit)
    minutes = duration.total_seconds() / 60
    summary = (
        text(ctx.language, "meeting.found", count=len(best), minutes=minutes)
        if found
        else text(ctx.language, "meeting.none", minutes=minutes, people=len(people))
    )
    return {
        "found": found,
        "duration_minutes": minutes,
        "timezone": reference.key,
        "range_start": iso(range_start),
        "range_end": iso(range_end),
        "slots": [_slot(slot.start, slot.end, slot.available, zones, labels) for slot in best],
        "working_hours": [
            {
                "participant": label,
                "start": chosen.start,
                "end": chosen.end,
                "days": [DAY_NAMES[day] for day in sorted(working_days)],
                "source": source,
            }
            for label, (chosen, source), working_days in zip(labels, hours, days, strict=True)
        ],
        "summary": summary,
    }


def _years_later(instant: datetime, years: int) -> datetime:
    return instant.replace(year=min(instant.year + years, 9999), month=1, day=1)


def _history(change: tzdb.Transition, zone: ResolvedZone, language: Language) -> dict[str, Any]:
    record = base_transition(change, zone.tz)
    delta = change.offset_after - change.offset_before
    before = (change.at + change.offset_before).replace(tzinfo=None).isoformat()
    after = (change.at + change.offset_after).replace(tzinfo=None).isoformat()
    if change.dst_after != change.dst_before:  # also with no change of offset, or clocks going back (negative DST)
        kind = "dst_start" if change.dst_after else "dst_end"
    else:
        kind = "offset_change" if delta else "abbreviation_change"
    effect = "history.skip" if delta > timedelta(0) else "history.repeat" if delta < timedelta(0) else "history.rename"
    offset = tzdb.format_offset(change.offset_after)
    return record | {
        "kind": kind,
        "change": tzdb.format_offset(delta),
        "local_effect": text(language, effect, before=before, after=after, offset=offset),
    }


def _caller_index(people: list[s.MeetingParticipant], zones: list[ResolvedZone], ctx: RequestContext) -> int | None:
    """The participant who is asking: the one marked `caller`, else the first in the caller's home zone."""
    marked = [index for index, person in enumerate(people) if person.caller]
    if len(marked) > 1:
        raise InvalidArgument(N_("Mark at most one participant as the caller."), details={"marked": len(marked)})
    if marked:
        return marked[0]
    home = ctx.client.zone.key if ctx.client.zone is not None else ctx.preferences.get("timezone")
    return next((index for index, zone in enumerate(zones) if home is not None and zone.key == home), None)


def _working_hours(person: s.MeetingParticipant, stored: object) -> tuple[WorkingHours, str]:
    """A participant's hours and their source: their own argument, the caller's stored preference, or the default."""
    if person.working_hours is not None:
        return person.working_hours, "argument"
    if isinstance(stored, dict):
        # Stored by the preferences tool in this same model; a shape from an older release falls back below.
        fields = {key: stored[key] for key in ("start", "end", "days") if key in stored}
        try:
            return WorkingHours.model_validate(fields), "preference"
        except ValidationError:
            pass  # a shape from an older release: the default serves better than an error about hidden state
    return WorkingHours(), "default"


def _clock(value: str) -> time:
    hour, minute = (int(part) for part in value.split(":"))
    if hour == 24 and minute == 0:
        return time(0)
    if not (0 <= hour < 24 and 0 <= minute < 60):
        raise InvalidArgument(
            N_("Working hours time {value} is not a valid 'HH:MM' clock time (00:00 to 23:59)."), value=repr(value)
        )
    return time(hour, minute)


def _midnight(day: date, zone: ResolvedZone) -> datetime:
    return resolve_local(datetime.combine(day, time(0)), zone.tz).instant


def _meeting_duration(value: str | int) -> timedelta:
    if isinstance(value, int):
        return timedelta(minutes=value)
    amount = parse_amount(value)
    if amount.has_calendar and (amount.years or amount.months or amount.weeks):
        raise InvalidArgument(N_("A meeting duration is given in minutes or hours, e.g. 45 or 'PT1H30M'."))
    return timedelta(days=amount.days, seconds=float(amount.seconds))


def _slot(
    start: datetime, end: datetime, available: tuple[int, ...], zones: list[ResolvedZone], labels: list[str]
) -> dict[str, Any]:
    local = [
        {
            "participant": labels[index],
            "start": iso(start.astimezone(zone.tz)),
            "end": iso(end.astimezone(zone.tz)),
            "timezone": zone.key,
            "day_of_week": DAY_NAMES[start.astimezone(zone.tz).weekday()],
        }
        for index, zone in enumerate(zones)
    ]
    return {
        "start_utc": iso(start),
        "end_utc": iso(end),
        "attendees": len(available),
        "unavailable": [labels[index] for index in range(len(zones)) if index not in available],
        "local": local,
    }


def next_occurrences(args: s.NextOccurrencesArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Upcoming occurrences of an RRULE or cron expression, expanded on the event zone's wall clock."""
    rule = parse_rule(args.rule)
    shown = zone_of(args.timezone, ctx) if args.timezone is not None else None
    # RFC 5545 §3.3.5: a DTSTART with TZID (or in UTC) fixes the zone of the whole series; 'timezone' then only
    # says where the occurrences are shown. A floating DTSTART (or none) is read on the wall clock of 'timezone'.
    event = resolve_zone(rule.tzid, source="database") if rule.tzid else shown or ctx.user_zone()
    zone = shown or event
    start = ctx.now if args.start_time is None else instant_of(args.start_time, zone, ctx).instant
    until = None if args.end_time is None else instant_of(args.end_time, zone, ctx).instant
    found = list(
        islice(
            expand(rule, event.tz, start, policy=args.disambiguation, until=until, budget=ctx.budget), args.count + 1
        )
    )
    listed = [_occurrence(item.wall, item.resolution, zone) for item in found[: args.count]]
    return without_nulls(
        kind=rule.kind,
        timezone=zone.key,
        rule_timezone=event.key if event.key != zone.key else None,
        count=len(listed),
        occurrences=listed,
        exhausted=True if len(found) <= args.count else None,
    )


def _occurrence(wall: datetime, resolution: LocalResolution, zone: ResolvedZone) -> dict[str, Any]:
    local = resolution.instant.astimezone(zone.tz)
    return without_nulls(
        timestamp=iso(local),
        day_of_week=DAY_NAMES[local.weekday()],
        wall_time=wall.isoformat() if resolution.status != "unique" else None,
        dst=dst_report(resolution),
    )


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "next_occurrences",
        "Next occurrences of a recurring event",
        "The next dates of a recurring event (RFC 5545 RRULE or cron) on its zone's wall clock, so 9:00 stays 9:00 "
        "across DST; occurrences in a DST gap or fold are flagged. A DTSTART with TZID or 'Z' keeps its zone "
        "('timezone' then only sets where they are shown); without DTSTART a series starts at midnight.",
        s.NextOccurrencesArgs,
        s.NextOccurrencesResult,
        next_occurrences,
    ),
    ToolSpec(
        "timezone_history",
        "Timezone history",
        "Every change of a zone's offset, abbreviation or DST in a range, past and scheduled, and what it did to "
        "local clocks. DST is the database's own flag (Ireland's winter is negative DST).",
        s.TimezoneHistoryArgs,
        s.TimezoneHistoryResult,
        timezone_history,
    ),
    ToolSpec(
        "find_meeting_time",
        "Find a meeting time",
        "Meeting slots inside every participant's working hours across zones over up to 31 days, best first, shown "
        "in each zone; the closest partial overlaps when nothing fits everyone.",
        s.FindMeetingTimeArgs,
        s.FindMeetingTimeResult,
        find_meeting_time,
    ),
)
