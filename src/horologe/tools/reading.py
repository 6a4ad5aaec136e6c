"""How tools read time arguments: one grammar for every timestamp and every date a tool takes.

A timestamp argument is read, in this order, as:

1. a formal timestamp (`horologe.core.parse`: ISO 8601, Unix time, RFC 2822, an HTTP date) or 'now';
2. what `resolve_time_expression` reads (`horologe.core.relative`): "next Tuesday 4pm", "tomorrow", a bare "09:00"
   (today, in the zone the argument is read in), "the last day of February", "Christmas"; a period stands for its
   start, a recurrence for its next occurrence;
3. either of those followed by a zone ("9am PST", "3pm New York time", "15:00 in Tokyo"): the zone is where the time
   was said, and so the source zone every derived field of the result uses.

A date argument is an ISO date, or any of the above (its day in the zone it is read in). How a phrase was read comes
back with the reading (`understood`, and the other reading under `alternative`) so a result can say it; formal input
needs no saying. Read in the caller's languages first (client locale, then the request's language); the week starts
and the weekend falls as the locale (or the stored preference) says; holidays are the caller's country's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache
from typing import Any, Final

from horologe.context import RequestContext
from horologe.core import tzdb
from horologe.core.errors import InvalidTimestamp, TimeError
from horologe.core.localtime import Disambiguation, LocalResolution
from horologe.core.messages import N_, msg
from horologe.core.parse import parse_date, parse_timestamp
from horologe.core.relative import LANGUAGE_CODES, Resolution, UnknownExpression, resolve_expression
from horologe.core.weekdays import ARGUMENT_NAMES
from horologe.core.zones import ResolvedZone, resolve_zone
from horologe.holiday_index import holiday_index
from horologe.i18n.cldr import first_week_day, weekend_days
from horologe.places import gazetteer
from horologe.tools.present import NOW, iso, note_clock

_FORMAL: Final = re.compile(r"[\d\s:+\-.,/TtZzWw]+")
"""Input made only of digits and the separators of formal timestamps: its errors are the formal reader's."""
ZONE_WORDS: Final = 8
"""The most words a zone after a time may take, joiners included ('3pm Santa Cruz de la Sierra, Bolivia time'):
all but 13 of the places table's 71,215 names have at most 8 words."""
_ZONE_JOINERS: Final = re.compile(r"^(?:in|at|im|a|à|en|um|de)\s+|\s+(?:time|zeit|heure|hora)$")


@dataclass(frozen=True, slots=True)
class TimeInput:
    """A time argument on the timeline: the instant, the zone it was read in, the DST facts of a wall time, and how
    a phrase was read (None for formal input)."""

    instant: datetime
    zone: ResolvedZone
    resolution: LocalResolution | None = None
    explicit_offset: bool = False
    understood: str | None = None
    alternative: dict[str, Any] | None = None
    zone_named: bool = False
    """Whether the input named its own zone (an offset, 'Z', or a zone after a phrase)."""

    def read_as(self) -> dict[str, Any] | None:
        """How a phrase was read, for a result (None for formal input)."""
        if self.understood is None:
            return None
        body: dict[str, Any] = {"understood": self.understood}
        if self.alternative is not None:
            body["alternative"] = self.alternative
        return body


def instant_of(
    value: str | int | float,
    zone: ResolvedZone | None,
    ctx: RequestContext,
    disambiguation: Disambiguation = "compatible",
) -> TimeInput:
    """A timestamp argument on the timeline, read in `zone` (None: the user's) unless it names its own (see the
    module). The user's zone counts as used (the context report) only when the text named none."""
    read = _read(value, zone or ctx.user_zone(used=False), ctx, disambiguation)
    if zone is None and not read.zone_named:
        ctx.user_zone()
    note_clock(read.zone, read.instant, ctx)
    return read


def _read(
    value: str | int | float, zone: ResolvedZone, ctx: RequestContext, disambiguation: Disambiguation
) -> TimeInput:
    if isinstance(value, str) and value.strip().lower() == NOW:
        return TimeInput(ctx.now, zone)
    try:
        return _formal(value, zone, ctx, disambiguation)
    except InvalidTimestamp as formal_error:
        if not isinstance(value, str):
            raise
        try:
            return _phrase(value, zone, ctx, disambiguation)
        except UnknownExpression as phrase_error:
            found = _with_zone(value, ctx, disambiguation)
            if found is not None:
                return found
            if _FORMAL.fullmatch(value.strip()):
                raise formal_error from None
            raise phrase_error from None


def source_zone(read: TimeInput, given: ResolvedZone | None, ctx: RequestContext, *, offsets: bool) -> ResolvedZone:
    """The zone a time was given in: the zone a phrase named ("9am PST"); else the zone argument; else (`offsets`)
    the offset the timestamp carried; else the user's zone. Every field a result derives from the time uses it."""
    if read.zone_named and read.understood is not None:
        return read.zone
    if given is not None:
        return given
    return read.zone if offsets else ctx.user_zone()


def date_of(value: str, name: str, ctx: RequestContext, zone: ResolvedZone | None = None) -> date:
    """A date argument: an ISO date, or any timestamp or phrase `instant_of` reads in `zone` (None: the user's), as
    its day in the zone it was read in."""
    text = value.strip() if isinstance(value, str) else value
    try:
        return parse_date(text)
    except InvalidTimestamp as exc:
        try:
            found = instant_of(value, zone, ctx)
        except InvalidTimestamp:
            raise InvalidTimestamp(
                N_("{name}: {problem}"), name=name, problem=exc.text, suggestions=exc.suggestions
            ) from None
        return found.instant.astimezone(found.zone.tz).date()


def phrase_languages(ctx: RequestContext, locale: str | None = None) -> list[str]:
    """The languages a phrase is tried in first: the locale's (argument or client), then the request's."""
    tags = [locale or ctx.locale, ctx.language.tag if ctx.language.requested else None]
    codes = [tag.split("-")[0].split("_")[0].lower() for tag in tags if tag]
    return [code for code in dict.fromkeys(codes) if code in LANGUAGE_CODES]


def week_start(explicit: str | None, ctx: RequestContext, locale: str | None) -> tuple[int, str]:
    """The first day of the week and where it came from: argument > stored preference > the locale's > Monday."""
    stored = ctx.preferences.get("week_start")
    if explicit is not None:
        return ARGUMENT_NAMES.index(explicit), "argument"
    if isinstance(stored, str) and stored in ARGUMENT_NAMES:
        return ARGUMENT_NAMES.index(stored), "preference"
    from_locale = first_week_day(locale)
    if from_locale is not None:
        return from_locale, "locale"
    return 0, "default"


def holiday_country(ctx: RequestContext, zone: ResolvedZone) -> str | None:
    """Whose holidays a name (or a country argument left out) means: the client's country, else the country of the
    zone the phrase is read in. A zone's own entry comes first: Europe/Oslo is Norway's clock, though the database
    links it to Europe/Berlin, whose first country is Germany."""
    if ctx.country:
        return ctx.country
    found = tzdb.zone_countries(zone.key)
    return found[0] if found else None


def resolve_phrase(
    expression: str,
    zone: ResolvedZone,
    ctx: RequestContext,
    *,
    reference: datetime | None = None,
    locale: str | None = None,
    explicit_week_start: str | None = None,
    count: int = 5,
    policy: Disambiguation = "compatible",
) -> Resolution:
    """`resolve_expression` with what the request knows: languages, week, weekend, holidays' country, budget."""
    chosen = locale or ctx.locale
    start, _ = week_start(explicit_week_start, ctx, chosen)
    return resolve_expression(
        expression,
        reference=reference or ctx.now,
        zone=zone.tz,
        week_start=start,
        weekend=weekend_days(chosen) or (5, 6),
        languages=phrase_languages(ctx, locale),
        country=holiday_country(ctx, zone),
        count=count,
        budget=ctx.budget,
        policy=policy,
        holidays=holiday_index(),
        places=gazetteer(),
    )


def _formal(
    value: str | int | float, zone: ResolvedZone, ctx: RequestContext, disambiguation: Disambiguation
) -> TimeInput:
    parsed = parse_timestamp(value, zone.tz, disambiguation=disambiguation, now=ctx.now)
    if not parsed.explicit_offset or isinstance(value, int | float) or parsed.source_format.startswith("unix"):
        return TimeInput(parsed.instant, zone, parsed.resolution, parsed.explicit_offset)
    offset = parsed.instant.utcoffset()
    own = resolve_zone(tzdb.format_offset(offset)) if offset is not None else zone
    return TimeInput(parsed.instant, own, None, True, zone_named=True)


def _phrase(value: str, zone: ResolvedZone, ctx: RequestContext, disambiguation: Disambiguation) -> TimeInput:
    resolution = resolve_phrase(value, zone, ctx, policy=disambiguation)
    local = resolution.local_time
    instant = resolution.start
    understood = resolution.interpretation
    if resolution.kind == "period":
        understood = msg(N_("the start of {period}"), period=understood)
    elif resolution.kind == "recurrence":
        understood = msg(N_("the next occurrence of {recurrence}"), recurrence=understood)
    alternative = None
    if resolution.alternative is not None:
        other = resolution.alternative
        alternative = {
            "timestamp": iso(other.start.astimezone(zone.tz)),
            "understood": ctx.language.render(other.interpretation),
        }
    return TimeInput(instant, zone, local, False, ctx.language.render(understood), alternative)


def _with_zone(value: str, ctx: RequestContext, disambiguation: Disambiguation) -> TimeInput | None:
    """A time followed by the zone it was said in ("9am PST", "15:00 in Tokyo"), or None."""
    words = value.split()
    # Only the last few words can name the zone: the reading stays linear in the text (every cut a bounded join).
    for cut in range(max(1, len(words) - ZONE_WORDS), len(words)):
        zone_text = _ZONE_JOINERS.sub("", " ".join(words[cut:]).strip())
        time_text = " ".join(words[:cut]).strip(" ,")
        if not zone_text or not time_text:
            continue
        zone = _zone_named(zone_text, ctx.country)
        if zone is None:
            continue
        for read in (_formal, _phrase):
            try:
                found = read(time_text, zone, ctx, disambiguation)
            except TimeError:
                continue
            reading = zone.reading()
            if reading is not None and reading not in ctx.zone_readings:
                ctx.zone_readings.append(reading)
            understood = found.understood or found.instant.astimezone(zone.tz).isoformat()
            return TimeInput(
                found.instant, zone, found.resolution, found.explicit_offset, understood, found.alternative, True
            )
    return None


@lru_cache(maxsize=1024)
def _zone_named(text: str, country: str | None) -> ResolvedZone | None:
    try:
        return resolve_zone(text, country_hint=country, places=gazetteer(), suggest=False)
    except (TimeError, ValueError):
        return None
