"""Arguments and results of the seed's six tools."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field

from horologe.core.format import OutputFormat
from horologe.core.localtime import Disambiguation
from horologe.tools.schemas import (
    CUSTOM_FORMAT,
    DISAMBIGUATION,
    ZONE,
    Arguments,
    DstReport,
    ReadsZones,
    Result,
    Timestamp,
    Transition,
    ZoneMoment,
    format_name,
)

Format = Annotated[OutputFormat, BeforeValidator(format_name)]


class GetCurrentTimeArgs(Arguments):
    timezone: str | None = Field(default=None, max_length=256, description=ZONE)
    format: Format | None = Field(default=None, description="Default: the user's preference, else iso8601.")
    custom_format: str | None = Field(default=None, max_length=200, description=CUSTOM_FORMAT)


class ConvertTimezoneArgs(Arguments):
    timestamp: Timestamp = Field(description="Any date; without an offset read in from_timezone.")
    to_timezone: str = Field(max_length=256)
    from_timezone: str | None = Field(default=None, max_length=256, description=ZONE)
    format: Format = Field(default="iso8601", description="Of converted.formatted.")
    custom_format: str | None = Field(default=None, max_length=200, description=CUSTOM_FORMAT)
    disambiguation: Disambiguation = Field(default="compatible", description=DISAMBIGUATION)


class CalculateDurationArgs(Arguments):
    start_time: Timestamp
    end_time: Timestamp = Field(description="May be before start_time (negative duration).")
    units: Literal["seconds", "minutes", "hours", "days"] = Field(
        default="seconds", description="Unit of 'duration.value'; every total is returned."
    )
    timezone: str | None = Field(default=None, max_length=256, description="Of the calendar breakdown. " + ZONE)
    disambiguation: Disambiguation = Field(default="compatible", description=DISAMBIGUATION)


class FormatTimeArgs(Arguments):
    timestamp: Timestamp
    format: Format
    custom_format: str | None = Field(default=None, max_length=200, description=CUSTOM_FORMAT)
    timezone: str | None = Field(default=None, max_length=256, description=ZONE)
    disambiguation: Disambiguation = Field(default="compatible", description=DISAMBIGUATION)


class GetTimezoneInfoArgs(Arguments):
    timezone: str = Field(max_length=256)
    timestamp: Timestamp | None = Field(default=None, description="The instant to describe; default: now.")


class ListTimezonesArgs(Arguments):
    region: str | None = Field(default=None, max_length=64, description="e.g. 'Europe'.")
    country: str | None = Field(default=None, max_length=64, description="e.g. 'AT' or 'Austria'.")
    query: str | None = Field(default=None, max_length=64, description="e.g. 'york'.")
    include_aliases: bool = Field(default=False, description="Add legacy names like 'US/Eastern'.")
    limit: int = Field(default=100, ge=1, le=1000)
    offset: int = Field(default=0, ge=0, le=100_000)


# --- results -------------------------------------------------------------------------------------------------


class GetCurrentTimeResult(ReadsZones):
    timestamp: str = Field(description="Current time, ISO 8601 with offset.")
    unix: int = Field(description="Unix time in seconds.")
    timezone: str
    formatted: str | int = Field(description="The time in the requested format.")
    utc_offset: str
    abbreviation: str
    dst_active: bool
    day_of_week: str = Field(description="English day name, e.g. 'Sunday'.")
    iso_week: str = Field(description="ISO week date, e.g. '2026-W47-7'.")


class OriginalMoment(ZoneMoment):
    input: str
    dst: DstReport


class ConvertedMoment(ZoneMoment):
    formatted: str | int


class ConvertTimezoneResult(ReadsZones):
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


class CalculateDurationResult(ReadsZones):
    start: str
    end: str
    timezone: str
    duration: DurationBody
    start_dst: DstReport
    end_dst: DstReport


class FormatTimeResult(ReadsZones):
    formatted: str | int
    format: str
    timestamp: str
    timezone: str
    dst: DstReport


class GetTimezoneInfoResult(ReadsZones):
    timezone: str
    canonical: str | None
    aliases: list[str]
    at: str
    local_time: str
    offset: str
    standard_offset: str
    dst_offset: str
    dst_active: bool
    abbreviation: str
    previous_transition: Transition | None
    next_transition: Transition | None
    country_codes: list[str]
    countries: list[str]
    comment: str | None
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
