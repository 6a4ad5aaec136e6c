"""Arguments and result of resolve_time_expression."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictInt

from horologe.core.relative import DEFAULT_COUNT, MAX_COUNT
from horologe.tools.schemas import Arguments, DstReport, ReadsZones, Result, Timestamp


class ResolveTimeExpressionArgs(Arguments):
    expression: str = Field(min_length=1, max_length=200)  # its languages are the instructions' (said once)
    timezone: str | None = Field(default=None, max_length=256)
    locale: str | None = Field(default=None, max_length=64, description="e.g. 'de-AT'.")
    reference_time: Timestamp | None = Field(default=None, description="Default: now.")
    count: StrictInt = Field(default=DEFAULT_COUNT, ge=1, le=MAX_COUNT)


class Span(Result):
    interpretation: str | None = None
    instant: str | None = None
    start: str | None = None
    end: str | None = None
    day_of_week: str


class Occurrence(Result):
    timestamp: str | None = None
    date: str | None = None
    day_of_week: str


class ResolveTimeExpressionResult(ReadsZones):
    kind: Literal["instant", "period", "recurrence"]
    interpretation: str
    instant: str | None = None
    start: str | None = None
    end: str | None = None
    day_of_week: str | None = None
    occurrences: list[Occurrence] | None = None
    rule: str | None = None
    timezone: str
    week_start: str | None = None
    dst: DstReport | None = None
    alternative: Span | None = None
