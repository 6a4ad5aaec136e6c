"""Reading timestamps: ISO 8601 / RFC 3339, Unix time, RFC 2822 and HTTP dates, into aware instants.

Decisions worth knowing:

- A string of digits (optionally signed, optionally with a fraction) is Unix time, never a basic-format
  ISO date: ``"20250817"`` is 1970-08-23. Write the date as ``2025-08-17`` instead.
- Unix time is read as seconds up to the last second of year 9999 (253402300799), as milliseconds above that
  (up to 1e14) and as microseconds above that, so the largest Unix seconds value the range message names is
  read as seconds.
- Leap seconds (``23:59:60``) are refused: neither Python nor Unix time can represent them.
  ``24:00`` is refused too (write ``00:00`` of the next day).
- More than six fractional digits are truncated (not rounded) to microseconds.
- Every result must lie within years 1..9999 in UTC, so it can always be converted.
- A naive input (no offset, no zone name) is read in the given zone; the DST facts travel in
  ``ParsedTimestamp.resolution``. Unix time and inputs with an offset or zone name are absolute.
- RFC 2822 weekday names are checked for spelling but not against the date (as email software does).
  Two-digit years of RFC 2822 dates follow RFC 5322: 00-49 are 20xx, 50-99 are 19xx. Those of RFC 850 HTTP
  dates follow RFC 9110 §5.6.7: a date more than 50 years after `now` is the most recent past year with those
  digits (without `now`, as the core's own callers of `parse_timestamp` may be, RFC 5322's reading applies).
"""

from __future__ import annotations

import math
import re
from calendar import isleap
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo
from decimal import ROUND_FLOOR, Decimal
from typing import Final, Literal, get_args

from horologe.core.arithmetic import days_in_month
from horologe.core.errors import InvalidArgument, InvalidTimestamp
from horologe.core.localtime import Disambiguation, LocalResolution, check_disambiguation, resolve_local
from horologe.core.messages import N_, Message, msg
from horologe.core.weekdays import weekday_number

TimestampUnit = Literal["auto", "s", "ms", "us"]
SourceFormat = Literal[
    "iso8601", "unix_seconds", "unix_milliseconds", "unix_microseconds", "rfc2822", "http_date", "now"
]
_Reading = Literal["timestamp", "date"]

MAX_INPUT_LENGTH: Final = 100
ACCEPTED_FORMS: Final = msg(
    N_("Use ISO 8601 like '2025-08-17T10:30:00Z', Unix seconds like 1755426600, RFC 2822 or an HTTP date.")
)
ACCEPTED_DATE_FORMS: Final = msg(N_("Use an ISO 8601 date like '2025-08-17'."))
EXAMPLES: Final = ("2025-08-17T10:30:00Z", "2025-08-17 10:30", "1755426600", "Sun, 17 Aug 2025 10:30:00 GMT")

_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
_MIN_UNIX: Final = Decimal(-62135596800)
_MAX_UNIX: Final = Decimal("253402300799.999999")
_UNIX_RANGE: Final = msg(
    N_("In Unix seconds that is {low}..{high}."), low=_MIN_UNIX, high=_MAX_UNIX.to_integral_value(ROUND_FLOOR)
)
_UNIT_DIVISORS: Final[dict[str, tuple[int, SourceFormat]]] = {
    "s": (1, "unix_seconds"),
    "ms": (1_000, "unix_milliseconds"),
    "us": (1_000_000, "unix_microseconds"),
}

_UNITS: Final = get_args(TimestampUnit)

_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")
_ISO = re.compile(r"(?P<date>[0-9Ww+-]+)(?:[Tt ](?P<time>[0-9:.,]+)(?P<offset>[Zz]|[+-][0-9:]+)?)?")
_ISO_DATES = (
    re.compile(r"(?P<year>[+-]?\d{4,6})-(?P<month>\d{2})-(?P<day>\d{2})"),
    re.compile(r"(?P<year>[+-]?\d{4,6})-[Ww](?P<week>\d{2})(?:-(?P<weekday>\d))?"),
    re.compile(r"(?P<year>[+-]?\d{4,6})-(?P<ordinal>\d{3})"),
    re.compile(r"(?P<year>\d{4})(?P<month>\d{2})(?P<day>\d{2})"),
    re.compile(r"(?P<year>\d{4})[Ww](?P<week>\d{2})(?P<weekday>\d)?"),
    re.compile(r"(?P<year>\d{4})(?P<ordinal>\d{3})"),
)
_ISO_TIMES = (
    re.compile(r"(?P<hour>\d{2})(?::(?P<minute>\d{2})(?::(?P<second>\d{2})(?:[.,](?P<fraction>\d+))?)?)?"),
    re.compile(r"(?P<hour>\d{2})(?:(?P<minute>\d{2})(?:(?P<second>\d{2})(?:[.,](?P<fraction>\d+))?)?)?"),
)
_ISO_OFFSET = re.compile(r"(?P<sign>[+-])(?P<hours>\d{2})(?::?(?P<minutes>\d{2})(?::?(?P<seconds>\d{2}))?)?")

_TIME_OF_DAY = r"(?P<hour>\d{2}):(?P<minute>\d{2})(?::(?P<second>\d{2}))?"
_RFC2822 = re.compile(
    r"(?:(?P<weekday>[A-Za-z]+)\s*,\s*)?(?P<day>\d{1,2})\s+(?P<month>[A-Za-z]+)\s+(?P<year>\d{2,4})\s+"
    + _TIME_OF_DAY
    + r"(?:\s+(?P<zone>[+-]\d{4}|[A-Za-z]+))?(?:\s*\([^()]*\))?"
)
_RFC850 = re.compile(
    r"(?P<weekday>[A-Za-z]+),\s+(?P<day>\d{2})-(?P<month>[A-Za-z]{3})-(?P<year>\d{2})\s+" + _TIME_OF_DAY + r"\s+GMT",
    re.IGNORECASE,
)
_ASCTIME = re.compile(
    r"(?P<weekday>[A-Za-z]{3})\s+(?P<month>[A-Za-z]{3})\s+(?P<day>\d{1,2})\s+" + _TIME_OF_DAY + r"\s+(?P<year>\d{4})"
)
_IMF_FIXDATE = re.compile(r"[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT", re.IGNORECASE)

_MONTHS: Final = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH_NAMES: Final = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_DATE_REST: Final = ("day", "hour", "minute", "second")
# RFC 5322 section 4.3 obsolete zone names (plus UTC, which real mail uses); other military letters are refused.
_ZONE_NAMES: Final = {
    "UT": 0,
    "UTC": 0,
    "GMT": 0,
    "Z": 0,
    "EST": -5,
    "EDT": -4,
    "CST": -6,
    "CDT": -5,
    "MST": -7,
    "MDT": -6,
    "PST": -8,
    "PDT": -7,
}


@dataclass(frozen=True, slots=True)
class ParsedTimestamp:
    """An instant read from user input, with how it was written and how it was placed on the timeline."""

    instant: datetime
    source_format: SourceFormat
    explicit_offset: bool
    resolution: LocalResolution | None


def parse_timestamp(
    value: str | int | float,
    zone: tzinfo,
    *,
    disambiguation: Disambiguation = "compatible",
    unit: TimestampUnit = "auto",
    now: datetime | None = None,
) -> ParsedTimestamp:
    """Read an ISO 8601, Unix, RFC 2822 or HTTP-date timestamp; naive inputs are read in `zone`.

    `now` is the reference for the two-digit years of RFC 850 dates (RFC 9110 §5.6.7).
    """
    check_disambiguation(disambiguation)
    _check_unit(unit)
    if not isinstance(value, str):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _invalid(value, msg(N_("expected a string or a number, not {type}"), type=type(value).__name__))
        return _parse_unix_number(value, unit)
    text = _clean(value)
    if _NUMBER.fullmatch(text):
        return _parse_unix(Decimal(text), unit, value)
    iso = _ISO.fullmatch(text)
    if iso:
        return _parse_iso(iso, zone, disambiguation, value)
    return _parse_mail_date(text, zone, disambiguation, value, now)


def parse_date(value: str) -> date:
    """Read an ISO 8601 calendar, week or ordinal date (extended or basic format)."""
    if not isinstance(value, str):
        raise _invalid(value, msg(N_("expected a string, not {type}"), type=type(value).__name__), reading="date")
    text = _clean(value, reading="date")
    return _parse_iso_date(text, value, reading="date")


def date_problem(year: int, month: int, day: int) -> Message | None:
    """Why a year, month and day name no calendar date (a reason to show), or None when they name one."""
    if not 1 <= year <= 9999:
        return msg(N_("year must be in 1..9999"))
    if not 1 <= month <= 12:
        return msg(N_("month must be in 1..12"))
    if not 1 <= day <= days_in_month(year, month):
        return msg(N_("day is out of range for month"))
    return None


def clock_problem(hour: int, minute: int, second: int) -> Message | None:
    """Why an hour, minute and second are not a time of day we accept (a reason to show), or None."""
    if second == 60:
        return msg(N_("leap seconds (second 60) cannot be represented; use :59 or the next minute"))
    if hour == 24:
        return msg(N_("hour 24 is not accepted; use 00:00 of the next day"))
    if hour > 23:
        return msg(N_("hour must be in 0..23"))
    if minute > 59:
        return msg(N_("minute must be in 0..59"))
    if second > 59:
        return msg(N_("second must be in 0..59"))
    return None


def _check_unit(unit: str) -> None:
    if unit not in _UNITS:
        raise InvalidArgument(
            N_("Unknown timestamp unit {unit}. Use one of: {known}."),
            unit=repr(unit),
            known=", ".join(_UNITS),
            suggestions=_UNITS,
        )


def _clean(value: str, *, reading: _Reading = "timestamp") -> str:
    if len(value) > MAX_INPUT_LENGTH:
        if reading == "date":
            raise InvalidTimestamp(
                N_("Could not read the date: it is {length} characters long, the limit is {limit}."),
                length=len(value),
                limit=MAX_INPUT_LENGTH,
                also=(ACCEPTED_DATE_FORMS,),
                suggestions=EXAMPLES,
            )
        raise InvalidTimestamp(
            N_("Could not read the timestamp: it is {length} characters long, the limit is {limit}."),
            length=len(value),
            limit=MAX_INPUT_LENGTH,
            also=(ACCEPTED_FORMS,),
            suggestions=EXAMPLES,
        )
    text = value.strip()
    if not text:
        raise _invalid(value, msg(N_("it is empty")), reading=reading)
    return text


# --- Unix time -------------------------------------------------------------------------------------------------


def _parse_unix_number(value: int | float, unit: TimestampUnit) -> ParsedTimestamp:
    if isinstance(value, float) and not math.isfinite(value):
        raise _invalid(value, msg(N_("NaN and infinity are not instants")))
    # str() of a float is its shortest round-trip form, so 1723892200.1 stays .1 rather than .0999999.
    number = Decimal(value) if isinstance(value, int) else Decimal(str(value))
    return _parse_unix(number, unit, value)


def _parse_unix(number: Decimal, unit: TimestampUnit, original: object) -> ParsedTimestamp:
    divisor, source_format = _UNIT_DIVISORS[_unix_unit(number, unit, original)]
    seconds = number / divisor
    if not _MIN_UNIX <= seconds <= _MAX_UNIX:
        raise _out_of_range(original, unix=True)
    micros = int((seconds * 1_000_000).to_integral_value(ROUND_FLOOR))
    instant = _EPOCH + timedelta(microseconds=micros)
    return ParsedTimestamp(instant, source_format, True, None)


def _unix_unit(number: Decimal, unit: TimestampUnit, original: object) -> str:
    if unit != "auto":
        return unit
    magnitude = abs(number)
    if magnitude <= _MAX_UNIX:  # every second of years 1..9999 (a millisecond reading would be before 1978)
        return "s"
    if magnitude < Decimal("1e14"):
        return "ms"
    if magnitude < Decimal("1e17"):
        return "us"
    raise InvalidTimestamp(
        N_(
            "Could not read {input} as Unix time: it is too large to guess its unit. Pass an explicit unit "
            "('s', 'ms' or 'us'); the supported range is years 1..9999 "
            "(0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999Z)."
        ),
        input=repr(original),
        suggestions=["s", "ms", "us"],
    )


# --- ISO 8601 ---------------------------------------------------------------------------------------------------


def _parse_iso(match: re.Match[str], zone: tzinfo, policy: Disambiguation, original: str) -> ParsedTimestamp:
    day = _parse_iso_date(match["date"], original)
    hour, minute, second, micro = _parse_iso_time(match["time"], original) if match["time"] else (0, 0, 0, 0)
    wall = datetime(day.year, day.month, day.day, hour, minute, second, micro)
    if match["offset"] is None:
        return _localize(wall, zone, policy, "iso8601", original)
    instant = wall.replace(tzinfo=_parse_iso_offset(match["offset"], original))
    return ParsedTimestamp(_in_range(instant, original), "iso8601", True, None)


def _parse_iso_date(text: str, original: object, *, reading: _Reading = "timestamp") -> date:
    for pattern in _ISO_DATES:
        match = pattern.fullmatch(text)
        if match:
            return _build_date(match.groupdict(), original, reading)
    raise _invalid(original, None, reading=reading)


def _build_date(fields: dict[str, str | None], original: object, reading: _Reading) -> date:
    year = int(fields["year"] or 0)
    if not 1 <= year <= 9999:
        raise _out_of_range(original)
    if fields.get("week"):
        return _week_date(year, int(fields["week"] or 0), int(fields.get("weekday") or 1), original, reading)
    if fields.get("ordinal"):
        return _ordinal_date(year, int(fields["ordinal"] or 0), original, reading)
    month, day = int(fields["month"] or 0), int(fields["day"] or 0)
    problem = date_problem(year, month, day)
    if problem is not None:
        raise _invalid(original, problem, reading=reading)
    return date(year, month, day)


def _week_date(year: int, week: int, weekday: int, original: object, reading: _Reading) -> date:
    weeks = date(year, 12, 28).isocalendar().week
    if not 1 <= week <= weeks:
        reason = msg(N_("week must be in 1..{weeks} for {year}"), weeks=weeks, year=year)
        raise _invalid(original, reason, reading=reading)
    if not 1 <= weekday <= 7:
        raise _invalid(original, msg(N_("day of the week must be in 1..7")), reading=reading)
    return date.fromisocalendar(year, week, weekday)


def _ordinal_date(year: int, ordinal: int, original: object, reading: _Reading) -> date:
    days_in_year = 366 if isleap(year) else 365
    if not 1 <= ordinal <= days_in_year:
        reason = msg(N_("day of year must be in 1..{days} for {year}"), days=days_in_year, year=year)
        raise _invalid(original, reason, reading=reading)
    return date(year, 1, 1) + timedelta(days=ordinal - 1)


def _parse_iso_time(text: str, original: str) -> tuple[int, int, int, int]:
    for pattern in _ISO_TIMES:
        match = pattern.fullmatch(text)
        if match:
            hour, minute, second, fraction = match.group("hour", "minute", "second", "fraction")
            clock = int(hour), int(minute or 0), int(second or 0)
            _check_clock(*clock, original)
            return (*clock, int(fraction[:6].ljust(6, "0")) if fraction else 0)
    reason = msg(N_("the time {time} is not HH:MM[:SS[.fff]] (fractions only on seconds)"), time=repr(text))
    raise _invalid(original, reason)


def _check_clock(hour: int, minute: int, second: int, original: object) -> None:
    problem = clock_problem(hour, minute, second)
    if problem is not None:
        raise _invalid(original, problem)


def _parse_iso_offset(text: str, original: str) -> tzinfo:
    if text in ("Z", "z"):
        return UTC
    match = _ISO_OFFSET.fullmatch(text)
    if not match:
        raise _invalid(original, msg(N_("the UTC offset {offset} is not ±HH:MM"), offset=repr(text)))
    hours, minutes, seconds = (int(match[name] or 0) for name in ("hours", "minutes", "seconds"))
    if hours > 23 or minutes > 59 or seconds > 59:
        reason = msg(N_("the UTC offset {offset} must lie strictly between -24:00 and +24:00"), offset=repr(text))
        raise _invalid(original, reason)
    offset = timedelta(hours=hours, minutes=minutes, seconds=seconds)
    return timezone(-offset if match["sign"] == "-" else offset)


# --- RFC 2822 and HTTP dates ------------------------------------------------------------------------------------


def _parse_mail_date(
    text: str, zone: tzinfo, policy: Disambiguation, original: str, now: datetime | None
) -> ParsedTimestamp:
    for pattern in (_RFC850, _ASCTIME):
        match = pattern.fullmatch(text)
        if match:
            # RFC 9110: every HTTP date is in GMT, asctime ones included.
            fields = {**match.groupdict(), "zone": "GMT"}
            year = _rfc850_year(fields, now, original) if pattern is _RFC850 else None
            return _build_mail_date(fields, zone, policy, "http_date", original, year)
    match = _RFC2822.fullmatch(text)
    if not match:
        raise _invalid(original, None)
    source_format: SourceFormat = "http_date" if _IMF_FIXDATE.fullmatch(text) else "rfc2822"
    return _build_mail_date(match.groupdict(), zone, policy, source_format, original)


def _build_mail_date(
    fields: dict[str, str | None],
    zone: tzinfo,
    policy: Disambiguation,
    source_format: SourceFormat,
    original: str,
    year: int | None = None,
) -> ParsedTimestamp:
    _check_weekday(fields["weekday"], original)
    year = _mail_year(fields["year"] or "", original) if year is None else year
    hour, minute, second = (int(fields[name] or 0) for name in ("hour", "minute", "second"))
    _check_clock(hour, minute, second, original)
    month, day = _month_number(fields["month"] or "", original), int(fields["day"] or 0)
    problem = date_problem(year, month, day)
    if problem is not None:
        raise _invalid(original, problem)
    wall = datetime(year, month, day, hour, minute, second)
    if fields["zone"] is None:
        return _localize(wall, zone, policy, source_format, original)
    instant = wall.replace(tzinfo=_mail_zone(fields["zone"], original))
    return ParsedTimestamp(_in_range(instant, original), source_format, True, None)


def _check_weekday(name: str | None, original: str) -> None:
    if name is not None and weekday_number(name) is None:
        raise _invalid(original, msg(N_("{name} is not a day of the week"), name=repr(name)))


def _month_number(name: str, original: str) -> int:
    lowered = name.lower()
    for number, (short, full) in enumerate(zip(_MONTHS, _MONTH_NAMES, strict=True), start=1):
        if lowered in (short, full):
            return number
    raise _invalid(original, msg(N_("{name} is not a month name"), name=repr(name)))


def _rfc850_year(fields: dict[str, str | None], now: datetime | None, original: str) -> int | None:
    """RFC 9110 §5.6.7: the latest year with these two digits whose date is not more than 50 years after `now`."""
    if now is None:
        return None
    reference = now.astimezone(UTC)
    horizon = (reference.year + 50, reference.month, reference.day, reference.hour, reference.minute,
               reference.second)  # fmt: skip
    rest = (_month_number(fields["month"] or "", original), *(int(fields[name] or 0) for name in _DATE_REST))
    year = reference.year - reference.year % 100 + int(fields["year"] or 0)
    while (year, *rest) > horizon:
        year -= 100
    while (year + 100, *rest) <= horizon:
        year += 100
    return year


def _mail_year(text: str, original: str) -> int:
    year = int(text)
    if len(text) == 2:
        return year + (2000 if year < 50 else 1900)
    if len(text) == 3:
        return year + 1900
    if not 1 <= year <= 9999:
        raise _out_of_range(original)
    return year


def _mail_zone(name: str, original: str) -> tzinfo:
    if name[0] in "+-":
        hours, minutes = int(name[1:3]), int(name[3:5])
        if hours > 23 or minutes > 59:
            reason = msg(N_("the UTC offset {offset} must lie strictly between -2400 and +2400"), offset=repr(name))
            raise _invalid(original, reason)
        offset = timedelta(hours=hours, minutes=minutes)
        return timezone(-offset if name[0] == "-" else offset)
    hours_east = _ZONE_NAMES.get(name.upper())
    if hours_east is None:
        reason = msg(N_("unknown zone name {name}; write a numeric offset like +0000 or -0400"), name=repr(name))
        raise _invalid(original, reason)
    return timezone(timedelta(hours=hours_east))


# --- Shared -----------------------------------------------------------------------------------------------------


def _localize(
    wall: datetime, zone: tzinfo, policy: Disambiguation, source_format: SourceFormat, original: object
) -> ParsedTimestamp:
    try:
        resolution = resolve_local(wall, zone, policy)
    except OverflowError:
        raise _out_of_range(original) from None
    return ParsedTimestamp(_in_range(resolution.instant, original), source_format, False, resolution)


def _in_range(instant: datetime, original: object) -> datetime:
    if 1 < instant.year < 9999:  # no offset moves these years' instants out of the range
        return instant
    try:
        instant.astimezone(UTC)
    except OverflowError:
        raise _out_of_range(original) from None
    return instant


def _invalid(value: object, reason: Message | None, *, reading: _Reading = "timestamp") -> InvalidTimestamp:
    """The error for input that is no timestamp (or no date), with the reason when one is known."""
    if reading == "date" and reason is None:
        return InvalidTimestamp(
            N_("Could not read {input} as a date. Use an ISO 8601 date like '2025-08-17'."),
            input=repr(value),
            suggestions=EXAMPLES,
        )
    if reading == "date":
        return InvalidTimestamp(
            N_("Could not read {input} as a date: {reason}."),
            input=repr(value),
            reason=reason,
            also=(ACCEPTED_DATE_FORMS,),
            suggestions=EXAMPLES,
        )
    if reason is None:
        return InvalidTimestamp(
            N_(
                "Could not read {input} as a timestamp. Use ISO 8601 like '2025-08-17T10:30:00Z', Unix seconds like "
                "1755426600, RFC 2822 or an HTTP date."
            ),
            input=repr(value),
            suggestions=EXAMPLES,
        )
    return InvalidTimestamp(
        N_("Could not read {input} as a timestamp: {reason}."),
        input=repr(value),
        reason=reason,
        also=(ACCEPTED_FORMS,),
        suggestions=EXAMPLES,
    )


def _out_of_range(value: object, *, unix: bool = False) -> InvalidTimestamp:
    """The error for an instant outside years 1..9999 (and, for Unix time, the range in seconds)."""
    return InvalidTimestamp(
        N_("{input} is outside the supported range: years 1 to 9999."),
        input=repr(value),
        also=(_UNIX_RANGE,) if unix else (),
        details={"min": "0001-01-01T00:00:00Z", "max": "9999-12-31T23:59:59.999999Z"},
    )
