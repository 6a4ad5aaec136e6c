"""The request walk of one warm HTTP `tools/call`: which of our functions it enters, in how many modules, and where
the CPU goes (the SDK, our layers, the tools and the domain, other libraries), called in process as ASGI.

Run it in two checkouts to compare them (it measures the horologe it imports, the one beside this file):

    .venv/bin/python bench/walk.py [--n 2000] [--era modern|legacy]
    cd ../other-checkout && /path/to/.venv/bin/python bench/walk.py     # PYTHONPATH=src picks that checkout's code
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import asgi_cost


def share_of(filename: str) -> str:
    """Which part of the stack a function belongs to."""
    if "/horologe/tools/" in filename or "/horologe/core/" in filename:
        return "tools and domain"
    if "/horologe/" in filename:
        return "our layers"
    if "/mcp/" in filename or "/mcp_types/" in filename:
        return "SDK"
    return "other libraries"


async def walk(n: int, era: str) -> None:
    asgi_cost.ERA = era
    app = asgi_cost.build(asgi_cost.HOROLOGE)
    await asgi_cost.start(app)
    for request_id in range(300):
        await asgi_cost.call(app, request_id)
    one = cProfile.Profile()
    one.enable()
    await asgi_cost.call(app, 300)
    one.disable()
    ours = {
        (file, name)
        for (file, _, name) in pstats.Stats(one).stats  # type: ignore[attr-defined]
        if "/horologe/" in file and "/horologe/tools/" not in file and "/horologe/core/" not in file
    }
    domain = {
        (file, name)
        for (file, _, name) in pstats.Stats(one).stats  # type: ignore[attr-defined]
        if "/horologe/tools/" in file or "/horologe/core/" in file
    }
    modules = {file for file, _ in ours | domain}
    print(f"one warm call ({era}): {len(ours) + len(domain)} of our functions in {len(modules)} modules")
    print(f"  plumbing (our layers) {len(ours)}, domain (tools and core) {len(domain)}")
    many = cProfile.Profile()
    many.enable()
    for request_id in range(n):
        await asgi_cost.call(app, request_id)
    many.disable()
    seconds: dict[str, float] = defaultdict(float)
    for (file, _, _), (_, _, tottime, _, _) in pstats.Stats(many).stats.items():  # type: ignore[attr-defined]
        seconds[share_of(file)] += tottime
    total = sum(seconds.values())
    for part in ("SDK", "our layers", "tools and domain", "other libraries"):
        print(f"  {part:18} {seconds[part] / total:6.1%}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--era", choices=("modern", "legacy"), default="modern")
    args = parser.parse_args()
    asyncio.run(walk(args.n, args.era))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
