"""Adding an amount of time to an instant: calendar units on the wall clock, exact units on the timeline.

Semantics (RFC 5545 §3.3.6 and TC39 Temporal):

- Years, months, weeks and days are calendar steps on the wall clock of the zone: 12:00 + 1 day is 12:00 the
  next day even when that day has 23 or 25 hours. A day that does not exist in the target month is clamped to
  the month's last day (Jan 31 + 1 month = Feb 28 or 29), and the clamping is reported.
- Hours, minutes and seconds are exact elapsed time, added on the UTC timeline after the calendar steps.
- The wall time reached by the calendar steps may fall into a DST gap or fold; it is placed with the
  disambiguation policy and reported (see `localtime.resolve_local`).
- A negative amount applies every unit negated, in the same order (calendar first, then exact). Units may differ
  in sign ('1 month -1 day'); such an amount is written with a sign on each number ('P1M-1D').
"""

from __future__ import annotations

import re
from calendar import isleap
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from decimal import Decimal, InvalidOperation
from typing import Final

from horologe.core.errors import InvalidArgument, InvalidTimestamp
from horologe.core.localtime import Disambiguation, LocalResolution, resolve_local
from horologe.core.messages import N_, Message, msg

_MONTH_DAYS: Final = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)

MAX_AMOUNT_LENGTH: Final = 100
MAX_CALENDAR_MONTHS: Final = 12 * 10_000
MAX_DAYS: Final = 366 * 10_000
MAX_SECONDS: Final = Decimal(MAX_DAYS) * 86_400
AMOUNT_EXAMPLES: Final = ("P1M", "PT90M", "P1Y2M3DT4H", "-P2W", "3 days", "90 minutes", "1 day 2 hours")

# Each number may carry its own sign ('P1M-1D', as ISO 8601-2 and java.time write amounts of mixed sign).
_ISO = re.compile(
    r"(?P<sign>[+-])?P(?:(?P<years>[+-]?\d+)Y)?(?:(?P<months>[+-]?\d+)M)?(?:(?P<weeks>[+-]?\d+)W)?"
    r"(?:(?P<days>[+-]?\d+)D)?(?:T(?:(?P<hours>[+-]?\d+(?:[.,]\d+)?)H)?(?:(?P<minutes>[+-]?\d+(?:[.,]\d+)?)M)?"
    r"(?:(?P<seconds>[+-]?\d+(?:[.,]\d+)?)S)?)?",
    re.IGNORECASE,
)
_PLAIN = re.compile(r"([+-]?\d+(?:\.\d+)?)\s*([a-z]+)", re.IGNORECASE)
_UNITS: Final = {
    "y": "years", "yr": "years", "yrs": "years", "year": "years", "years": "years",
    "mo": "months", "mon": "months", "month": "months", "months": "months",
    "w": "weeks", "wk": "weeks", "wks": "weeks", "week": "weeks", "weeks": "weeks",
    "d": "days", "day": "days", "days": "days",
    "h": "hours", "hr": "hours", "hrs": "hours", "hour": "hours", "hours": "hours",
    "m": "minutes", "min": "minutes", "mins": "minutes", "minute": "minutes", "minutes": "minutes",
    "s": "seconds", "sec": "seconds", "secs": "seconds", "second": "seconds", "seconds": "seconds",
}  # fmt: skip
_CALENDAR: Final = ("years", "months", "weeks", "days")


@dataclass(frozen=True, slots=True)
class Amount:
    """A signed amount: calendar years, months, weeks, days (integers) and exact seconds."""

    years: int = 0
    months: int = 0
    weeks: int = 0
    days: int = 0
    seconds: Decimal = Decimal(0)

    @property
    def has_calendar(self) -> bool:
        """Whether any calendar unit is set (the wall clock is then kept across DST)."""
        return any((self.years, self.months, self.weeks, self.days))

    def negated(self) -> Amount:
        """The same amount with every unit's sign flipped."""
        return Amount(-self.years, -self.months, -self.weeks, -self.days, -self.seconds)

    def iso(self) -> str:
        """The amount as an ISO 8601 duration, e.g. '-P1MT1H30M'; mixed signs sign each number ('P1M-1D')."""
        parts = (self.years, self.months, self.weeks, self.days)
        signs = {value < 0 for value in (*parts, self.seconds) if value}
        mixed = len(signs) > 1
        inner = "-" if mixed else ""  # the sign written on each negative number
        y, mo, w, d = (p if mixed else abs(p) for p in parts)
        text = "".join(f"{n}{u}" for n, u in ((y, "Y"), (mo, "M"), (w, "W"), (d, "D")) if n)
        hours, rest = divmod(abs(self.seconds), 3600)
        minutes, seconds = divmod(rest, 60)
        clock_sign = inner if self.seconds < 0 else ""
        clock = "".join(f"{clock_sign}{_plain(n)}{u}" for n, u in ((hours, "H"), (minutes, "M"), (seconds, "S")) if n)
        body = f"P{text}{'T' + clock if clock else ''}"
        return ("-" if signs == {True} else "") + (body if body != "P" else "PT0S")


@dataclass(frozen=True, slots=True)
class Addition:
    """The result of adding an amount: the instant, the calendar step's wall time and what happened on the way."""

    instant: datetime
    wall_after_calendar: datetime | None
    clamped_from: str | None
    resolution: LocalResolution | None


def parse_amount(text: str) -> Amount:
    """Read an ISO 8601 duration ('P1Y2M3DT4H', '-PT90M', 'P2W') or plain units ('3 days', '1 hour 30 min')."""
    if not isinstance(text, str) or not text.strip():
        raise _bad_amount(text, msg(N_("it is empty")))
    cleaned = text.strip()
    if len(cleaned) > MAX_AMOUNT_LENGTH:
        raise _bad_amount(
            cleaned[:40] + "...", msg(N_("it is longer than {limit} characters"), limit=MAX_AMOUNT_LENGTH)
        )
    if cleaned.lstrip("+-")[:1].upper() == "P":
        return _parse_iso(cleaned)
    return _parse_plain(cleaned)


def _parse_iso(text: str) -> Amount:
    match = _ISO.fullmatch(text)
    fields = match.groupdict() if match else {}
    if match is None or not any(fields[name] for name in (*_CALENDAR, "hours", "minutes", "seconds")):
        raise _bad_amount(text, msg(N_("it is not an ISO 8601 duration (PnYnMnWnDTnHnMnS)")))
    if text.upper().endswith("T"):
        raise _bad_amount(text, msg(N_("'T' must be followed by hours, minutes or seconds")))
    sign = -1 if fields["sign"] == "-" else 1
    values = {unit: sign * int(fields[unit] or 0) for unit in _CALENDAR}
    seconds = sum(
        (Decimal((fields[unit] or "0").replace(",", ".")) * factor)
        for unit, factor in (("hours", 3600), ("minutes", 60), ("seconds", 1))
    )
    return _checked(Amount(**values, seconds=sign * Decimal(seconds)), text)


def _parse_plain(text: str) -> Amount:
    remainder = _PLAIN.sub("", text)
    if re.sub(r"[\s,]|\band\b", "", remainder, flags=re.IGNORECASE):
        raise _bad_amount(text, msg(N_("it is neither an ISO 8601 duration nor '<number> <unit>' pairs")))
    values: dict[str, int] = dict.fromkeys(_CALENDAR, 0)
    seconds = Decimal(0)
    for number, word in _PLAIN.findall(text):
        unit = _UNITS.get(word.casefold())
        if unit is None:
            reason = msg(
                N_("{word} is not a unit (use years, months, weeks, days, hours, minutes, seconds)"), word=repr(word)
            )
            raise _bad_amount(text, reason)
        if unit in values:
            if "." in number:
                reason = msg(
                    N_("{unit} must be whole numbers (fractions only for hours, minutes, seconds)"), unit=repr(unit)
                )
                raise _bad_amount(text, reason)
            values[unit] += int(number)
        else:
            seconds += Decimal(number) * {"hours": 3600, "minutes": 60, "seconds": 1}[unit]
    return _checked(Amount(**values, seconds=seconds), text)


def _checked(amount: Amount, text: str) -> Amount:
    months = abs(amount.years * 12 + amount.months)
    days = abs(amount.weeks * 7 + amount.days)
    if months > MAX_CALENDAR_MONTHS or days > MAX_DAYS or abs(amount.seconds) > MAX_SECONDS:
        raise _bad_amount(text, msg(N_("it is larger than 10000 years")))
    return amount


def add_amount(start: datetime, amount: Amount, zone: tzinfo, policy: Disambiguation = "compatible") -> Addition:
    """Add calendar units on the wall clock of `zone`, then exact seconds on the timeline."""
    if start.utcoffset() is None:
        raise ValueError("add_amount takes an aware datetime")
    anchor, wall, clamped, resolution = start, None, None, None
    if amount.has_calendar:
        wall, clamped = shift_wall(start.astimezone(zone).replace(tzinfo=None, fold=0), amount)
        resolution = resolve_local(wall, zone, policy)
        anchor = resolution.instant
    try:
        result = _precise(anchor, amount.seconds, zone)
    except (OverflowError, InvalidOperation):
        raise _out_of_range(start, amount) from None
    return Addition(result, wall, clamped, resolution)


def shift_wall(wall: datetime, amount: Amount) -> tuple[datetime, str | None]:
    """Move a naive wall time by the calendar units; returns it and the clamped-away date if any ('2026-02-31')."""
    total = wall.month - 1 + amount.years * 12 + amount.months
    year, month = wall.year + total // 12, total % 12 + 1
    if not 1 <= year <= 9999:
        raise _out_of_range(wall, amount)
    last = days_in_month(year, month)
    clamped = f"{year:04d}-{month:02d}-{wall.day:02d}" if wall.day > last else None
    try:
        moved = wall.replace(year=year, month=month, day=min(wall.day, last))
        moved += timedelta(days=amount.weeks * 7 + amount.days)
    except OverflowError:
        raise _out_of_range(wall, amount) from None
    return moved, clamped


def days_in_month(year: int, month: int) -> int:
    """Number of days in a month of the proleptic Gregorian calendar."""
    return 29 if month == 2 and isleap(year) else _MONTH_DAYS[month - 1]


def _precise(anchor: datetime, seconds: Decimal, zone: tzinfo) -> datetime:
    micros = int((seconds * 1_000_000).to_integral_value())
    return (anchor.astimezone(UTC) + timedelta(microseconds=micros)).astimezone(zone)


def _plain(number: Decimal) -> str:
    return format(number.normalize(), "f")


def _bad_amount(text: object, reason: Message) -> InvalidArgument:
    return InvalidArgument(
        N_(
            "Cannot read the amount {amount}: {reason}. Write an ISO 8601 duration such as 'P1M', 'PT90M' or "
            "'P1Y2M3DT4H' (prefix '-' to subtract), or plain units such as '3 days' or '1 hour 30 minutes'."
        ),
        amount=repr(text),
        reason=reason,
        suggestions=AMOUNT_EXAMPLES[:4],
    )


def _out_of_range(start: datetime, amount: Amount) -> InvalidTimestamp:
    return InvalidTimestamp(
        N_("Adding {amount} to {start} leaves the supported range of years 1..9999. Use a smaller amount."),
        amount=amount.iso(),
        start=start.isoformat(),
        details={"amount": amount.iso()},
    )
