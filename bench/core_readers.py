"""The core's readers per call, in process: timestamps, wall times at DST changes, other calendars' dates.

What every tool argument and the oracles' hundreds of thousands of cases pay. With --before, another checkout's
`src/` is timed in the same run (each in its own process, alternating), so the ratio is measured side by side:
    .venv/bin/python bench/core_readers.py [--rounds 5] [--before DIR]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

# Run in a child with the checkout's src/ first on the path: prints {case: microseconds per call}.
CHILD = r"""
import json, sys, timeit
from datetime import date
sys.path.insert(0, sys.argv[1])
import horologe
assert horologe.__file__.startswith(sys.argv[1]), horologe.__file__
from horologe.core import calendars, tzdb
from horologe.core.parse import parse_timestamp
vienna = tzdb.get_zone("Europe/Vienna")
cases = {
    "ISO wall time": lambda: parse_timestamp("2025-08-17T10:30:00", vienna),
    "ISO with Z": lambda: parse_timestamp("2025-08-17T10:30:00Z", vienna),
    "wall time in a gap": lambda: parse_timestamp("2025-03-30T02:30:00", vienna),
    "wall time in a fold": lambda: parse_timestamp("2025-10-26T02:30:00", vienna),
    "Unix seconds": lambda: parse_timestamp("1755426600", vienna),
    "RFC 2822": lambda: parse_timestamp("Sun, 17 Aug 2025 10:30:00 GMT", vienna),
    "Hebrew date": lambda: calendars.hebrew(date(2026, 11, 29)),
}
out = {}
for name, call in cases.items():
    number = 20_000
    out[name] = min(timeit.repeat(call, number=number, repeat=3)) / number * 1e6
print(json.dumps(out))
"""


def timed(checkout: Path) -> dict[str, float]:
    """Microseconds per call of each case, the checkout's own code."""
    src = str((checkout / "src").resolve())
    done = subprocess.run([sys.executable, "-c", CHILD, src], capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout))


def main() -> None:
    """Time each checkout's readers in alternating rounds and print the best of each, with the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--before", type=Path, help="another horologe checkout, timed in the same rounds")
    args = parser.parse_args()
    checkouts = {"now": HERE, **({"before": args.before} if args.before else {})}
    best: dict[str, dict[str, float]] = {label: {} for label in checkouts}
    for _ in range(args.rounds):
        for label, checkout in checkouts.items():
            for case, micros in timed(checkout).items():
                best[label][case] = min(micros, best[label].get(case, micros))
    print(f"{'case':<22} {'now µs':>8}" + (f" {'before µs':>10} {'now/before':>10}" if args.before else ""))
    for case, micros in best["now"].items():
        line = f"{case:<22} {micros:8.1f}"
        if args.before:
            line += f" {best['before'][case]:10.1f} {micros / best['before'][case]:9.2f}x"
        print(line)


if __name__ == "__main__":
    main()
