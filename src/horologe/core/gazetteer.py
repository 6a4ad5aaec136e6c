"""The names people type for places: cities, first-level divisions (states, provinces, regions) and countries with
their zones and people, zones' exemplar cities, the subdivisions holiday calendars take.

The table is text (`scripts/build_places.py` writes it, `horologe.places` reads the packaged file and hands it
here): this module only parses and searches it, with names already folded (`fold`). The
indexes are built on the first search, so a server that is only ever given IANA names never builds them. The
coordinates lookup (`locate`, latitude and longitude to a zone) comes in from the edge with the table, so that a
place given by coordinates is read the way the table's places were built.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Final

ALTERNATE_WEIGHT: Final = 0.05
"""An alternate, former or foreign name counts a twentieth of the place's people against places that bear it as their
own name ('Canton' is Guangzhou's old name and Canton, Ohio's own; 'Salvador' is El Salvador in French and a city of
2.7 million in Brazil)."""
FUZZY_POPULATION: Final = 100_000
"""Spelling suggestions come from cities of at least this many people (and every zone's own city)."""

Locate = Callable[[float, float], str | None]
_SEPARATORS = re.compile(r"[\W_]+")
_ACCENT, _LAST_ACCENT = "\u0300", "\u036f"  # Unicode's Combining Diacritical Marks


@lru_cache(maxsize=1024)
def fold(text: str) -> str:
    """Text folded for loose matching: accents dropped, case folded, punctuation runs as one space (the readers of
    one lookup fold the same text several times: cached)."""
    decomposed = unicodedata.normalize("NFKD", text.replace("&", " and "))
    # Only Latin-style accents go ('é' -> 'e'); kana voicing marks stay ('バ' is not 'ハ').
    bare = unicodedata.normalize("NFC", "".join(char for char in decomposed if not _ACCENT <= char <= _LAST_ACCENT))
    return " ".join(_SEPARATORS.sub(" ", bare.casefold()).split())


@dataclass(frozen=True, slots=True)
class Place:
    """A city: its name as GeoNames writes it, country (ISO 3166), population, IANA zone and first-level division
    (GeoNames' admin-1 code, '' when unknown)."""

    name: str
    country: str
    population: int
    zone: str
    division: str = ""


@dataclass(frozen=True, slots=True)
class Match:
    """A city found by a name: `weight` ranks it (population, less for alternate names); `alternate` says how."""

    place: Place
    weight: float
    alternate: bool


@dataclass(frozen=True, slots=True)
class Division:
    """A first-level division (state, province, region): its country, GeoNames admin-1 code, English name, people (in
    its cities of 1,000+), its clocks as (zone, people), the most populous first, one zone per clock, and the codes
    people write for it ('OR' for Oregon, 'BY' for Bavaria)."""

    country: str
    code: str
    name: str
    people: int
    zones: tuple[tuple[str, int], ...]
    codes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Country:
    """A country found by a name: its ISO code, people, whether the name was its English one, and its clocks as
    (zone, people), one zone per clock, the most populous first (empty when it has no city in the table)."""

    code: str
    people: int
    primary: bool
    zones: tuple[tuple[str, int], ...] = ()


class Gazetteer:
    """Cities, divisions, countries, exemplar cities and subdivisions from the places table, searched by folded name."""

    def __init__(self, source: Callable[[], str], locate: Locate | None = None) -> None:
        """A table read from `source` (the table's text) on the first search, not before; `locate` gives the zone at a
        latitude and longitude (None where it knows none)."""
        self._source = source
        self.locate = locate

    @cached_property
    def _kinds(self) -> Mapping[str, list[str]]:
        """The table's rows by kind (the first field), each row without its kind."""
        kinds: dict[str, list[str]] = {}
        for line in self._source().splitlines():
            if len(line) > 2 and line[1] == "\t":
                kinds.setdefault(line[0], []).append(line[2:])
        return kinds

    @cached_property
    def _rows(self) -> list[str]:
        return self._kinds.get("c", [])

    @cached_property
    def exemplars(self) -> Mapping[str, tuple[str, ...]]:
        """Folded exemplar city name (CLDR, twelve languages) -> the zones it names."""
        found: dict[str, list[str]] = {}
        for line in self._kinds.get("z", []):
            zone, names = line.split("\t")
            for name in names.split("|"):
                found.setdefault(name, []).append(zone)
        return {name: tuple(zones) for name, zones in found.items()}

    @cached_property
    def _countries(self) -> Mapping[str, tuple[str, bool]]:
        """Folded country name -> (ISO code, whether it is the English name)."""
        found: dict[str, tuple[str, bool]] = {}
        for line in self._kinds.get("k", []):
            code, _, english, other, _ = line.split("\t")
            for name in english.split("|"):
                found.setdefault(name, (code, True))
            for name in other.split("|") if other else ():
                found.setdefault(name, (code, False))
        return found

    @cached_property
    def countries(self) -> Mapping[str, str]:
        """Folded country name (CLDR, twelve languages) -> ISO 3166 code."""
        return {name: code for name, (code, _) in self._countries.items()}

    @cached_property
    def _country_rows(self) -> Mapping[str, tuple[int, tuple[tuple[str, int], ...]]]:
        found = {}
        for line in self._kinds.get("k", []):
            code, people, _, _, zones = line.split("\t")
            found[code] = (int(people), _clocks(zones))
        return found

    def country(self, folded: str) -> Country | None:
        """The country a folded name names (English, or another of the twelve languages), or None."""
        found = self._countries.get(folded)
        return None if found is None else self.country_coded(found[0], primary=found[1])

    def country_coded(self, code: str, *, primary: bool = True) -> Country:
        """A country by its ISO code (no people and no clocks when the table does not know it)."""
        people, zones = self._country_rows.get(code, (0, ()))
        return Country(code, people, primary, zones)

    def __len__(self) -> int:
        return len(self._rows)

    def place(self, row: int) -> Place:
        """The city of a row."""
        name, _, _, country, division, population, zone = self._rows[row].split("\t")
        return Place(name, country, int(population), zone, division)

    @cached_property
    def _index(self) -> Mapping[str, int | list[int]]:
        """Folded name -> its row, or rows; a row bearing it as an alternate name is stored negated (-1 - row).

        One loop without calls: this is most of the table's first-use time (136,000 names)."""
        index: dict[str, int | list[int]] = {}
        known = index.get
        for row, line in enumerate(self._rows):
            _, names, alternates, _ = line.split("\t", 3)
            for entry, field in ((row, names), (-1 - row, alternates)):
                if not field:
                    continue
                for name in field.split("|"):
                    found = known(name)
                    if found is None:
                        index[name] = entry
                    elif isinstance(found, int):
                        index[name] = [found, entry]
                    else:
                        found.append(entry)
        return index

    def matches(self, folded: str) -> list[Match]:
        """The cities a folded name names, best first: by population, alternate names weighing a twentieth."""
        entries = self._index.get(folded, ())
        found: dict[int, Match] = {}
        for entry in [entries] if isinstance(entries, int) else entries:
            alternate = entry < 0
            row = -1 - entry if alternate else entry
            place = self.place(row)
            weight = place.population * (ALTERNATE_WEIGHT if alternate else 1.0)
            if row not in found or weight > found[row].weight:
                found[row] = Match(place, weight, alternate)
        return sorted(found.values(), key=lambda match: -match.weight)

    @cached_property
    def _divisions(self) -> Mapping[tuple[str, str], Division]:
        found = {}
        for line in self._kinds.get("r", []):
            country, code, name, _, _, codes, people, zones = line.split("\t")
            found[(country, code)] = Division(country, code, name, int(people), _clocks(zones), tuple(codes.split("|")))
        return found

    @cached_property
    def _division_names(self) -> Mapping[str, tuple[tuple[str, str, bool], ...]]:
        index: dict[str, list[tuple[str, str, bool]]] = {}
        for line in self._kinds.get("r", []):
            country, code, _, names, others, _ = line.split("\t", 5)
            for name in names.split("|") if names else ():
                index.setdefault(name, []).append((country, code, False))
            for name in others.split("|") if others else ():
                index.setdefault(name, []).append((country, code, True))
        return {name: tuple(keys) for name, keys in index.items()}

    def divisions(self, folded: str) -> list[tuple[Division, bool]]:
        """The first-level divisions a folded name names, each with whether it is one of its other names (a
        translation), the most populous first."""
        found = [
            (self._divisions[(country, code)], other) for country, code, other in self._division_names.get(folded, ())
        ]
        return sorted(found, key=lambda entry: -entry[0].people)

    def division(self, country: str, code: str) -> Division | None:
        """A division by its country and GeoNames admin-1 code."""
        return self._divisions.get((country, code))

    @cached_property
    def _division_codes(self) -> Mapping[str, tuple[Division, ...]]:
        index: dict[str, list[Division]] = {}
        for division in self._divisions.values():
            for code in division.codes:
                if code:
                    index.setdefault(code, []).append(division)
        return {code: tuple(found) for code, found in index.items()}

    def divisions_coded(self, code: str) -> tuple[Division, ...]:
        """The divisions, in any country, people write a folded code for ('or': Oregon; 'nsw': New South Wales)."""
        return self._division_codes.get(code, ())

    @cached_property
    def _subdivisions(self) -> Mapping[str, tuple[tuple[str, str, tuple[str, ...]], ...]]:
        found: dict[str, list[tuple[str, str, tuple[str, ...]]]] = {}
        for line in self._kinds.get("s", []):
            country, code, display, names = line.split("\t")
            found.setdefault(country, []).append((code, display, tuple(names.split("|")) if names else ()))
        return {country: tuple(entries) for country, entries in found.items()}

    def subdivisions(self, country: str) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
        """The subdivisions holiday calendars take in a country: (code, display name, folded names)."""
        return self._subdivisions.get(country, ())

    @cached_property
    def spellings(self) -> Mapping[str, Place]:
        """Folded names of the larger cities (names and alternates) -> the largest city bearing it."""
        found: dict[str, int] = {}
        for row, line in enumerate(self._rows):
            _, names, alternates, _, _, population, _ = line.split("\t")
            if int(population) < FUZZY_POPULATION:
                break  # rows are written largest first
            for name in names.split("|") + alternates.split("|"):
                if name:
                    found.setdefault(name, row)
        return _Places(self, found)

    @cached_property
    def spellings_by_initial(self) -> Mapping[str, tuple[str, ...]]:
        """The spellings grouped by their first character (a typo seldom hits the first letter)."""
        grouped: dict[str, list[str]] = {}
        for name in self.spellings:
            grouped.setdefault(name[:1], []).append(name)
        return {initial: tuple(names) for initial, names in grouped.items()}

    def zones_by_population(self, country: str) -> list[str]:
        """A country's zones, the most populous first (by the people of its cities in the table)."""
        people: dict[str, int] = {}
        for line in self._rows:
            _, _, _, code, _, population, zone = line.split("\t")
            if code == country:
                people[zone] = people.get(zone, 0) + int(population)
        return sorted(people, key=lambda zone: -people[zone])


def _clocks(text: str) -> tuple[tuple[str, int], ...]:
    """'zone=people|...' as (zone, people) pairs."""
    return tuple((zone, int(people)) for zone, people in (entry.split("=") for entry in text.split("|") if entry))


class _Places(Mapping[str, Place]):
    """Name -> row as a mapping of places (a row becomes a `Place` only when looked up)."""

    def __init__(self, table: Gazetteer, rows: Mapping[str, int]) -> None:
        self._table, self._rows = table, rows

    def __getitem__(self, name: str) -> Place:
        return self._table.place(self._rows[name])

    def __iter__(self) -> Iterator[str]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)
