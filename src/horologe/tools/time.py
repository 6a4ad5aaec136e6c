"""The six tools of the seed: now, conversion, duration, formatting, zone facts, zone listing."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
from typing import Any, Final, cast
from zoneinfo import ZoneInfo

from horologe.context import RequestContext
from horologe.core import tzdb
from horologe.core.duration import measure
from horologe.core.errors import InvalidArgument
from horologe.core.format import OutputFormat
from horologe.core.messages import N_
from horologe.core.weekdays import DAY_NAMES
from horologe.core.zones import search_zones
from horologe.tools.present import (
    abbreviation,
    checked_format,
    dst_report,
    duration_words,
    is_zone_key,
    iso,
    note_clock,
    render,
    transition_record,
    truncate,
    when,
    without_nulls,
    zone_from,
    zone_of,
)
from horologe.tools.reading import instant_of, source_zone
from horologe.tools.schemas import time as schemas
from horologe.tools.spec import ToolOptions, ToolSpec


def preferred_format(ctx: RequestContext, options: ToolOptions) -> OutputFormat:
    """The user's stored format when this server offers it (and it needs no pattern), else ISO 8601."""
    stored = ctx.preferences.get("format")
    if stored in options.supported_formats and stored != "custom":
        return cast(OutputFormat, stored)
    return "iso8601"


_ISO_TIMESTAMP: Final = re.compile(
    r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)?(?:Z|[+-]\d{2}:\d{2})?"
)
"""An ISO 8601 date or date and time (at most 32 characters) that the formal reader reads at once."""
_BOUNDED_TARGETS: Final = 4
"""Target zones a conversion on the event loop answers for: each zone's first use loads its rules (~1 ms)."""


def _iso_timestamp(text: object) -> bool:
    """An ISO timestamp of an existing date and time, a day or more inside years 1-9999 (one that is not goes on
    to the phrase reader)."""
    if not isinstance(text, str) or _ISO_TIMESTAMP.fullmatch(text) is None:
        return False
    try:
        year = datetime.fromisoformat(text).year
    except ValueError:
        return False
    return 1 < year < 9999


def _iso_formats_only(arguments: Mapping[str, Any], ctx: RequestContext) -> bool:
    """The answer is ISO 8601 only: no format asked for, nor stored, that needs locale data or a pattern."""
    asked = arguments.get("format") or ctx.preferences.get("format")
    return asked in (None, "iso8601") and "custom_format" not in arguments


def current_time_is_bounded(arguments: Mapping[str, Any], ctx: RequestContext) -> bool:
    """`get_current_time` of the user's zone or of a zone's exact key, in ISO 8601 (see `ToolSpec.bounded`)."""
    zone = arguments.get("timezone")
    return (zone is None or is_zone_key(zone)) and _iso_formats_only(arguments, ctx)


def conversion_is_bounded(arguments: Mapping[str, Any], ctx: RequestContext) -> bool:
    """`convert_timezone` of an ISO timestamp between zones named by their exact keys (a few targets), in ISO 8601
    (see `ToolSpec.bounded`)."""
    timestamp, source, targets = (arguments.get(key) for key in ("timestamp", "from_timezone", "to_timezone"))
    listed = targets if isinstance(targets, list) and 0 < len(targets) <= _BOUNDED_TARGETS else [targets]
    return (
        _iso_timestamp(timestamp)
        and (source is None or is_zone_key(source))
        and all(is_zone_key(target) for target in listed)
        and _iso_formats_only(arguments, ctx)
    )


def get_current_time(args: schemas.GetCurrentTimeArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """The current time in a zone, with its abbreviation and weekday (and DST when in effect)."""
    zone = zone_from(args.timezone, ctx)
    fmt = args.format or preferred_format(ctx, options)
    checked_format(fmt, args.custom_format, options)
    now = truncate(ctx.now, options.precision).astimezone(zone.tz)
    facts = tzdb.offset_facts(zone.tz, now)
    timestamp = iso(now)
    formatted = render(now, zone, fmt, args.custom_format, ctx.formatting_locale) if fmt != "iso8601" else None
    return without_nulls(
        timestamp=timestamp,
        timezone=zone.key,
        abbreviation=abbreviation(facts),
        day_of_week=DAY_NAMES[now.weekday()],
        dst_active=True if facts.dst_active else None,
        formatted=formatted if formatted != timestamp else None,
    )


def convert_timezone(args: schemas.ConvertTimezoneArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """A time of any date moved from one zone to one or several others; the zone the time was given in is the
    source. One target answers in the seed's shape (`converted` and `time_difference`); a list answers a list, each
    entry with its own difference."""
    given = zone_of(args.from_timezone, ctx) if args.from_timezone is not None else None
    read = instant_of(args.timestamp, given, ctx, args.disambiguation)
    source = source_zone(read, given, ctx, offsets=True)
    names = [args.to_timezone] if isinstance(args.to_timezone, str) else args.to_timezone
    if not names:
        raise InvalidArgument(N_("Name at least one zone in to_timezone."), suggestions=["UTC"])
    targets = [zone_of(name, ctx) for name in names]
    checked_format(args.format, args.custom_format, options)
    instant = read.instant
    original = without_nulls(**when(instant, source), read_as=read.read_as(), dst=dst_report(read.resolution))
    converted = []
    for target in targets:
        note_clock(target, instant, ctx)
        formatted = None
        if args.format != "iso8601":
            formatted = render(instant, target, args.format, args.custom_format, ctx.formatting_locale)
        difference = _hours(_offset(target.tz, instant) - _offset(source.tz, instant))
        converted.append((without_nulls(**when(instant, target), formatted=formatted), difference))
    if isinstance(args.to_timezone, str):
        (moment, difference), *_ = converted
        return {"original": original, "converted": moment, "time_difference": difference}
    return {
        "original": original,
        "converted": [moment | {"time_difference": difference} for moment, difference in converted],
    }


def calculate_duration(
    args: schemas.CalculateDurationArgs, ctx: RequestContext, options: ToolOptions
) -> dict[str, Any]:
    """The time between two times: exact elapsed totals (the seed's seconds, minutes, hours; days of 24 hours), the
    dates apart on the start's calendar, the exact calendar parts, and words a person can repeat: in the unit asked
    when one is (to one decimal, never rounded up), else the three largest parts (an age as people state it)."""
    given = zone_of(args.timezone, ctx) if args.timezone is not None else None
    start = instant_of(args.start_time, given, ctx)
    end = instant_of(args.end_time, given, ctx)
    start_zone, end_zone = source_zone(start, given, ctx, offsets=False), source_zone(end, given, ctx, offsets=False)
    unit = args.units or "seconds"
    # Calendar units are counted on the start's wall clock: the zone it was given in.
    duration = measure(start.instant, end.instant, unit=unit, zone=start_zone.tz)
    stated = duration.breakdown.stated().as_dict()
    body = without_nulls(
        total_seconds=duration.total_seconds,
        minutes=duration.total("minutes"),
        hours=duration.total("hours"),
        elapsed_days=duration.total("days"),
        calendar_days=duration.calendar_days,
        parts=duration.breakdown.parts(),
        human_readable=duration_words(stated, args.units, duration.value, ctx.language),
        negative=True if duration.negative else None,
    )
    return without_nulls(
        start=iso(start.instant.astimezone(start_zone.tz)),
        end=iso(end.instant.astimezone(end_zone.tz)),
        duration=body,
        start_read_as=start.read_as(),
        end_read_as=end.read_as(),
        start_dst=dst_report(start.resolution),
        end_dst=dst_report(end.resolution),
    )


def format_time(args: schemas.FormatTimeArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """A timestamp written in one of the supported standards or a validated strftime pattern."""
    given = zone_of(args.timezone, ctx) if args.timezone is not None else None
    read = instant_of(args.timestamp, given, ctx)
    zone = source_zone(read, given, ctx, offsets=False)
    checked_format(args.format, args.custom_format, options)
    return without_nulls(
        formatted=render(read.instant, zone, args.format, args.custom_format, ctx.formatting_locale),
        timestamp=iso(read.instant.astimezone(zone.tz)),
        timezone=zone.key,
        read_as=read.read_as(),
        dst=dst_report(read.resolution),
    )


def get_timezone_info(args: schemas.GetTimezoneInfoArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Offsets, DST state, the changes around an instant and the countries of a zone."""
    zone = zone_of(args.timezone, ctx)
    read = None if args.timestamp is None else instant_of(args.timestamp, zone, ctx)
    at = truncate(ctx.now, options.precision) if read is None else read.instant
    local = at.astimezone(zone.tz)
    facts = tzdb.offset_facts(zone.tz, local)
    canonical = zone.canonical
    entry = tzdb.zone_entries().get(canonical) if canonical else None
    codes = list(entry.country_codes) if entry else []
    previous = next_ = None
    if isinstance(zone.tz, ZoneInfo):
        previous = tzdb.previous_transition(zone.tz, at)
        next_ = tzdb.next_transition(zone.tz, at)
    dst_shifted = facts.dst_offset != timedelta(0)
    return without_nulls(
        timezone=zone.key,
        canonical=canonical if canonical and canonical != zone.key else None,
        local_time=iso(local),
        day_of_week=DAY_NAMES[local.weekday()],
        abbreviation=abbreviation(facts),
        dst_active=facts.dst_active,
        standard_offset=tzdb.format_offset(facts.standard_offset) if dst_shifted else None,
        dst_offset=tzdb.format_offset(facts.dst_offset) if dst_shifted else None,
        previous_transition=transition_record(previous, zone.tz) if previous else None,
        next_transition=transition_record(next_, zone.tz) if next_ else None,
        country_codes=codes or None,
        # zone1970.tab's comment describes the line's last country ('JP,AU … Eyre Bird Observatory'), so it only
        # describes the zone when the zone has one country.
        comment=(entry.comment or None) if entry and len(codes) == 1 else None,
        read_as=read.read_as() if read is not None else None,
    )


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
            without_nulls(
                name=name,
                utc_offset=tzdb.format_offset(facts.utc_offset),
                abbreviation=abbreviation(facts),
                dst_active=True if facts.dst_active else None,
                country_codes=list(entry.country_codes) if entry else None,
            )
        )
    return without_nulls(
        total=len(names),
        offset=args.offset or None,
        truncated=True if args.offset + len(listed) < len(names) else None,
        timezones=listed,
    )


def _offset(zone: tzinfo, instant: datetime) -> timedelta:
    return instant.astimezone(zone).utcoffset() or timedelta(0)


def _hours(delta: timedelta) -> str:
    """'+6h', '-4.5h', '+5.75h'; '0h' for the same offset."""
    hours = delta.total_seconds() / 3600
    if hours == 0:
        return "0h"
    return f"{hours:+.2f}".rstrip("0").rstrip(".") + "h"


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "get_current_time",
        "Current time",
        "The current time in a timezone (default: the user's; {default_zone} here). Call it instead of guessing "
        "the date or time.",
        schemas.GetCurrentTimeArgs,
        schemas.GetCurrentTimeResult,
        get_current_time,
        bounded=current_time_is_bounded,
    ),
    ToolSpec(
        "convert_timezone",
        "Convert between timezones",
        "A time in other timezones; the source is the zone named in 'timestamp', else from_timezone.",
        schemas.ConvertTimezoneArgs,
        schemas.ConvertTimezoneResult,
        convert_timezone,
        bounded=conversion_is_bounded,
    ),
    ToolSpec(
        "calculate_duration",
        "Duration between two times",
        "How long from one time to another ('now' to 'Christmas'; an age): calendar parts, elapsed totals and words.",
        schemas.CalculateDurationArgs,
        schemas.CalculateDurationResult,
        calculate_duration,
    ),
    ToolSpec(
        "format_time",
        "Format a timestamp",
        "Write a time in a standard format or a strftime pattern.",
        schemas.FormatTimeArgs,
        schemas.FormatTimeResult,
        format_time,
    ),
    ToolSpec(
        "get_timezone_info",
        "Timezone information",
        "A zone's abbreviation and DST state now (or at 'timestamp'), its last and next clock change, and its "
        "countries.",
        schemas.GetTimezoneInfoArgs,
        schemas.GetTimezoneInfoResult,
        get_timezone_info,
    ),
    ToolSpec(
        "list_timezones",
        "List timezones",
        "IANA zones by region ('Europe'), country ('AT') or text ('york'), with their offsets now; paged.",
        schemas.ListTimezonesArgs,
        schemas.ListTimezonesResult,
        list_timezones,
    ),
)
