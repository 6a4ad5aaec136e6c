"""Arguments and results of the calendar tools (add_time, business_days, ..., find_meeting_time)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    BeforeValidator,
    Field,
    PlainValidator,
    StrictBool,
    StrictInt,
    StrictStr,
    StringConstraints,
    WithJsonSchema,
)

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
    Weekday,
    WorkingHours,
    weekday_name,
    words_or_number,
)

COUNTRY = "Default: the user's."
SUBDIVISION = "E.g. 'CA', 'Bavaria'."
HOLIDAY_LANGUAGE = "Of the names, e.g. 'de'."
Day = Annotated[Weekday, BeforeValidator(weekday_name)]
Minutes = Annotated[
    str | int,
    PlainValidator(words_or_number(40, integers=True)),
    WithJsonSchema({"anyOf": [{"type": "string", "maxLength": 40}, {"type": "integer"}]}),
]


class AddTimeArgs(Arguments):
    timestamp: Timestamp
    amount: StrictStr = Field(max_length=100, description="e.g. '90 days', '-2 hours', 'P1M'.")
    timezone: str | None = Field(default=None, max_length=256)
    disambiguation: Disambiguation = Field(default="compatible", json_schema_extra=UNSAID_DEFAULT)


class BusinessDaysArgs(Arguments):
    country: StrictStr | None = Field(default=None, max_length=64, description=COUNTRY)
    start_date: StrictStr | None = Field(default=None, max_length=60, description="Default: today.")
    end_date: StrictStr | None = Field(default=None, max_length=60)
    count: StrictInt | None = Field(default=None, ge=-100_000, le=100_000)
    include_end: bool = False
    subdivision: StrictStr | None = Field(default=None, max_length=64, description=SUBDIVISION)
    weekend: list[Day] | None = Field(default=None, max_length=6)
    extra_holidays: list[Annotated[StrictStr, StringConstraints(max_length=60)]] | None = Field(
        default=None, max_length=366
    )


class ListHolidaysArgs(Arguments):
    country: StrictStr | None = Field(default=None, max_length=64, description=COUNTRY)
    year: StrictInt | None = Field(default=None, ge=1, le=9999)
    subdivision: StrictStr | None = Field(default=None, max_length=64, description=SUBDIVISION)
    language: StrictStr | None = Field(default=None, max_length=16, description=HOLIDAY_LANGUAGE)


class DateInfoArgs(Arguments):
    date: Timestamp | None = Field(default=None, description="Default: today.")
    timezone: str | None = Field(default=None, max_length=256)
    locale: StrictStr | None = Field(default=None, max_length=32, description="Week numbering, e.g. 'en-US'.")


class NextOccurrencesArgs(Arguments):
    rule: StrictStr = Field(
        max_length=1000,
        description="An RFC 5545 RRULE ('FREQ=WEEKLY;BYDAY=MO;BYHOUR=9', optional DTSTART/RDATE/EXDATE lines) or a "
        "cron expression ('0 9 * * MON-FRI').",
    )
    start_time: Timestamp | None = Field(default=None, description="Default: now.")
    end_time: Timestamp | None = None
    timezone: str | None = Field(
        default=None,
        max_length=256,
        description="Where occurrences are shown, and the event's zone unless DTSTART has a TZID or 'Z'; default: "
        "DTSTART's TZID, else the user's.",
    )
    count: StrictInt = Field(default=10, ge=1, le=1000)
    disambiguation: Disambiguation = Field(default="compatible", json_schema_extra=UNSAID_DEFAULT)


class TimezoneHistoryArgs(Arguments):
    timezone: str = Field(max_length=256)
    start_time: Timestamp | None = Field(default=None, description="Default: 1850.")
    end_time: Timestamp | None = Field(default=None, description="Default: 5 years from now; at most 200 years.")
    limit: StrictInt = Field(default=500, ge=1, le=1000)


class MeetingParticipant(Arguments):
    timezone: str = Field(max_length=256)
    name: StrictStr | None = Field(default=None, max_length=100)
    working_hours: WorkingHours | None = Field(
        default=None, description="Default: the caller's stored hours, else 09:00-17:00 Monday-Friday."
    )
    caller: StrictBool = Field(default=False, description="The person asking (default: the one in the user's zone).")


class FindMeetingTimeArgs(Arguments):
    participants: list[MeetingParticipant] = Field(min_length=1, max_length=50)
    duration: Minutes = Field(description="Minutes, or e.g. 'PT1H30M'.")
    start_date: StrictStr = Field(max_length=40, description="First day to search.")
    end_date: StrictStr | None = Field(
        default=None, max_length=40, description="Last day (included); default: start_date + 6; at most 31 days."
    )
    timezone: str | None = Field(
        default=None, max_length=256, description="Zone of the dates; default: the first participant's."
    )
    step_minutes: StrictInt = Field(default=30, ge=5, le=1440)
    limit: StrictInt = Field(default=5, ge=1, le=50)


# --- results -------------------------------------------------------------------------------------------------


class AddTimeResult(ReadsZones):
    start: str
    amount: str
    result: str
    day_of_week: str
    timezone: str
    clamped: dict[str, str] | None = None
    dst: DstReport | None = None
    elapsed_seconds: float | None = None
    start_dst: DstReport | None = None
    read_as: ReadAs | None = None
    explanation: str | None = None


class HolidayEntry(Result):
    date: str
    names: list[str]
    day_of_week: str
    on_weekend: bool | None = None
    estimated: bool | None = None


class BusinessDaysResult(Result):
    mode: Literal["count", "add"]
    country: str
    subdivision: str | None = None
    start: str
    end: str | None = None
    business_days: int | None = None
    calendar_days: int | None = None
    count: int | None = None
    result: str | None = None
    result_day_of_week: str | None = None
    weekend: list[str]
    holidays: list[HolidayEntry]
    holidays_truncated: bool | None = None
    summary: str


class ListHolidaysResult(Result):
    country: str
    subdivision: str | None = None
    year: int
    language: str | None = None
    count: int
    holidays: list[HolidayEntry]


class LocaleWeek(Result):
    locale: str
    week: int
    week_year: int
    first_day_of_week: str


class DateInfoResult(ReadsZones):
    date: str
    day_of_week: str
    iso_week_date: str
    iso_week_monday: str
    day_of_year: int
    quarter: int
    days_in_month: int
    leap_year: bool
    locale_week: LocaleWeek | None = None
    calendars: dict[str, str]
    read_as: ReadAs | None = None


class OccurrenceEntry(Result):
    timestamp: str
    day_of_week: str
    wall_time: str | None = None
    dst: DstReport | None = None


class NextOccurrencesResult(ReadsZones):
    kind: Literal["rrule", "cron"]
    timezone: str
    rule_timezone: str | None = None
    count: int
    occurrences: list[OccurrenceEntry]
    exhausted: bool | None = None


class HistoryTransition(Transition):
    kind: Literal["dst_start", "dst_end", "offset_change", "abbreviation_change"]
    change: str
    local_effect: str


class TimezoneHistoryResult(ReadsZones):
    timezone: str
    start: str
    end: str
    count: int
    truncated: bool | None = None
    transitions: list[HistoryTransition]
    tzdata_version: str


class MeetingSlot(Result):
    start_utc: str
    end_utc: str
    attendees: int
    unavailable: list[str] = Field(description="Participants outside their working hours (partial slots).")
    local: list[dict[str, object]] = Field(description="The slot in each participant's zone.")


class ParticipantHours(Result):
    participant: str
    start: str = Field(description="Local start of the working day, 'HH:MM'.")
    end: str = Field(description="Local end of the working day, 'HH:MM'.")
    days: list[str] = Field(description="Working days, Monday first.")
    source: Literal["argument", "preference", "default"] = Field(
        description="Where the hours came from: the participant's working_hours, the caller's stored preference, "
        "or the 09:00-17:00 Monday-Friday default."
    )


class FindMeetingTimeResult(ReadsZones):
    found: bool = Field(description="False when no slot fits everyone; 'slots' then holds the best partial ones.")
    duration_minutes: float
    timezone: str
    range_start: str
    range_end: str
    slots: list[MeetingSlot]
    working_hours: list[ParticipantHours] = Field(description="The working hours used for each participant.")
    summary: str
