"""Arguments and results of the memory tools: the user's preferences and timers."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from horologe.core.format import OutputFormat
from horologe.tools.schemas import Arguments, ReadsZones, Result, Weekday, WorkingHours

PreferenceField = Literal["timezone", "locale", "format", "week_start", "working_hours"]
KEPT_HELP = "Where it is kept: client, computer, process, client_unverified, nowhere or unavailable."


class PreferencesArgs(Arguments):
    action: Literal["get", "set", "clear"] = "get"
    timezone: str | None = Field(default=None, max_length=256)
    locale: str | None = Field(default=None, max_length=64, description="e.g. 'de-AT'.")
    format: OutputFormat | None = None
    week_start: Weekday | None = None
    working_hours: WorkingHours | None = None
    fields: tuple[PreferenceField, ...] | None = Field(
        default=None, max_length=5, description="For clear: which (default: all)."
    )


class PreferencesResult(ReadsZones):
    preferences: dict[str, Any] = Field(description="The preferences in effect after this call.")
    stored: bool = Field(description="Whether they will be there on the next call.")
    kept: str = Field(description=KEPT_HELP)
    note: str | None = None


class TimerArgs(Arguments):
    action: Literal["start", "check", "stop", "list"] = Field(description="What to do.")
    label: str | None = Field(
        default=None, min_length=1, max_length=64, description="The timer's name, e.g. 'tea' (all but list)."
    )
    duration_seconds: int | None = Field(
        default=None, ge=1, le=31_536_000, description="start: count down from this; omit for a stopwatch."
    )


class TimerReading(Result):
    label: str
    kind: Literal["stopwatch", "countdown"]
    started: str = Field(description="UTC, ISO 8601.")
    elapsed_seconds: float
    duration_seconds: int | None = None
    remaining_seconds: float | None = None
    finished: bool | None = None
    ends: str | None = Field(default=None, description="When a countdown ends, UTC.")
    stopped: bool | None = None


class TimerResult(Result):
    timer: TimerReading | None = Field(default=None, description="The timer (start, check, stop).")
    timers: list[TimerReading] | None = Field(default=None, description="Every running timer (list).")
    stored: bool = Field(description="Whether the timer will be there on the next call.")
    kept: str = Field(description=KEPT_HELP)
    note: str | None = None
