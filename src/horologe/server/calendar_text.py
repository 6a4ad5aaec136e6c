"""Every English sentence the calendar tools put in results, in one place so it can be translated later."""

from __future__ import annotations

from typing import Final

TEXT: Final = {
    "add.calendar": "{start} + {amount} in {zone}: calendar units keep the wall clock ({wall}), then exact time "
    "is added; {elapsed} elapsed.",
    "add.exact": "{start} + {amount}: exact elapsed time, {elapsed} later on the timeline.",
    "add.clamped": " {missing} does not exist, so the day was clamped to {clamped}.",
    "add.gap": " The wall time {wall} falls in a DST gap; '{policy}' placed it at {placed}.",
    "add.fold": " The wall time {wall} occurs twice (DST fold); '{policy}' chose {placed}.",
    "business.count": "{count} business days from {start} to {end} ({which}) in {place}; {holidays} holiday(s) "
    "on working weekdays excluded.",
    "business.add": "{count} business days after {start} in {place} is {result} ({weekday}).",
    "business.end_included": "end included",
    "business.end_excluded": "end excluded",
    "history.skip": "clocks jump from {before} to {after}: local times in between do not exist",
    "history.repeat": "clocks go back from {before} to {after}: local times in between happen twice",
    "history.rename": "only the abbreviation or DST flag changes; the offset stays {offset}",
    "meeting.found": "{count} slot(s) of {minutes} minutes fit everyone's working hours; best first.",
    "meeting.none": "No slot of {minutes} minutes fits all {people} participants' working hours in this range; "
    "the closest partial overlaps are listed (see 'unavailable').",
}


def text(key: str, **values: object) -> str:
    """The English text for `key` with `values` filled in."""
    return TEXT[key].format(**values)
