"""The names people type for places: cities, first-level divisions (states, provinces, regions) and countries with
their zones and people, zones' exemplar cities, the subdivisions holiday calendars take.

The table is compiled at build time (`scripts/build_places.py` writes its rows as text, `compile_rows` stores them in
the tables of `SCHEMA`) and searched where it lies: each search is a query over the compiled file (`Query`, handed in
by `horologe.places`), so nothing is unpacked or indexed in memory and a first search costs what any other does.
Names are stored folded (`fold`). The coordinates lookup (`locate`, latitude and longitude to a zone) comes in from
the edge with the table, so that a place given by coordinates is read the way the table's places were built.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, Final

ALTERNATE_WEIGHT: Final = 0.05
"""An alternate, former or foreign name counts a twentieth of the place's people against places that bear it as their
own name ('Canton' is Guangzhou's old name and Canton, Ohio's own; 'Salvador' is El Salvador in French and a city of
2.7 million in Brazil)."""
FUZZY_POPULATION: Final = 100_000
"""Spelling suggestions come from cities of at least this many people (and every zone's own city)."""

Locate = Callable[[float, float], str | None]
Query = Callable[[str, Sequence[object]], list[tuple[Any, ...]]]
"""SQL over the compiled places table (`SCHEMA`) with its parameters -> the rows it answers."""
_ACCENT, _LAST_ACCENT = "\u0300", "\u036f"  # Unicode's Combining Diacritical Marks
_LETTERS: Final = str.maketrans(
    {
        "ø": "o",
        "Ø": "O",
        "ł": "l",
        "Ł": "L",
        "đ": "d",
        "Đ": "D",
        "ħ": "h",
        "Ħ": "H",
        "ı": "i",  # noqa: RUF001
        "ŀ": "l",
        "Ŀ": "L",
    }
    | {"æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "þ": "th", "Þ": "TH", "ð": "d", "Ð": "D", "ŧ": "t", "Ŧ": "T"}
)
"""Letters people type without their stroke or as two letters ('Tromso', 'Lodz', 'Faeroe'): Unicode gives them no
decomposition, so dropping accents alone would keep them."""


@lru_cache(maxsize=1024)
def fold(text: str) -> str:
    """Text folded for loose matching: accents dropped and letters written as people type them without ('ø' -> 'o',
    'ß' -> 'ss', 'æ' -> 'ae'), case folded, punctuation runs as one space; the marks of other scripts (Devanagari's
    vowel signs, kana's voicing) stay part of their word (the readers of one lookup fold the same text several
    times: cached)."""
    decomposed = unicodedata.normalize("NFKD", text.replace("&", " and ").translate(_LETTERS))
    # Only Latin-style accents go ('é' -> 'e'); kana voicing marks stay ('バ' is not 'ハ').
    bare = unicodedata.normalize("NFC", "".join(char for char in decomposed if not _ACCENT <= char <= _LAST_ACCENT))
    return _words(bare.casefold())


@lru_cache(maxsize=1024)
def mark_fold(text: str) -> str:
    """Text folded as `fold` does but keeping every letter's accents and strokes ('Münster' -> 'münster'): where it
    differs from `fold`, the text carries marks that tell namesakes apart (`Gazetteer.marked`)."""
    return _words(unicodedata.normalize("NFKC", text.replace("&", " and ")).casefold())


def _words(text: str) -> str:
    """Runs of anything but letters, digits and combining marks as one space, trimmed."""
    return " ".join("".join(c if c.isalnum() or unicodedata.category(c)[0] == "M" else " " for c in text).split())


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
    """Cities, divisions, countries, exemplar cities and subdivisions from the places table, searched by folded name
    where the table lies (`Query`: SQL over the compiled table, `SCHEMA`)."""

    def __init__(self, open_table: Callable[[], Query], locate: Locate | None = None) -> None:
        """A table opened by `open_table` on the first search, not before; `locate` gives the zone at a latitude and
        longitude (None where it knows none)."""
        self._open = open_table
        self.locate = locate

    @cached_property
    def _query(self) -> Query:
        return self._open()

    def open(self) -> None:
        """Open the table now (a server's start-up: a missing or damaged file stops it there, not in a request)."""
        self._query  # noqa: B018 (opening is the point)

    def _rows(self, sql: str, *parameters: object) -> list[tuple[Any, ...]]:
        return self._query(sql, parameters)

    def exemplars(self, folded: str) -> tuple[str, ...]:
        """The zones whose exemplar city (CLDR, twelve languages) a folded name is."""
        return tuple(zone for (zone,) in self._rows("SELECT zone FROM exemplar WHERE name = ? ORDER BY seq", folded))

    @cached_property
    def countries(self) -> Mapping[str, str]:
        """Folded country name (CLDR, twelve languages) -> ISO 3166 code (every name: read when first asked)."""
        return dict(self._rows("SELECT name, code FROM country_name ORDER BY seq"))

    def country(self, folded: str) -> Country | None:
        """The country a folded name names (English, or another of the twelve languages), or None."""
        found = self._rows("SELECT code, own FROM country_name WHERE name = ?", folded)
        return self.country_coded(found[0][0], primary=bool(found[0][1])) if found else None

    def country_coded(self, code: str, *, primary: bool = True) -> Country:
        """A country by its ISO code (no people and no clocks when the table does not know it)."""
        found = self._rows("SELECT people, zones FROM country WHERE code = ?", code)
        if not found:
            return Country(code, 0, primary)
        return Country(code, found[0][0], primary, _clocks(found[0][1]))

    def __len__(self) -> int:
        return int(self._rows("SELECT count(*) FROM city")[0][0])

    def place(self, row: int) -> Place:
        """The city of a row."""
        return Place(*self._rows(f"SELECT {_PLACE} FROM city WHERE row = ?", row)[0])

    def matches(self, folded: str) -> list[Match]:
        """The cities a folded name names, best first: by population, alternate names weighing a twentieth."""
        found: dict[int, Match] = {}
        for row, alternate, *fields in self._rows(
            f"SELECT city.row, alternate, {_PLACE} FROM city_name JOIN city USING (row) WHERE city_name.name = ? "
            "ORDER BY city.row, alternate",
            folded,
        ):
            place = Place(*fields)
            weight = place.population * (ALTERNATE_WEIGHT if alternate else 1.0)
            if row not in found or weight > found[row].weight:
                found[row] = Match(place, weight, bool(alternate))
        return sorted(found.values(), key=lambda match: -match.weight)

    def divisions(self, folded: str) -> list[tuple[Division, bool]]:
        """The first-level divisions a folded name names, each with whether it is one of its other names (a
        translation), the most populous first."""
        found = [
            (_division(fields), bool(other))
            for other, *fields in self._rows(
                f"SELECT other, {_DIVISION} FROM division_name JOIN division USING (country, code) "
                "WHERE division_name.name = ? ORDER BY division_name.seq",
                folded,
            )
        ]
        return sorted(found, key=lambda entry: -entry[0].people)

    def division(self, country: str, code: str) -> Division | None:
        """A division by its country and GeoNames admin-1 code."""
        found = self._rows(f"SELECT {_DIVISION} FROM division WHERE country = ? AND code = ?", country, code)
        return _division(found[0]) if found else None

    def divisions_coded(self, code: str) -> tuple[Division, ...]:
        """The divisions, in any country, people write a folded code for ('or': Oregon; 'nsw': New South Wales)."""
        return tuple(
            _division(fields)
            for fields in self._rows(
                f"SELECT {_DIVISION} FROM division_code JOIN division USING (country, code) "
                "WHERE division_code.written = ? ORDER BY division_code.seq",
                code,
            )
        )

    def subdivisions(self, country: str) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
        """The subdivisions holiday calendars take in a country: (code, display name, folded names)."""
        return tuple(
            (code, display, tuple(names.split("|")) if names else ())
            for code, display, names in self._rows(
                "SELECT code, display, names FROM subdivision WHERE country = ? ORDER BY seq", country
            )
        )

    def spellings(self, initial: str, shortest: int, longest: int) -> Mapping[str, Place]:
        """Folded names of the larger cities (names and alternates) beginning with `initial` (a typo seldom hits the
        first letter), of `shortest` to `longest` characters -> the largest city bearing it."""
        found = self._rows(
            "SELECT name, row FROM spelling WHERE name >= ? AND name < ? AND length(name) BETWEEN ? AND ?",
            initial,
            _following(initial),
            shortest,
            longest,
        )
        return _Places(self, dict(found))

    def marked(self, text: str) -> frozenset[tuple[str, str, str, str]]:
        """The places whose own name, with its marks, is `mark_fold(text)` ('Münster' is Münster, DE; not Munster,
        Ireland): (kind, country, division or '', city's name or ''), a country's names in every language kept."""
        return frozenset(self._rows("SELECT kind, country, code, name FROM marked WHERE written = ?", mark_fold(text)))

    def subdivisions_named(self, folded: str) -> tuple[tuple[str, str, str], ...]:
        """The subdivisions holiday calendars take that a folded name names, in any country: (country, code, display
        name) ('scotland': GB, SCT, Scotland)."""
        return tuple(
            self._rows("SELECT country, code, display FROM subdivision_name WHERE name = ? ORDER BY seq", folded)
        )

    def zones_by_population(self, country: str) -> list[str]:
        """A country's zones, the most populous first (by the people of its cities in the table)."""
        return [
            zone
            for (zone,) in self._rows(
                "SELECT zone FROM city WHERE country = ? GROUP BY zone ORDER BY sum(population) DESC, min(row)",
                country,
            )
        ]


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


def _following(initial: str) -> str:
    """The first text after every text beginning with `initial` (code points order as UTF-8 bytes do)."""
    after = ord(initial) + 1
    return chr(0xE000 if 0xD800 <= after < 0xE000 else after) if after <= 0x10FFFF else initial * 2


def _division(fields: Sequence[Any]) -> Division:
    country, code, name, people, zones, codes = fields
    return Division(country, code, name, people, _clocks(zones), tuple(codes.split("|")))


# --- the compiled table --------------------------------------------------------------------------------------------

SCHEMA: Final = """
CREATE TABLE about (text TEXT);
CREATE TABLE city (row INTEGER PRIMARY KEY, name TEXT, country TEXT, division TEXT, population INTEGER, zone TEXT);
CREATE INDEX city_country ON city (country);
CREATE TABLE city_name (name TEXT, row INTEGER, alternate INTEGER, PRIMARY KEY (name, row, alternate)) WITHOUT ROWID;
CREATE TABLE spelling (name TEXT PRIMARY KEY, row INTEGER) WITHOUT ROWID;
CREATE TABLE exemplar (name TEXT, seq INTEGER, zone TEXT, PRIMARY KEY (name, seq)) WITHOUT ROWID;
CREATE TABLE country (code TEXT PRIMARY KEY, people INTEGER, zones TEXT) WITHOUT ROWID;
CREATE TABLE country_name (name TEXT PRIMARY KEY, seq INTEGER, code TEXT, own INTEGER) WITHOUT ROWID;
CREATE TABLE division (country TEXT, code TEXT, name TEXT, people INTEGER, zones TEXT, codes TEXT,
    PRIMARY KEY (country, code)) WITHOUT ROWID;
CREATE TABLE division_name (name TEXT, seq INTEGER, country TEXT, code TEXT, other INTEGER,
    PRIMARY KEY (name, seq)) WITHOUT ROWID;
CREATE TABLE division_code (written TEXT, seq INTEGER, country TEXT, code TEXT,
    PRIMARY KEY (written, seq)) WITHOUT ROWID;
CREATE TABLE marked (written TEXT, seq INTEGER, kind TEXT, country TEXT, code TEXT, name TEXT,
    PRIMARY KEY (written, seq)) WITHOUT ROWID;
CREATE TABLE subdivision_name (name TEXT, seq INTEGER, country TEXT, code TEXT, display TEXT,
    PRIMARY KEY (name, seq)) WITHOUT ROWID;
CREATE TABLE subdivision (country TEXT, seq INTEGER, code TEXT, display TEXT, names TEXT, PRIMARY KEY (country, seq))
    WITHOUT ROWID;
"""
"""The compiled places table: one table a kind of row of the text (`compile_rows`), keyed by what is looked up."""
_PLACE = "city.name, city.country, city.population, city.zone, city.division"
_DIVISION = "division.country, division.code, division.name, division.people, division.zones, division.codes"


def compile_rows(text: str) -> Iterator[tuple[str, tuple[object, ...]]]:
    """The SQL statements (after `SCHEMA`) that store the places table's text, each with its parameters; the text's
    rows are what `scripts/build_places.py` writes:

      c  display name  folded names|...  folded alternate names|...  country  division  population  zone
      z  zone  folded exemplar city names|...
      k  country  population  folded names (English)|...  folded names (other languages)|...  zone=people|...
      r  country  division  display name  folded names|...  folded other names|...  folded codes|...  people
         zone=people|...
      s  country  subdivision code  display name  folded names|...
    """
    seq = iter(range(1 << 62))
    city = -1
    about = "\n".join(line.removeprefix("# ") for line in text.splitlines() if line.startswith("#"))
    yield "INSERT INTO about VALUES (?)", (about,)
    for line in text.splitlines():
        if len(line) <= 2 or line[1] != "\t":
            continue
        kind, fields = line[0], line[2:].split("\t")
        if kind == "c":
            city += 1
            display, names, alternates, country, division, population, zone = fields
            yield (
                "INSERT INTO city VALUES (?, ?, ?, ?, ?, ?)",
                (city, display, country, division, int(population), zone),
            )
            yield from _marked("city", country, division, display, [display], seq)
            for alternate, field in ((0, names), (1, alternates)):
                for name in field.split("|") if field else ():
                    yield "INSERT OR IGNORE INTO city_name VALUES (?, ?, ?)", (name, city, alternate)
                    if int(population) >= FUZZY_POPULATION:
                        yield "INSERT OR IGNORE INTO spelling VALUES (?, ?)", (name, city)
        elif kind == "z":
            zone, names = fields
            for name in names.split("|"):
                yield "INSERT INTO exemplar VALUES (?, ?, ?)", (name, next(seq), zone)
        elif kind == "k":
            code, people, english, other, zones, marked = fields
            yield "INSERT INTO country VALUES (?, ?, ?)", (code, int(people), zones)
            yield from _marked("country", code, "", "", marked.split("|") if marked else [], seq)
            for own, field in ((1, english), (0, other)):
                for name in field.split("|") if field else ():
                    yield "INSERT OR IGNORE INTO country_name VALUES (?, ?, ?, ?)", (name, next(seq), code, own)
        elif kind == "r":
            country, code, display, names, others, codes, people, zones = fields
            yield "INSERT INTO division VALUES (?, ?, ?, ?, ?, ?)", (country, code, display, int(people), zones, codes)
            yield from _marked("region", country, code, display, [display], seq)
            for translated, field in ((0, names), (1, others)):
                for name in field.split("|") if field else ():
                    yield (
                        "INSERT INTO division_name VALUES (?, ?, ?, ?, ?)",
                        (name, next(seq), country, code, translated),
                    )
            for written in codes.split("|"):
                if written:
                    yield "INSERT INTO division_code VALUES (?, ?, ?, ?)", (written, next(seq), country, code)
        elif kind == "s":
            country, code, display, names = fields
            yield "INSERT INTO subdivision VALUES (?, ?, ?, ?, ?)", (country, next(seq), code, display, names)
            for name in dict.fromkeys(names.split("|")) if names else ():
                yield "INSERT INTO subdivision_name VALUES (?, ?, ?, ?, ?)", (name, next(seq), country, code, display)


def _marked(
    kind: str, country: str, code: str, name: str, written: list[str], seq: Iterator[int]
) -> Iterator[tuple[str, tuple[object, ...]]]:
    """A place's names that carry marks, as `mark_fold` writes them (a name without marks is not stored)."""
    for marked in dict.fromkeys(mark_fold(text) for text in written):
        if marked and marked != fold(marked):
            yield "INSERT INTO marked VALUES (?, ?, ?, ?, ?, ?)", (marked, next(seq), kind, country, code, name)
