"""Arguments and results of the memory tools: the user's preferences and timers."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from horologe.core.format import OutputFormat
from horologe.tools.schemas import Arguments, ReadsZones, Result, Weekday, WorkingHours

PreferenceField = Literal["timezone", "locale", "format", "week_start"]
AnyPreferenceField = Literal["timezone", "locale", "format", "week_start", "working_hours"]


class PreferencesArgs(Arguments):
    action: Literal["get", "set", "clear"] = "get"
    timezone: str | None = Field(default=None, max_length=256)
    locale: str | None = Field(default=None, max_length=64, description="e.g. 'de-AT'.")
    week_start: Weekday | None = None
    format: OutputFormat | None = Field(default=None, description="Of get_current_time.")
    fields: tuple[PreferenceField, ...] | None = Field(
        default=None, max_length=4, description="For clear: which (default: all)."
    )


class PreferencesWithHoursArgs(PreferencesArgs):
    """Where `find_meeting_time` is offered, the preferences take the user's working hours too."""

    working_hours: WorkingHours | None = Field(default=None, description="Yours, for find_meeting_time.")
    fields: tuple[AnyPreferenceField, ...] | None = Field(  # type: ignore[assignment]
        default=None, max_length=5, description="For clear: which (default: all)."
    )


class PreferencesResult(ReadsZones):
    preferences: dict[str, Any]
    stored: bool
    kept: str
    note: str | None = None


class TimerArgs(Arguments):
    action: Literal["start", "check", "stop", "list"]
    label: str | None = Field(default=None, min_length=1, max_length=64, description="e.g. 'tea'.")
    duration_seconds: int | None = Field(default=None, ge=1, le=31_536_000, description="For a countdown.")


class TimerReading(Result):
    label: str
    kind: Literal["stopwatch", "countdown"]
    started: str
    elapsed_seconds: float
    duration_seconds: int | None = None
    remaining_seconds: float | None = None
    finished: bool | None = None
    ends: str | None = None
    stopped: bool | None = None


class TimerResult(Result):
    timer: TimerReading | None = None
    timers: list[TimerReading] | None = None
    stored: bool
    kept: str
    note: str | None = None
