"""Calendar tools: date arithmetic, business days and holidays, date facts, recurrence, history, meetings.

Heavy libraries (holidays, dateutil.rrule, croniter, convertdate, babel) are imported inside the core
functions that use them, so importing this module stays cheap.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import islice
from typing import Any

from horologe.context import RequestContext
from horologe.core.arithmetic import add_amount, parse_amount
from horologe.core.calendar import (
    MAX_LISTED,
    WEEKDAY_CODES,
    HolidayCalendar,
    HolidayHit,
    add_business_days,
    count_business_days,
    holiday_calendar,
    holidays_in_year,
    parse_weekend,
)
from horologe.core.dateinfo import date_facts, locale_week_rules, other_calendars, week_number
from horologe.core.errors import InvalidArgument
from horologe.core.localtime import LocalResolution
from horologe.core.parse import parse_timestamp
from horologe.core.recurrence import expand, parse_rule
from horologe.core.zones import ResolvedZone, resolve_zone
from horologe.i18n.translate import current
from horologe.server import calendar_schemas as s
from horologe.server.calendar_text import text
from horologe.server.schedule_tools import date_argument, find_meeting_time, timezone_history
from horologe.server.tools import DAY_NAMES, NO_DST, ToolOptions, ToolSpec, dst_report, iso, moment, zone_from


def add_time(args: s.AddTimeArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Add an ISO 8601 duration or plain units to a timestamp, calendar units on the wall clock."""
    zone = zone_from(args.timezone, ctx)
    parsed = parse_timestamp(args.timestamp, zone.tz, disambiguation=args.disambiguation)
    amount = parse_amount(args.amount)
    added = add_amount(parsed.instant, amount, zone.tz, args.disambiguation)
    start_text = iso(parsed.instant.astimezone(zone.tz))
    elapsed = added.instant.astimezone(UTC) - parsed.instant.astimezone(UTC)
    values = {"start": start_text, "amount": amount.iso(), "zone": zone.key, "elapsed": _elapsed(elapsed)}
    if added.wall_after_calendar is None:
        explanation = text("add.exact", **values)
    else:
        explanation = text("add.calendar", wall=added.wall_after_calendar.isoformat(), **values)
    clamped = None
    if added.clamped_from and added.wall_after_calendar is not None:
        clamped_day = (added.wall_after_calendar - timedelta(days=amount.weeks * 7 + amount.days)).date()
        clamped = {"from": added.clamped_from, "to": clamped_day.isoformat()}
        explanation += text("add.clamped", missing=clamped["from"], clamped=clamped["to"])
    explanation += _dst_sentence(added.resolution)
    return {
        "start": moment(parsed.instant, zone),
        "amount": amount.iso(),
        "result": moment(added.instant, zone),
        "utc": iso(added.instant.astimezone(UTC)),
        "elapsed_seconds": elapsed.total_seconds(),
        "calendar_units_applied": amount.has_calendar,
        "clamped": clamped,
        "dst": added.resolution.report() if added.resolution else dict(NO_DST),
        "start_dst": dst_report(parsed),
        "explanation": explanation,
    }


def holiday_language(explicit: str | None) -> str | None:
    """Holiday names in the `language` argument, else the request's negotiated language (SEP-2792), else default."""
    if explicit is not None:
        return explicit
    choice = current()
    return choice.tag if choice is not None and choice.requested else None


def report_holiday_language(explicit: str | None, used: str | None) -> None:
    """When holiday names could not follow the negotiated language, say which language they are in."""
    choice = current()
    negotiated = explicit is None and choice is not None and choice.requested
    if negotiated and choice and used and used.split("_")[0].casefold() != choice.tag.split("-")[0].casefold():
        choice.fall_back(used.replace("_", "-"))


def country_or_context(country: str | None, ctx: RequestContext) -> str:
    """The country argument, else the user's country from client context (explicit argument > client context)."""
    chosen = country or ctx.country
    if chosen is None:
        raise InvalidArgument(
            "Name a country (ISO code such as 'US', 'AT' or 'GB'): none was given and the client sent no "
            "userLocation.country in its context.",
            suggestions=["US", "GB", "DE"],
        )
    return chosen


def business_days(args: s.BusinessDaysArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Count business days between two dates, or add N business days to a date."""
    if (args.end is None) == (args.count is None):
        raise InvalidArgument(
            "Give exactly one of 'end' (count business days from start to end) or 'count' (add business days).",
            suggestions=["end", "count"],
        )
    weekend = parse_weekend(args.weekend) if args.weekend is not None else None
    extra = {date_argument(day, "extra_holidays"): "Extra holiday" for day in args.extra_holidays or []}
    country = country_or_context(args.country, ctx)
    language = holiday_language(args.language)
    calendar = holiday_calendar(country, args.subdivision, language=language, weekend=weekend, extra=extra)
    report_holiday_language(args.language, calendar.language)
    start = date_argument(args.start, "start") if args.start else ctx.now.astimezone(ctx.default_zone.tz).date()
    place = calendar.country + (f"-{calendar.subdivision}" if calendar.subdivision else "")
    body: dict[str, Any] = {
        "country": calendar.country,
        "subdivision": calendar.subdivision,
        "start": start.isoformat(),
        "weekend": [WEEKDAY_CODES[day] for day in sorted(calendar.weekend)],
        **dict.fromkeys(("end", "business_days", "calendar_days", "count", "result", "result_day_of_week")),
    }
    if args.end is not None:
        end = date_argument(args.end, "end")
        counted, hits = count_business_days(calendar, start, end, include_end=args.include_end)
        weekday_holidays = sum(1 for hit in hits if not hit.on_weekend)
        which = text("business.end_included" if args.include_end else "business.end_excluded")
        summary = text(
            "business.count", count=counted, start=start, end=end, which=which, place=place, holidays=weekday_holidays
        )
        body |= {"mode": "count", "end": end.isoformat(), "business_days": counted}
        body |= {"calendar_days": (end - start).days + (1 if args.include_end else 0)}
    else:
        assert args.count is not None
        reached, hits = add_business_days(calendar, start, args.count)
        weekday = DAY_NAMES[reached.weekday()]
        summary = text("business.add", count=args.count, start=start, place=place, result=reached, weekday=weekday)
        body |= {"mode": "add", "count": args.count, "result": reached.isoformat(), "result_day_of_week": weekday}
    return body | {
        "holidays": [_holiday(hit) for hit in hits[:MAX_LISTED]],
        "holidays_truncated": len(hits) > MAX_LISTED,
        "summary": summary,
    }


def list_holidays(args: s.ListHolidaysArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """The public holidays of a country (and subdivision) in a year."""
    country = country_or_context(args.country, ctx)
    calendar: HolidayCalendar = holiday_calendar(country, args.subdivision, language=holiday_language(args.language))
    report_holiday_language(args.language, calendar.language)
    year = args.year or ctx.now.astimezone(ctx.default_zone.tz).year
    hits = holidays_in_year(calendar, year)
    return {
        "country": calendar.country,
        "subdivision": calendar.subdivision,
        "year": year,
        "language": calendar.language,
        "count": len(hits),
        "holidays": [_holiday(hit) for hit in hits],
    }


def date_info(args: s.DateInfoArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Weekday, ISO week, quarter, locale week and other calendars of a date."""
    zone = zone_from(args.timezone, ctx)
    if args.date is None:
        day = ctx.now.astimezone(zone.tz).date()
    elif isinstance(args.date, str) and len(args.date.strip()) <= 10 and "T" not in args.date.upper():
        day = date_argument(args.date, "date")
    else:
        day = parse_timestamp(args.date, zone.tz).instant.astimezone(zone.tz).date()
    rules = locale_week_rules(args.locale)
    week_year, week = week_number(day, rules)
    first_day = DAY_NAMES[rules.first_day]
    locale_week = {"locale": rules.locale, "week": week, "week_year": week_year, "first_day_of_week": first_day}
    return date_facts(day) | {"locale_week": locale_week, "calendars": other_calendars(day)}


def next_occurrences(args: s.NextOccurrencesArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Upcoming occurrences of an RRULE or cron expression, expanded on the event zone's wall clock."""
    rule = parse_rule(args.rule)
    zone = _event_zone(args.timezone, rule.tzid, ctx)
    start = ctx.now if args.start is None else parse_timestamp(args.start, zone.tz).instant
    until = None if args.until is None else parse_timestamp(args.until, zone.tz).instant
    found = list(islice(expand(rule, zone.tz, start, policy=args.disambiguation, until=until), args.count + 1))
    listed = [_occurrence(item.wall, item.resolution, zone) for item in found[: args.count]]
    return {
        "kind": rule.kind,
        "timezone": zone.key,
        "count": len(listed),
        "occurrences": listed,
        "exhausted": len(found) <= args.count,
        "dst_flagged": sum(1 for item in found[: args.count] if item.resolution.status != "unique"),
    }


# --- helpers -------------------------------------------------------------------------------------------------


def _elapsed(delta: timedelta) -> str:
    hours = delta.total_seconds() / 3600
    return f"{hours:g} hours" if hours != 1 else "1 hour"


def _dst_sentence(resolution: LocalResolution | None) -> str:
    if resolution is None or resolution.status == "unique":
        return ""
    key = "add.gap" if resolution.status == "gap" else "add.fold"
    wall = resolution.instant.replace(tzinfo=None).isoformat()
    return text(key, wall=wall, policy=resolution.policy, placed=iso(resolution.instant))


def _holiday(hit: HolidayHit) -> dict[str, Any]:
    return {
        "date": hit.day.isoformat(),
        "names": list(hit.names),
        "day_of_week": DAY_NAMES[hit.day.weekday()],
        "on_weekend": hit.on_weekend,
    }


def _event_zone(explicit: str | None, tzid: str | None, ctx: RequestContext) -> ResolvedZone:
    if explicit is not None:
        return resolve_zone(explicit)
    return resolve_zone(tzid) if tzid else ctx.default_zone


def _occurrence(wall: datetime, resolution: LocalResolution, zone: ResolvedZone) -> dict[str, Any]:
    local = resolution.instant.astimezone(zone.tz)
    return {
        "timestamp": iso(local),
        "utc": iso(local.astimezone(UTC)),
        "wall_time": wall.isoformat(),
        "day_of_week": DAY_NAMES[local.weekday()],
        **resolution.report(),
    }


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "add_time",
        "Add or subtract time",
        "Add an amount to a timestamp: an ISO 8601 duration ('P1M', 'PT90M', 'P1Y2M3DT4H', '-P2W') or plain units "
        "('3 days', '1 hour 30 minutes'). Calendar units (years, months, weeks, days) keep the wall-clock time "
        "across DST changes; hours/minutes/seconds are exact elapsed time (P1D and PT24H differ on a DST day). "
        "Month-end clamping (Jan 31 + 1 month) and DST gaps/folds are reported.",
        s.AddTimeArgs,
        s.AddTimeResult,
        add_time,
    ),
    ToolSpec(
        "business_days",
        "Business days",
        "Count business days between two dates (give 'end') or find the date N business days after a date (give "
        "'count'), skipping weekends and the public holidays of a country (and subdivision) plus extra holidays. "
        "The holidays met are listed by name.",
        s.BusinessDaysArgs,
        s.BusinessDaysResult,
        business_days,
    ),
    ToolSpec(
        "list_holidays",
        "Public holidays",
        "List the public holidays of a country (ISO code such as 'US', 'AT', 'GB') and optional subdivision in a "
        "year, with dates, names and weekdays.",
        s.ListHolidaysArgs,
        s.ListHolidaysResult,
        list_holidays,
    ),
    ToolSpec(
        "date_info",
        "Date facts",
        "Describe a date (default today): day of week, ISO week and week-year, day of year, quarter, days in the "
        "month, leap year, the week number under a locale's rules, and the date in the Julian, Hebrew, Islamic, "
        "Persian and Japanese-era calendars.",
        s.DateInfoArgs,
        s.DateInfoResult,
        date_info,
    ),
    ToolSpec(
        "next_occurrences",
        "Next occurrences of a recurring event",
        "List upcoming occurrences of an RFC 5545 RRULE (with optional DTSTART, RDATE, EXDATE) or a cron "
        "expression, expanded on the event zone's wall clock so that 9:00 stays 9:00 across DST changes. "
        "Occurrences falling in a DST gap or fold are flagged with the policy applied.",
        s.NextOccurrencesArgs,
        s.NextOccurrencesResult,
        next_occurrences,
    ),
    ToolSpec(
        "timezone_history",
        "Timezone history",
        "List every change of UTC offset, abbreviation or DST of a timezone in a range (historical and scheduled "
        "future ones) from the tzdata in use, with what each did to local clocks (skipped or repeated times).",
        s.TimezoneHistoryArgs,
        s.TimezoneHistoryResult,
        timezone_history,
    ),
    ToolSpec(
        "find_meeting_time",
        "Find a meeting time",
        "Find meeting slots inside every participant's working hours (default 09:00-17:00 Mon-Fri in their own "
        "zone) over a date range of up to 31 days, DST-correct, ranked best first and shown in each participant's "
        "zone. If no slot fits everyone, the closest partial overlaps are returned with who is missing.",
        s.FindMeetingTimeArgs,
        s.FindMeetingTimeResult,
        find_meeting_time,
    ),
)
