"""/healthz latency while one long tool call runs (issue 17): does one call freeze the server for everyone?

    .venv/bin/python bench/healthz_during_call.py [--probes 200] [--count 60] [--port 18750]

Starts `horologe serve --transport http --toolsets all` on loopback, then measures GET /healthz on its own
keep-alive connection, one probe every 10 ms: first with nothing else running (baseline), then while a
`next_occurrences` call with a costly rule (29 February that is a Monday, `--count` of them: seconds of CPU)
runs on another connection. Prints p50/p99/max of each phase and how long the call took. Target (issue 17):
p99 <= 50 ms during the call, which needs tools off the event loop.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time

RULE = "FREQ=DAILY;BYMONTHDAY=29;BYMONTH=2;BYDAY=MO"


def wait_healthy(port: int, timeout: float = 60.0) -> None:
    """Wait until /healthz answers 200."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("server did not start")


def probe(port: int, stop: threading.Event, limit: int) -> list[float]:
    """Latencies (ms) of GET /healthz, one every 10 ms, until `stop` is set or `limit` probes were made."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    latencies: list[float] = []
    while not stop.is_set() and len(latencies) < limit:
        started = time.perf_counter()
        connection.request("GET", "/healthz")
        response = connection.getresponse()
        response.read()
        latencies.append((time.perf_counter() - started) * 1000)
        time.sleep(0.01)
    connection.close()
    return latencies


def summary(name: str, latencies: list[float]) -> str:
    """One line: probes, p50, p99 and max in ms."""
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return (
        f"{name}: {len(ordered)} probes, p50 {statistics.median(ordered):.1f} ms, p99 {p99:.1f} ms, "
        f"max {ordered[-1]:.1f} ms"
    )


def main() -> None:
    """Run both phases and print their summaries."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--probes", type=int, default=200)
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--port", type=int, default=18750)
    args = parser.parse_args()
    command = [sys.executable, "-m", "horologe", "serve", "--transport", "http", "--toolsets", "all"]
    env = {**os.environ, "DEFAULT_TIMEZONE": "UTC", "HOROLOGE_HTTP__ACCESS_LOG": "false"}
    server = subprocess.Popen(
        [*command, "--port", str(args.port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        wait_healthy(args.port)
        print(summary("idle", probe(args.port, threading.Event(), args.probes)))
        body = json.dumps(
            {
                "name": "next_occurrences",
                "arguments": {"rule": RULE, "count": args.count, "start_time": "2026-01-01T00:00:00Z"},
            }
        )
        took: list[float] = []
        status: list[int] = []
        done = threading.Event()

        def call() -> None:
            connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=300)
            started = time.perf_counter()
            connection.request("POST", "/mcp/tools/call", body, {"Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            took.append(time.perf_counter() - started)
            status.append(response.status)
            done.set()

        caller = threading.Thread(target=call)
        caller.start()
        time.sleep(0.05)
        during = probe(args.port, done, 1_000_000)
        caller.join()
        print(summary("during the call", during))
        print(f"the call: HTTP {status[0]} in {took[0]:.2f} s")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
