"""Resources: the timezone database, the supported time formats, and one resource per zone."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit
from zoneinfo import ZoneInfo

from mcp_types.version import is_version_at_least

from horologe.context import RequestContext
from horologe.core import tzdb
from horologe.core.errors import InvalidArgument
from horologe.core.format import format_instant
from horologe.core.messages import N_
from horologe.core.zones import resolve_zone
from horologe.tools.present import iso, transition_record

DATABASE_URI = "horologe://timezone_database"
FORMATS_URI = "horologe://time_formats"
ZONE_TEMPLATE = "timezone://{zone}{?from,to}"
ZONE_SCHEME = "timezone://"
MAX_YEARS = 50
LAST_YEAR = 9998
"""The last year a range may name: its transitions are read a day past its end, which year 9999 does not have."""

STATIC_RESOURCES: tuple[dict[str, Any], ...] = (
    {
        "uri": DATABASE_URI,
        "name": "timezone_database",
        "title": "Timezone database",
        "description": "All IANA timezone identifiers with their aliases, the tzdata version in use, and a DST "
        "summary per zone for the current year (standard and daylight offsets and abbreviations).",
        "mimeType": "application/json",
    },
    {
        "uri": FORMATS_URI,
        "name": "time_formats",
        "title": "Time formats",
        "description": "The timestamp formats horologe reads and writes (ISO 8601, RFC 3339, RFC 2822, HTTP date, "
        "Unix time, strftime directives, locale-specific formats), each with an example rendered now.",
        "mimeType": "text/markdown",
    },
)
TEMPLATES: tuple[dict[str, Any], ...] = (
    {
        "uriTemplate": ZONE_TEMPLATE,
        "name": "timezone",
        "title": "Timezone details",
        "description": "One zone, e.g. timezone://Europe/Vienna: offsets, DST state, countries and every transition "
        f"between the years 'from' and 'to' (default: this year and next; at most {MAX_YEARS} years).",
        "mimeType": "application/json",
    },
)


LINKS_ZONE = frozenset({"get_timezone_info"})
"""Tools whose result links the zone's resource, so a client can read its transitions without another call."""


def link_zone(result: dict[str, Any], tool: str, protocol_version: str) -> None:
    """Add a `resource_link` to `timezone://{zone}` to a tool result that names a zone (in place), in revisions
    that have links (2025-06-18 and later)."""
    zone = result.get("structuredContent", {}).get("timezone") if tool in LINKS_ZONE else None
    if isinstance(zone, str) and is_version_at_least(protocol_version, "2025-06-18"):
        link = {"type": "resource_link", "uri": ZONE_SCHEME + zone, "name": zone, "mimeType": "application/json"}
        result["content"].append(link)


def read_resource(uri: str, ctx: RequestContext) -> tuple[str, str] | None:
    """The (mimeType, text) of a resource, or None when no resource has this URI.

    Every resource is written in English (names, keys and prose alike), whatever language the request prefers, so
    the answer's `contentLanguage` says `en` (SEP-2792: the language actually used)."""
    readers: dict[str, Callable[[RequestContext], tuple[str, str]]] = {
        DATABASE_URI: timezone_database,
        FORMATS_URI: time_formats,
    }
    if uri in readers:
        found = readers[uri](ctx)
    elif uri.startswith(ZONE_SCHEME):
        found = zone_resource(uri, ctx)
    else:
        return None
    ctx.language.fall_back()
    return found


def timezone_database(ctx: RequestContext) -> tuple[str, str]:
    """Every identifier, its aliases, and this year's standard/daylight offsets."""
    year = ctx.now.year
    zones = []
    links = tzdb.all_links()
    for name in sorted(name for name in tzdb.zone_names() if name not in links):
        zone = tzdb.get_zone(name)
        january, july = _facts(zone, year, 1), _facts(zone, year, 7)
        observes_dst = january.utc_offset != july.utc_offset
        zones.append(
            {
                "name": name,
                "aliases": list(tzdb.aliases_of(name)),
                "standard_offset": tzdb.format_offset(january.standard_offset),
                "observes_dst": observes_dst,
                "offsets": sorted({tzdb.format_offset(january.utc_offset), tzdb.format_offset(july.utc_offset)}),
                "abbreviations": sorted({january.abbreviation, july.abbreviation}),
            }
        )
    body = {
        "tzdata_version": tzdb.tzdata_version(),
        "year": year,
        "zone_count": len(zones),
        "alias_count": len(links),
        "zones": zones,
        "links": dict(sorted(links.items())),
    }
    return "application/json", json.dumps(body, ensure_ascii=False)


def _facts(zone: ZoneInfo, year: int, month: int) -> tzdb.OffsetFacts:
    return tzdb.offset_facts(zone, datetime(year, month, 15, 12, tzinfo=UTC).astimezone(zone))


def zone_resource(uri: str, ctx: RequestContext) -> tuple[str, str]:
    """timezone://{zone}{?from,to}: a zone's facts and its transitions in a range of years."""
    parts = urlsplit(uri)
    name = unquote(parts.netloc + parts.path)
    zone = resolve_zone(name, source="database")
    query = parse_qs(parts.query)
    first = _year(query, "from", ctx.now.year)
    # "This year and next", within the calendar: from the last year there is no next (past it, datetime overflows).
    last = _year(query, "to", min(max(first, ctx.now.year) + 1, LAST_YEAR))
    if last < first or last - first >= MAX_YEARS:
        raise InvalidArgument(
            N_(
                "Year range {first}..{last} is not allowed: 'from' must not be after 'to' and the range is at most "
                "{years} years, e.g. timezone://{name}?from=2020&to=2030."
            ),
            first=first,
            last=last,
            years=MAX_YEARS,
            name=name,
        )
    facts = tzdb.offset_facts(zone.tz, ctx.now.astimezone(zone.tz))
    transitions: list[dict[str, Any]] = []
    if isinstance(zone.tz, ZoneInfo):
        # A day's margin each side, within the calendar (year 1 has no day before it).
        start = max(datetime(first, 1, 1, tzinfo=UTC) - timedelta(days=1 if first > 1 else 0), _FIRST_INSTANT)
        end = datetime(last, 12, 31, 23, 59, 59, tzinfo=UTC) + timedelta(days=1)
        transitions = [transition_record(t, zone.tz) for t in tzdb.transitions(zone.tz, start, end)]
    body = {
        "timezone": zone.key,
        "canonical": zone.canonical,
        "now": iso(ctx.now.astimezone(zone.tz)),
        "offset": tzdb.format_offset(facts.utc_offset),
        "abbreviation": facts.abbreviation,
        "dst_active": facts.dst_active,
        "years": [first, last],
        "transitions": transitions,
        "tzdata_version": tzdb.tzdata_version(),
    }
    return "application/json", json.dumps(body, ensure_ascii=False)


_FIRST_INSTANT = datetime(1, 1, 2, tzinfo=UTC)  # a day in, so that any zone's local time is still in year 1


def _year(query: dict[str, list[str]], key: str, default: int) -> int:
    values = query.get(key)
    if not values:
        return default
    try:
        year = int(values[0])
    except ValueError:
        raise InvalidArgument(
            N_("'{key}' must be a year such as 2026, not {value}."), key=key, value=repr(values[0][:20])
        ) from None
    if not 1 <= year <= LAST_YEAR:
        raise InvalidArgument(N_("'{key}' must be a year between 1 and 9998, not {year}."), key=key, year=year)
    return year


STRFTIME_DIRECTIVES: tuple[tuple[str, str], ...] = (
    ("%a", "weekday, abbreviated"),
    ("%A", "weekday, full"),
    ("%w", "weekday as a number, Sunday = 0"),
    ("%d", "day of the month, 01-31"),
    ("%b", "month, abbreviated"),
    ("%B", "month, full"),
    ("%m", "month, 01-12"),
    ("%y", "year without century"),
    ("%Y", "year with century"),
    ("%H", "hour, 00-23"),
    ("%I", "hour, 01-12"),
    ("%p", "AM or PM"),
    ("%M", "minute"),
    ("%S", "second"),
    ("%f", "microsecond, 6 digits"),
    ("%z", "UTC offset, +HHMM"),
    ("%Z", "zone abbreviation"),
    ("%j", "day of the year"),
    ("%U", "week of the year, weeks start on Sunday"),
    ("%W", "week of the year, weeks start on Monday"),
    ("%c", "date and time"),
    ("%x", "date"),
    ("%X", "time"),
    ("%G", "ISO 8601 week-based year"),
    ("%u", "ISO 8601 weekday, Monday = 1"),
    ("%V", "ISO 8601 week number"),
    ("%%", "a literal %"),
)
LOCALES = ("en_US", "en_GB", "de_AT", "fr_FR", "es_ES", "ja_JP", "zh_Hans_CN")


def time_formats(ctx: RequestContext) -> tuple[str, str]:
    """The formats we read and write, with examples rendered from the request's now."""
    zone = ctx.user_zone()
    now = ctx.now.astimezone(zone.tz)
    rows = [
        ("iso8601", "ISO 8601", format_instant(now, "iso8601")),
        ("rfc3339", "RFC 3339", format_instant(now, "rfc3339")),
        ("rfc2822", "RFC 2822 (e-mail)", format_instant(now, "rfc2822")),
        ("http", "HTTP date (IMF-fixdate, always GMT)", format_instant(now, "http")),
        ("unix", "Unix time, seconds", format_instant(now, "unix")),
        ("unix_ms", "Unix time, milliseconds", format_instant(now, "unix_ms")),
        ("human", "Readable English", format_instant(now, "human")),
    ]
    lines = [
        "# Time formats",
        "",
        f"Examples rendered at {now.isoformat()} in {zone.key}.",
        "",
        "## Output formats (`format` argument)",
        "",
        "| format | meaning | example |",
        "|---|---|---|",
        *[f"| `{key}` | {meaning} | `{example}` |" for key, meaning, example in rows],
        "",
        "## Accepted input",
        "",
        "- ISO 8601 / RFC 3339: `2025-08-17T10:30:00Z`, `2025-08-17T10:30:00+02:00`, `2025-08-17 10:30` "
        "(no offset: read in the source timezone), `2025-08-17`, week dates `2025-W33-7`, fractions `10:30:00.250`.",
        "- Unix time: `1723890600` (seconds), `1723890600000` (milliseconds), `1723890600000000` (microseconds): "
        "told apart by magnitude.",
        "- RFC 2822: `Sun, 17 Aug 2025 10:30:00 +0000`; HTTP date: `Sun, 17 Aug 2025 10:30:00 GMT`.",
        "",
        "## strftime directives (`format: custom`)",
        "",
        "| directive | meaning | example |",
        "|---|---|---|",
        *[
            f"| `{d}` | {meaning} | `{format_instant(now, 'custom', custom_format=d)}` |"
            for d, meaning in STRFTIME_DIRECTIVES
        ],
        "",
        "## Locale-specific formats (CLDR)",
        "",
        "| locale | full | medium | short |",
        "|---|---|---|---|",
        *_locale_rows(now),
    ]
    return "text/markdown", "\n".join(lines) + "\n"


def _locale_rows(now: datetime) -> list[str]:
    from babel.dates import format_datetime  # heavy: imported only when this resource is read

    return [
        f"| `{locale}` | {format_datetime(now, 'full', tzinfo=now.tzinfo, locale=locale)} "
        f"| {format_datetime(now, 'medium', tzinfo=now.tzinfo, locale=locale)} "
        f"| {format_datetime(now, 'short', tzinfo=now.tzinfo, locale=locale)} |"
        for locale in LOCALES
    ]
