"""The names people type for places: cities with their zone and population, zones' exemplar cities, country names.

The table is text (`scripts/build_places.py` writes it, `horologe.places` reads the packaged file and hands it
here): this module only parses and searches it, with names already folded (`horologe.core.zones.fold`). The
city index is built on the first search, so a server that is only ever given IANA names never builds it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Final

ALTERNATE_WEIGHT: Final = 0.1
"""An alternate or former name counts a tenth of the city's population against cities that bear it as their name
('Canton' is Guangzhou's old name and Canton, Ohio's own)."""
FUZZY_POPULATION: Final = 100_000
"""Spelling suggestions come from cities of at least this many people (and every zone's own city)."""


@dataclass(frozen=True, slots=True)
class Place:
    """A city: its name as GeoNames writes it, country (ISO 3166), population and IANA zone."""

    name: str
    country: str
    population: int
    zone: str


@dataclass(frozen=True, slots=True)
class Match:
    """A city found by a name: `weight` ranks it (population, less for alternate names); `alternate` says how."""

    place: Place
    weight: float
    alternate: bool


class Gazetteer:
    """Cities, exemplar cities and country names from the places table, searched by folded name."""

    def __init__(self, source: Callable[[], str]) -> None:
        """A table read from `source` (the table's text) on the first search, not before."""
        self._source = source

    @cached_property
    def _rows(self) -> list[str]:
        return self._lines("c\t")

    @cached_property
    def exemplars(self) -> Mapping[str, tuple[str, ...]]:
        """Folded exemplar city name (CLDR, six languages) -> the zones it names."""
        found: dict[str, list[str]] = {}
        for line in self._lines("z\t"):
            _, zone, names = line.split("\t")
            for name in names.split("|"):
                found.setdefault(name, []).append(zone)
        return {name: tuple(zones) for name, zones in found.items()}

    @cached_property
    def countries(self) -> Mapping[str, str]:
        """Folded country name (CLDR, six languages) -> ISO 3166 code."""
        found: dict[str, str] = {}
        for line in self._lines("k\t"):
            _, code, names = line.split("\t")
            for name in names.split("|"):
                found.setdefault(name, code)
        return found

    def _lines(self, kind: str) -> list[str]:
        return [line for line in self._text.splitlines() if line.startswith(kind)]

    @cached_property
    def _text(self) -> str:
        return self._source()

    def __len__(self) -> int:
        return len(self._rows)

    def place(self, row: int) -> Place:
        """The city of a row."""
        _, name, _, _, country, population, zone = self._rows[row].split("\t")
        return Place(name, country, int(population), zone)

    @cached_property
    def _index(self) -> Mapping[str, int | tuple[int, ...]]:
        """Folded name -> its row, or rows; a row bearing it as an alternate name is stored negated (-1 - row)."""
        index: dict[str, int | tuple[int, ...]] = {}
        for row, line in enumerate(self._rows):
            fields = line.split("\t", 4)
            for name in fields[2].split("|"):
                _add(index, name, row)
            if fields[3]:
                for name in fields[3].split("|"):
                    _add(index, name, -1 - row)
        return index

    def matches(self, folded: str) -> list[Match]:
        """The cities a folded name names, best first: by population, alternate names weighing a tenth."""
        entries = self._index.get(folded, ())
        found: dict[int, Match] = {}
        for entry in (entries,) if isinstance(entries, int) else entries:
            alternate = entry < 0
            row = -1 - entry if alternate else entry
            place = self.place(row)
            weight = place.population * (ALTERNATE_WEIGHT if alternate else 1.0)
            if row not in found or weight > found[row].weight:
                found[row] = Match(place, weight, alternate)
        return sorted(found.values(), key=lambda match: -match.weight)

    @cached_property
    def spellings(self) -> Mapping[str, Place]:
        """Folded names of the larger cities (names and alternates) -> the largest city bearing it."""
        found: dict[str, int] = {}
        for row, line in enumerate(self._rows):
            _, _, names, alternates, _, population, _ = line.split("\t")
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
            _, _, _, _, code, population, zone = line.split("\t")
            if code == country:
                people[zone] = people.get(zone, 0) + int(population)
        return sorted(people, key=lambda zone: -people[zone])


def _add(index: dict[str, int | tuple[int, ...]], name: str, entry: int) -> None:
    known = index.get(name)
    if known is None:
        index[name] = entry
    else:
        index[name] = (known, entry) if isinstance(known, int) else (*known, entry)


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
