"""The six tools of the seed: now, conversion, duration, formatting, zone facts, zone listing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any, cast
from zoneinfo import ZoneInfo

from horologe.context import RequestContext
from horologe.core import tzdb
from horologe.core.duration import measure
from horologe.core.format import OutputFormat
from horologe.core.zones import search_zones
from horologe.tools.present import (
    DAY_NAMES,
    checked_format,
    dst_report,
    instant_of,
    iso,
    localized_duration,
    moment,
    render,
    transition_record,
    truncate,
    zone_from,
    zone_of,
)
from horologe.tools.schemas import time as schemas
from horologe.tools.spec import ToolOptions, ToolSpec


def preferred_format(ctx: RequestContext, options: ToolOptions) -> OutputFormat:
    """The user's stored format when this server offers it (and it needs no pattern), else ISO 8601."""
    stored = ctx.preferences.get("format")
    if stored in options.supported_formats and stored != "custom":
        return cast(OutputFormat, stored)
    return "iso8601"


def get_current_time(args: schemas.GetCurrentTimeArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """The current time in a zone, with offset, DST state, weekday and ISO week."""
    zone = zone_from(args.timezone, ctx)
    fmt = args.format or preferred_format(ctx, options)
    checked_format(fmt, args.custom_format, options)
    now = truncate(ctx.now, options.precision).astimezone(zone.tz)
    facts = tzdb.offset_facts(zone.tz, now)
    iso_year, iso_week, iso_day = now.isocalendar()
    described = moment(now, zone, facts)
    # At millisecond precision `iso8601` writes exactly the timestamp (tests/server/test_tools.py holds it to that).
    same = fmt == "iso8601" and now.microsecond % 1000 == 0
    return {
        **described,
        "unix": int(now.timestamp() // 1),
        "formatted": described["timestamp"]
        if same
        else render(now, zone, fmt, args.custom_format, ctx.formatting_locale),
        "day_of_week": DAY_NAMES[now.weekday()],
        "iso_week": f"{iso_year}-W{iso_week:02d}-{iso_day}",
    }


def convert_timezone(args: schemas.ConvertTimezoneArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """A timestamp of any date moved from one zone to another, with DST gap/fold facts."""
    source = zone_from(args.from_timezone, ctx)
    target = zone_of(args.to_timezone, ctx)
    checked_format(args.format, args.custom_format, options)
    parsed = instant_of(args.timestamp, source, ctx, args.disambiguation)
    original = {**moment(parsed.instant, source), "input": str(args.timestamp), "dst": dst_report(parsed)}
    converted = {
        **moment(parsed.instant, target),
        "formatted": render(parsed.instant, target, args.format, args.custom_format, ctx.language.locale),
    }
    difference = _offset(target.tz, parsed.instant) - _offset(source.tz, parsed.instant)
    return {
        "original": original,
        "converted": converted,
        "utc": iso(parsed.instant.astimezone(UTC)),
        "time_difference": _hours(difference),
    }


def calculate_duration(
    args: schemas.CalculateDurationArgs, ctx: RequestContext, options: ToolOptions
) -> dict[str, Any]:
    """The time between two timestamps: exact totals and a calendar breakdown in a zone."""
    zone = zone_from(args.timezone, ctx)
    start = instant_of(args.start_time, zone, ctx, args.disambiguation)
    end = instant_of(args.end_time, zone, ctx, args.disambiguation)
    duration = measure(start.instant, end.instant, unit=args.units, zone=zone.tz)
    return {
        "start": iso(start.instant.astimezone(zone.tz)),
        "end": iso(end.instant.astimezone(zone.tz)),
        "timezone": zone.key,
        "duration": localized_duration(duration.as_dict(), ctx.language),
        "start_dst": dst_report(start),
        "end_dst": dst_report(end),
    }


def format_time(args: schemas.FormatTimeArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """A timestamp written in one of the supported standards or a validated strftime pattern."""
    zone = zone_from(args.timezone, ctx)
    checked_format(args.format, args.custom_format, options)
    parsed = instant_of(args.timestamp, zone, ctx, args.disambiguation)
    return {
        "formatted": render(parsed.instant, zone, args.format, args.custom_format, ctx.formatting_locale),
        "format": args.format,
        "timestamp": iso(parsed.instant.astimezone(zone.tz)),
        "timezone": zone.key,
        "dst": dst_report(parsed),
    }


def get_timezone_info(args: schemas.GetTimezoneInfoArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Offsets, DST state, surrounding transitions and IANA facts of a zone at an instant."""
    zone = zone_of(args.timezone, ctx)
    at = (
        truncate(ctx.now, options.precision)
        if args.timestamp is None
        else instant_of(args.timestamp, zone, ctx).instant
    )
    local = at.astimezone(zone.tz)
    facts = tzdb.offset_facts(zone.tz, local)
    canonical = zone.canonical
    entry = tzdb.zone_entries().get(canonical) if canonical else None
    codes = list(entry.country_codes) if entry else []
    previous = next_ = None
    if isinstance(zone.tz, ZoneInfo):
        previous = tzdb.previous_transition(zone.tz, at)
        next_ = tzdb.next_transition(zone.tz, at)
    return {
        "timezone": zone.key,
        "canonical": canonical,
        "aliases": list(tzdb.aliases_of(canonical)) if canonical else [],
        "at": iso(at.astimezone(UTC)),
        "local_time": iso(local),
        "offset": tzdb.format_offset(facts.utc_offset),
        "standard_offset": tzdb.format_offset(facts.standard_offset),
        "dst_offset": tzdb.format_offset(facts.dst_offset),
        "dst_active": facts.dst_active,
        "abbreviation": facts.abbreviation,
        "previous_transition": transition_record(previous, zone.tz) if previous else None,
        "next_transition": transition_record(next_, zone.tz) if next_ else None,
        "country_codes": codes,
        "countries": [name for code in codes if (name := tzdb.country_name(code))],
        # zone1970.tab's comment describes the line's last country ('JP,AU … Eyre Bird Observatory'), so it only
        # describes the zone when the zone has one country.
        "comment": (entry.comment or None) if entry and len(codes) == 1 else None,
        "tzdata_version": tzdb.tzdata_version(),
    }


def list_timezones(args: schemas.ListTimezonesArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """IANA zones filtered by region, country and text, each with its offset now."""
    names = search_zones(
        region=args.region, country=args.country, query=args.query, include_aliases=args.include_aliases
    )
    page = names[args.offset : args.offset + args.limit]
    entries = tzdb.zone_entries()
    listed = []
    for name in page:
        zone = tzdb.get_zone(name)
        facts = tzdb.offset_facts(zone, ctx.now.astimezone(zone))
        entry = entries.get(tzdb.canonical_name(name))
        listed.append(
            {
                "name": name,
                "utc_offset": tzdb.format_offset(facts.utc_offset),
                "abbreviation": facts.abbreviation,
                "dst_active": facts.dst_active,
                "country_codes": list(entry.country_codes) if entry else [],
            }
        )
    return {
        "total": len(names),
        "count": len(listed),
        "offset": args.offset,
        "truncated": args.offset + len(listed) < len(names),
        "timezones": listed,
        "tzdata_version": tzdb.tzdata_version(),
    }


def _offset(zone: tzinfo, instant: datetime) -> timedelta:
    return instant.astimezone(zone).utcoffset() or timedelta(0)


def _hours(delta: timedelta) -> str:
    """'+6h', '-4.5h', '+5.75h', '+0h'."""
    hours = delta.total_seconds() / 3600
    text = f"{hours:+.2f}".rstrip("0").rstrip(".")
    return f"{'+' if hours == 0 else ''}{text}h"


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "get_current_time",
        "Current time",
        "The current date and time in a timezone (default: the user's; {default_zone} here) with its offset, "
        "abbreviation, DST, weekday and ISO week. Call it instead of guessing today's date or time.",
        schemas.GetCurrentTimeArgs,
        schemas.GetCurrentTimeResult,
        get_current_time,
    ),
    ToolSpec(
        "convert_timezone",
        "Convert between timezones",
        "Convert a time on any date from one timezone to another ('3 pm in New York is what in Tokyo?'); "
        "DST gaps and repeated times are reported.",
        schemas.ConvertTimezoneArgs,
        schemas.ConvertTimezoneResult,
        convert_timezone,
    ),
    ToolSpec(
        "calculate_duration",
        "Duration between two times",
        "The time between two timestamps: exact totals, a calendar breakdown and words (negative when the end is "
        "first).",
        schemas.CalculateDurationArgs,
        schemas.CalculateDurationResult,
        calculate_duration,
    ),
    ToolSpec(
        "format_time",
        "Format a timestamp",
        "Write a timestamp in a zone as ISO 8601, RFC 3339/2822, an HTTP date, Unix time, readable text or strftime.",
        schemas.FormatTimeArgs,
        schemas.FormatTimeResult,
        format_time,
    ),
    ToolSpec(
        "get_timezone_info",
        "Timezone information",
        "Facts about a zone at an instant (default now): offsets, abbreviation, DST, the previous and next change, "
        "countries. Standard and DST offsets are the IANA rules' own (Ireland's winter is negative DST); "
        "previous_transition is null only for a zone that never changed.",
        schemas.GetTimezoneInfoArgs,
        schemas.GetTimezoneInfoResult,
        get_timezone_info,
    ),
    ToolSpec(
        "list_timezones",
        "List timezones",
        "Find IANA zone names by region, country or text, with their offsets now; paged.",
        schemas.ListTimezonesArgs,
        schemas.ListTimezonesResult,
        list_timezones,
    ),
)
