"""What horologe costs at rest and in its first seconds, side by side with the official `mcp-server-time` (issue 38).

Over stdio, for each server, alternated over --rounds fresh processes (medians):
- start-up: spawn -> the `initialize` answer;
- RSS after the first answer (get_current_time, Europe/Vienna), and again after --idle seconds of quiet;
- the first --first calls of the paired mix right after start-up (mix.py's PAIRED: the same questions in each
  server's words): calls per second and p99 latency;
- a misspelt place as the very first call, in a fresh process: horologe 'Frankfrut' (a place name), the official
  server 'Europe/Viena' (it reads only IANA names): the call's latency (both refuse, horologe with suggestions).
Then one horologe HTTP worker (`--transport http`, one process) answering --requests requests with all-different
arguments (city names and their misspellings, coordinates, phrases with changing numbers, locale tags, timestamps):
its RSS every tenth of the way and at the end. Last, the installed size of each server in a fresh virtual environment
(`uv pip install`: horologe from this checkout's wheel, the official server from PyPI).

Ratios are horologe / official. Print the load with the figures: the machine is shared.

    .venv/bin/python bench/at_rest.py [--rounds 5] [--first 500] [--idle 30] [--requests 100000] [--no-install]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from bounds import call, post, rss_mib, server
from drive import StdioServer, percentile, stdio_params
from mix import calls
from peers import official

ROOT = Path(__file__).resolve().parents[1]
HORO = [sys.executable, "-m", "horologe"]
HELLO = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "at_rest", "version": "1"}}
MISSPELT = {"horologe": "Frankfrut", "official": "Europe/Viena"}
CITIES = ("Vienna", "Mumbai", "Portland", "São Paulo", "Kraków", "東京", "Москва", "Springfield", "Lagos", "Sydney")
LOCALES = ("de-AT", "fr-CA", "es-MX", "ja-JP", "zh-Hans-CN", "pt-BR", "it-IT", "ko-KR", "ar-EG", "hi-IN", "sv-FI")


def rss(pid: int) -> float:
    return rss_mib(pid)


def first_answer(command: list[str], idle: float, first: int, name: str) -> dict[str, float]:
    """One fresh stdio process: start-up, RSS after the first answer, the first calls, RSS after idling."""
    stdio = StdioServer(command)
    stdio.request("initialize", HELLO)
    startup = time.perf_counter() - stdio.started
    stdio.writer.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    answer = stdio.request("tools/call", {"name": "get_current_time", "arguments": {"timezone": "Europe/Vienna"}})
    assert "result" in answer and not answer["result"].get("isError"), answer
    after_first = rss(stdio.process.pid)
    latencies = []
    began = time.perf_counter()
    for one in calls("paired", name, first):
        start = time.perf_counter()
        stdio.request("tools/call", stdio_params(one, "legacy"))
        latencies.append(time.perf_counter() - start)
    total = time.perf_counter() - began
    time.sleep(idle)
    idle_rss = rss(stdio.process.pid)
    stdio.close()
    return {
        "startup": startup,
        "rss_first": after_first,
        "rss_idle": idle_rss,
        "rate": first / total,
        "p99": percentile(latencies, 99) if first else 0.0,
    }


def misspelt_first(command: list[str], name: str) -> float:
    """Seconds of a misspelt place as the first call of a fresh process (after `initialize`)."""
    stdio = StdioServer(command)
    stdio.request("initialize", HELLO)
    stdio.writer.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    start = time.perf_counter()
    answer = stdio.request("tools/call", {"name": "get_current_time", "arguments": {"timezone": MISSPELT[name]}})
    took = time.perf_counter() - start
    stdio.close()
    assert "result" in answer or "error" in answer, answer
    return took


def different(n: int, rng: random.Random) -> dict[str, Any]:
    """The n-th request's arguments, none like another."""
    city = CITIES[n % len(CITIES)]
    kind = n % 5
    if kind == 0:
        typo = list(city)
        typo.insert(rng.randrange(len(typo) + 1), rng.choice("aeiourst"))
        params = {"name": "get_current_time", "arguments": {"timezone": "".join(typo) + " " * (n % 3)}}
    elif kind == 1:
        latitude, longitude = rng.uniform(-60, 70), rng.uniform(-180, 180)
        params = {"name": "get_current_time", "arguments": {"timezone": f"{latitude:.5f}, {longitude:.5f}"}}
    elif kind == 2:
        expression = f"in {n % 9973} minutes" if n % 2 else f"{n % 28 + 1} days after next friday at {n % 12 + 1}pm"
        params = {"name": "resolve_time_expression", "arguments": {"expression": expression, "timezone": city}}
    elif kind == 3:
        stamp = 1_700_000_000 + n * 7919
        params = {"name": "convert_timezone", "arguments": {"timestamp": stamp, "to_timezone": city}}
    else:
        params = {"name": "get_current_time", "arguments": {"timezone": f"{city}, {['AT', 'US', 'IN'][n % 3]}"}}
    locale = f"{LOCALES[n % len(LOCALES)]}-x-{n}"
    params["_meta"] = {"dev.horologe/clientContext": {"locale": locale}}
    return params


def http_worker(requests: int) -> list[tuple[int, float]]:
    """RSS of one HTTP worker every tenth of `requests` all-different requests."""
    rng = random.Random(38)
    marks = []
    with server(None) as (port, pid):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        post(port, call(0, {"name": "get_current_time", "arguments": {"timezone": "Europe/Vienna"}}))
        marks.append((0, rss(pid)))
        for n in range(1, requests + 1):
            status, _ = post(port, call(n, different(n, rng)), connection=connection)
            if status != 200:
                raise SystemExit(f"request {n}: HTTP {status}")
            if n % max(1, requests // 10) == 0:
                marks.append((n, rss(pid)))
        connection.close()
    return marks


def installed_mib(requirement: list[str]) -> tuple[float, dict[str, float]]:
    """MiB of a fresh virtual environment with `requirement` installed, and of each distribution in it."""
    uv = shutil.which("uv") or str(ROOT / ".tools" / "bin" / "uv")
    with tempfile.TemporaryDirectory() as folder:
        venv = Path(folder) / "venv"
        subprocess.run([uv, "venv", "-q", str(venv)], check=True)
        env = {**os.environ, "VIRTUAL_ENV": str(venv)}
        subprocess.run([uv, "pip", "install", "-q", *requirement], check=True, env=env)
        total = sum(f.stat().st_size for f in venv.rglob("*") if f.is_file() and not f.is_symlink())
        site = next(venv.glob("lib/python*/site-packages"))
        sizes: dict[str, float] = {}
        for entry in site.iterdir():
            size = sum(f.stat().st_size for f in entry.rglob("*") if f.is_file()) if entry.is_dir() else 0
            sizes[entry.name] = size / 2**20
        return total / 2**20, sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--first", type=int, default=500)
    parser.add_argument("--idle", type=float, default=30.0)
    parser.add_argument("--requests", type=int, default=100_000)
    parser.add_argument("--no-install", action="store_true")
    args = parser.parse_args()
    servers = {"horologe": [*HORO, "serve"], "official": official()}
    print(f"load at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in servers}
    misspelt: dict[str, list[float]] = {name: [] for name in servers}
    for _ in range(args.rounds):
        for name, command in servers.items():
            runs[name].append(first_answer(command, args.idle, args.first, name))
            misspelt[name].append(misspelt_first(command, name))
    rows = [
        ("start-up (spawn -> initialize answer), s", "startup", 1.0),
        ("RSS after the first answer, MiB", "rss_first", 1.0),
        (f"RSS after {args.idle:g} s idle, MiB", "rss_idle", 1.0),
        (f"first {args.first} calls, calls/s", "rate", 1.0),
        (f"first {args.first} calls, p99 ms", "p99", 1e3),
    ]
    print(f"\n### At rest and the first seconds (stdio, medians of {args.rounds} processes each)\n")
    print("| measure | horologe | official | ratio |\n|---|---|---|---|")
    for label, key, scale in rows:
        ours, theirs = (statistics.median(r[key] for r in runs[name]) * scale for name in servers)
        print(f"| {label} | {ours:.3f} | {theirs:.3f} | {ours / theirs:.2f}x |")
    ours, theirs = (statistics.median(misspelt[name]) * 1e3 for name in servers)
    print(f"| misspelt place as the first call, ms | {ours:.1f} | {theirs:.1f} | {ours / theirs:.2f}x |")
    if args.requests:
        marks = http_worker(args.requests)
        shown = ", ".join(f"{n:,}: {mib:.0f}" for n, mib in marks)
        print(f"\nHTTP worker RSS (MiB) after n all-different requests: {shown}")
    if not args.no_install:
        with tempfile.TemporaryDirectory() as dist:
            uv = shutil.which("uv") or str(ROOT / ".tools" / "bin" / "uv")
            subprocess.run([uv, "build", "-q", "--wheel", "-o", dist, str(ROOT)], check=True)
            wheel = next(Path(dist).glob("*.whl"))
            ours_total, ours_sizes = installed_mib([str(wheel)])
            theirs_total, _ = installed_mib(["mcp-server-time"])
            print(f"\nwheel: {wheel.stat().st_size / 1e6:.2f} MB")
        print(f"installed (fresh venv): horologe {ours_total:.1f} MiB, official {theirs_total:.1f} MiB, ")
        print(f"ratio {ours_total / theirs_total:.2f}x")
        print("\nlargest installed parts of horologe's venv (MiB): ")
        for entry, mib in sorted(ours_sizes.items(), key=lambda item: -item[1])[:15]:
            print(f"  {entry}: {mib:.1f}")
    print(f"\nload at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    json.dumps(runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
