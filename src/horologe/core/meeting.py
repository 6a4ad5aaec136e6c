"""Meeting slots across zones: the intersection of everyone's working hours, DST-correct per local date.

Each participant's working hours are wall-clock times on working weekdays in their own zone; every local
date is placed on the timeline separately (with 'compatible' for gap/fold edges), so a DST change in one zone
during the range moves that participant's window by an hour in UTC, as it does in life. Hours whose end is
not after the start run overnight into the next day.

Ranking: slots where everyone is available, best first by the smallest margin any participant has to the
edge of their working hours (a slot in the middle of everyone's day beats one at someone's 8:55), then by
start time. Without any such slot, the best partial slots (most participants available) are returned.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Final

from horologe.core.budget import UNLIMITED, Budget
from horologe.core.errors import InvalidArgument
from horologe.core.localtime import resolve_local
from horologe.core.messages import N_

MAX_RANGE_DAYS: Final = 31
MAX_PARTICIPANTS: Final = 50
DEFAULT_START: Final = time(9)
DEFAULT_END: Final = time(17)
DEFAULT_DAYS: Final = frozenset(range(5))


@dataclass(frozen=True, slots=True)
class Participant:
    """Someone's zone and working hours (wall times on the given weekdays, Monday 0)."""

    zone: tzinfo
    start: time = DEFAULT_START
    end: time = DEFAULT_END
    days: frozenset[int] = DEFAULT_DAYS


@dataclass(frozen=True, slots=True)
class Slot:
    """A candidate meeting: its UTC interval, who can attend, and the worst margin to anyone's edge."""

    start: datetime
    end: datetime
    available: tuple[int, ...]
    margin: timedelta


def working_windows(
    person: Participant, first: date, last: date, budget: Budget = UNLIMITED
) -> list[tuple[datetime, datetime]]:
    """The participant's working intervals (UTC) for local dates first-1 .. last+1 (to cover zone offsets); each day
    a step of `budget`."""
    windows = []
    day = first - timedelta(days=1) if first > date.min else first
    while day <= last + timedelta(days=1) and day < date.max:
        budget.spend()
        if day.weekday() in person.days:
            begin = resolve_local(datetime.combine(day, person.start), person.zone).instant.astimezone(UTC)
            end_day = day if person.end > person.start else day + timedelta(days=1)
            end = resolve_local(datetime.combine(end_day, person.end), person.zone).instant.astimezone(UTC)
            if end > begin:
                windows.append((begin, end))
        day += timedelta(days=1)
    return windows


def find_slots(
    people: Sequence[Participant],
    range_start: datetime,
    range_end: datetime,
    duration: timedelta,
    step: timedelta,
    budget: Budget = UNLIMITED,
) -> list[Slot]:
    """Every step-aligned slot of `duration` in [range_start, range_end) with who is available in it; each slot and
    each participant's day a step of `budget`."""
    _check(people, range_start, range_end, duration, step)
    first, last = range_start.date() - timedelta(days=1), range_end.date()
    windows = [working_windows(person, first, last, budget) for person in people]
    slots = []
    begin = range_start.astimezone(UTC)
    finish = range_end.astimezone(UTC)
    while begin + duration <= finish:
        budget.spend()
        end = begin + duration
        available, margins = [], []
        for index, person_windows in enumerate(windows):
            margin = _margin(person_windows, begin, end)
            if margin is not None:
                available.append(index)
                margins.append(margin)
        if available:
            slots.append(Slot(begin, end, tuple(available), min(margins)))
        begin += step
    return slots


def rank(slots: Sequence[Slot], participants: int, limit: int) -> tuple[list[Slot], bool]:
    """The best `limit` slots: full-overlap ones if any (found=True), else the largest partial overlaps."""
    full = [slot for slot in slots if len(slot.available) == participants]
    if full:
        return sorted(full, key=lambda s: (-s.margin, s.start))[:limit], True
    partial = sorted(slots, key=lambda s: (-len(s.available), -s.margin, s.start))
    return partial[:limit], False


def _margin(windows: list[tuple[datetime, datetime]], begin: datetime, end: datetime) -> timedelta | None:
    for low, high in windows:
        if low <= begin and end <= high:
            return min(begin - low, high - end)
    return None


def _check(
    people: Sequence[Participant], range_start: datetime, range_end: datetime, duration: timedelta, step: timedelta
) -> None:
    if not people:
        raise InvalidArgument(
            N_("Give at least one participant, e.g. {example}."), example="[{'timezone': 'Europe/Vienna'}]"
        )
    if len(people) > MAX_PARTICIPANTS:
        raise InvalidArgument(
            N_("At most {limit} participants are supported; got {count}."), limit=MAX_PARTICIPANTS, count=len(people)
        )
    if range_end <= range_start:
        raise InvalidArgument(N_("The date range is empty: its end must not be before its start."))
    if range_end - range_start > timedelta(days=MAX_RANGE_DAYS + 1):
        raise InvalidArgument(
            N_("The date range is longer than {limit} days. Search a shorter range, e.g. one week."),
            limit=MAX_RANGE_DAYS,
            details={"limit_days": MAX_RANGE_DAYS},
        )
    if not timedelta(minutes=1) <= duration <= timedelta(hours=24):
        raise InvalidArgument(N_("The meeting duration must be between 1 minute and 24 hours, e.g. 'PT30M' or 60."))
    if not timedelta(minutes=5) <= step <= timedelta(hours=24):
        raise InvalidArgument(N_("step_minutes must be between 5 and 1440."))
