"""Locale data from Babel (CLDR): whether a locale exists, its first day of the week, localized dates and units.

Babel is imported inside the functions: most requests never need it and server start-up stays fast.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Mapping
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from horologe.core.weekdays import DAY_NAMES
from horologe.i18n import SOURCE_LANGUAGE

if TYPE_CHECKING:
    from babel import Locale

_OFFSET_NAME = re.compile("(?:GMT|UTC)?[+\u2212-]\\d")
_SUBTAG = re.compile("[a-z]{2,8}")


def babel_locale(tag: str) -> Locale | None:
    """The CLDR locale for a BCP 47 tag, falling back to language-region and language; None if unknown.

    Only the language, script and region of the tag are looked up (a private-use or extension part never reaches
    a cache), and only locales CLDR has are kept: what a client can send does not grow memory.
    """
    parts = tag.lower().split("-")
    if not _SUBTAG.fullmatch(parts[0]):
        return None
    region = next((part for part in parts[1:] if len(part) == 2 or (len(part) == 3 and part.isdigit())), None)
    script = next((part for part in parts[1:] if len(part) == 4 and part.isalpha()), None)
    candidates = ["-".join(p for p in (parts[0], script, region) if p), "-".join(p for p in (parts[0], region) if p)]
    for candidate in dict.fromkeys([*candidates, parts[0]]):
        identifier = _cldr_identifier(candidate)
        if identifier is not None:
            return _locale(identifier)
    return None


def _cldr_identifier(candidate: str) -> str | None:
    """The canonical identifier of the CLDR locale a 'language[-script][-region]' candidate names, if CLDR has it."""
    from babel import Locale, UnknownLocaleError

    try:
        return str(Locale.parse(candidate, sep="-"))
    except (UnknownLocaleError, ValueError):
        return None


MAX_LOCALES: Final = 24
"""Locales whose CLDR data a process keeps besides our own languages' (`KEPT`): the least recently used is dropped,
Babel's copy of its data too, so a client that asks for every CLDR locale costs at most this many (each loaded locale
is 0.1-0.3 MiB; all of CLDR's near 190 MiB)."""
KEPT: Final = frozenset({"root", "en", "en_US", "de", "fr", "es", "ja", "zh_Hans", "zh"})
_loaded: OrderedDict[str, Locale] = OrderedDict()
_loaded_lock = threading.Lock()


def _locale(identifier: str) -> Locale:
    """The Babel locale of a CLDR identifier, kept while it is among the `MAX_LOCALES` most recently used."""
    from babel import Locale

    with _loaded_lock:
        found = _loaded.get(identifier)
        if found is not None:
            _loaded.move_to_end(identifier)
            return found
    locale = Locale.parse(identifier)
    with _loaded_lock:
        _loaded[identifier] = locale
        while len(_loaded) > MAX_LOCALES:
            dropped, _ = _loaded.popitem(last=False)
            _with_territory.cache_clear()
            _forget(dropped)
    return locale


def _forget(identifier: str) -> None:
    """Drop Babel's cached data of a locale (Babel keeps every locale it loaded for the process's life: its private
    `localedata._cache`, read here with care so that a Babel without it only loses the bound)."""
    from babel import localedata

    cache, lock = getattr(localedata, "_cache", None), getattr(localedata, "_cache_lock", None)
    if identifier in KEPT or not isinstance(cache, dict) or lock is None:
        return
    with lock:
        cache.pop(identifier, None)


def locale_known(tag: str) -> bool:
    """Whether CLDR has data for the tag (or its language)."""
    return babel_locale(tag) is not None


def first_week_day(tag: str | None) -> int | None:
    """The locale's first day of the week (0 = Monday), its territory implied by likely subtags; None if unknown."""
    locale = territorial_locale(tag)
    return None if locale is None else int(locale.first_week_day)


def weekend_days(tag: str | None) -> tuple[int, int] | None:
    """The locale's weekend as (first day, last day), 0 = Monday (Saturday-Sunday in de-AT, Friday-Saturday in
    he-IL); None if unknown."""
    locale = territorial_locale(tag)
    return None if locale is None else (int(locale.weekend_start), int(locale.weekend_end))


def territorial_locale(tag: str | None) -> Locale | None:
    """The CLDR locale of a tag, with the territory its language most likely means when it names none."""
    if tag is None:
        return None
    locale = babel_locale(tag)
    return None if locale is None else _with_territory(str(locale))


@lru_cache(maxsize=MAX_LOCALES)  # keyed by CLDR's own identifiers; emptied when a locale is dropped
def _with_territory(identifier: str) -> Locale:
    from babel.core import get_global

    locale = _locale(identifier)
    if locale.territory is not None:
        return locale
    likely = _cldr_identifier(get_global("likely_subtags").get(locale.language, "").replace("_", "-"))
    return _locale(likely) if likely else locale  # CLDR's likely locale may be one Babel lacks ('no': no_Latn_NO)


def human_datetime(instant: datetime, tag: str) -> str | None:
    """A full date with a short time and zone name in the locale's CLDR patterns; None if the locale is unknown.

    de-AT gives 'Sonntag, 22. November 2026, 04:11 MEZ'; en-US 'Sunday, November 22, 2026, 4:11 AM EST'.
    The zone name is CLDR's short name when it has one, else the tz database abbreviation ('CET').
    """
    locale = babel_locale(tag)
    if locale is None:
        return None
    from babel.dates import format_date, format_time, get_datetime_format, get_timezone_gmt, get_timezone_name

    zone_name = get_timezone_name(instant, width="short", locale=locale)
    abbreviation = instant.tzname() or ""
    if _OFFSET_NAME.match(zone_name):
        zone_name = abbreviation if abbreviation.isalpha() else get_timezone_gmt(instant, locale=locale)
    clock = f"{format_time(instant, 'short', locale=locale)} {zone_name}"
    glue = str(get_datetime_format("full", locale=locale)).replace("'", "")
    return glue.replace("{0}", clock).replace("{1}", format_date(instant, "full", locale=locale))


_DURATION_UNITS = (
    ("years", "duration-year"),
    ("months", "duration-month"),
    ("days", "duration-day"),
    ("hours", "duration-hour"),
    ("minutes", "duration-minute"),
    ("seconds", "duration-second"),
)


def human_duration(breakdown: Mapping[str, float], tag: str) -> str:
    """A calendar breakdown as CLDR unit phrases joined as a list: '2 Tage, 3 Stunden und 5 Minuten' (de).

    Units and list patterns come from CLDR through Babel, never from our catalogs.
    """
    from babel.lists import format_list

    locale = babel_locale(tag) or babel_locale("en")
    parts = [_unit(breakdown[key], unit, locale) for key, unit in _DURATION_UNITS if breakdown.get(key)]
    if not parts:
        return _unit(0, "duration-second", locale)
    return str(format_list(parts, style="standard", locale=locale))


def human_amount(value: float, unit: str, tag: str) -> str:
    """An amount of one unit ('seconds', 'minutes', 'hours' or 'days') as CLDR words: '30.6 days', '30,6 Tage'."""
    locale = babel_locale(tag) or babel_locale("en")
    return _unit(int(value) if float(value).is_integer() else value, f"duration-{unit.removesuffix('s')}", locale)


def weekday_name(number: int, tag: str) -> str:
    """A weekday (0 = Monday) as a sentence in the language names it: English's `DAY_NAMES` spelling, CLDR's wide
    name elsewhere ('Dienstag', 'mardi', '火曜日', '星期二')."""
    if tag == SOURCE_LANGUAGE:
        return DAY_NAMES[number]
    from babel.dates import get_day_names

    return str(get_day_names("wide", locale=babel_locale(tag) or babel_locale("en"))[number])


def hours_phrase(hours: float, tag: str) -> str:
    """A number of hours as words: '1 hour' and '3 hours' in English, CLDR's unit pattern in other languages."""
    if tag == SOURCE_LANGUAGE:
        return f"{hours:g} hours" if hours != 1 else "1 hour"
    return _unit(hours, "duration-hour", babel_locale(tag) or babel_locale("en"))


def _unit(value: float, unit: str, locale: Locale | None) -> str:
    """The long unit phrase; the short one where Babel lacks the long form (ja and zh alias long to short)."""
    from babel.units import format_unit

    text = str(format_unit(value, unit, length="long", locale=locale))
    return text if unit not in text else str(format_unit(value, unit, length="short", locale=locale))
