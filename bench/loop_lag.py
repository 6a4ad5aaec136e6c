"""Does tool work ever hold the event loop? `/healthz` and a light client while clients send the worst calls.

For each server (this checkout, and with each `--before DIR` another checkout's `src/` in the same venv), one HTTP
process (`horologe serve --transport http --toolsets all`, stateless) is started on loopback and measured in phases:

- `cheap` (the baseline): `--clients` clients send `get_current_time` back to back;
- `worst`: `--clients` clients send the heaviest read-only calls within the limits (long phrases,
  200-year business-day ranges, a never-matching rule, year-1 dates, big meetings: `tests/samples.HEAVIEST`), one
  of them sending a 100-member 2025-03-26 batch now and then.

During each phase a probe sends `GET /healthz` every 20 ms on its own connection, and a light client sends
`get_current_time` every 50 ms on another (2025-11-25 JSON). Reported per phase: `/healthz` p50/p99/max and how many
probes had no answer within 30 s, the light client's p50/p99, and the slowest worst call against its budget plus
grace (`late`: answers later than the tool budget + 1 s). Targets (issue 35): with 4 worst clients `/healthz`
p50 <= 25 ms and p99 <= 100 ms; with 32, every probe answered; no answer later than its budget plus grace.

    .venv/bin/python bench/loop_lag.py [--clients 4,32] [--duration 8] [--before DIR]... [--budget 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Final

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from compare import free_port, horologes, wait_port
from drive import http_request, percentile, read_response

from tests.samples import HEAVIEST

Call = tuple[str, dict[str, Any], str | None]
HOSTILE: Final[list[Call]] = [(tool, arguments, None) for tool, arguments in HEAVIEST]
CHEAP: Final[list[Call]] = [("get_current_time", {"timezone": "Europe/Vienna"}, None)]
BATCH_SIZE: Final = 100
PROBE_TIMEOUT: Final = 30.0


def batch_request(port: int, rid: int) -> bytes:
    """A 2025-03-26 batch of `BATCH_SIZE` hostile calls (one request, one shared budget)."""
    members = [
        {
            "jsonrpc": "2.0",
            "id": rid * 1000 + index,
            "method": "tools/call",
            "params": {"name": tool, "arguments": arguments},
        }
        for index, (tool, arguments, _) in enumerate(HOSTILE[index % len(HOSTILE)] for index in range(BATCH_SIZE))
    ]
    body = json.dumps(members, separators=(",", ":")).encode()
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-03-26\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def exchange(port: int, request: bytes, timeout: float) -> float | None:
    """Seconds to the answer of one request on a fresh connection, None when none came within `timeout`."""
    started = time.perf_counter()
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
    except (TimeoutError, OSError):
        return None
    try:
        writer.write(request)
        await asyncio.wait_for(read_response(reader), max(0.001, timeout - (time.perf_counter() - started)))
        return time.perf_counter() - started
    except (TimeoutError, ConnectionError, asyncio.IncompleteReadError):
        return None
    finally:
        writer.close()


async def client(port: int, calls: list[Call], offset: int, ends: float, took: list[float], batch: bool) -> None:
    """Send calls back to back until `ends` (each on a fresh connection: no client waits behind another's answer)."""
    index = offset
    while time.monotonic() < ends:
        if batch and index % len(calls) == 0:
            request = batch_request(port, index)
        else:
            request = http_request("127.0.0.1", port, "/mcp", "legacy", calls[index % len(calls)], index)
        answered = await exchange(port, request, 120.0)
        took.append(answered if answered is not None else float("inf"))
        index += 1


async def every(period: float, port: int, request: bytes, ends: float, took: list[float]) -> None:
    """One request every `period` seconds until `ends`, each waited for at most PROBE_TIMEOUT."""
    while time.monotonic() < ends:
        began = time.monotonic()
        answered = await exchange(port, request, PROBE_TIMEOUT)
        took.append(answered if answered is not None else float("inf"))
        await asyncio.sleep(max(0.0, period - (time.monotonic() - began)))


async def phase(port: int, calls: list[Call], clients: int, duration: float, batch: bool) -> dict[str, Any]:
    """One phase: `clients` senders of `calls`, the /healthz probe and the light client, for `duration` seconds."""
    ends = time.monotonic() + duration
    healthz = f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    light = http_request("127.0.0.1", port, "/mcp", "legacy", CHEAP[0], 1)
    probes: list[float] = []
    lights: list[float] = []
    took: list[float] = []
    senders = [client(port, calls, offset, ends, took, batch and offset == 0) for offset in range(clients)]
    await asyncio.gather(every(0.02, port, healthz, ends, probes), every(0.05, port, light, ends, lights), *senders)
    answered = [value * 1000 for value in probes if value != float("inf")]
    light_ms = [value * 1000 for value in lights if value != float("inf")]
    return {
        "healthz_probes": len(probes),
        "healthz_unanswered": len(probes) - len(answered),
        "healthz_p50_ms": round(statistics.median(answered), 1) if answered else None,
        "healthz_p99_ms": round(percentile(answered, 99), 1) if answered else None,
        "healthz_max_ms": round(max(answered), 1) if answered else None,
        "light_p50_ms": round(statistics.median(light_ms), 1) if light_ms else None,
        "light_p99_ms": round(percentile(light_ms, 99), 1) if light_ms else None,
        "calls": len(took),
        "slowest_call_s": round(max(took), 2) if took else None,
    }


def serve(extra: dict[str, str], budget: float) -> tuple[subprocess.Popen[bytes], int]:
    """Start one horologe HTTP process (every toolset) on a free loopback port; wait until it listens."""
    port = free_port()
    env = {**os.environ, **extra, "HOROLOGE_LOG_LEVEL": "WARNING", "HOROLOGE_HTTP__ACCESS_LOG": "false"}
    command = [sys.executable, "-m", "horologe", "serve", "--transport", "http", "--toolsets", "all"]
    command += ["--port", str(port), "--default-timezone", "UTC", "--tool-budget", str(budget)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_port(port, process)
    return process, port


def main() -> int:
    """Measure every server in every phase; print one Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", default="4,32", help="comma-separated client counts")
    parser.add_argument("--duration", type=float, default=8.0, help="seconds of each phase")
    parser.add_argument(
        "--before", type=Path, action="append", help="another horologe checkout to measure in the same run (repeatable)"
    )
    parser.add_argument("--budget", type=float, default=5.0, help="the servers' tool budget (seconds)")
    args = parser.parse_args()
    counts = [int(value) for value in args.clients.split(",")]
    rows: list[dict[str, Any]] = []
    for label, extra in horologes(args.before):
        process, port = serve(extra, args.budget)
        try:
            for count in counts:
                for name, calls, batch in (("cheap", CHEAP, False), ("worst", HOSTILE, True)):
                    result = asyncio.run(phase(port, calls, count, args.duration, batch))
                    rows.append({"server": label, "load": f"{count} clients, {name}", **result})
                    print(f"  {label} {count} clients, {name}: {result}", file=sys.stderr)
        finally:
            process.terminate()
            process.wait(timeout=60)
    load = os.getloadavg()
    print(f"### Event-loop lag under load (load average at the end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f})\n")
    print("| server | load | /healthz p50 / p99 / max ms | unanswered | light p50 / p99 ms | calls | slowest s |")
    print("|---|---|---|---:|---|---:|---:|")
    for row in rows:
        print(
            f"| {row['server']} | {row['load']} | {row['healthz_p50_ms']} / {row['healthz_p99_ms']} / "
            f"{row['healthz_max_ms']} | {row['healthz_unanswered']} of {row['healthz_probes']} | "
            f"{row['light_p50_ms']} / {row['light_p99_ms']} | {row['calls']} | {row['slowest_call_s']} |"
        )
    late = [row for row in rows if row["slowest_call_s"] is not None and row["slowest_call_s"] > args.budget + 1.0]
    print(f"\nanswers later than the budget plus grace ({args.budget} s + 1 s): {len(late)} phase(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
