"""Instructions per `tools/call` of horologe's HTTP app and the SDK's floor on the realistic mix, counted by valgrind.

Timings on this shared machine swing by a third between minutes; instruction counts do not move. Each app runs
in process (as in bench/asgi_cost.py) under `valgrind --tool=callgrind` twice, with a short and a long series of
requests after the same warm-up; the difference divided by the extra requests is the cost of one request. Counts
are user-space instructions only: system calls (socket writes, the access log's write) are not in them.
The requests are bench/mix.py's full mix as bench/asgi_cost.py sends it (keep --requests a multiple of its 500
calls, so every call weighs as in the mix).

    .venv/bin/python bench/asgi_instructions.py [--requests 1000] [--era modern|legacy]   # needs valgrind
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
WARM_UP = 300
BASE = 200
import asgi_cost  # noqa: E402

APPS = (asgi_cost.FLOOR, asgi_cost.HOROLOGE, asgi_cost.HOROLOGE_LOGGING)


async def serve(label: str, count: int) -> None:
    """Warm the app up, settle the heap as `horologe serve` does, then answer `count` more requests.

    Only the measured app is built: another app's objects would make every collection of the heap dearer.
    """
    from horologe.heap import settle_after_startup

    app = asgi_cost.build(label)
    await asgi_cost.start(app)
    for request_id in range(WARM_UP):
        await asgi_cost.call(app, request_id)
    settle_after_startup()  # for every app alike: the count is about the request path, not the start-up heap
    for request_id in range(count):
        await asgi_cost.call(app, request_id)


def count_instructions(label: str, requests: int) -> int:
    """User-space instructions of a whole child run that answers `requests` requests after the warm-up."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--child",
        label,
        str(requests),
        "--era",
        asgi_cost.ERA,
    ]
    env = {**os.environ, "HOROLOGE_LOG_LEVEL": "WARNING"}
    completed = subprocess.run(command, capture_output=True, text=True, env=env, timeout=3600, check=False)
    found = re.search(r"Collected : (\d+)", completed.stderr)
    if completed.returncode != 0 or found is None:
        raise SystemExit(f"valgrind run of {label!r} failed:\n{completed.stderr[-2000:]}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=1000, help="requests measured per app")
    parser.add_argument("--era", choices=("modern", "legacy"), default="modern")
    parser.add_argument("--apps", nargs="*", choices=APPS, default=APPS, help="count only these apps")
    parser.add_argument("--child", nargs=2, metavar=("APP", "COUNT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    asgi_cost.ERA = args.era
    if args.child:
        asyncio.run(serve(args.child[0], int(args.child[1])))
        return 0
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: apt-get install valgrind")
    runs = [(label, count) for label in args.apps for count in (BASE, BASE + args.requests)]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        totals = dict(zip(runs, pool.map(lambda run: count_instructions(*run), runs), strict=True))
    per_request = {
        label: (totals[(label, BASE + args.requests)] - totals[(label, BASE)]) / args.requests for label in args.apps
    }
    floor = per_request.get(APPS[0], float("nan"))
    era = "2026-07-28" if args.era == "modern" else "2025-11-25"
    print(f"### Instructions per {era} tools/call on the full mix (valgrind, {args.requests} requests after warm-up)\n")
    print("| app | instructions per request | vs SDK floor |")
    print("|---|---|---|")
    for label, value in per_request.items():
        print(f"| {label} | {value:,.0f} | {value / floor:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
