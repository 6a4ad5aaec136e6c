"""Every sentence the calendar tools put in results: English source strings, translated per request (SEP-2792)."""

from __future__ import annotations

from typing import Final

from horologe.core.messages import N_
from horologe.i18n.language import Language

TEXT: Final = {
    "add.calendar": N_(
        "{start} + {amount} in {zone}: calendar units keep the wall clock ({wall}), then exact time "
        "is added; {elapsed} elapsed."
    ),
    "add.exact": N_("{start} + {amount}: exact elapsed time, {elapsed} later on the timeline."),
    "add.clamped": N_(" {missing} does not exist, so the day was clamped to {clamped}."),
    "add.gap": N_(" The wall time {wall} falls in a DST gap; '{policy}' placed it at {placed}."),
    "add.fold": N_(" The wall time {wall} occurs twice (DST fold); '{policy}' chose {placed}."),
    "business.count": N_(
        "{count} business days from {start} to {end} ({which}) in {place}; {holidays} holiday(s) "
        "on working weekdays excluded."
    ),
    "business.add": N_("{count} business days after {start} in {place} is {result} ({weekday})."),
    "business.end_included": N_("end included"),
    "business.end_excluded": N_("end excluded"),
    "business.extra_holiday": N_("Extra holiday"),
    "history.skip": N_("clocks jump from {before} to {after}: local times in between do not exist"),
    "history.repeat": N_("clocks go back from {before} to {after}: local times in between happen twice"),
    "history.rename": N_("only the abbreviation or DST flag changes; the offset stays {offset}"),
    "meeting.found": N_("{count} slot(s) of {minutes} minutes fit everyone's working hours; best first."),
    "meeting.none": N_(
        "No slot of {minutes} minutes fits all {people} participants' working hours in this range; "
        "the closest partial overlaps are listed (see 'unavailable')."
    ),
}


def text(language: Language, key: str, **values: object) -> str:
    """The text for `key` in the request's language, with `values` filled in."""
    return language.gettext(TEXT[key]).format(**values)
