"""Arguments and results of the calendar tools (add_time, business_days, ..., find_meeting_time)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, StrictBool, StrictInt, StrictStr

from horologe.core.localtime import Disambiguation
from horologe.tools.schemas import (
    DISAMBIGUATION,
    ZONE,
    Arguments,
    DstReport,
    ReadsZones,
    Result,
    Timestamp,
    Transition,
    Weekday,
    WorkingHours,
    ZoneMoment,
    weekday_name,
)

COUNTRY = "e.g. 'US'; default: the user's."
SUBDIVISION = "Region code or name, e.g. 'CA', 'ENG', 'Bavaria'."
HOLIDAY_LANGUAGE = "Of holiday names, e.g. 'de'."
Day = Annotated[Weekday, BeforeValidator(weekday_name)]


class AddTimeArgs(Arguments):
    timestamp: Timestamp
    amount: StrictStr = Field(max_length=100, description="e.g. 'P1M', '90 days', '-2 hours'.")
    timezone: str | None = Field(default=None, max_length=256, description=ZONE)
    disambiguation: Disambiguation = Field(default="compatible", description=DISAMBIGUATION)


class BusinessDaysArgs(Arguments):
    country: StrictStr | None = Field(default=None, max_length=64, description=COUNTRY)
    start_date: StrictStr | None = Field(default=None, max_length=40, description="Default: today.")
    end_date: StrictStr | None = Field(default=None, max_length=40, description="To count (end excluded)...")
    count: StrictInt | None = Field(default=None, ge=-100_000, le=100_000, description="...or to add (or go back).")
    include_end: bool = False
    subdivision: StrictStr | None = Field(default=None, max_length=64, description=SUBDIVISION)
    weekend: list[Day] | None = Field(default=None, max_length=6, description="Default: the country's.")
    extra_holidays: list[StrictStr] | None = Field(default=None, max_length=366, description="More days off.")
    language: StrictStr | None = Field(default=None, max_length=16, description=HOLIDAY_LANGUAGE)


class ListHolidaysArgs(Arguments):
    country: StrictStr | None = Field(default=None, max_length=64, description=COUNTRY)
    year: StrictInt | None = Field(default=None, ge=1, le=9999)
    subdivision: StrictStr | None = Field(default=None, max_length=64, description=SUBDIVISION)
    language: StrictStr | None = Field(default=None, max_length=16, description=HOLIDAY_LANGUAGE)


class DateInfoArgs(Arguments):
    date: Timestamp | None = Field(default=None, description="Default: today.")
    timezone: str | None = Field(default=None, max_length=256, description=ZONE)
    locale: StrictStr = Field(default="en_US", max_length=32, description="Week rules, e.g. 'de_AT'.")


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
    disambiguation: Disambiguation = Field(default="compatible", description=DISAMBIGUATION)


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
    duration: StrictStr | StrictInt = Field(description="Minutes, or e.g. 'PT1H30M'.")
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
    start: ZoneMoment
    amount: str = Field(description="The amount as a normalized ISO 8601 duration.")
    result: ZoneMoment
    utc: str = Field(description="The result in UTC.")
    elapsed_seconds: float = Field(description="Exact time elapsed from start to result (23 h for P1D across DST).")
    calendar_units_applied: bool = Field(description="True when years/months/weeks/days moved the wall clock.")
    clamped: dict[str, str] | None = Field(
        description="When a day did not exist in the target month: {'from': '2026-02-31', 'to': ...}."
    )
    dst: DstReport = Field(description="Whether the wall time reached by calendar units was in a DST gap or fold.")
    start_dst: DstReport
    explanation: str = Field(description="English sentence describing the calculation.")


class HolidayEntry(Result):
    date: str
    names: list[str]
    day_of_week: str
    on_weekend: bool = Field(description="The holiday falls on a weekend day (it removes no business day).")


class BusinessDaysResult(Result):
    mode: str = Field(description="'count' (start..end) or 'add' (start + count).")
    country: str
    subdivision: str | None
    start: str
    end: str | None
    business_days: int | None = Field(description="Business days counted (mode 'count').")
    calendar_days: int | None = Field(description="Calendar days walked from start toward end, signed like the count.")
    count: int | None
    result: str | None = Field(description="The date reached (mode 'add').")
    result_day_of_week: str | None
    weekend: list[str]
    holidays: list[HolidayEntry] = Field(description="Holidays met in the range (at most 1000 listed).")
    holidays_truncated: bool
    summary: str


class ListHolidaysResult(Result):
    country: str
    subdivision: str | None
    year: int
    language: str | None
    count: int
    holidays: list[HolidayEntry]


class DateInfoResult(ReadsZones):
    date: str
    day_of_week: str
    iso_week_date: str
    iso_week: int
    iso_week_year: int
    day_of_year: int
    quarter: int
    days_in_month: int
    leap_year: bool
    locale_week: dict[str, object] = Field(description="Week number and week-based year under the locale's rules.")
    calendars: dict[str, object] = Field(description="The date in other calendars (null where not defined).")


class OccurrenceEntry(DstReport):
    timestamp: str = Field(description="ISO 8601 in 'timezone'.")
    utc: str
    wall_time: str = Field(
        description="The wall time the rule produced in 'rule_timezone' (differs from timestamp in a DST gap)."
    )
    day_of_week: str


class NextOccurrencesResult(ReadsZones):
    kind: str = Field(description="'rrule' or 'cron'.")
    timezone: str = Field(description="The zone the occurrences are shown in.")
    rule_timezone: str = Field(
        description="The zone whose wall clock the rule runs on: DTSTART's TZID (UTC for a 'Z' time), else 'timezone'."
    )
    count: int
    occurrences: list[OccurrenceEntry]
    exhausted: bool = Field(description="True when the rule has no further occurrences (or none before until).")
    dst_flagged: int = Field(description="How many occurrences fell in a DST gap or fold.")


class HistoryTransition(Transition):
    kind: str = Field(
        description="'dst_start' or 'dst_end' (the DST flag turns on or off), 'offset_change' or 'abbreviation_change'."
    )
    change: str = Field(description="Offset after minus offset before, e.g. '+01:00' or '+24:00'.")
    local_effect: str = Field(description="English description, e.g. 'clocks skip 2011-12-30T00:00..'.")


class TimezoneHistoryResult(ReadsZones):
    timezone: str
    start: str
    end: str
    count: int
    truncated: bool
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
    days: list[str] = Field(description="Working days, three-letter English names, Monday first.")
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
