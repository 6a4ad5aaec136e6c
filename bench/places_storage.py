"""How to keep the places table at rest: the storages compared for issue 38, on the table's hottest reader (a city's
name -> its cities, `Gazetteer.matches`), each in fresh processes.

- `text in memory` (before issue 38): the gzip text unpacked and indexed into Python dicts on the first search;
- `sqlite`: the table compiled into SQLite (the standard library's `sqlite3`), queried where it lies (chosen);
- `mmap index`: the names sorted into one file with an offsets array, memory-mapped and searched by bisection, the
  cities in a second array of the same kind (a minimal reader written here, for the comparison only).

Rows: the file's bytes (raw, and deflated as a wheel stores it), the first lookup of a fresh process (open + the
first search, its modules already imported; median of --runs processes), one lookup after that (median over --names
names), and the process's RSS growth from before opening to after the lookups. The text surface is read from
--before (a checkout that still has src/horologe/data/places.tsv.gz); the other two are built from the same text.

    .venv/bin/python bench/places_storage.py --before /path/to/checkout [--runs 5] [--names 2000]
"""

from __future__ import annotations

import argparse
import bisect
import gzip
import json
import mmap
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAMES = ("mumbai", "vienna", "portland", "springfield", "sao paulo", "東京", "москва", "new york", "lagos", "wien")


def rss_kib() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


# --- the mmap index (for the comparison) ---------------------------------------------------------------------------


def write_array(path: Path, records: list[bytes]) -> None:
    """Records in one file: a count, the records' offsets (uint32), then the records."""
    header = 4 + 4 * (len(records) + 1)
    offsets, position = [], header
    for record in records:
        offsets.append(position)
        position += len(record)
    offsets.append(position)
    with path.open("wb") as out:
        out.write(struct.pack(f"<I{len(offsets)}I", len(records), *offsets))
        out.writelines(records)


def build_mmap(text: str, folder: Path) -> None:
    names: dict[str, list[int]] = {}
    cities: list[bytes] = []
    for line in text.splitlines():
        if not line.startswith("c\t"):
            continue
        row = len(cities)
        display, own, alternates, country, division, population, zone = line[2:].split("\t")
        cities.append("\t".join((display, country, population, zone, division)).encode())
        for entry, field in ((row, own), (-1 - row, alternates)):
            for name in field.split("|") if field else ():
                names.setdefault(name, []).append(entry)
    write_array(folder / "cities.bin", cities)
    write_array(
        folder / "names.bin",
        [name.encode() + b"\0" + ",".join(map(str, entries)).encode() for name, entries in sorted(names.items())],
    )


class MappedArray:
    def __init__(self, path: Path) -> None:
        with path.open("rb") as file:
            self.map = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        (self.count,) = struct.unpack_from("<I", self.map, 0)

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index: int) -> bytes:
        start, end = struct.unpack_from("<II", self.map, 4 + 4 * index)
        return self.map[start:end]


class MappedNames:
    """Sorted names bisected in place (only a record's name is compared)."""

    def __init__(self, folder: Path) -> None:
        self.names, self.cities = MappedArray(folder / "names.bin"), MappedArray(folder / "cities.bin")

    def key(self, index: int) -> bytes:
        record = self.names[index]
        return record[: record.index(b"\0")]

    def matches(self, folded: str) -> list[tuple[str, ...]]:
        wanted = folded.encode()
        index = bisect.bisect_left(range(len(self.names)), wanted, key=self.key)
        if index == len(self.names) or self.key(index) != wanted:
            return []
        entries = self.names[index].split(b"\0", 1)[1].decode().split(",")
        return [
            tuple(self.cities[abs(int(entry) + 1) if int(entry) < 0 else int(entry)].decode().split("\t"))
            for entry in entries
        ]


# --- one process of one surface ------------------------------------------------------------------------------------


def child(surface: str, path: str, names: list[str]) -> None:
    if surface == "text in memory":
        sys.path.insert(0, path)
    from horologe.places import gazetteer  # the modules imported first: only opening and searching are timed

    before = rss_kib()
    began = time.perf_counter()
    search = MappedNames(Path(path)).matches if surface == "mmap index" else gazetteer().matches
    search(names[0])
    first = time.perf_counter() - began
    times = []
    for name in names[1:]:
        start = time.perf_counter()
        search(name)
        times.append(time.perf_counter() - start)
    print(json.dumps({"first": first, "each": statistics.median(times), "rss": (rss_kib() - before) / 1024}))


def deflated(paths: list[Path]) -> int:
    return sum(len(zlib.compress(path.read_bytes(), 6)) for path in paths)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--names", type=int, default=2000)
    parser.add_argument("--child", nargs=2)
    args = parser.parse_args()
    text_file = args.before / "src" / "horologe" / "data" / "places.tsv.gz"
    text = gzip.decompress(text_file.read_bytes()).decode()
    names = list(NAMES)
    for line in text.splitlines():
        if line.startswith("c\t") and len(names) < args.names:
            names.append(line.split("\t")[2].split("|")[0])
    if args.child:
        child(args.child[0], args.child[1], names)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        mapped = Path(folder)
        build_mmap(text, mapped)
        sqlite = ROOT / "src" / "horologe" / "data" / "places.sqlite3"
        surfaces = {
            "text in memory": (str(args.before / "src"), [text_file]),
            "sqlite": (str(sqlite), [sqlite]),
            "mmap index": (folder, [mapped / "names.bin", mapped / "cities.bin"]),
        }
        print(f"load: {os.getloadavg()[0]:.2f} (1 min), {len(names)} names\n")
        print("| storage | file bytes | deflated (wheel) | first lookup ms | one lookup µs | RSS growth MiB |")
        print("|---|---|---|---|---|---|")
        for label, (path, files) in surfaces.items():
            runs = []
            for _ in range(args.runs):
                command = [sys.executable, __file__, "--before", str(args.before), "--names", str(args.names)]
                done = subprocess.run([*command, "--child", label, path], capture_output=True, text=True, check=True)
                runs.append(json.loads(done.stdout))
            raw = sum(file.stat().st_size for file in files)
            first, each = (statistics.median(r[key] for r in runs) for key in ("first", "each"))
            rss = statistics.median(r["rss"] for r in runs)
            print(f"| {label} | {raw:,} | {deflated(files):,} | {first * 1e3:.1f} | {each * 1e6:.1f} | {rss:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
