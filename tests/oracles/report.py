"""The oracle table: every area, its oracle, the cases compared and the discrepancies found, as Markdown.

    .venv/bin/python -m tests.oracles.report                          # this checkout's code
    PYTHONPATH=/path/to/other/src .venv/bin/python -m tests.oracles.report   # another checkout, same oracles

It runs the same comparisons as the tests in this folder (zic and zdump compiled into a temporary directory).
"""

from __future__ import annotations

import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from functools import partial
from pathlib import Path

import horologe
from tests.oracles import comparisons, zic


def main() -> int:
    """Run every area and print the table; exit 1 when any area has a discrepancy."""
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        outputs = zic.dump_texts(zic.source(), comparisons.names(), *comparisons.WINDOW, Path(scratch))
        dumps = zic.parse_intervals(outputs[0]), zic.parse_intervals(outputs[1])
        areas: list[tuple[str, Callable[[], comparisons.Comparison]]] = [
            ("zdump", partial(comparisons.zdump_transitions, dumps[0])),
            ("zdump_standard", partial(comparisons.zdump_standard_offsets, *dumps)),
            *comparisons.AREAS.items(),
        ]
        for key, run in areas:
            started = time.perf_counter()
            try:
                result = run()
            except Exception as exc:  # an older checkout may fail an area outright: say so in the table
                traceback.print_exc(file=sys.stderr)
                rows.append((key, "-", "-", "-", f"error: {type(exc).__name__}: {exc}"[:150], "-"))
                continue
            example = result.mismatches[0][:150] if result.mismatches else ""
            seconds = f"{time.perf_counter() - started:.1f}"
            rows.append((result.area, result.oracle, f"{result.cases:,}", f"{len(result.mismatches):,}", example,
                         seconds))  # fmt: skip
    print(f"horologe from {Path(horologe.__file__).parent}\n")
    print("| area | oracle | cases | discrepancies | first discrepancy | s |")
    print("|---|---|---:|---:|---|---:|")
    for row in rows:
        print("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |")
    return 1 if any(row[3] not in ("0", "-") or row[2] == "-" for row in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
