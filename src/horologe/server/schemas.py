"""Tool arguments and results as pydantic models: one source for validation and the JSON Schemas we publish."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, StrictStr

from horologe.core.format import OutputFormat
from horologe.core.localtime import Disambiguation

Timestamp = StrictStr | StrictInt | StrictFloat  # strict: true/false are not Unix times

TIMEZONE_HELP = (
    "An IANA name such as 'Europe/Vienna' or 'America/New_York' (case-insensitive), a city such as 'Tokyo', "
    "'UTC', or a fixed offset such as '+05:30' or 'UTC-3'."
)
TIMESTAMP_HELP = (
    "ISO 8601 / RFC 3339 such as '2025-08-17T10:30:00Z' or '2025-08-17 10:30' (no offset: read in the source "
    "timezone), Unix seconds such as 1723890600 (milliseconds and microseconds are recognised by magnitude), "
    "RFC 2822 ('Sun, 17 Aug 2025 10:30:00 +0000') or an HTTP date."
)
DISAMBIGUATION_HELP = (
    "What to do when a local time without offset falls in a DST change: 'compatible' (default; a skipped time "
    "moves forward by the gap, a repeated time takes its first occurrence), 'earlier', 'later', or 'reject' "
    "(return an error instead of guessing)."
)
CUSTOM_FORMAT_HELP = (
    "strftime pattern used when format is 'custom', e.g. '%Y-%m-%d %H:%M %Z'. Allowed directives: "
    "%a %A %w %d %b %B %m %y %Y %H %I %p %M %S %f %z %Z %j %U %W %c %x %X %G %u %V %%."
)


class Arguments(BaseModel):
    """Base of every tool's arguments: unknown names are refused so typos are caught."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class GetCurrentTimeArgs(Arguments):
    timezone: str | None = Field(
        default=None,
        max_length=256,
        description=f"Timezone to report the time in. Defaults to the server's default zone. {TIMEZONE_HELP}",
    )
    format: Literal["iso", "unix", "human", "custom"] | None = Field(
        default=None,
        description="How to fill 'formatted': 'iso' (ISO 8601), 'unix' (seconds), 'human' "
        "('Sunday, November 22, 2026 at 4:11 AM CET') or 'custom' (needs custom_format). Defaults to the user's "
        "stored format preference, else 'iso'.",
    )
    custom_format: str | None = Field(default=None, max_length=200, description=CUSTOM_FORMAT_HELP)


class ConvertTimezoneArgs(Arguments):
    timestamp: Timestamp = Field(description=f"The time to convert, any date. {TIMESTAMP_HELP}")
    to_timezone: str = Field(max_length=256, description=f"Timezone to convert to. {TIMEZONE_HELP}")
    from_timezone: str | None = Field(
        default=None,
        max_length=256,
        description="Timezone the timestamp is written in, used when it carries no offset of its own. "
        f"Defaults to the server's default zone. {TIMEZONE_HELP}",
    )
    format: OutputFormat = Field(default="iso8601", description="Format of 'converted.formatted'.")
    custom_format: str | None = Field(default=None, max_length=200, description=CUSTOM_FORMAT_HELP)
    disambiguation: Disambiguation = Field(default="compatible", description=DISAMBIGUATION_HELP)


class CalculateDurationArgs(Arguments):
    start_time: Timestamp = Field(description=f"Start of the interval. {TIMESTAMP_HELP}")
    end_time: Timestamp = Field(description=f"End of the interval; may be before the start. {TIMESTAMP_HELP}")
    units: Literal["seconds", "minutes", "hours", "days"] = Field(
        default="seconds", description="Unit of 'duration.value'. All four totals are returned anyway."
    )
    timezone: str | None = Field(
        default=None,
        max_length=256,
        description="Timezone for timestamps without offset and for the calendar breakdown (months and days "
        f"follow this zone's calendar). Defaults to the server's default zone. {TIMEZONE_HELP}",
    )
    disambiguation: Disambiguation = Field(default="compatible", description=DISAMBIGUATION_HELP)


class FormatTimeArgs(Arguments):
    timestamp: Timestamp = Field(description=f"The time to format. {TIMESTAMP_HELP}")
    format: OutputFormat = Field(
        description="Output format: 'iso8601', 'rfc3339', 'rfc2822', 'http' (always GMT), 'unix' (seconds), "
        "'unix_ms', 'human' or 'custom' (needs custom_format)."
    )
    custom_format: str | None = Field(default=None, max_length=200, description=CUSTOM_FORMAT_HELP)
    timezone: str | None = Field(
        default=None,
        max_length=256,
        description="Timezone to express the time in (and to read a timestamp without offset). Defaults to the "
        f"server's default zone. {TIMEZONE_HELP}",
    )
    disambiguation: Disambiguation = Field(default="compatible", description=DISAMBIGUATION_HELP)


class GetTimezoneInfoArgs(Arguments):
    timezone: str = Field(max_length=256, description=f"The timezone to describe. {TIMEZONE_HELP}")
    at: Timestamp | None = Field(
        default=None,
        description="Instant at which to report the offset, DST state and surrounding transitions. "
        f"Defaults to now. {TIMESTAMP_HELP}",
    )


class ListTimezonesArgs(Arguments):
    region: str | None = Field(
        default=None,
        max_length=64,
        description="First part of the IANA name, e.g. 'America', 'Europe', 'Asia', 'Pacific' (case-insensitive).",
    )
    country: str | None = Field(
        default=None,
        max_length=64,
        description="ISO 3166 country code ('AT', 'US') or English country name ('Austria').",
    )
    query: str | None = Field(
        default=None,
        max_length=64,
        description="Case-insensitive text to look for in zone names, cities and descriptions, e.g. 'york'.",
    )
    include_aliases: bool = Field(
        default=False, description="Also list legacy alias names such as 'US/Eastern' (default: canonical only)."
    )
    limit: int = Field(default=100, ge=1, le=1000, description="Maximum number of zones to return (1-1000).")
    offset: int = Field(default=0, ge=0, le=100_000, description="Number of matching zones to skip (paging).")


# --- results -------------------------------------------------------------------------------------------------


class Result(BaseModel):
    """Base of every tool's result schema (results are built as dicts; these models only publish schemas)."""

    model_config = ConfigDict(extra="allow", defer_build=True)


class ZoneMoment(Result):
    timestamp: str = Field(description="ISO 8601 with the zone's offset.")
    timezone: str = Field(description="The zone's name (IANA key or fixed offset).")
    utc_offset: str = Field(description="Offset from UTC, e.g. '+01:00'.")
    abbreviation: str = Field(description="Zone abbreviation in effect, e.g. 'CET'.")
    dst_active: bool


class DstReport(Result):
    dst_gap: bool = Field(description="The local time given does not exist (skipped by a DST change).")
    ambiguous: bool = Field(description="The local time given exists twice (repeated by a DST change).")
    candidates: list[str] | None = Field(default=None, description="Both possible instants when dst_gap/ambiguous.")
    disambiguation: str | None = Field(default=None, description="The policy applied to choose among candidates.")


class GetCurrentTimeResult(Result):
    timestamp: str = Field(description="Current time, ISO 8601 with offset.")
    unix: int = Field(description="Unix time in seconds.")
    unix_ms: int = Field(description="Unix time in milliseconds.")
    timezone: str
    formatted: str | int = Field(description="The time in the requested format.")
    format: str
    utc_offset: str
    utc_offset_seconds: int
    abbreviation: str
    dst_active: bool
    day_of_week: str = Field(description="English day name, e.g. 'Sunday'.")
    iso_week: str = Field(description="ISO week date, e.g. '2026-W47-7'.")
    date: str
    time: str


class OriginalMoment(ZoneMoment):
    input: str
    dst: DstReport


class ConvertedMoment(ZoneMoment):
    formatted: str | int


class ConvertTimezoneResult(Result):
    original: OriginalMoment
    converted: ConvertedMoment
    utc: str = Field(description="The same instant in UTC.")
    time_difference: str = Field(description="Offset of the target zone minus the source zone, e.g. '+6h'.")


class Breakdown(Result):
    years: int
    months: int
    days: int
    hours: int
    minutes: int
    seconds: float


class DurationBody(Result):
    total_seconds: float
    seconds: float
    minutes: float
    hours: float
    days: float
    unit: str
    value: float
    negative: bool = Field(description="True when end_time is before start_time.")
    breakdown: Breakdown
    human_readable: str


class CalculateDurationResult(Result):
    start: str
    end: str
    timezone: str
    duration: DurationBody
    start_dst: DstReport
    end_dst: DstReport


class FormatTimeResult(Result):
    formatted: str | int
    format: str
    timestamp: str
    timezone: str
    dst: DstReport


class Transition(Result):
    at: str = Field(description="Instant of the change, UTC.")
    local_before: str
    local_after: str
    offset_before: str
    offset_after: str
    abbreviation_before: str
    abbreviation_after: str
    dst_before: bool
    dst_after: bool


class GetTimezoneInfoResult(Result):
    timezone: str
    canonical: str | None
    aliases: list[str]
    at: str
    local_time: str
    offset: str
    utc_offset_seconds: int
    standard_offset: str
    dst_offset: str
    dst_active: bool
    abbreviation: str
    previous_transition: Transition | None
    next_transition: Transition | None
    country_codes: list[str]
    countries: list[str]
    comment: str | None
    coordinates: str | None
    tzdata_version: str


class ZoneListing(Result):
    name: str
    utc_offset: str
    abbreviation: str
    dst_active: bool
    country_codes: list[str]


class ListTimezonesResult(Result):
    total: int = Field(description="Number of zones matching the filters.")
    count: int = Field(description="Number of zones in this page.")
    offset: int
    truncated: bool = Field(description="More zones match: raise limit, use offset, or narrow the filters.")
    timezones: list[ZoneListing]
    tzdata_version: str


def clean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A pydantic JSON Schema made plain for clients: no titles, optional fields not nullable, no $defs."""
    defs = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return walk(defs[node["$ref"].rsplit("/", 1)[-1]])
            any_of = node.get("anyOf")
            if (
                isinstance(any_of, list)
                and {"type": "null"} in any_of
                and "default" in node
                and node["default"] is None
            ):
                rest = [walk(option) for option in any_of if option != {"type": "null"}]
                merged = {k: walk(v) for k, v in node.items() if k not in ("anyOf", "default", "title")}
                return {**(rest[0] if len(rest) == 1 else {"anyOf": rest}), **merged}
            return {k: walk(v) for k, v in node.items() if k not in ("title", "$defs")}
        if isinstance(node, list):
            return [walk(item) for item in node]
        return node

    cleaned: dict[str, Any] = walk(schema)
    return cleaned
