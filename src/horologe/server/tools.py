"""The six tools of the seed: arguments in, a structured result out. Pure calls into `core` with explicit inputs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any, Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel

from horologe.context import RequestContext
from horologe.core import tzdb
from horologe.core.duration import measure
from horologe.core.errors import InvalidArgument
from horologe.core.format import OutputFormat, format_instant, validate_custom_format
from horologe.core.localtime import LocalResolution
from horologe.core.parse import ParsedTimestamp, parse_timestamp
from horologe.core.zones import ResolvedZone, resolve_zone, search_zones
from horologe.i18n import SOURCE_LANGUAGE
from horologe.i18n.translate import current_tag
from horologe.server import schemas

DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
NO_DST: dict[str, object] = {"dst_gap": False, "ambiguous": False}
# A stored format preference (SEP-1655) that get_current_time can honour, in its own vocabulary.
NOW_FORMATS: dict[str, Literal["iso", "unix", "human"]] = {"iso8601": "iso", "unix": "unix", "human": "human"}


@dataclass(frozen=True, slots=True)
class ToolOptions:
    """Server-wide options the tools honour (from settings)."""

    supported_formats: tuple[OutputFormat, ...]
    precision: str


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool: its wire identity, argument model, result model and implementation."""

    name: str
    title: str
    description: str
    arguments: type[schemas.Arguments]
    result: type[BaseModel]
    run: Callable[[Any, RequestContext, ToolOptions], dict[str, Any]]


def zone_from(text: str | None, ctx: RequestContext) -> ResolvedZone:
    """The zone the caller named (the client's country narrows ambiguous names), or the request's default zone."""
    return ctx.zone_or_default(resolve_zone(text, country_hint=ctx.country) if text is not None else None)


def timespec(instant: datetime) -> str:
    """The shortest isoformat timespec that keeps every sub-second digit."""
    micro = instant.microsecond
    return "seconds" if not micro else "milliseconds" if micro % 1000 == 0 else "microseconds"


def iso(instant: datetime) -> str:
    """ISO 8601 with only the sub-second digits that carry information, and 'Z' for UTC itself."""
    text = instant.isoformat(timespec=timespec(instant))
    return text[:-6] + "Z" if instant.tzname() == "UTC" and text.endswith("+00:00") else text


def moment(instant: datetime, zone: ResolvedZone, facts: tzdb.OffsetFacts | None = None) -> dict[str, Any]:
    """An instant described in a zone: ISO timestamp, zone, offset, abbreviation, DST state (`facts` if known)."""
    local = instant.astimezone(zone.tz)
    facts = facts or tzdb.offset_facts(zone.tz, local)
    return {
        "timestamp": iso(local),
        "timezone": zone.key,
        "utc_offset": tzdb.format_offset(facts.utc_offset),
        "abbreviation": facts.abbreviation,
        "dst_active": facts.dst_active,
    }


def dst_report(parsed: ParsedTimestamp) -> dict[str, object]:
    """The gap/fold facts of a parsed timestamp (all false when it carried its own offset)."""
    resolution: LocalResolution | None = parsed.resolution
    return resolution.report() if resolution is not None else dict(NO_DST)


def checked_format(fmt: OutputFormat, custom_format: str | None, options: ToolOptions) -> None:
    """Refuse formats this server does not offer and 'custom' without a valid pattern."""
    if fmt not in options.supported_formats:
        formats = ", ".join(options.supported_formats)
        raise InvalidArgument(
            f"Format {fmt!r} is not enabled on this server. Use one of: {formats}.",
            suggestions=list(options.supported_formats)[:3],
            template="format.not_enabled",
            params={"format": repr(fmt), "formats": formats},
        )
    if fmt == "custom":
        if custom_format is None:
            raise InvalidArgument(
                "format 'custom' needs custom_format, e.g. '%Y-%m-%d %H:%M %Z'.",
                suggestions=["%Y-%m-%d %H:%M %Z"],
                template="format.custom_needs_pattern",
                params={"example": "'%Y-%m-%d %H:%M %Z'"},
            )
        validate_custom_format(custom_format)


def render(
    instant: datetime, zone: ResolvedZone, fmt: OutputFormat, custom_format: str | None, locale: str | None = None
) -> str | int:
    """Format an instant in a zone; 'human' follows the client's locale (CLDR) when one was given.

    Without a client locale, 'human' follows the request's language (SEP-2792) when it is not English; the
    client context's locale (SEP-1809) is the more specific formatting choice and wins.
    """
    local = instant.astimezone(zone.tz)
    if fmt == "human":
        locale = locale or _language_locale()
    if fmt == "human" and locale is not None:
        from horologe.server.localized import human_datetime

        localized = human_datetime(local, locale)
        if localized is not None:
            return localized
    return format_instant(local, fmt, custom_format=custom_format)


def _language_locale() -> str | None:
    tag = current_tag()
    return None if tag == SOURCE_LANGUAGE else tag


def truncate(instant: datetime, precision: str) -> datetime:
    """Drop sub-second digits below the configured precision."""
    if precision == "seconds":
        return instant.replace(microsecond=0)
    if precision == "milliseconds":
        return instant.replace(microsecond=instant.microsecond // 1000 * 1000)
    return instant


def get_current_time(args: schemas.GetCurrentTimeArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """The current time in a zone, with offset, DST state, weekday and ISO week."""
    zone = zone_from(args.timezone, ctx)
    chosen = args.format or NOW_FORMATS.get(str(ctx.preferences.get("format")), "iso")
    fmt: OutputFormat = "iso8601" if chosen == "iso" else chosen
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
        "unix_ms": int(now.timestamp() * 1000 // 1),
        "formatted": described["timestamp"] if same else render(now, zone, fmt, args.custom_format, ctx.locale),
        "format": chosen,
        "utc_offset_seconds": int(facts.utc_offset.total_seconds()),
        "day_of_week": DAY_NAMES[now.weekday()],
        "iso_week": f"{iso_year}-W{iso_week:02d}-{iso_day}",
        "date": now.date().isoformat(),
        "time": now.time().isoformat(timespec=timespec(now)),
    }


def convert_timezone(args: schemas.ConvertTimezoneArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """A timestamp of any date moved from one zone to another, with DST gap/fold facts."""
    source = zone_from(args.from_timezone, ctx)
    target = resolve_zone(args.to_timezone, country_hint=ctx.country)
    checked_format(args.format, args.custom_format, options)
    parsed = parse_timestamp(args.timestamp, source.tz, disambiguation=args.disambiguation)
    original = {**moment(parsed.instant, source), "input": str(args.timestamp), "dst": dst_report(parsed)}
    converted = {
        **moment(parsed.instant, target),
        "formatted": render(parsed.instant, target, args.format, args.custom_format),
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
    start = parse_timestamp(args.start_time, zone.tz, disambiguation=args.disambiguation)
    end = parse_timestamp(args.end_time, zone.tz, disambiguation=args.disambiguation)
    duration = measure(start.instant, end.instant, unit=args.units, zone=zone.tz)
    return {
        "start": iso(start.instant.astimezone(zone.tz)),
        "end": iso(end.instant.astimezone(zone.tz)),
        "timezone": zone.key,
        "duration": localized_duration(duration.as_dict()),
        "start_dst": dst_report(start),
        "end_dst": dst_report(end),
    }


def localized_duration(duration: dict[str, Any]) -> dict[str, Any]:
    """The duration with `human_readable` in the request's language (CLDR units through Babel); English as is."""
    tag = current_tag()
    if tag == SOURCE_LANGUAGE:
        return duration
    from horologe.server.localized import human_duration

    return {**duration, "human_readable": human_duration(duration["breakdown"], tag)}


def format_time(args: schemas.FormatTimeArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """A timestamp written in one of the supported standards or a validated strftime pattern."""
    zone = zone_from(args.timezone, ctx)
    checked_format(args.format, args.custom_format, options)
    parsed = parse_timestamp(args.timestamp, zone.tz, disambiguation=args.disambiguation)
    return {
        "formatted": render(parsed.instant, zone, args.format, args.custom_format, ctx.locale),
        "format": args.format,
        "timestamp": iso(parsed.instant.astimezone(zone.tz)),
        "timezone": zone.key,
        "dst": dst_report(parsed),
    }


def get_timezone_info(args: schemas.GetTimezoneInfoArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Offsets, DST state, surrounding transitions and IANA facts of a zone at an instant."""
    zone = resolve_zone(args.timezone, country_hint=ctx.country)
    at = truncate(ctx.now, options.precision) if args.at is None else parse_timestamp(args.at, zone.tz).instant
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
        "utc_offset_seconds": int(facts.utc_offset.total_seconds()),
        "standard_offset": tzdb.format_offset(facts.standard_offset),
        "dst_offset": tzdb.format_offset(facts.dst_offset),
        "dst_active": facts.dst_active,
        "abbreviation": facts.abbreviation,
        "previous_transition": transition_record(previous, zone.tz) if previous else None,
        "next_transition": transition_record(next_, zone.tz) if next_ else None,
        "country_codes": codes,
        "countries": [name for code in codes if (name := tzdb.country_name(code))],
        "comment": (entry.comment or None) if entry else None,
        "coordinates": entry.coordinates if entry else None,
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


def transition_record(transition: tzdb.Transition, zone: tzinfo) -> dict[str, Any]:
    """A DST/offset transition for a response, with local wall times on both sides."""
    return {
        "at": iso(transition.at),
        "local_before": iso((transition.at - timedelta(seconds=1)).astimezone(zone)),
        "local_after": iso(transition.at.astimezone(zone)),
        "offset_before": tzdb.format_offset(transition.offset_before),
        "offset_after": tzdb.format_offset(transition.offset_after),
        "abbreviation_before": transition.abbreviation_before,
        "abbreviation_after": transition.abbreviation_after,
        "dst_before": transition.dst_before,
        "dst_after": transition.dst_after,
    }


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "get_current_time",
        "Current time",
        "Get the current date and time in a timezone (default: the server's default zone), with UTC offset, "
        "abbreviation, whether DST is in effect, day of week and ISO week. Use this instead of guessing today's "
        "date or time.",
        schemas.GetCurrentTimeArgs,
        schemas.GetCurrentTimeResult,
        get_current_time,
    ),
    ToolSpec(
        "convert_timezone",
        "Convert between timezones",
        "Convert a timestamp of any date from one timezone to another. Times without an offset are read in "
        "from_timezone; a local time skipped or repeated by a DST change is reported (dst.dst_gap / "
        "dst.ambiguous with both candidate instants) and resolved by 'disambiguation'.",
        schemas.ConvertTimezoneArgs,
        schemas.ConvertTimezoneResult,
        convert_timezone,
    ),
    ToolSpec(
        "calculate_duration",
        "Duration between two times",
        "Calculate the time between two timestamps: exact total seconds, minutes, hours and days, a calendar "
        "breakdown (years, months, days, hours, minutes, seconds) and a readable text. If the end is before "
        "the start the duration is negative ('negative': true).",
        schemas.CalculateDurationArgs,
        schemas.CalculateDurationResult,
        calculate_duration,
    ),
    ToolSpec(
        "format_time",
        "Format a timestamp",
        "Write a timestamp as ISO 8601, RFC 3339, RFC 2822, HTTP date, Unix seconds or milliseconds, a readable "
        "English text, or a custom strftime pattern, in a chosen timezone.",
        schemas.FormatTimeArgs,
        schemas.FormatTimeResult,
        format_time,
    ),
    ToolSpec(
        "get_timezone_info",
        "Timezone information",
        "Describe a timezone at an instant (default: now): UTC offset, standard and DST offsets, abbreviation, "
        "whether DST is active, the previous and next DST transitions, countries and the canonical IANA name "
        "for an alias.",
        schemas.GetTimezoneInfoArgs,
        schemas.GetTimezoneInfoResult,
        get_timezone_info,
    ),
    ToolSpec(
        "list_timezones",
        "List timezones",
        "List IANA timezone names with their current UTC offset, filtered by region ('Europe'), country "
        "('AT' or 'Austria') and/or text ('york'). Results are paged: see 'total' and 'truncated'.",
        schemas.ListTimezonesArgs,
        schemas.ListTimezonesResult,
        list_timezones,
    ),
)
