"""Resolving what users and models type ('Vienna', 'US/Eastern', '+05:30', 'IST') into a zone.

Resolution order (first match wins):

1. an exact IANA key (``Europe/Vienna``, ``US/Eastern``, ``Etc/GMT+3`` keeps its POSIX meaning UTC-3);
2. a UTC spelling (``UTC``, ``Z``, ``Zulu``, ``Etc/UTC`` ... any case); ``GMT``, ``Etc/GMT`` and ``Greenwich``
   are the database's own zone Etc/GMT (abbreviation GMT), not renamed UTC;
3. an IANA key ignoring case (``europe/vienna``);
4. a UTC offset (``+05:30``, ``+0530``, ``-3``, ``UTC+2``, ``GMT-03:30``), at most 14 hours; ``GMT+3`` is
   not an IANA key and means UTC+3 as people write it (only ``Etc/GMT+3`` keeps the inverted POSIX sign);
5. an abbreviation from the curated table below (``PST``, ``IST`` ...);
6. an ISO 3166 country code (``AT``);
7. an IANA key ignoring accents and spaces vs underscores (``America/Sao Paulo``);
8. a country name (``Austria``, ``Samoa``);
9. a city: the last segment of a canonical or zone.tab key (``new york``, ``São Paulo``);
10. a city named only by a legacy link (``Calcutta``, ``Eastern``).

With a places table (`horologe.core.gazetteer`, what `horologe.places` loads), what people type is read further,
after the abbreviations and the database's own names (steps 1-5 and 7):
- coordinates (``48.2082, 16.3738``, ``48.2°N 16.4°E``; `horologe.core.coordinates`), before offsets, through the
  coordinates lookup the table comes with;
- one ranking of every city (15,000+ people; own, former and foreign names: ``Mumbai``, ``Bombay``, ``Москва``),
  first-level division (``Bavaria``, ``Bayern``) and country (a code, a name in twelve languages) of the name, by
  people and the client's country, a tie refused (`horologe.core.place_names` states the rules);
- qualified names: ``City, Country``, ``City, State``, ``City, State, Country`` (names or codes), then the zones'
  own city names and the CLDR exemplar cities in twelve languages (``Wien``, ``東京``), and last ``City State``
  without a comma when only one split of the words names a place (``Portland Oregon``).
Every result names its zone by its current name (`tzdb.preferred_name`).

Abbreviation rule, one in every season: an abbreviation a person types names its region's clock all year
(``EST`` and ``EDT`` are America/New_York's clock, in July too, as ``PST`` is Los Angeles'), and the zone says it
was read as an abbreviation (kind ``abbreviation``). The database has zones literally named EST, MST, HST, CET,
EET, WET, MET; given as a database key (`source="database"`: a host's TZ, a client context's IANA timezone, a
stored preference) they keep the database's meaning (``EST`` is America/Panama, UTC-5 all year). The table maps
each abbreviation to the zone where it is used (the most populous one when several zones
share the same clock, e.g. ``AEST`` -> Australia/Sydney). Abbreviations that name different
clocks in common usage (``IST``, ``CST``, ``BST``, ``AST`` ...) raise AmbiguousTimezone unless
`country_hint` picks exactly one candidate. Two-letter abbreviations (ET, PT, MT) are left out on
purpose: they are ISO country codes (Ethiopia, Portugal, Malta). Letters written as a word (``Est``, title case)
that name a place are that place, not an abbreviation.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from functools import cache, lru_cache
from types import MappingProxyType
from typing import Final, Literal

from horologe.core import tzdb
from horologe.core.coordinates import COORDINATES_HELP, looks_like_coordinates, read_coordinates
from horologe.core.errors import AmbiguousTimezone, InvalidArgument, InvalidTimezone
from horologe.core.gazetteer import Gazetteer, fold
from horologe.core.messages import N_, Message, msg
from horologe.core.place_names import (
    CITY_RIVAL,
    Candidate,
    candidates,
    city_label,
    in_scope,
    named_places,
    namesake,
    qualifier_scopes,
    within,
)
from horologe.core.zone_words import clock_named

ZoneKind = Literal[
    "iana",
    "alias",
    "fixed_offset",
    "utc",
    "city",
    "abbreviation",
    "case_insensitive",
    "country",
    "region",
    "coordinates",
]

MAX_INPUT_LENGTH = 256
_READ_KINDS = frozenset({"abbreviation", "city", "country", "region", "coordinates"})
_RENAMED_KINDS = frozenset({"alias", "case_insensitive"})
AMBIGUOUS_SHARE: Final = 0.5
"""A city is ambiguous when another of the same name, in another zone, has at least half its weight."""
MAX_FUZZY_INPUT: Final = 64
MAIN_ZONES: Final = 5
OTHER_SHARE: Final = 0.1
"""Smaller cities of the same name in other zones are named with the reading down to a tenth of its weight (and only
plausible ones: `place_names.namesake`)."""
MAX_OFFSET = timedelta(hours=14)
TIMEZONE_HELP: Final = msg(N_("Use an IANA name such as 'Europe/Vienna', a UTC offset such as '+05:30', or 'UTC'."))
PLACE_HELP: Final = msg(
    N_(
        "Name a city ('Vienna'), a city with its country or state ('Vienna, Austria', 'Portland, Oregon'), a state or "
        "province ('Bavaria'), coordinates ('48.21, 16.37'), an IANA name ('Europe/Vienna') or a UTC offset ('+05:30')."
    )
)
_HELP_SUGGESTIONS: Final = ("UTC", "Europe/Vienna", "+05:30")
_UTC_CANONICAL = frozenset({"Etc/UTC"})
_UTC_WORDS = frozenset({"z", "ut"})
_OFFSET = re.compile(r"^(?:UTC|GMT|UT)?([+-])(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?$", re.IGNORECASE)
_OFFSET_LIKE = re.compile(r"^(?:UTC|GMT|UT)?[+-]", re.IGNORECASE)

# Abbreviation -> candidate zones. One candidate: resolved directly. Several: AmbiguousTimezone.
ABBREVIATIONS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        # North America (EST, MST, HST are also database keys: typed by a person, they name the region's clock)
        "EST": ("America/New_York",),
        "EDT": ("America/New_York",),
        "MST": ("America/Denver",),
        "HST": ("Pacific/Honolulu",),
        "CDT": ("America/Chicago", "America/Havana"),
        "MDT": ("America/Denver",),
        "PST": ("America/Los_Angeles",),
        "PDT": ("America/Los_Angeles",),
        "AKST": ("America/Anchorage",),
        "AKDT": ("America/Anchorage",),
        "HDT": ("America/Adak",),
        "ADT": ("America/Halifax",),
        "NST": ("America/St_Johns",),
        "NDT": ("America/St_Johns",),
        "CST": ("America/Chicago", "Asia/Shanghai", "America/Havana"),
        "AST": ("America/Halifax", "America/Puerto_Rico", "Asia/Riyadh"),
        # South America
        "ART": ("America/Argentina/Buenos_Aires",),
        "BRT": ("America/Sao_Paulo",),
        "CLT": ("America/Santiago",),
        "COT": ("America/Bogota",),
        "PET": ("America/Lima",),
        "VET": ("America/Caracas",),
        # Europe (CET, EET, WET, MET are also database keys, of the same clocks; their summer forms follow them)
        "CET": ("CET",),
        "MET": ("CET",),
        "EET": ("EET",),
        "WET": ("WET",),
        "CEST": ("CET",),
        "EEST": ("EET",),
        "WEST": ("WET",),
        "MEZ": ("CET",),
        "MESZ": ("CET",),
        "IST": ("Asia/Kolkata", "Europe/Dublin", "Asia/Jerusalem"),
        "BST": ("Europe/London", "Asia/Dhaka"),
        "MSK": ("Europe/Moscow",),
        # Africa and the Middle East
        "WAT": ("Africa/Lagos",),
        "CAT": ("Africa/Maputo",),
        "EAT": ("Africa/Nairobi",),
        "SAST": ("Africa/Johannesburg",),
        "IDT": ("Asia/Jerusalem",),
        "GST": ("Asia/Dubai", "Atlantic/South_Georgia"),
        # Asia
        "PKT": ("Asia/Karachi",),
        "NPT": ("Asia/Kathmandu",),
        "ICT": ("Asia/Bangkok",),
        "WIB": ("Asia/Jakarta",),
        "WITA": ("Asia/Makassar",),
        "WIT": ("Asia/Jayapura",),
        "SGT": ("Asia/Singapore",),
        "HKT": ("Asia/Hong_Kong",),
        "PHT": ("Asia/Manila",),
        "JST": ("Asia/Tokyo",),
        "KST": ("Asia/Seoul",),
        "SST": ("Pacific/Pago_Pago", "Asia/Singapore"),
        # Oceania
        "AEST": ("Australia/Sydney",),
        "AEDT": ("Australia/Sydney",),
        "ACST": ("Australia/Adelaide",),
        "ACDT": ("Australia/Adelaide",),
        "AWST": ("Australia/Perth",),
        "NZST": ("Pacific/Auckland",),
        "NZDT": ("Pacific/Auckland",),
        "CHST": ("Pacific/Guam",),
    }
)

# Common country names that iso3166.tab spells differently.
_COUNTRY_SYNONYMS: Mapping[str, str] = MappingProxyType(
    {
        "uk": "GB",
        "united kingdom": "GB",
        "great britain": "GB",
        "england": "GB",
        "scotland": "GB",
        "wales": "GB",
        "usa": "US",
        "united states of america": "US",
        "south korea": "KR",
        "north korea": "KP",
        "czechia": "CZ",
        "turkiye": "TR",
        "burma": "MM",
        "swaziland": "SZ",
        "ivory coast": "CI",
        "holland": "NL",
        "the netherlands": "NL",
        "uae": "AE",
        "vatican": "VA",
        "samoa": "WS",
        "american samoa": "AS",
        "timor leste": "TL",
        "cabo verde": "CV",
        "drc": "CD",
        "democratic republic of the congo": "CD",
        "republic of the congo": "CG",
        "russian federation": "RU",
    }
)


@dataclass(frozen=True, slots=True)
class ResolvedZone:
    """A zone resolved from user input.

    kind tells how the input was understood:
    - ``iana``: an exact canonical IANA key (``Europe/Vienna``);
    - ``alias``: an exact IANA link name (``US/Eastern``), answered by its canonical zone (``America/New_York``);
    - ``case_insensitive``: an IANA key typed with other case, accents or spaces (``europe/vienna``);
    - ``utc``: any spelling of UTC, including zero offsets (key ``UTC``, tz ``datetime.UTC``);
    - ``fixed_offset``: a UTC offset (key the normalized label such as ``+05:30``, tz ``datetime.timezone``);
    - ``city``: a city, alone or qualified (``Mumbai``, ``Portland, Oregon``), or the last segment of a key;
    - ``abbreviation``: an abbreviation from the curated table (``PST``);
    - ``country``: an ISO 3166 code or country name of a country with a single zone (``AT``);
    - ``region``: a state, province or other first-level division of one clock (``Bavaria``, ``Arizona``);
    - ``coordinates``: a latitude and longitude (``48.2082, 16.3738``), read by the coordinates lookup.

    `key` is the zone's current name (`tzdb.preferred_name`: a legacy link's target, a country's own zone.tab name
    kept), what a model should pass on (or ``UTC``, or the offset's label); `input` is
    what was typed. `place` names the place a typed name was read as (``Mumbai, IN``), `others` the zones of smaller
    places of the same name, or of a division's other clocks, that were not chosen.
    """

    key: str
    tz: tzinfo
    kind: ZoneKind
    canonical: str | None
    input: str
    place: str | None = None
    others: tuple[str, ...] = ()

    def reading(self) -> dict[str, object] | None:
        """How typed input was read, when it was not the zone's own canonical name: what was typed, the zone, the way
        it was read (`abbreviation`, `city`, `country`, `region`, `coordinates`, or `alias` and `case_insensitive` for
        other spellings of a zone), the place and the other readings (None for canonical names and offsets)."""
        if self.kind not in _READ_KINDS and not (self.kind in _RENAMED_KINDS and self.input != self.key):
            return None
        found: dict[str, object] = {"input": self.input, "timezone": self.key, "read_as": self.kind}
        if self.place:
            found["place"] = self.place
        if self.others:
            found["other_zones"] = list(self.others)
        return found


# --- normalization -------------------------------------------------------------------------


def _fold_key(key: str) -> str:
    return "/".join(fold(part) for part in key.split("/"))


def _city_of(key: str) -> str | None:
    """The folded city segment of a key; None for keys that name no place (Etc/*, EST5EDT)."""
    if "/" not in key or key.startswith("Etc/"):
        return None
    return fold(key.rsplit("/", 1)[1])


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
"""Unicode's control characters (category Cc), found in one search: every reader passes here."""


def _clean(text: str) -> str:
    if len(text) > MAX_INPUT_LENGTH:
        raise InvalidTimezone(
            N_("Timezone input is too long ({length} characters, at most {limit})."),
            length=len(text),
            limit=MAX_INPUT_LENGTH,
            also=(TIMEZONE_HELP,),
            suggestions=_HELP_SUGGESTIONS,
        )
    cleaned = text.strip()
    if not cleaned:
        raise InvalidTimezone(N_("Timezone is empty."), also=(TIMEZONE_HELP,), suggestions=_HELP_SUGGESTIONS)
    if _CONTROL.search(cleaned):
        raise InvalidTimezone(
            N_("Timezone {input} contains control characters."),
            input=repr(cleaned),
            also=(TIMEZONE_HELP,),
            suggestions=_HELP_SUGGESTIONS,
        )
    return cleaned


# --- lazily built indexes ------------------------------------------------------------------


@cache
def _lower_keys() -> Mapping[str, str]:
    return MappingProxyType({key.casefold(): key for key in tzdb.zone_names()})


@cache
def _folded_keys() -> Mapping[str, str]:
    return MappingProxyType({_fold_key(key): key for key in sorted(tzdb.zone_names())})


@cache
def _cities() -> Mapping[str, tuple[str, ...]]:
    grouped: dict[str, list[str]] = {}
    for key in sorted(tzdb.zone_names()):
        city = _city_of(key)
        if city:
            grouped.setdefault(city, []).append(key)
    return MappingProxyType({city: tuple(keys) for city, keys in grouped.items()})


@cache
def _utc_keys() -> frozenset[str]:
    return frozenset(key.casefold() for key in tzdb.zone_names() if tzdb.canonical_name(key) in _UTC_CANONICAL)


@cache
def _country_names() -> Mapping[str, str]:
    """Folded country name -> code: iso3166.tab names, their part before '(', and synonyms."""
    names = {fold(name): code for code, name in tzdb.countries().items()}
    for prefix, codes in _country_prefixes().items():
        if len(codes) == 1 and prefix not in names:
            names[prefix] = codes[0]
    names.update(_COUNTRY_SYNONYMS)
    return MappingProxyType(names)


@cache
def _country_prefixes() -> Mapping[str, tuple[str, ...]]:
    """Folded part before '(' of iso3166.tab names -> the codes it begins ('korea': KP, KR; 'congo': CD, CG)."""
    prefixes: dict[str, set[str]] = {}
    for code, name in tzdb.countries().items():
        if "(" in name:
            prefixes.setdefault(fold(name.split("(")[0]), set()).add(code)
    return MappingProxyType({prefix: tuple(sorted(codes)) for prefix, codes in prefixes.items()})


@lru_cache(maxsize=2)
def country_names(places: Gazetteer | None = None) -> Mapping[str, tuple[str, ...]]:
    """Folded country name -> the ISO codes it names: the tz database's names and synonyms ('UK', 'USA'), the places
    table's in its twelve languages ('Deutschland', 'ドイツ', '德国'); several codes for a name countries share
    ('Korea': KP and KR; 'Congo': CD and CG), whatever one language's table makes of it."""
    names: dict[str, tuple[str, ...]] = {}
    if places is not None:
        names.update((name, (code,)) for name, code in places.countries.items())
    database = _country_names()
    names.update((name, (code,)) for name, code in database.items())
    names.update((prefix, codes) for prefix, codes in _country_prefixes().items() if prefix not in database)
    return MappingProxyType(names)


@cache
def _regions() -> Mapping[str, str]:
    return MappingProxyType(
        {key.split("/")[0].casefold(): key.split("/")[0] for key in tzdb.zone_names() if "/" in key}
    )


# --- resolution ----------------------------------------------------------------------------


Source = Literal["person", "database"]


@dataclass(frozen=True, slots=True)
class _Lookup:
    """One resolution's input and what it may use."""

    text: str
    hint: str | None
    places: Gazetteer | None
    now: datetime | None


def resolve_zone(
    text: str,
    *,
    country_hint: str | None = None,
    places: Gazetteer | None = None,
    now: datetime | None = None,
    source: Source = "person",
    suggest: bool = True,
) -> ResolvedZone:
    """Resolve an IANA name, alias, UTC offset, abbreviation, city or country into a zone.

    `places` adds the cities, exemplar cities and country names of the places table; `now` gives suggestions
    their current offsets; `source="database"` reads a database key such as 'EST' as the database does (a host's
    TZ, a stored zone) instead of as the abbreviation a person means. An `AmbiguousTimezone` carries `text` as its
    `input`, so whoever asks the user to choose knows which text it was. `suggest=False` skips the search for close
    names when the text names no zone (a caller that only asks whether it does).
    """
    try:
        return _resolve_zone(text, country_hint, places, now, source, suggest)
    except AmbiguousTimezone as exc:
        if exc.input is None:
            exc.input = text
        raise


def _resolve_zone(
    text: str, country_hint: str | None, places: Gazetteer | None, now: datetime | None, source: Source, suggest: bool
) -> ResolvedZone:
    cleaned = _clean(text)
    lookup = _Lookup(cleaned, _country_code(country_hint, places) if country_hint else None, places, now)
    if source == "person" and cleaned.upper() in _key_abbreviations() and not _a_word(lookup):
        return _typed(_choose(lookup, ABBREVIATIONS[cleaned.upper()], "abbreviation"), cleaned, "abbreviation")
    if cleaned in tzdb.zone_names():
        return _from_key(cleaned, cleaned, "alias" if cleaned in tzdb.all_links() else "iana")
    lowered = cleaned.casefold()
    if lowered in _UTC_WORDS or lowered in _utc_keys():
        return _utc(cleaned)
    if lowered in _lower_keys() and not (_lower_keys()[lowered].isupper() and _a_word(lookup)):
        return _from_key(_lower_keys()[lowered], cleaned, "case_insensitive")
    if looks_like_coordinates(cleaned):
        return _by_coordinates(lookup)
    compact = "".join(cleaned.split()).replace("\u2212", "-")
    if _OFFSET_LIKE.match(compact):
        return _fixed_offset(compact, cleaned)
    for step in _STEPS if places is None else _PLACE_STEPS:
        found = step(lookup)
        if found is not None:
            return found
    if not suggest:
        raise InvalidTimezone(N_("Unknown place or timezone {input}."), input=repr(lookup.text))
    raise _unknown(lookup)


@cache
def _key_abbreviations() -> frozenset[str]:
    return frozenset(name for name in ABBREVIATIONS if name in tzdb.zone_names())


def _from_key(key: str, text: str, kind: ZoneKind) -> ResolvedZone:
    if key.casefold() in _utc_keys():
        return _utc(text)
    return _typed(key, text, kind)


def _typed(key: str, text: str, kind: ZoneKind, place: str | None = None, others: tuple[str, ...] = ()) -> ResolvedZone:
    """The zone under its current name (`tzdb.preferred_name`), with how `text` was read."""
    preferred = tzdb.preferred_name(key)
    found: tuple[str, ...] = ()
    if others:
        found = tuple(dict.fromkeys(name for name in map(tzdb.preferred_name, others) if name != preferred))
    return ResolvedZone(preferred, tzdb.get_zone(preferred), kind, tzdb.canonical_name(key), text, place, found)


def _utc(text: str) -> ResolvedZone:
    return ResolvedZone("UTC", UTC, "utc", "Etc/UTC", text)


def _fixed_offset(compact: str, text: str) -> ResolvedZone:
    match = _OFFSET.match(compact)
    offset = _offset_value(match) if match else None
    if offset is None:
        raise InvalidTimezone(
            N_(
                "{input} is not a valid UTC offset. Use ±HH:MM between -14:00 and +14:00, such as '+05:30' or 'UTC-03'."
            ),
            input=repr(text),
            suggestions=["+05:30", "-03:00", "UTC"],
        )
    if offset == timedelta(0):
        return _utc(text)
    return ResolvedZone(tzdb.format_offset(offset), timezone(offset), "fixed_offset", None, text)


def _offset_value(match: re.Match[str]) -> timedelta | None:
    sign, hours, minutes, seconds = match.groups()
    if int(minutes or 0) >= 60 or int(seconds or 0) >= 60:
        return None
    value = timedelta(hours=int(hours), minutes=int(minutes or 0), seconds=int(seconds or 0))
    if value > MAX_OFFSET:
        return None
    return -value if sign == "-" else value


def _by_abbreviation(lookup: _Lookup) -> ResolvedZone | None:
    candidates = ABBREVIATIONS.get(lookup.text.upper())
    if candidates is None or _a_word(lookup):
        return None
    return _typed(_choose(lookup, candidates, "abbreviation"), lookup.text, "abbreviation")


def _by_clock_name(lookup: _Lookup) -> ResolvedZone | None:
    """'Pacific', 'Eastern time': the clock of that name in the caller's country, else the United States'."""
    found = clock_named(lookup.text, lookup.hint)
    if found is None:
        return None
    key, place = found
    return _typed(key, lookup.text, "region", place)


def _a_word(lookup: _Lookup) -> bool:
    """Whether an abbreviation's letters, written as a word ('Est', 'Cat'), are a place's name: then they name it."""
    text = lookup.text
    if lookup.places is None or not text.istitle() or text.isupper():
        return False
    folded = fold(text)
    return bool(lookup.places.matches(folded) or lookup.places.divisions(folded))


def _by_country_code(lookup: _Lookup) -> ResolvedZone | None:
    text = lookup.text
    if len(text) != 2 or not text.isascii() or not text.isalpha() or tzdb.country_name(text) is None:
        return None
    return _country_zone(lookup, text.upper())


def _by_country_name(lookup: _Lookup) -> ResolvedZone | None:
    code = _country_code(lookup.text, lookup.places)
    return None if code is None else _country_zone(lookup, code)


def _country_zone(lookup: _Lookup, code: str, clocks: tuple[str, ...] = ()) -> ResolvedZone:
    """A country's one zone; refused with its main zones when it has several (its main clocks when `clocks` are
    known from the places table, else its zones in the database)."""
    zones = clocks or tzdb.zones_for_country(code)
    name = tzdb.country_name(code) or code
    if not zones:
        raise InvalidTimezone(
            N_("{country} ({code}) has no timezone of its own in the IANA database."),
            country=name,
            code=code,
            also=(TIMEZONE_HELP,),
        )
    if len(zones) > 1:
        main = list(clocks) or _main_zones(code, zones, lookup.places)
        shown = _labelled([(zone, zone) for zone in main[:MAIN_ZONES]], lookup.now)
        listed: str | Message = shown
        if len(main) > MAIN_ZONES:
            listed = msg(N_("{zones} and {more} more"), zones=shown, more=len(main) - MAIN_ZONES)
        raise AmbiguousTimezone(
            N_("{country} ({code}) has {count} timezones: {zones}. Name the zone, e.g. {example}."),
            country=name,
            code=code,
            count=len(zones),
            zones=listed,
            example=repr(main[0]),
            suggestions=main[:3],
            details={"country": code, "candidates": list(main)},
        )
    return _typed(zones[0], lookup.text, "country", name)


def _main_zones(code: str, zones: tuple[str, ...], places: Gazetteer | None) -> list[str]:
    """A country's zones, the most populous first when the places table is known (else the database's order)."""
    if places is None:
        return list(zones)
    ranked = [zone for zone in places.zones_by_population(code) if zone in zones]
    return ranked + [zone for zone in zones if zone not in ranked]


def _by_folded_key(lookup: _Lookup) -> ResolvedZone | None:
    key = _folded_keys().get(_fold_key(lookup.text))
    if key is None or (key.isupper() and _a_word(lookup)):
        return None
    return _from_key(key, lookup.text, "case_insensitive")


def _by_primary_city(lookup: _Lookup) -> ResolvedZone | None:
    keys = _cities().get(fold(lookup.text), ())
    return _city_zone(lookup, tuple(key for key in keys if key in tzdb.primary_names()))


def _by_exemplar_city(lookup: _Lookup) -> ResolvedZone | None:
    if lookup.places is None:
        return None
    return _city_zone(lookup, lookup.places.exemplars(fold(lookup.text)))


def _by_any_city(lookup: _Lookup) -> ResolvedZone | None:
    return _city_zone(lookup, _cities().get(fold(lookup.text), ()))


def _city_zone(lookup: _Lookup, keys: tuple[str, ...]) -> ResolvedZone | None:
    if not keys:
        return None
    return _typed(_choose(lookup, _prefer_primary(keys), "city"), lookup.text, "city")


def _prefer_primary(keys: tuple[str, ...]) -> tuple[str, ...]:
    """Primary names first; links to the same zone collapse into one candidate."""
    primary = tuple(key for key in keys if key in tzdb.primary_names())
    if primary:
        return primary
    by_target = {tzdb.canonical_name(key): key for key in reversed(keys)}
    return tuple(by_target.values())


def _choose(lookup: _Lookup, candidates: tuple[str, ...], what: Literal["abbreviation", "city"]) -> str:
    if len(candidates) == 1:
        return candidates[0]
    if lookup.hint is not None:
        matching = [key for key in candidates if lookup.hint in tzdb.zone_countries(key)]
        if len(matching) == 1:
            return matching[0]
    labelled = _labelled([(key, key) for key in candidates], lookup.now)
    if what == "abbreviation":
        raise AmbiguousTimezone(
            N_("Abbreviation {input} is ambiguous: it can mean {candidates}. Use the IANA name of the one you mean."),
            input=repr(lookup.text),
            candidates=labelled,
            suggestions=candidates,
            details={"candidates": list(candidates)},
        )
    raise AmbiguousTimezone(
        N_("City {input} is ambiguous: it can mean {candidates}. Use the IANA name of the one you mean."),
        input=repr(lookup.text),
        candidates=labelled,
        suggestions=candidates,
        details={"candidates": list(candidates)},
    )


def _country_code(text: str, places: Gazetteer | None = None) -> str | None:
    """An ISO code from a code or a country name (also in the places table's six languages); None when unknown."""
    stripped = text.strip()
    if tzdb.country_name(stripped) is not None:
        return stripped.upper()
    folded = fold(stripped)
    code = _country_names().get(folded)
    if code is None and places is not None:
        found = places.country(folded)
        code = found.code if found is not None else None
    return code


_STEPS = (
    _by_abbreviation,
    _by_clock_name,
    _by_country_code,
    _by_folded_key,
    _by_country_name,
    _by_primary_city,
    _by_exemplar_city,
    _by_any_city,
)
"""Without a places table: the database's own names and countries."""


# --- places: names, qualified names, coordinates ---------------------------------------------------------------


def _by_name(lookup: _Lookup) -> ResolvedZone | None:
    """Cities, divisions and countries of the name, ranked (`horologe.core.place_names`)."""
    assert lookup.places is not None
    named = _country_names().get(fold(lookup.text))
    return _ranked(lookup, candidates(lookup.places, lookup.text, lookup.hint, named))


def _ranked(lookup: _Lookup, found: list[Candidate], name: str | None = None) -> ResolvedZone | None:
    """The heaviest candidate's zone; refused when a place of another clock weighs at least half as much. `name` is the
    place's name in the text (the text itself unless qualified: 'Portland' of 'Portland, Oregon')."""
    found = _cities_for_areas(found)
    if not found:
        return None
    best = found[0]
    rivals = _distinct([candidate for candidate in found if _rival(candidate, best)])
    if len(rivals) > 1:
        listed = _labelled(
            [(label, candidate.zones[0]) for label, candidate in _told_apart(lookup, rivals)], lookup.now
        )
        raise AmbiguousTimezone(
            N_("{input} is ambiguous: it can mean {candidates}. Add the country or state, e.g. {example}."),
            input=repr(lookup.text),
            candidates=listed,
            example=repr(rivals[0].label),
            suggestions=[candidate.zones[0] for candidate in rivals],
            details={"candidates": [candidate.zones[0] for candidate in rivals]},
        )
    best = _city_first(found, best)
    if best.kind == "country" and len(best.zones) > 1:
        return _country_zone(lookup, best.country, best.zones)
    if len(best.zones) > 1:
        raise _many_clocks(lookup, best)
    others = [
        candidate.zones[0]
        for candidate in _distinct(found)[1:]
        if candidate.weight >= best.weight * OTHER_SHARE and namesake(candidate, name or lookup.text)
    ][:2]
    if best.kind != "city":
        others = [*_minor_clocks(lookup, best), *others]
    return _typed(best.zones[0], lookup.text, best.kind, best.label, tuple(others))


def _rival(candidate: Candidate, best: Candidate) -> bool:
    """Whether a candidate ties the best: half its weight, or, for a city of 500,000 or more by its own name against a
    division or country, a tenth (people type big cities far more often: 'Washington' is the state and the
    capital; 'Wyoming' is the state, not Wyoming, Michigan)."""
    city = candidate.kind == "city" and candidate.own and candidate.weight >= CITY_RIVAL
    share = OTHER_SHARE if (best.kind != "city" or best.area) and city else AMBIGUOUS_SHARE
    return candidate.weight >= best.weight * share


def _cities_for_areas(found: list[Candidate]) -> list[Candidate]:
    """The divisions and countries that a city of their name inside them, of a tenth of their people, stands for,
    replaced by that city ranked as the area, with its weight (`place_names` rule 4): 'Chihuahua' is the city, not
    the state of two clocks; 'Wien' the city, not the state; 'Armavir' the Armenian province's town as heavy as the
    province, so tied with Armavir, Russia, never the Russian city by default. For an area of several clocks only a
    city's own name stands in (Tepic, also called 'Nayarit', does not stand for the state of two clocks)."""
    if all(candidate.kind == "city" for candidate in found):
        return found
    stand_ins: dict[Candidate, float] = {}
    kept = []
    for area in found:
        city = None
        if area.kind != "city":
            city = next(
                (
                    c
                    for c in found
                    if c.kind == "city"
                    and (c.own or len(area.zones) == 1)
                    and within(c, area)
                    and c.people >= area.people * OTHER_SHARE
                ),
                None,
            )
        if city is None:
            kept.append(area)
        else:
            stand_ins[city] = max(stand_ins.get(city, city.weight), area.weight)
    weighed = [replace(c, weight=stand_ins[c], area=True) if c in stand_ins else c for c in kept]
    return sorted(weighed, key=lambda candidate: -candidate.weight)


def _city_first(found: list[Candidate], best: Candidate) -> Candidate:
    """A city of the best candidate's clock and at least half its people, when the best is a division or country
    ('Kiev': Kyiv, not Kyiv Oblast; 'Seoul': the city)."""
    if best.kind == "city":
        return best
    same = (
        c for c in found if c.kind == "city" and c.clock == best.clock and c.people >= best.people * AMBIGUOUS_SHARE
    )
    return next(same, best)


def _told_apart(lookup: _Lookup, found: list[Candidate]) -> list[tuple[str, Candidate]]:
    """Each candidate's label, with its state or province where two would read alike ('Springfield, Illinois, US')."""
    labels = Counter(candidate.label for candidate in found)
    told = []
    for candidate in found:
        division = lookup.places.division(candidate.country, candidate.division) if lookup.places else None
        if labels[candidate.label] > 1 and division is not None and candidate.kind == "city":
            told.append((f"{candidate.label.rsplit(', ', 1)[0]}, {division.name}, {candidate.country}", candidate))
        else:
            told.append((candidate.label, candidate))
    return told


def _minor_clocks(lookup: _Lookup, area: Candidate) -> list[str]:
    """The clocks of a division's or country's smaller part (El Paso's America/Denver for Texas, the Canaries' for
    Spain)."""
    assert lookup.places is not None
    if area.kind == "country":
        return [zone for zone, _ in lookup.places.country_coded(area.country).zones[1:]]
    found = lookup.places.division(area.country, area.division)
    return [zone for zone, _ in found.zones[1:]] if found is not None else []


def _distinct(found: list[Candidate]) -> list[Candidate]:
    """The heaviest candidate of each clock, in order."""
    seen: dict[str, Candidate] = {}
    for candidate in found:
        seen.setdefault(candidate.clock, candidate)
    return list(seen.values())


def _many_clocks(lookup: _Lookup, division: Candidate) -> AmbiguousTimezone:
    return AmbiguousTimezone(
        N_("{region} keeps {count} clocks: {zones}. Name a city there or the zone, e.g. {example}."),
        region=division.label,
        count=len(division.zones),
        zones=_labelled([(zone, zone) for zone in division.zones[:MAIN_ZONES]], lookup.now),
        example=repr(division.zones[0]),
        suggestions=division.zones[:3],
        details={"region": division.label, "candidates": list(division.zones)},
    )


def _by_qualified(lookup: _Lookup) -> ResolvedZone | None:
    """'City, Country', 'City, State' or 'City, State, Country' (names or codes, in the twelve languages)."""
    assert lookup.places is not None
    parts = [part.strip() for part in lookup.text.split(",")]
    if len(parts) < 2:
        return None
    if len(parts) > 3 or not all(parts):
        raise InvalidTimezone(
            N_("{input} is not a place: write a city and then its state or country, e.g. 'Portland, Oregon, US'."),
            input=repr(lookup.text),
            also=(PLACE_HELP,),
            suggestions=_HELP_SUGGESTIONS,
        )
    name, qualifiers = parts[0], parts[1:]
    named = named_places(lookup.places, name)
    scopes = []
    for qualifier in qualifiers:
        scope = qualifier_scopes(lookup.places, qualifier, _country_code(qualifier, lookup.places))
        if not scope and not named:
            raise InvalidTimezone(
                N_("{qualifier} in {input} is neither a country nor a state or province we know."),
                qualifier=repr(qualifier),
                input=repr(lookup.text),
                also=(PLACE_HELP,),
                suggestions=_HELP_SUGGESTIONS,
            )
        scopes.append(scope)
    if not named:
        return None  # no place of that name: the unknown-name answer suggests spellings
    inside = [candidate for candidate in named if all(in_scope(candidate, scope) for scope in scopes)]
    if not inside:  # the qualifier names another place, or none we know ('Viena, Austira'): say where the name is
        elsewhere = _distinct(named)[:3]
        places = _labelled([(candidate.label, candidate.zones[0]) for candidate in elsewhere], lookup.now)
        unknown = [qualifier for qualifier, scope in zip(qualifiers, scopes, strict=True) if not scope]
        if unknown:
            raise InvalidTimezone(
                N_("{qualifier} is not a country, state or province we know; {name} is in {places}."),
                qualifier=repr(unknown[0]),
                name=repr(name),
                places=places,
                suggestions=[candidate.zones[0] for candidate in elsewhere],
            )
        raise InvalidTimezone(
            N_("There is no {name} in {qualifier} that we know; {name} is in {places}."),
            name=repr(name),
            qualifier=repr(", ".join(qualifiers)),
            places=places,
            suggestions=[candidate.zones[0] for candidate in elsewhere],
        )
    return _ranked(lookup, inside, name)


def _by_split(lookup: _Lookup) -> ResolvedZone | None:
    """'City State' or 'City Country' without a comma ('Portland Oregon', 'Paris France'), when exactly one way of
    splitting the words names a place inside a qualifier."""
    assert lookup.places is not None
    words = lookup.text.split()
    found: list[ResolvedZone] = []
    for size in range(1, min(3, len(words) - 1) + 1):
        name, qualifier = " ".join(words[:-size]), " ".join(words[-size:])
        scopes = qualifier_scopes(lookup.places, qualifier, _country_names().get(fold(qualifier)))
        inside = [c for c in named_places(lookup.places, name) if in_scope(c, scopes)] if scopes else []
        if inside:
            zone = _ranked(lookup, inside, name)
            if zone is not None:
                found.append(zone)
    if len({zone.key for zone in found}) == 1:
        return found[0]
    return None


def _by_coordinates(lookup: _Lookup) -> ResolvedZone:
    point = read_coordinates(lookup.text)
    if lookup.places is None or lookup.places.locate is None:
        raise InvalidTimezone(
            N_("Coordinates such as {input} are not read here. Name the zone instead, e.g. 'Europe/Vienna'."),
            input=repr(lookup.text),
            also=(TIMEZONE_HELP,),
            suggestions=_HELP_SUGGESTIONS,
        )
    zone = lookup.places.locate(point.latitude, point.longitude)
    if zone is None:
        raise InvalidTimezone(
            N_("No timezone is known at {point}."),
            point=point.label(),
            also=(COORDINATES_HELP,),
            suggestions=_HELP_SUGGESTIONS,
        )
    return _typed(zone, lookup.text, "coordinates", point.label())


_PLACE_STEPS = (
    _by_abbreviation,
    _by_clock_name,
    _by_clock_name,
    _by_folded_key,
    _by_name,
    _by_qualified,
    _by_primary_city,
    _by_exemplar_city,
    _by_any_city,
    _by_split,
)
"""With the places table: cities, divisions and countries ranked together, then qualified names."""


# --- unknown input -------------------------------------------------------------------------


def _unknown(lookup: _Lookup) -> InvalidTimezone:
    if lookup.places is None:
        suggestions = did_you_mean(lookup.text)
        return InvalidTimezone(
            N_("Unknown timezone {input}."),
            input=repr(lookup.text),
            also=(*did_you_mean_hint(suggestions, lookup.now), TIMEZONE_HELP),
            suggestions=[zone for _, zone in suggestions],
        )
    suggestions = did_you_mean(lookup.text.split(",")[0], places=lookup.places)
    return InvalidTimezone(
        N_("Unknown place or timezone {input}."),
        input=repr(lookup.text),
        also=(*did_you_mean_hint(suggestions, lookup.now), PLACE_HELP),
        suggestions=[zone for _, zone in suggestions],
    )


def did_you_mean_hint(candidates: Sequence[tuple[str, str]], now: datetime | None = None) -> tuple[Message, ...]:
    """The 'Did you mean ...?' sentence for (name, zone) candidates, each with its zone's offset at `now`."""
    if not candidates:
        return ()
    return (msg(N_("Did you mean {candidates}?"), candidates=_labelled(candidates, now)),)


def _labelled(candidates: Sequence[tuple[str, str]], now: datetime | None) -> str:
    """(name, zone) pairs as "'Mumbai, IN' (Asia/Kolkata, UTC+05:30)": the zone and, at `now`, its offset."""
    labels = []
    for name, zone in candidates:
        details = [zone] if zone != name else []
        if now is not None:
            offset = now.astimezone(tzdb.get_zone(zone)).utcoffset() or timedelta(0)
            details.append(f"UTC{tzdb.format_offset(offset)}")
        labels.append(f"{name!r} ({', '.join(details)})" if details else repr(name))
    return ", ".join(labels)


def did_you_mean(text: str, limit: int = 3, *, places: Gazetteer | None = None) -> list[tuple[str, str]]:
    """Up to `limit` (name, zone) pairs spelled close to `text`: zone keys, zones' cities and, with `places`, the
    larger cities. Only a close spelling counts (a typo or two, by length), so a zone hours away is never offered
    for a name that merely looks alike ('Mumbai' is not 'Dubai')."""
    if len(text) > MAX_FUZZY_INPUT:
        return []
    lowered, folded = text.strip().casefold(), fold(text)
    scored: dict[str, tuple[float, str]] = {}
    for candidate in _close(lowered, _lower_keys().keys()):
        key = _lower_keys()[candidate]
        _keep_best(scored, key, key, _ratio(lowered, candidate))
    for candidate in _close(folded, _cities().keys()):
        key = _prefer_primary(_cities()[candidate])[0]
        _keep_best(scored, key, key, _ratio(folded, candidate))
    if places is not None and folded:
        spellings = places.spellings(folded[0], *_close_lengths(folded))
        for candidate in _close(folded, spellings):
            place = spellings[candidate]
            _keep_best(scored, place.zone, city_label(place), _ratio(folded, candidate))
    ranked = sorted(scored, key=lambda zone: (-scored[zone][0], zone not in tzdb.primary_names(), zone))
    return [(scored[zone][1], zone) for zone in ranked[:limit]]


def _close(typed: str, names: Iterable[str]) -> list[str]:
    """Names within a typo or two of `typed`: one edit up to 8 characters, two up to 15, three beyond."""
    allowed = 1 if len(typed) <= 8 else 2 if len(typed) <= 15 else 3
    if len(typed) < 4:
        return []
    close = difflib.get_close_matches(typed, names, n=10, cutoff=0.7)
    return [name for name in close if _edits(typed, name, allowed) <= allowed]


def _close_lengths(typed: str) -> tuple[int, int]:
    """The lengths of names that `_close` can find for `typed` (difflib's length bound for its 0.7 cutoff: twice the
    shorter length over both lengths), a character wider on each side against rounding."""
    return int(len(typed) * 0.7 / 1.3) - 1, int(len(typed) * 1.3 / 0.7) + 1


def _edits(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance (insertions, deletions, substitutions, adjacent swaps), capped past `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, char_b in enumerate(b, 1):
            cost = char_a != char_b
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                row[j] = min(row[j], previous2[j - 2] + 1)
        if min(row) > limit:
            return limit + 1
        previous2, previous = previous, row
    return previous[-1]


def _keep_best(scored: dict[str, tuple[float, str]], zone: str, name: str, score: float) -> None:
    if zone not in scored or score > scored[zone][0]:
        scored[zone] = (score, name)


def _ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b).ratio()


# --- listing and completion ----------------------------------------------------------------


def search_zones(
    *,
    region: str | None = None,
    country: str | None = None,
    query: str | None = None,
    include_aliases: bool = False,
) -> list[str]:
    """Zone keys filtered by region (first segment), country (code or name) and a substring query, sorted."""
    names = set(tzdb.zone_names() if include_aliases else tzdb.primary_names())
    if region:
        wanted = _checked_region(region)
        names = {name for name in names if _region_of(name) == wanted}
    if country:
        names &= _country_zones(_checked_country(country), include_aliases)
    if query and query.strip():
        names = {name for name in names if _matches(name, query)}
    return sorted(names)


def _region_of(name: str) -> str | None:
    return name.split("/")[0].casefold() if "/" in name else None


def _checked_region(region: str) -> str:
    wanted = region.strip().strip("/").casefold()
    if wanted not in _regions():
        known = sorted(_regions().values())
        raise InvalidArgument(
            N_("Unknown region {region}. Use one of: {known}."),
            region=repr(region),
            known=", ".join(known),
            suggestions=difflib.get_close_matches(region.strip(), known, n=3, cutoff=0.5),
        )
    return wanted


def _checked_country(country: str) -> str:
    code = _country_code(country) if len(country) <= MAX_INPUT_LENGTH else None
    if code is None:
        close = difflib.get_close_matches(fold(country[:MAX_INPUT_LENGTH]), _country_names().keys(), n=3, cutoff=0.6)
        raise InvalidArgument(
            N_("Unknown country {country}. Use an ISO 3166 code such as 'AT' or a name such as 'Austria'."),
            country=repr(country),
            suggestions=[tzdb.countries()[_country_names()[name]] for name in close],
        )
    return code


def _country_zones(code: str, include_aliases: bool) -> set[str]:
    zones = set(tzdb.zones_for_country(code))
    if include_aliases:
        zones |= {alias for zone in list(zones) if zone in tzdb.canonical_names() for alias in tzdb.aliases_of(zone)}
    return zones


def _matches(name: str, query: str) -> bool:
    lowered, folded = query.strip().casefold(), fold(query)
    if lowered in name.casefold():
        return True
    if not folded:
        return False
    return folded in fold(name) or folded in fold(tzdb.zone_comments().get(name, ""))


def suggest_zones(prefix: str, limit: int = 20) -> list[str]:
    """Zone keys for completion: case-insensitive prefix of the key or of its city, canonical first."""
    if limit <= 0 or len(prefix) > MAX_INPUT_LENGTH:
        return []
    lowered, folded = prefix.strip().casefold(), fold(prefix)
    primary, aliases = _completion_order()
    found: list[str] = []
    for key in (*primary, *aliases):
        city = _city_of(key) or ""
        if key.casefold().startswith(lowered) or (folded and city.startswith(folded)):
            found.append(key)
            if len(found) == limit:
                break
    return found


@cache
def _completion_order() -> tuple[tuple[str, ...], tuple[str, ...]]:
    primary = tuple(sorted(tzdb.primary_names()))
    return primary, tuple(sorted(tzdb.zone_names() - tzdb.primary_names()))
