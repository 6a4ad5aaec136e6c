"""How tool results present instants, zones, DST facts and transitions: shared by every tool family."""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo
from typing import Any, Final

from horologe.context import RequestContext
from horologe.core import tzdb
from horologe.core.errors import InvalidArgument
from horologe.core.format import OutputFormat, format_instant, validate_custom_format
from horologe.core.localtime import Disambiguation, LocalResolution
from horologe.core.messages import N_
from horologe.core.parse import ParsedTimestamp, parse_timestamp
from horologe.core.zones import ResolvedZone, resolve_zone
from horologe.i18n.cldr import human_datetime, human_duration
from horologe.i18n.language import Language
from horologe.places import gazetteer
from horologe.tools.spec import ToolOptions

DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
NO_DST: dict[str, object] = {"dst_gap": False, "ambiguous": False}


LOCAL: Final = "local"
NOW: Final = "now"


def zone_of(text: str, ctx: RequestContext) -> ResolvedZone:
    """The zone the caller named: 'local' is the user's own (the request's default zone); cities, exemplar cities
    and countries come from the places table; the client's country narrows ambiguous names. A reading other than a
    zone's own name is recorded for the result's `timezone_input`."""
    if text.strip().lower() == LOCAL:
        return ctx.default_zone
    zone = resolve_zone(text, country_hint=ctx.country, places=gazetteer(), now=ctx.now)
    reading = zone.reading()
    if reading is not None and reading not in ctx.zone_readings:
        ctx.zone_readings.append(reading)
    return zone


def zone_from(text: str | None, ctx: RequestContext) -> ResolvedZone:
    """The zone the caller named, or the request's default zone (the user's)."""
    return ctx.zone_or_default(zone_of(text, ctx) if text is not None else None)


def instant_of(
    value: str | int | float, zone: ResolvedZone, ctx: RequestContext, disambiguation: Disambiguation = "compatible"
) -> ParsedTimestamp:
    """A timestamp argument on the timeline: 'now' is the request's now; anything else as `parse_timestamp` reads it
    (a wall time without offset in `zone`)."""
    if isinstance(value, str) and value.strip().lower() == NOW:
        return ParsedTimestamp(ctx.now, NOW, True, None)
    return parse_timestamp(value, zone.tz, disambiguation=disambiguation, now=ctx.now)


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


def enabled_format(fmt: OutputFormat, options: ToolOptions) -> None:
    """Refuse formats this server does not offer."""
    if fmt not in options.supported_formats:
        raise InvalidArgument(
            N_("Format {format} is not enabled on this server. Use one of: {formats}."),
            format=repr(fmt),
            formats=", ".join(options.supported_formats),
            suggestions=list(options.supported_formats)[:3],
        )


def checked_format(fmt: OutputFormat, custom_format: str | None, options: ToolOptions) -> None:
    """Refuse formats this server does not offer and 'custom' without a valid pattern."""
    enabled_format(fmt, options)
    if fmt == "custom":
        if custom_format is None:
            raise InvalidArgument(
                N_("The format 'custom' needs custom_format, for example {example}."),
                example="'%Y-%m-%d %H:%M %Z'",
                suggestions=["%Y-%m-%d %H:%M %Z"],
            )
        validate_custom_format(custom_format)


def render(
    instant: datetime, zone: ResolvedZone, fmt: OutputFormat, custom_format: str | None, locale: str | None
) -> str | int:
    """Format an instant in a zone; 'human' is written in `locale`'s CLDR patterns when one is given."""
    local = instant.astimezone(zone.tz)
    if fmt == "human" and locale is not None:
        localized = human_datetime(local, locale)
        if localized is not None:
            return localized
    return format_instant(local, fmt, custom_format=custom_format)


def localized_duration(duration: dict[str, Any], language: Language) -> dict[str, Any]:
    """The duration with `human_readable` in the request's language (CLDR units through Babel); English as is."""
    if language.locale is None:
        return duration
    return {**duration, "human_readable": human_duration(duration["breakdown"], language.tag)}


def truncate(instant: datetime, precision: str) -> datetime:
    """Drop sub-second digits below the configured precision."""
    if precision == "seconds":
        return instant.replace(microsecond=0)
    if precision == "milliseconds":
        return instant.replace(microsecond=instant.microsecond // 1000 * 1000)
    return instant


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
