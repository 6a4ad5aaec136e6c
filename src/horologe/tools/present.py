"""How tool results present instants, zones, DST facts and transitions: shared by every tool family.

Results say each thing once and leave out what carries no information for the call: no `formatted` equal to the
timestamp, no DST report when the time was neither skipped nor repeated, no null fields (`compact`).
"""

from __future__ import annotations

import math
from datetime import datetime, timezone, tzinfo
from functools import lru_cache
from typing import Any, Final

from horologe.context import RequestContext
from horologe.core import tzdb
from horologe.core.errors import InvalidArgument, TimeError
from horologe.core.format import OutputFormat, format_instant, validate_custom_format
from horologe.core.localtime import LocalResolution
from horologe.core.messages import N_, msg
from horologe.core.weekdays import DAY_NAMES
from horologe.core.zones import ResolvedZone, resolve_zone
from horologe.i18n.cldr import human_amount, human_datetime, human_duration
from horologe.i18n.language import Language
from horologe.places import gazetteer
from horologe.tools.spec import ToolOptions

LOCAL: Final = "local"
NOW: Final = "now"
_LONGEST_KEY: Final = 40
"""Longer than every key of the tz database ('America/Argentina/ComodRivadavia', 32)."""


def zone_of(text: str, ctx: RequestContext) -> ResolvedZone:
    """The zone the caller named: 'local' is the user's own (the request's default zone); cities, exemplar cities
    and countries come from the places table; the client's country narrows ambiguous names. A reading other than a
    zone's own name is recorded for the result's `timezone_input`."""
    if text.strip().lower() == LOCAL:
        return ctx.user_zone()
    try:
        zone = _resolved(text, ctx.country)
    except TimeError:
        # Errors are not cached; resolved again with the request's now, the suggestions name current offsets.
        zone = resolve_zone(text, country_hint=ctx.country, places=gazetteer(), now=ctx.now)
    reading = zone.reading()
    if reading is not None and reading not in ctx.zone_readings:
        ctx.zone_readings.append(reading)
    return zone


@lru_cache(maxsize=1024)
def _resolved(text: str, country: str | None) -> ResolvedZone:
    # Resolution is pure (the database and the places table do not change while a server runs) and calls name
    # few zones, so the same spelling is resolved once: about a quarter of a get_current_time or convert_timezone
    # call's own time.
    return resolve_zone(text, country_hint=country, places=gazetteer())


def is_zone_key(text: object) -> bool:
    """Whether `text` is a zone's exact database key with its area ('Europe/Vienna', 'US/Eastern'): a name
    `zone_of` reads by one lookup, never by searching places or suggesting close names."""
    return isinstance(text, str) and "/" in text and len(text) <= _LONGEST_KEY and text in tzdb.zone_names()


def zone_from(text: str | None, ctx: RequestContext) -> ResolvedZone:
    """The zone the caller named, or the request's default zone (the user's)."""
    return ctx.zone_or_default(zone_of(text, ctx) if text is not None else None)


def timespec(instant: datetime) -> str:
    """The shortest isoformat timespec that keeps every sub-second digit."""
    micro = instant.microsecond
    return "seconds" if not micro else "milliseconds" if micro % 1000 == 0 else "microseconds"


def iso(instant: datetime) -> str:
    """ISO 8601 with only the sub-second digits that carry information, and 'Z' for UTC itself."""
    text = instant.isoformat(timespec=timespec(instant))
    return text[:-6] + "Z" if instant.tzname() == "UTC" and text.endswith("+00:00") else text


def when(instant: datetime, zone: ResolvedZone) -> dict[str, Any]:
    """An instant answered in a zone: its ISO timestamp (the offset in it), the zone, the day of the week, and the
    zone's abbreviation and DST state then (both ends of a conversion say them: they explain an unusual gap, such as
    Los Angeles to Berlin in March, when one side has changed its clocks and the other not yet)."""
    local = instant.astimezone(zone.tz)
    facts = tzdb.offset_facts(zone.tz, local)
    return without_nulls(
        timestamp=iso(local),
        timezone=zone.key,
        day_of_week=DAY_NAMES[local.weekday()],
        abbreviation=abbreviation(facts),
        dst_active=facts.dst_active,
    )


def note_clock(zone: ResolvedZone, instant: datetime, ctx: RequestContext) -> None:
    """When a typed abbreviation was read as its region's clock and that clock shows another abbreviation at
    `instant` ('PST' in July is Los Angeles on daylight time, PDT), its `timezone_input` entry says so."""
    if zone.kind != "abbreviation":
        return
    local = instant.astimezone(zone.tz)
    facts = tzdb.offset_facts(zone.tz, local)
    typed = zone.input.strip().upper()
    if facts.abbreviation.upper() == typed:
        return
    template = (
        N_("{typed} was read as the clock of {zone}, which on {date} keeps daylight time ({actual}, UTC{offset}).")
        if facts.dst_active
        else N_("{typed} was read as the clock of {zone}, which on {date} keeps standard time ({actual}, UTC{offset}).")
    )
    note = ctx.language.render(
        msg(
            template,
            typed=typed,
            zone=zone.key,
            date=local.date().isoformat(),
            actual=facts.abbreviation,
            offset=tzdb.format_offset(facts.utc_offset),
        )
    )
    reading = zone.reading() or {}
    noted = reading | {"note": note}
    readings = ctx.zone_readings
    if noted in readings:
        return
    if reading in readings:
        readings[readings.index(reading)] = noted
    else:
        readings.append(noted)


def abbreviation(facts: tzdb.OffsetFacts) -> str | None:
    """The zone's abbreviation, unless it only writes the offset again ('-03' for São Paulo, 'UTC-03:00' for a
    fixed offset)."""
    name = facts.abbreviation
    return None if name[:1] in "+-" or name[:4] in ("UTC+", "UTC-") else name


def dst_report(resolution: LocalResolution | None) -> dict[str, object] | None:
    """The gap/fold facts of a wall time the caller gave, or None when it was neither skipped nor repeated."""
    return resolution.report() if resolution is not None and resolution.status != "unique" else None


def without_nulls(**fields: Any) -> dict[str, Any]:
    """A result without its None fields: absent means nothing to say (the published schemas have no nulls)."""
    return {name: value for name, value in fields.items() if value is not None}


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


def duration_words(breakdown: dict[str, float], unit: str | None, value: float, language: Language) -> str:
    """A duration as a person says it, in the request's language (CLDR units): in the unit asked, to one decimal
    never rounded up ('30.6 days' for 30.66), else the breakdown given (`Breakdown.stated`)."""
    if unit is not None and unit != "seconds":
        return human_amount(math.floor(abs(value) * 10) / 10, unit, language.tag)
    return human_duration(breakdown, language.tag)


def truncate(instant: datetime, precision: str) -> datetime:
    """Drop sub-second digits below the configured precision."""
    if precision == "seconds":
        return instant.replace(microsecond=0)
    if precision == "milliseconds":
        return instant.replace(microsecond=instant.microsecond // 1000 * 1000)
    return instant


def transition_record(transition: tzdb.Transition, zone: tzinfo) -> dict[str, Any]:
    """A DST/offset change: the wall clock it leaves (in the old offset) and the one it starts (in the zone), and
    the abbreviation and DST state it starts."""
    return {
        "before": iso(transition.at.astimezone(timezone(transition.offset_before))),
        "after": iso(transition.at.astimezone(zone)),
        "abbreviation": transition.abbreviation_after,
        "dst": transition.dst_after,
    }
