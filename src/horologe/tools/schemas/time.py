"""Arguments and results of the seed's six tools."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field

from horologe.core.format import OutputFormat
from horologe.core.localtime import Disambiguation
from horologe.tools.schemas import (
    UNSAID_DEFAULT,
    Arguments,
    DstReport,
    ReadAs,
    ReadsZones,
    Result,
    Timestamp,
    Transition,
    When,
    format_name,
)

Format = Annotated[OutputFormat, BeforeValidator(format_name)]


class GetCurrentTimeArgs(Arguments):
    timezone: str | None = Field(default=None, max_length=256)
    format: Format | None = None
    custom_format: str | None = Field(default=None, max_length=200)


ZoneName = Annotated[str, Field(max_length=256)]
MAX_TARGETS = 24
"""Zones one conversion answers for: a team's or a world clock's, not the database's."""


class ConvertTimezoneArgs(Arguments):
    timestamp: Timestamp  # a time with its zone ('3pm New York time') is the instructions' example (said once)
    to_timezone: ZoneName | Annotated[list[ZoneName], Field(max_length=MAX_TARGETS)]
    from_timezone: str | None = Field(default=None, max_length=256)
    format: Format = Field(default="iso8601", json_schema_extra=UNSAID_DEFAULT)
    custom_format: str | None = Field(default=None, max_length=200)
    disambiguation: Disambiguation = Field(default="compatible", json_schema_extra=UNSAID_DEFAULT)


class CalculateDurationArgs(Arguments):
    start_time: Timestamp
    end_time: Timestamp
    units: Literal["seconds", "minutes", "hours", "days"] | None = None
    timezone: str | None = Field(default=None, max_length=256)


class FormatTimeArgs(Arguments):
    timestamp: Timestamp
    format: Format
    custom_format: str | None = Field(default=None, max_length=200)
    timezone: str | None = Field(default=None, max_length=256)


class GetTimezoneInfoArgs(Arguments):
    timezone: str = Field(max_length=256)
    timestamp: Timestamp | None = None


class ListTimezonesArgs(Arguments):
    region: str | None = Field(default=None, max_length=64)
    country: str | None = Field(default=None, max_length=64)
    query: str | None = Field(default=None, max_length=64)
    include_aliases: bool = False
    limit: int = Field(default=100, ge=1, le=1000)
    offset: int = Field(default=0, ge=0, le=100_000)


# --- results: what is absent had nothing to say ------------------------------------------------------------------


class GetCurrentTimeResult(ReadsZones):
    timestamp: str
    timezone: str
    abbreviation: str | None = None
    day_of_week: str
    dst_active: bool | None = None
    formatted: str | int | None = None


class OriginalMoment(When):
    read_as: ReadAs | None = None
    dst: DstReport | None = None


class ConvertedMoment(When):
    formatted: str | int | None = None
    time_difference: str | None = None


class ConvertTimezoneResult(ReadsZones):
    original: OriginalMoment
    converted: ConvertedMoment | list[ConvertedMoment]
    time_difference: str | None = None


class DurationParts(Result):
    years: int | None = None
    months: int | None = None
    days: int | None = None
    hours: int | None = None
    minutes: int | None = None
    seconds: float | None = None


class DurationBody(Result):
    total_seconds: float
    minutes: float
    hours: float
    elapsed_days: float
    calendar_days: int
    parts: DurationParts
    human_readable: str
    negative: bool | None = None


class CalculateDurationResult(ReadsZones):
    start: str
    end: str
    duration: DurationBody
    start_read_as: ReadAs | None = None
    end_read_as: ReadAs | None = None
    start_dst: DstReport | None = None
    end_dst: DstReport | None = None


class FormatTimeResult(ReadsZones):
    formatted: str | int
    timestamp: str
    timezone: str
    read_as: ReadAs | None = None
    dst: DstReport | None = None


class GetTimezoneInfoResult(ReadsZones):
    timezone: str
    canonical: str | None = None
    local_time: str
    day_of_week: str
    abbreviation: str | None = None
    dst_active: bool
    standard_offset: str | None = None
    dst_offset: str | None = None
    previous_transition: Transition | None = None
    next_transition: Transition | None = None
    country_codes: list[str] | None = None
    comment: str | None = None
    read_as: ReadAs | None = None


class ZoneListing(Result):
    name: str
    utc_offset: str
    abbreviation: str | None = None
    dst_active: bool | None = None
    country_codes: list[str] | None = None


class ListTimezonesResult(Result):
    total: int
    offset: int | None = None
    truncated: bool | None = None
    timezones: list[ZoneListing]
