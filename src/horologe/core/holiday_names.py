"""Holidays by name ("Christmas", "Thanksgiving in Canada", "Diwali"), read from the `holidays` package's data.

Decisions worth knowing:

- A name is compared word by word, ignoring case, accents, small words ("the", "of", "day", "de", "der" ...) and
  word endings, so "Christmas" is "Christmas Day", "Weihnachten" is "Erster Weihnachtstag" and "New Year" is "New
  Year's Day". A feast named after its Sunday or its first day is the feast ("Easter" is "Easter Sunday"); any other
  extra word makes another holiday ("Easter" is not "Easter Monday", "Christmas" not "Christmas Eve"). Observed
  (substitute) days are not the holiday.
- The country is the one the text names ("Thanksgiving in Canada", "Weihnachten in Deutschland", "Noël en Belgique",
  "Thanksgiving US"): by code or by a name in `zones.country_names` (the tz database's names and synonyms, and with
  a places table its names in twelve languages), a name several countries share ("Korea") refused naming them;
  else the caller's (the
  client's country, else the country of the zone the expression is read in); its data in every category the package
  has (Christmas Eve is a bank holiday in Austria) and in American English, its own language and the expression's.
- A name the country the text names does not have is the country's holiday on the day the other countries' data
  clearly give that name ("Navidad en España" is Spain's "Natividad del Señor", "Noël en Allemagne" Germany's
  Christmas Day); no such day, or no holiday on it there, is no answer.
- A name the caller's country does not have is looked up in every country's data: which countries name it comes from
  an index (`NameIndex`: the package ships one built by scripts/build_holiday_names.py; without one it is read once
  per process), the dates from those countries' data. When the countries agree on a date, or
  clearly most of them do (at least twice as many as on any other date, and half of all), that date is the answer
  and the next most common one is the other reading (Thanksgiving: the United States' date, Canada's as the other;
  Easter: the Western date, the Orthodox one as the other). Otherwise there is no answer, only the candidates.
- Without a year, a holiday is the next one on or after the reference day; "next" the first one after it, "last" the
  latest one before it, "this" the reference year's.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from functools import cache, lru_cache
from typing import Final, Literal

from horologe.core.budget import UNLIMITED, Budget
from horologe.core.calendar import language_tag, shared_country_name, show_estimated
from horologe.core.gazetteer import Gazetteer, fold
from horologe.core.messages import Written
from horologe.core.zones import country_names

Mode = Literal["upcoming", "next", "last", "this", "year"]
NameIndex = Mapping[frozenset[str], frozenset[str]]
"""A holiday name's key (`name_key`) -> the countries whose data name a holiday so."""

STOPWORDS: Final = frozenset(
    {"the", "of", "day", "s", "holiday", "d", "l", "de", "du", "la", "le", "les", "des", "del", "el", "los", "las"}
    | {"y", "et", "and", "und", "der", "die", "das", "den", "dem", "am", "im", "no"}
)
"""Words a holiday's name may have or lack and still be the same holiday (after folding)."""
SAME_FEAST: Final = frozenset(
    {"sunday", "sonntag", "dimanche", "domingo", "first", "erster", "erste", "premier", "premiere", "primer", "primero"}
)
"""Extra words that leave a feast the same: it is named after its Sunday or its first day ("Easter Sunday")."""
_PREPOSITIONS: Final = (
    "in the",
    "in der",
    "in den",
    "en el",
    "en los",
    "in",
    "im",
    "en",
    "au",
    "aux",
    "a",
    "de",
    "del",
)
_ARTICLES: Final = ("the ", "la ", "le ", "les ", "l ", "el ", "los ", "las ", "die ", "der ", "den ")
"""Articles a country's name may carry after the preposition ("in the US", "aux États-Unis": "les")."""
MAX_SUGGESTED: Final = 3


@dataclass(frozen=True, slots=True)
class HolidayReading:
    """A date a holiday falls on, its name as the data writes it (in the language of the data it came from), and the
    countries whose data say so."""

    day: date
    name: Written
    countries: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HolidayAnswer:
    """What a holiday's name means: the reading taken and the other one, or (reading None) only candidates."""

    reading: HolidayReading | None
    other: HolidayReading | None
    candidates: tuple[HolidayReading, ...]
    country: str | None
    """The country whose data were asked first (the text's or the caller's)."""


def find_holiday(
    text: str,
    *,
    mode: Mode,
    year: int | None,
    today: date,
    home: str | None,
    language: str = "en",
    budget: Budget = UNLIMITED,
    index: NameIndex | None = None,
    places: Gazetteer | None = None,
) -> HolidayAnswer | None:
    """The holiday called `text` (folded, maybe ending with a country), or None when no data name it. `index` says
    which countries name what (read from every country's data when not given); `places` adds its country names in
    twelve languages to the English ones. Raises InvalidArgument when the country named is one several share."""
    name, named_country = split_country(text, places)
    key = name_key(name)
    if not key:
        return None
    years = _years(mode, year, today)
    country = named_country or (home if home in _codes() else None)
    if country is not None:
        entries = [entry for y in years for entry in _entries(country, y, language)]
        chosen = _choose(_matches(key, entries), mode, today)
        if chosen is not None:
            return HolidayAnswer(chosen, None, (chosen,), country)
        if named_country is not None:
            return _on_its_day(_everywhere(key, years, mode, today, language, budget, index), country, entries)
    return _everywhere(key, years, mode, today, language, budget, index, country)


def _on_its_day(
    elsewhere: HolidayAnswer | None, country: str, entries: list[tuple[date, Written, frozenset[str]]]
) -> HolidayAnswer | None:
    """The named country's holiday on the day other countries' data give the name, when they agree on one: the
    same feast in a language the country's data lack ("Navidad en España" is its "Natividad del Señor")."""
    if elsewhere is None or elsewhere.reading is None:
        return None
    day = elsewhere.reading.day
    names = sorted((name for entry_day, name, _ in entries if entry_day == day), key=lambda name: "(" in name)
    if not names:
        return None
    reading = HolidayReading(day, names[0], ())
    return HolidayAnswer(reading, None, (reading,), country)


def _everywhere(
    key: frozenset[str],
    years: tuple[int, ...],
    mode: Mode,
    today: date,
    language: str,
    budget: Budget,
    index: NameIndex | None,
    country: str | None = None,
) -> HolidayAnswer | None:
    """The holiday of that name in every country's data whose index entry has it (see the module)."""
    index = index if index is not None else _name_index(today.year, budget)
    having = sorted(
        {code for entry_key, codes in index.items() if _score(key, entry_key) is not None for code in codes}
    )
    by_day: dict[date, list[tuple[str, Written]]] = {}
    for code in having:
        budget.spend()
        chosen_day = _choose(
            _matches(key, [entry for y in years for entry in _entries(code, y, language)]), mode, today
        )
        if chosen_day is not None:
            by_day.setdefault(chosen_day.day, []).append((code, chosen_day.name))
    readings = sorted(
        (HolidayReading(day, hits[0][1], tuple(sorted(code for code, _ in hits))) for day, hits in by_day.items()),
        key=lambda reading: (-len(reading.countries), reading.day),
    )
    if not readings:
        return None
    readings[0] = _with_namesakes(readings[0], key, years, language, budget, index)
    total = sum(len(reading.countries) for reading in readings)
    first, second = readings[0], readings[1] if len(readings) > 1 else None
    clear = second is None or (len(first.countries) >= 2 * len(second.countries) and 2 * len(first.countries) >= total)
    return HolidayAnswer(first if clear else None, second, tuple(readings), country)


def _with_namesakes(
    reading: HolidayReading,
    key: frozenset[str],
    years: tuple[int, ...],
    language: str,
    budget: Budget,
    index: NameIndex,
) -> HolidayReading:
    """The reading with every country whose data give that day a holiday named with no word beyond the ones its
    matches use: Orthodox Easter on 2027-05-02 is also Bulgaria's and Romania's "Easter" and Cyprus' and Georgia's
    "Easter Sunday", not only the four countries that write "Orthodox"."""
    words = key | name_key(_plain(reading.name))
    found = set(reading.countries)
    candidates = sorted(
        {code for entry_key, codes in index.items() if entry_key and entry_key <= words for code in codes} - found
    )
    for code in candidates:
        budget.spend()
        entries = (entry for year in years if year == reading.day.year for entry in _entries(code, year, language))
        if any(day == reading.day and entry_key <= words for day, _, entry_key in entries):
            found.add(code)
    return HolidayReading(reading.day, reading.name, tuple(sorted(found)))


def close_names(
    text: str, home: str | None, year: int, language: str = "en", places: Gazetteer | None = None
) -> list[str]:
    """Holiday names of the country `text` names (else the caller's) that look like `text`, for an error's
    suggestions."""
    import difflib

    name, named_country = split_country(text, places)
    country = named_country or (home if home in _codes() else None)
    if country is None:
        return []
    names = list(dict.fromkeys(holiday for _, holiday, _ in _entries(country, year, language)))
    folded = {fold_name(holiday): holiday for holiday in names}
    close = difflib.get_close_matches(fold_name(name), list(folded), n=MAX_SUGGESTED, cutoff=0.6)
    return [folded[match] for match in close]


def split_country(text: str, places: Gazetteer | None = None) -> tuple[str, str | None]:
    """A holiday's name and the country its last words name ("thanksgiving in canada" -> thanksgiving, CA;
    "weihnachten in deutschland" -> weihnachten, DE). Raises InvalidArgument for a name several countries share."""
    words = text.split()
    for size in (3, 2, 1):
        if len(words) <= size:
            continue
        country = country_code(" ".join(words[-size:]), places)
        if country is None:
            continue
        rest = " ".join(words[:-size])
        for preposition in _PREPOSITIONS:
            if rest.endswith(" " + preposition):
                rest = rest[: -len(preposition) - 1]
                break
        if rest:
            return rest, country
    return text, None


def country_code(text: str, places: Gazetteer | None = None) -> str | None:
    """The ISO code of a country the `holidays` package has data for, by code or by name (`zones.country_names`:
    English, and with `places` twelve languages); None for no such country. Raises InvalidArgument for a name
    several countries share ("Korea")."""
    wanted = fold(text)
    for article in _ARTICLES:
        wanted = wanted.removeprefix(article)
    if len(wanted) == 2 and wanted.upper() in _codes():
        return wanted.upper()
    found = [code for code in country_names(places).get(wanted, ()) if code in _codes()]
    if len(found) > 1:
        raise shared_country_name(text, found)
    return found[0] if found else None


def fold_name(text: str) -> str:
    """Lower case, accents dropped, NFKC (the grammar's folding, for names as the data write them)."""
    out = []
    for char in unicodedata.normalize("NFKC", text).replace("\u2019", "'").casefold():
        base = unicodedata.normalize("NFD", char)
        out.append(base[0] if len(base) > 1 and base[0].isascii() else char)
    return " ".join("".join(out).split())


def name_key(text: str) -> frozenset[str]:
    """The words that identify a holiday's name: folded, small words out, endings off ("saint" is "st")."""
    folded = fold_name(text)
    words = re.findall(r"\w+", folded)
    if len(words) == 1 and not folded.isascii():  # Japanese and other scripts without spaces: the whole name
        return frozenset({folded.removesuffix("の日").removesuffix("日") or folded})
    return frozenset(_stem("st" if word == "saint" else word) for word in words if word not in STOPWORDS)


def _stem(word: str) -> str:
    """A word without the endings that vary between a name and its compounds ("Ostern", "Ostersonntag")."""
    for suffix in ("sonntag", "tag"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)]
            break
    for suffix in ("en", "n", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


_SAME_FEAST_STEMS: Final = frozenset(_stem(word) for word in SAME_FEAST)


def _score(key: frozenset[str], entry: frozenset[str]) -> int | None:
    """0 for the same name, 1 for the same feast ("Easter" and "Easter Sunday"), None for another holiday."""
    if key == entry:
        return 0
    extra = entry - key
    if key < entry and all(word in _SAME_FEAST_STEMS or len(word) <= 2 for word in extra):
        return 1
    return None


def _matches(
    key: frozenset[str], entries: Iterable[tuple[date, Written, frozenset[str]]]
) -> list[tuple[date, Written]]:
    scored = [(score, day, name) for day, name, entry in entries if (score := _score(key, entry)) is not None]
    if not scored:
        return []
    best = min(score for score, _, _ in scored)
    return [(day, name) for score, day, name in scored if score == best]


def _choose(found: list[tuple[date, Written]], mode: Mode, today: date) -> HolidayReading | None:
    """The date the mode picks among a country's dates of the holiday (a plain name before one with a qualifier)."""
    ordered = sorted(found, key=lambda item: (item[0], "(" in item[1]))
    if mode == "upcoming":
        picked = next((item for item in ordered if item[0] >= today), None)
    elif mode == "next":
        picked = next((item for item in ordered if item[0] > today), None)
    elif mode == "last":
        picked = next((item for item in reversed(ordered) if item[0] < today), None)
    else:
        picked = ordered[0] if ordered else None
    return HolidayReading(picked[0], picked[1], ()) if picked else None


def _years(mode: Mode, year: int | None, today: date) -> tuple[int, ...]:
    if year is not None:
        return (year,)
    if mode == "this":
        return (today.year,)
    if mode == "last":
        return tuple(y for y in (today.year - 1, today.year) if y >= 1)
    return tuple(y for y in (today.year, today.year + 1) if y <= 9999)


def names_of_country(country: str, year: int, language: str = "en") -> set[frozenset[str]]:
    """The keys of the holiday names a country's data has in a year (its language, American English, `language`)."""
    return {key for _, _, key in _entries(country, year, language)}


def _entries(country: str, year: int, language: str) -> list[tuple[date, Written, frozenset[str]]]:
    return [(day, name, key) for _, day, name, key in _country_year(country, year, language)]


@lru_cache(maxsize=1024)
def _country_year(country: str, year: int, language: str) -> tuple[tuple[str, date, Written, frozenset[str]], ...]:
    import holidays

    base = holidays.country_holidays(country)
    supported = tuple(base.supported_languages)
    asked = [code for code in supported if code.split("_")[0] == language][:1]
    # In this order: a name written alike in several languages is taken as written in the first (the expression's)
    languages = dict.fromkeys([*asked, base.default_language, *(["en_US"] if "en_US" in supported else [])])
    found = []
    for chosen in languages:
        data = holidays.country_holidays(country, language=chosen, categories=tuple(base.supported_categories))
        show_estimated(data)  # an estimated date says so in its name ('Eid al-Fitr Holiday (estimated)')
        _ = date(year, 1, 1) in data  # loads the year
        tag = language_tag(chosen) if chosen else "en"  # the package's names without a language code are English
        found += [
            (country, day, Written(name, tag))
            for day, names in data.items()
            if day.year == year
            for name in _names_of(names)
        ]
    return tuple((code, day, name, key) for code, day, name in dict.fromkeys(found) if (key := name_key(_plain(name))))


def _names_of(text: str) -> Iterator[str]:
    """The holidays one entry names ("A; B", "A / B"), observed days left out."""
    for part in re.split(r"; | / ", text):
        if "observed" not in part.casefold() and part.strip():
            yield part.strip()
            inner = re.search(r"\(([^()]+)\)", part)
            if inner and not re.search(r"estimated|observed", inner[1], re.IGNORECASE):
                yield inner[1]


def _plain(name: str) -> str:
    return re.sub(r"\s*\([^()]*\)", "", name)


_NAME_INDEX: dict[frozenset[str], frozenset[str]] = {}


def _name_index(year: int, budget: Budget) -> dict[frozenset[str], frozenset[str]]:
    """Which countries' data name each holiday (in American English and their own language), read once: names
    hardly change from year to year, and the dates are then worked out for the few countries that have the name."""
    if not _NAME_INDEX:
        having: dict[frozenset[str], set[str]] = {}
        for code in _codes():
            budget.spend()
            for key in names_of_country(code, year):
                having.setdefault(key, set()).add(code)
        _NAME_INDEX.update({key: frozenset(codes) for key, codes in having.items()})
    return _NAME_INDEX


@cache
def _codes() -> tuple[str, ...]:
    import holidays

    return tuple(holidays.list_supported_countries(include_aliases=False))
