"""Arguments and result of resolve_time_expression."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from horologe.tools.schemas import (
    ZONE,
    Arguments,
    DstReport,
    ReadsZones,
    Result,
    Timestamp,
    Weekday,
    ZoneMoment,
)


class ResolveTimeExpressionArgs(Arguments):
    expression: str = Field(
        min_length=1,
        max_length=200,
        description="English, German, French, Spanish or Japanese, e.g. 'yesterday', 'in 2 hours', 'this quarter'.",
    )
    timezone: str | None = Field(default=None, max_length=256, description=ZONE)
    locale: str | None = Field(default=None, max_length=64, description="e.g. 'de-AT'.")
    reference_time: Timestamp | None = Field(default=None, description="Count from; default: now.")
    week_start: Weekday | None = Field(default=None, description="Default: the locale's.")


class Bound(Result):
    local: str = Field(description="ISO 8601 in the zone, with its offset.")
    utc: str = Field(description="The same instant in UTC.")


class Alternative(Result):
    interpretation: str = Field(description="How this reading understands the expression, in English.")
    start: Bound
    end: Bound | None = None


class ResolveTimeExpressionResult(ReadsZones):
    expression: str
    kind: Literal["instant", "period"] = Field(
        description="'instant' for a point in time; 'period' for a half-open interval [start, end)."
    )
    granularity: str = Field(description="second, minute, hour, day, weekend, week, month, quarter or year.")
    language: str = Field(description="Language whose grammar understood the expression (en, de, fr, es, ja).")
    interpretation: str = Field(description="How the expression was read, in English.")
    timezone: str
    instant: Bound | None = Field(default=None, description="The instant (kind 'instant').")
    start: Bound = Field(description="The instant, or the inclusive start of the period.")
    end: Bound | None = Field(default=None, description="Exclusive end of the period (kind 'period').")
    dst: DstReport | None = Field(
        default=None, description="For an instant whose wall time falls into a DST gap or fold: what was chosen."
    )
    duration_seconds: float | None = Field(default=None, description="end - start, exact elapsed seconds.")
    alternative: Alternative | None = Field(
        default=None, description="The other common reading ('next Tuesday' said on a Monday), when there is one."
    )
    contains_reference: bool = Field(description="Whether the period contains the reference instant.")
    reference: ZoneMoment = Field(description="The instant the expression was resolved from.")
    reference_source: Literal["argument", "client_context", "server_clock"]
    week_start: Weekday
    week_start_source: Literal["argument", "preference", "locale", "default"]
