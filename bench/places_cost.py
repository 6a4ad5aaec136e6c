"""What reading places costs: the places table's size, its first use in a fresh process, and each reader's time.

For each surface (this checkout, and with `--before PATH` another checkout's src/), in fresh processes:
- the packaged table: bytes compressed and as text, rows;
- first use: the first `resolve_zone('Mumbai', places=...)` of a process (reading, unpacking and indexing the table),
  its wall time (the median of `--runs` processes) and, in one more process, the memory it keeps (tracemalloc);
- each reader: the median time of one `resolve_zone` call (no cache; the tools add one) over `--repeat` calls after
  the first use, for a city name, a qualified name, a region, coordinates, a name without comma, a tie, an unknown
  name; a reader the surface does not have shows the time it takes to refuse.

Budget, checked by the report (never by a test): no reader may take more than four times today's (before's) city
name lookup, the reader every place name went through until now; the refusal of an unknown name, which searches
spellings for suggestions, no more than a quarter over its own time before.

    .venv/bin/python bench/places_cost.py [--before /path/to/checkout] [--runs 5] [--repeat 300]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

READERS = {
    "IANA name": "Europe/Vienna",
    "city name": "Mumbai",
    "city name, foreign script": "Москва",
    "City, Country": "Vienna, Austria",
    "City, State": "Portland, Oregon",
    "City State (no comma)": "Portland Oregon",
    "region": "Bavaria",
    "coordinates": "48.2082, 16.3738",
    "tie (refused)": "Georgia",
    "unknown (refused)": "Qwertzuiop",
}
BUDGET = 4.0
OWN_BUDGET = {"unknown (refused)": 1.25}

PROBE = r"""
import json, sys, time, tracemalloc, gzip
from importlib.resources import files
from horologe.core.zones import resolve_zone
from horologe.places import gazetteer, TABLE
mode, repeat = sys.argv[1], int(sys.argv[2])
raw = files("horologe.data").joinpath(TABLE).read_bytes()
text = gzip.decompress(raw).decode()
table = {"compressed": len(raw), "text": len(text), "rows": text.count("\n")}
places = gazetteer()
if mode == "memory":
    tracemalloc.start()
start = time.perf_counter()
try:
    resolve_zone("Mumbai", places=places)
except ValueError:
    pass
first = time.perf_counter() - start
kept = tracemalloc.get_traced_memory()[0] if mode == "memory" else 0
tracemalloc.stop()
readers = {}
if mode == "readers":
    for label, text in json.loads(sys.argv[3]).items():
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            try:
                resolve_zone(text, places=places)
            except ValueError:
                pass
            times.append(time.perf_counter() - start)
        times.sort()
        readers[label] = times[len(times) // 2]
print(json.dumps({"table": table, "first": first, "kept": kept, "readers": readers}))
"""


def probe(env: dict[str, str], mode: str, repeat: int) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, mode, str(repeat), json.dumps(READERS)],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, object] = json.loads(done.stdout)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=300)
    args = parser.parse_args()
    surfaces: dict[str, dict[str, str]] = {"after": {}}
    if args.before is not None:
        surfaces = {"before": {"PYTHONPATH": str(args.before / "src")}, **surfaces}
    results = {}
    for label, env in surfaces.items():
        firsts = [probe(env, "first", 0) for _ in range(args.runs)]
        memory = probe(env, "memory", 0)
        readers = probe(env, "readers", args.repeat)
        results[label] = {
            "table": firsts[0]["table"],
            "first": statistics.median(float(run["first"]) for run in firsts),  # type: ignore[arg-type]
            "kept": memory["kept"],
            "readers": readers["readers"],
        }
    labels = list(results)
    print(f"load average: {os.getloadavg()[0]:.2f}\n")
    print("| measure | " + " | ".join(labels) + " |")
    print("|---|" + "---|" * len(labels))
    for key in ("compressed", "text", "rows"):
        print(f"| table {key} | " + " | ".join(f"{results[label]['table'][key]:,}" for label in labels) + " |")  # type: ignore[index]
    print(
        "| first use (ms, median) | "
        + " | ".join(f"{float(results[label]['first']) * 1000:.0f}" for label in labels)
        + " |"
    )  # type: ignore[arg-type]
    print(
        "| memory kept by first use (MB) | "
        + " | ".join(f"{int(results[label]['kept']) / 1e6:.1f}" for label in labels)
        + " |"
    )  # type: ignore[call-overload]
    base_label = labels[0]
    base = float(results[base_label]["readers"]["city name"])  # type: ignore[index]
    print("\n| reader (µs per call, median) | " + " | ".join(labels) + f" | ratio to {base_label}'s city name |")
    print("|---|" + "---|" * (len(labels) + 1))
    over = []
    for reader in READERS:
        cells = [f"{float(results[label]['readers'][reader]) * 1e6:.0f}" for label in labels]  # type: ignore[index]
        ratio = float(results[labels[-1]]["readers"][reader]) / base  # type: ignore[index]
        own = float(results[labels[-1]]["readers"][reader]) / float(results[base_label]["readers"][reader])  # type: ignore[index]
        if (ratio > BUDGET and reader not in OWN_BUDGET) or own > OWN_BUDGET.get(reader, float("inf")):
            over.append(reader)
        print(f"| {reader} ({READERS[reader]!r}) | " + " | ".join(cells) + f" | {ratio:.1f} |")
    print(
        f"\nbudget: every reader within {BUDGET:g} times {base_label}'s city name lookup: "
        + ("over: " + ", ".join(over) if over else "kept")
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
