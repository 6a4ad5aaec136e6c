"""What running tools off the event loop costs, and what it buys.

1. Cost, on a realistic mix of calls (everyday conversions and formatting, some relative expressions, durations,
   recurrence and business days), each through horologe's whole HTTP app called in process (as bench/asgi_cost.py
   does), in interleaved rounds, three ways:
   - `inline`: the tool body runs on the event loop (what the server did before issue 17);
   - `thread`: the tool body runs in a worker thread under its budget (`horologe.protocol.execution`, shipped);
   - `process`: the tool body runs in a warm process pool (arguments and result pickled; the request's context
     is rebuilt in the worker, so this is a lower bound of what a process pool would cost).
   Reported: process CPU per call and wall time per call, and each mode's cost relative to `inline`. Timings on
   this shared machine swing by a third between minutes, so `--instructions` also counts user-space instructions
   per call of `inline` and `thread` under valgrind (callgrind; the difference of a short and a long run, as
   bench/asgi_instructions.py does); those do not move.
2. Responsiveness: a real `horologe serve --transport http --tool-budget B` process; while budget-long calls run
   back to back (a recurrence whose EXRULE equals its RRULE), /healthz is polled every 10 ms. Reported: p50, p99
   and max latency, how many polls, and what the long calls answered.

    .venv/bin/python bench/offloop.py [--n 300] [--rounds 5] [--budget 5] [--window 10] [--instructions]
                                      [--skip-cost] [--skip-health]
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Final

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HOROLOGE_LOG_LEVEL", "WARNING")

from asgi_cost import request, start

from horologe.protocol.handlers import run_tool as RUN_TOOL

MIX: Final[list[tuple[str, dict[str, Any]]]] = [
    ("get_current_time", {"timezone": "Europe/Vienna"}),
    ("get_current_time", {}),
    ("get_current_time", {"timezone": "Tokyo"}),
    ("convert_timezone", {"timestamp": "2026-03-29T01:30:00Z", "to_timezone": "America/New_York"}),
    ("convert_timezone", {"timestamp": "2026-11-23 09:00", "from_timezone": "Berlin", "to_timezone": "Asia/Kolkata"}),
    ("format_time", {"timestamp": "2026-11-23T09:00:00Z", "format": "human", "timezone": "Europe/Paris"}),
    ("calculate_duration", {"start_time": "2026-01-01T00:00:00Z", "end_time": "2026-03-29T12:00:00+02:00"}),
    ("add_time", {"timestamp": "2026-03-28T12:00:00", "amount": "1 day", "timezone": "Europe/Vienna"}),
    ("resolve_time_expression", {"expression": "next friday at 3pm", "timezone": "Europe/London"}),
    ("get_timezone_info", {"timezone": "Australia/Sydney"}),
    ("next_occurrences", {"rule": "FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=9;BYMINUTE=0", "timezone": "Europe/Vienna"}),
    ("business_days", {"country": "DE", "start_date": "2026-11-02", "end_date": "2026-12-31"}),
]
HEAVY: Final = {"rule": "RRULE:FREQ=SECONDLY\nEXRULE:FREQ=SECONDLY"}
MODES: Final = ("inline", "thread", "process")


def scoped(request_id: int, tool: str, arguments: dict[str, Any]) -> tuple[dict[str, Any], bytes]:
    """asgi_cost's 2026-era request, with real arguments."""
    scope, body = request(request_id, tool)
    message = json.loads(body)
    message["params"]["arguments"] = arguments
    body = json.dumps(message).encode()
    scope["headers"] = [(k, str(len(body)).encode() if k == b"content-length" else v) for k, v in scope["headers"]]
    return scope, body


async def call(app: Any, request_id: int, tool: str, arguments: dict[str, Any]) -> None:
    """One request through the whole app; a refusal or a tool error fails the run (the mix is all valid)."""
    scope, body = scoped(request_id, tool, arguments)
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    answer = json.loads(b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body"))
    if sent[0].get("status") != 200 or answer.get("result", {}).get("isError"):
        raise SystemExit(f"{tool} failed: {answer}")


_WORKER: dict[str, Any] = {}


def run_remote(name: str, arguments: dict[str, Any]) -> Any:
    """In a pool process: run one tool with a context rebuilt there."""
    from horologe.clock import SystemClock
    from horologe.context import RequestContext
    from horologe.core.zones import resolve_zone
    from horologe.tools.registry import selected_tools
    from horologe.tools.spec import ToolOptions

    if not _WORKER:
        from horologe.config import ALL_FORMATS

        _WORKER["offered"] = {spec.name: spec for spec in selected_tools(["all"], "http")}
        _WORKER["options"] = ToolOptions(ALL_FORMATS, "milliseconds")
    context = RequestContext(now=SystemClock().now(), default_zone=resolve_zone("UTC"))
    return RUN_TOOL(_WORKER["offered"], name, arguments, context, _WORKER["options"])


def use_mode(mode: str, pool: ProcessPoolExecutor) -> Callable[[], None]:
    """Make `Executor.run` run tool bodies `mode`'s way; return the undo."""
    from horologe.protocol import execution, handlers

    original_run, original_tool = execution.Executor.run, handlers.run_tool

    async def inline(self: Any, body: Any, context: Any) -> Any:
        context.budget.arm(lambda: False, self.budget_seconds)
        return body(context)

    async def in_process_pool(self: Any, body: Any, context: Any) -> Any:
        name, arguments = body(context)  # the stub below: which tool, which arguments
        return await asyncio.get_running_loop().run_in_executor(pool, run_remote, name, arguments)

    if mode == "inline":
        execution.Executor.run = inline  # type: ignore[method-assign]
    elif mode == "process":
        execution.Executor.run = in_process_pool  # type: ignore[method-assign]
        handlers.run_tool = lambda offered, name, raw, context, options: (name, raw or {})  # type: ignore[assignment,return-value]

    def undo() -> None:
        execution.Executor.run = original_run  # type: ignore[method-assign]
        handlers.run_tool = original_tool

    return undo


async def started_app() -> Any:
    """horologe's HTTP app with every toolset, access log off, started."""
    from horologe.config import load_settings
    from horologe.deferred_imports import defer_package_init
    from horologe.http.app import create_app

    defer_package_init("mcp", "mcp.server")
    # A budget far above any call of the mix: under valgrind everything runs ~50 times slower.
    overrides = {
        "http": {"access_log": False},
        "capabilities": {"toolsets": ["all"]},
        "execution": {"budget_seconds": 600},
    }
    settings = load_settings(overrides=overrides)
    app = create_app(settings)
    await start(app)
    return app


async def serve_mix(mode: str, count: int) -> None:
    """The child of an instruction count: warm up, settle the heap, then answer `count` calls of the mix."""
    from horologe.heap import settle_after_startup

    app = await started_app()
    with ProcessPoolExecutor(max_workers=1) as pool:
        use_mode(mode, pool)
        for index in range(WARM_UP):
            await call(app, index, *MIX[index % len(MIX)])
        settle_after_startup()
        for index in range(count):
            await call(app, index, *MIX[index % len(MIX)])


WARM_UP: Final = 120
SHORT: Final = 48


def count_instructions(mode: str, count: int) -> int:
    """User-space instructions of a child run that answers `count` calls of the mix after the warm-up."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__]
    command += ["--child", mode, str(count)]
    completed = subprocess.run(command, capture_output=True, text=True, timeout=7200, check=False)
    found = re.search(r"Collected : (\d+)", completed.stderr)
    if completed.returncode != 0 or found is None:
        raise SystemExit(f"valgrind run of {mode!r} failed:\n{completed.stderr[-2000:]}")
    return int(found.group(1))


def print_instructions(calls: int) -> None:
    per_call = {}
    for mode in ("inline", "thread"):
        per_call[mode] = (count_instructions(mode, SHORT + calls) - count_instructions(mode, SHORT)) / calls
    print(f"## Instructions per call of the mix (callgrind, {calls} calls)\n")
    print("| mode | instructions/call | vs inline |")
    print("|---|---:|---:|")
    for mode, count in per_call.items():
        print(f"| {mode} | {count:,.0f} | {(count / per_call['inline'] - 1) * 100:+.1f}% |")
    print()


async def measure_cost(n: int, rounds: int) -> dict[str, dict[str, list[float]]]:
    app = await started_app()
    results: dict[str, dict[str, list[float]]] = {mode: {"cpu": [], "wall": []} for mode in MODES}
    with ProcessPoolExecutor(max_workers=1) as pool:
        for mode in MODES:  # warm every path (and the pool's imports)
            undo = use_mode(mode, pool)
            for index in range(len(MIX) * 3):
                await call(app, index, *MIX[index % len(MIX)])
            undo()
        for _ in range(rounds):
            for mode in MODES:
                undo = use_mode(mode, pool)
                cpu, wall = time.process_time(), time.perf_counter()
                for index in range(n):
                    await call(app, index, *MIX[index % len(MIX)])
                results[mode]["cpu"].append((time.process_time() - cpu) / n * 1e6)
                results[mode]["wall"].append((time.perf_counter() - wall) / n * 1e6)
                undo()
    return results


def print_cost(results: dict[str, dict[str, list[float]]], n: int, rounds: int) -> None:
    base = {kind: statistics.median(results["inline"][kind]) for kind in ("cpu", "wall")}
    print(f"## Off-loop cost on the realistic mix ({len(MIX)} calls, {n} per round, {rounds} rounds, medians)\n")
    print("| mode | CPU µs/call | vs inline | wall µs/call | vs inline |")
    print("|---|---:|---:|---:|---:|")
    for mode in MODES:
        cpu, wall = (statistics.median(results[mode][kind]) for kind in ("cpu", "wall"))
        print(
            f"| {mode} | {cpu:.0f} | {(cpu / base['cpu'] - 1) * 100:+.1f}% | {wall:.0f} | "
            f"{(wall / base['wall'] - 1) * 100:+.1f}% |"
        )
    print("\n(process CPU counts this process only: the pool worker's CPU is not in it; see wall.)\n")


def post(port: int, body: dict[str, Any]) -> dict[str, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    connection.request("POST", "/mcp", json.dumps(body), headers)
    answer: dict[str, Any] = json.loads(connection.getresponse().read())
    connection.close()
    return answer


def measure_health(budget: float, window: float) -> None:
    from tests.e2e.conftest import start_http_server

    # No access log: nobody reads the server's stderr pipe here, and a full pipe would stall the server.
    flags = ["--toolsets", "all", "--tool-budget", str(budget), "--log-level", "ERROR"]
    server = start_http_server(flags, env={"HOROLOGE_HTTP__ACCESS_LOG": "false"})
    kinds: list[str] = []
    done = threading.Event()

    def heavy() -> None:
        while not done.is_set():
            message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "next_occurrences"}}
            message["params"]["arguments"] = HEAVY
            answer = post(server.port, message)
            error = answer.get("result", {}).get("_meta", {}).get("dev.horologe/error")
            kinds.append(error["kind"] if error else json.dumps(answer)[:300])

    try:
        worker = threading.Thread(target=heavy)
        worker.start()
        time.sleep(0.5)
        latencies: list[float] = []
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        ends = time.monotonic() + window
        while time.monotonic() < ends:
            began = time.perf_counter()
            connection.request("GET", "/healthz")
            response = connection.getresponse()
            response.read()
            latencies.append((time.perf_counter() - began) * 1000)
            if response.status != 200:
                raise SystemExit(f"/healthz answered {response.status}")
            time.sleep(0.01)
        done.set()
        worker.join()
    finally:
        server.stop()
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"## /healthz while budget-long calls run back to back (budget {budget:g} s, {window:g} s window)\n")
    print("| polls | p50 ms | p99 ms | max ms | long calls answered |")
    print("|---:|---:|---:|---:|---|")
    print(
        f"| {len(latencies)} | {statistics.median(latencies):.1f} | {p99:.1f} | {latencies[-1]:.1f} | "
        f"{len(kinds)} x {', '.join(sorted(set(kinds)))} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=300, help="calls per mode per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--budget", type=float, default=5.0, help="the server's --tool-budget for part 2")
    parser.add_argument("--window", type=float, default=10.0, help="seconds of /healthz polling")
    parser.add_argument("--instructions", type=int, nargs="?", const=120, metavar="CALLS", help="count (valgrind)")
    parser.add_argument("--skip-cost", action="store_true")
    parser.add_argument("--skip-health", action="store_true")
    parser.add_argument("--child", nargs=2, metavar=("MODE", "COUNT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        asyncio.run(serve_mix(args.child[0], int(args.child[1])))
        return 0
    if args.instructions:
        print_instructions(args.instructions)
    if not args.skip_cost:
        print_cost(asyncio.run(measure_cost(args.n, args.rounds)), args.n, args.rounds)
    if not args.skip_health:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        measure_health(args.budget, args.window)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
