"""What a resolved time expression is said back as (`interpretation`): messages with English templates, rendered in
the request's language at the edge (SEP-2792), like every other sentence of ours (`horologe.core.messages`).

Dates (ISO 8601), clock times (HH:MM) and country codes are parameters no catalog translates; a holiday's name is
the data's (`Written`, in the language its data gave), so the answer reports that language when it is not the
request's. Each phrase is a whole template where a language inflects it ("diese Woche", "dieser Monat"); a weekday,
an ordinal and a counted unit are translated words put into a template.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, time
from typing import Final

from horologe.core.holiday_names import HolidayReading
from horologe.core.messages import N_, Message, joined, msg
from horologe.core.relative_lang import Unit

WEEKDAYS: Final = (
    msg(N_("Monday")),
    msg(N_("Tuesday")),
    msg(N_("Wednesday")),
    msg(N_("Thursday")),
    msg(N_("Friday")),
    msg(N_("Saturday")),
    msg(N_("Sunday")),
)
"""Weekday names (0 = Monday) as they stand in a phrase ("the first Friday after today")."""
_ORDINALS: Final = {
    1: msg(N_("first")),
    2: msg(N_("second")),
    3: msg(N_("third")),
    4: msg(N_("fourth")),
    5: msg(N_("fifth")),
    -1: msg(N_("last")),
}
_COUNTED: Final[dict[Unit, Message]] = {
    "second": msg(N_("second(s)")),
    "minute": msg(N_("minute(s)")),
    "hour": msg(N_("hour(s)")),
    "day": msg(N_("day(s)")),
    "week": msg(N_("week(s)")),
    "month": msg(N_("month(s)")),
    "quarter": msg(N_("quarter(s)")),
    "year": msg(N_("year(s)")),
}
_CALENDAR: Final[dict[tuple[int, str], Message]] = {
    (0, "week"): msg(N_("this calendar week")),
    (-1, "week"): msg(N_("the previous calendar week")),
    (1, "week"): msg(N_("the next calendar week")),
    (2, "week"): msg(N_("the calendar week after next")),
    (0, "month"): msg(N_("this calendar month")),
    (-1, "month"): msg(N_("the previous calendar month")),
    (1, "month"): msg(N_("the next calendar month")),
    (0, "quarter"): msg(N_("this calendar quarter")),
    (-1, "quarter"): msg(N_("the previous calendar quarter")),
    (1, "quarter"): msg(N_("the next calendar quarter")),
    (0, "year"): msg(N_("this calendar year")),
    (-1, "year"): msg(N_("the previous calendar year")),
    (1, "year"): msg(N_("the next calendar year")),
}
_TO_DATE: Final[dict[str, Message]] = {
    "week": msg(N_("from the start of this week to the reference instant")),
    "month": msg(N_("from the start of this month to the reference instant")),
    "quarter": msg(N_("from the start of this quarter to the reference instant")),
    "year": msg(N_("from the start of this year to the reference instant")),
}
_EDGE: Final[dict[tuple[str, str], Message]] = {
    ("start", "week"): msg(N_("the first day of that week")),
    ("end", "week"): msg(N_("the last day of that week")),
    ("start", "month"): msg(N_("the first day of that month")),
    ("end", "month"): msg(N_("the last day of that month")),
    ("start", "quarter"): msg(N_("the first day of that quarter")),
    ("end", "quarter"): msg(N_("the last day of that quarter")),
    ("start", "year"): msg(N_("the first day of that year")),
    ("end", "year"): msg(N_("the last day of that year")),
}
_EVERY_ONE: Final = {
    "DAILY": msg(N_("every day")),
    "HOURLY": msg(N_("every hour")),
    "MINUTELY": msg(N_("every minute")),
}
MAX_COUNTRIES_SHOWN: Final = 12


def plain(text: str) -> Message:
    """Text no language changes (a date, a month as YYYY-MM) as a message."""
    return Message("{text}", {"text": text}, translatable=False)


def noted(text: Message, note: Message | None) -> Message:
    """A reading with how it was read in parentheses ("2026-12-25 (Christmas Day: US)"), or alone without a note."""
    return text if note is None else Message("{text} ({note})", {"text": text, "note": note}, translatable=False)


def said_clock(clock: time) -> str:
    """A time of day as said back: HH:MM, with its seconds when it has any."""
    return f"{clock:%H:%M:%S}" if clock.second else f"{clock:%H:%M}"


def ordinal(number: int) -> Message:
    """An ordinal word ("second", "last") as it stands before a weekday."""
    return _ORDINALS.get(number) or plain(f"{number}.")


def reference() -> Message:
    """The reference instant itself ("now")."""
    return msg(N_("the reference instant"))


def shifted(amount: int, unit: Unit, fortnight: bool) -> Message:
    """The reference moved ("the reference instant +3 day(s)")."""
    if fortnight:
        return msg(
            N_("the reference instant {amount} {unit} (a fortnight: 2 weeks)"),
            amount=f"{amount:+d}",
            unit=_COUNTED[unit],
        )
    return msg(N_("the reference instant {amount} {unit}"), amount=f"{amount:+d}", unit=_COUNTED[unit])


def at_clock(clock: time, day: date, note: Message | None) -> Message:
    """A time of day on a day ("15:00 on 2026-11-27 (the first Friday after today)")."""
    return noted(msg(N_("{clock} on {day}"), clock=said_clock(clock), day=day.isoformat()), note)


def calendar_period(unit: Unit, offset: int) -> Message:
    """A calendar week, month, quarter or year relative to the current one."""
    found = _CALENDAR.get((offset, unit))
    if found is None:
        return msg(N_("the calendar {unit} {offset} from this one"), unit=_COUNTED[unit], offset=f"{offset:+d}")
    return found


def named_period(unit: Unit, index: int, first: date) -> Message:
    """A named year, quarter or month ("the year 2027", "Q3 2026", "2026-03")."""
    if unit == "year":
        return msg(N_("the year {year}"), year=first.year)
    if unit == "quarter":
        return msg(N_("Q{index} {year}"), index=index, year=first.year)
    return plain(f"{first:%Y-%m}")


def rolling(amount: int, unit: Unit) -> Message:
    """A window ending at the reference instant ("the 7 day(s) before the reference instant")."""
    return msg(N_("the {amount} {unit} before the reference instant"), amount=amount, unit=_COUNTED[unit])


def since(day: date) -> Message:
    """From the start of a day to the reference instant."""
    return msg(N_("from the start of {day} to the reference instant"), day=day.isoformat())


def to_date(unit: Unit) -> Message:
    """From the start of the current period to the reference instant ("month to date")."""
    return _TO_DATE[unit]


def edge(unit: Unit, which: str) -> Message:
    """The first or last day of a period."""
    return _EDGE[(which, unit)]


def weekend(first: date, last: date) -> Message:
    """A weekend by its days ("the weekend 2026-11-28 to 2026-11-29")."""
    if first == last:
        return msg(N_("the weekend {first}"), first=first.isoformat())
    return msg(N_("the weekend {first} to {last}"), first=first.isoformat(), last=last.isoformat())


def weekend_taken(during: bool) -> Message:
    """Which weekend a doubly read phrase was taken as."""
    return msg(N_("the weekend in progress")) if during else msg(N_("the coming weekend"))


def following_weekend() -> Message:
    """The other reading of a doubly read weekend."""
    return msg(N_("the following weekend"))


def first_after_today(weekday: int) -> Message:
    """How "next Friday" was read: the first Friday after today."""
    return msg(N_("the first {weekday} after today"), weekday=WEEKDAYS[weekday])


def of_next_week(weekday: int) -> Message:
    """The other reading of "next Tuesday" said early in a week: Tuesday of next week."""
    return msg(N_("{weekday} of next week"), weekday=WEEKDAYS[weekday])


def after_the_coming_one(weekday: int) -> Message:
    """The other reading of "next Friday" said late in a week: the Friday after the coming one."""
    return msg(N_("the {weekday} after the coming one"), weekday=WEEKDAYS[weekday])


def nth_of_its_month(number: int, weekday: int) -> Message:
    """How a weekday of a month was read ("the second Tuesday of its month")."""
    return msg(N_("the {ordinal} {weekday} of its month"), ordinal=ordinal(number), weekday=WEEKDAYS[weekday])


def last_day_of_its_month() -> Message:
    """How "the last day of February" was read."""
    return msg(N_("the last day of its month"))


def latest_before_today() -> Message:
    """The other reading of a day of a named month said without a year."""
    return msg(N_("the latest one before today"))


def holiday(reading: HolidayReading, country: str | None = None) -> Message:
    """A holiday reading: its name as the data write it and where ("Thanksgiving Day: US, PR")."""
    countries = reading.countries
    if len(countries) > MAX_COUNTRIES_SHOWN:
        shown = ", ".join(countries[:MAX_COUNTRIES_SHOWN])
        return msg(
            N_("{name}: {shown}, ... ({count} countries in all)"), name=reading.name, shown=shown, count=len(countries)
        )
    place = ", ".join(countries) or country
    if not place:
        return Message("{name}", {"name": reading.name}, translatable=False)
    return Message("{name}: {place}", {"name": reading.name, "place": place}, translatable=False)


def every(
    frequency: str,
    interval: int,
    weekdays: Sequence[int],
    *,
    workdays: Sequence[int] = (),
    number: int = 0,
    month: int = 0,
    monthday: int = 0,
    clock: time | None = None,
) -> Message:
    """A recurrence in words ("every Monday to Friday at 09:30"); `workdays` are the locale's working days when
    the recurrence is on them, `number` the ordinal of a monthly weekday."""
    what = _every(frequency, interval, weekdays, workdays, number, month, monthday)
    return what if clock is None else msg(N_("{what} at {clock}"), what=what, clock=said_clock(clock))


def _every(
    frequency: str,
    interval: int,
    weekdays: Sequence[int],
    workdays: Sequence[int],
    number: int,
    month: int,
    monthday: int,
) -> Message:
    if workdays:
        if workdays[-1] - workdays[0] == len(workdays) - 1:
            return msg(N_("every {first} to {last}"), first=WEEKDAYS[workdays[0]], last=WEEKDAYS[workdays[-1]])
        return msg(N_("every {days}"), days=joined([WEEKDAYS[day] for day in workdays], ", "))
    if number:
        return msg(N_("the {ordinal} {weekday} of every month"), ordinal=ordinal(number), weekday=WEEKDAYS[weekdays[0]])
    if frequency == "WEEKLY":
        if not weekdays:
            return msg(N_("every week")) if interval == 1 else msg(N_("every {interval} weeks"), interval=interval)
        days = _and([WEEKDAYS[day] for day in weekdays])
        if interval == 1:
            return msg(N_("every {days}"), days=days)
        return msg(N_("every {interval} weeks on {days}"), interval=interval, days=days)
    if frequency == "MONTHLY":
        if monthday == -1:
            return msg(N_("every month on the last day"))
        if monthday:
            return msg(N_("every month on day {day}"), day=monthday)
        return msg(N_("every month on the same day"))
    if frequency == "YEARLY":
        if month:
            return msg(N_("every year on {day}"), day=f"{month:02d}-{monthday:02d}")
        return msg(N_("every year on the same day"))
    if interval == 1:
        return _EVERY_ONE[frequency]
    if frequency == "DAILY":
        return msg(N_("every {interval} days"), interval=interval)
    if frequency == "HOURLY":
        return msg(N_("every {interval} hours"), interval=interval)
    return msg(N_("every {interval} minutes"), interval=interval)


def _and(items: Sequence[Message]) -> Message:
    """Items joined by the language's 'and' ("Monday and Thursday")."""
    if len(items) == 1:
        return items[0]
    return msg(N_("{first} and {second}"), first=items[0], second=_and(items[1:]))
