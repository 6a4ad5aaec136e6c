"""What a hostile client can make the server hold (issue 25): CPU after a budget answer, threads, batch cost, memory.

    .venv/bin/python bench/bounds.py [--source DIR] [--only cpu,flood,batch,mixed,hosts,locales,watch] [--mixed 100000]

Each phase starts its own `horologe serve --transport http --toolsets all` on loopback (from `--source DIR`'s
`src/` when given, e.g. an export of an earlier commit, for a before/after in one run of this script):

- cpu: one `next_occurrences` call with a rule that never matches (dateutil searches towards year 9999 inside
  one `next()`): the server's CPU seconds during the call (5 s budget) and in the 10 s after its answer.
- watch: in this process, no server: what the budget's watch over library calls (`Budget.watched`) costs on
  ordinary `next_occurrences` calls (10 and 100 occurrences): each call's time with the budget armed (watched)
  over its time unarmed (unwatched), for several `WATCH_EVERY`.
- flood: 32 such calls at once, then for 30 s: /healthz p50/p99 (one probe every 50 ms) and how many of the
  `get_current_time` calls made one after another (10 s client timeout each) succeed.
- batch: one 2025-03-26 batch of 100 `business_days` calls over 200-year ranges: the server's CPU seconds, wall
  time, answer bytes, RSS before and after.
- mixed: `--mixed` requests of the realistic mix (bench/mix.py), every fourth with a client context locale
  made unique (`de-AT-x-<n>`), every tenth with a unique Host (refused), over 4 keep-alive connections: RSS
  every 10k.
- hosts: 5,000 requests with unique 60 KB Host headers (refused 421): RSS before and after.
- locales: 20,000 calls with unique locale tags (`de-AT-x-<n>` in the client context): RSS before and after.

RSS is the server's VmRSS from /proc (Linux). Print the load average with the figures: the machine is shared.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from mix import calls

NEVER = {"name": "next_occurrences", "arguments": {"rule": "FREQ=MINUTELY;BYEASTER=0;BYMONTH=6"}}
"""Easter is never in June: dateutil searches minute by minute towards year 9999 inside one next()."""
ORDINARY = ("FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=9;BYMINUTE=0", "FREQ=MONTHLY;BYDAY=-1FR", "0 9 * * MON-FRI")
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
CONTEXT_META = "dev.horologe/clientContext"


@contextmanager
def server(source: str | None) -> Iterator[tuple[int, int]]:
    """A server process on a port it picked itself: (port, pid); ended by pid afterwards."""
    env = {**os.environ, "DEFAULT_TIMEZONE": "UTC", "HOROLOGE_HTTP__ACCESS_LOG": "false"}
    if source:
        env["PYTHONPATH"] = str(Path(source) / "src")
    command = [sys.executable, "-m", "horologe", "serve", "--transport", "http", "--toolsets", "all", "--port", "0"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert process.stderr is not None
        for raw in process.stderr:
            line = raw.decode(errors="replace")
            if "listening on http://127.0.0.1:" in line:
                port = int(line.split("listening on http://127.0.0.1:", 1)[1].split("/", 1)[0])
                break
        else:
            raise SystemExit("the server did not start")
        threading.Thread(target=lambda: [None for _ in process.stderr or ()], daemon=True).start()  # keep draining
        yield port, process.pid
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def call(request_id: int, params: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def post(
    port: int,
    body: Any,
    headers: dict[str, str] | None = None,
    timeout: float = 120,
    connection: http.client.HTTPConnection | None = None,
) -> tuple[int, bytes]:
    own = connection is None
    connection = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("POST", "/mcp", json.dumps(body), {**HEADERS, **(headers or {})})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        if own:
            connection.close()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def wait_until_idle(pid: int) -> None:
    """Until the server used under 0.05 CPU seconds in half a second (its start-up warming is over), at most 120 s."""
    ends = time.monotonic() + 120
    before = cpu_seconds(pid)
    while time.monotonic() < ends:
        time.sleep(0.5)
        now = cpu_seconds(pid)
        if now - before < 0.05:
            return
        before = now


def cpu_phase(port: int, pid: int) -> None:
    post(port, call(0, {"name": "get_current_time", "arguments": {}}))
    wait_until_idle(pid)
    started = cpu_seconds(pid)
    wall = time.monotonic()
    status, body = post(port, call(1, NEVER))
    answered, took = cpu_seconds(pid), time.monotonic() - wall
    kind = json.loads(body).get("result", {}).get("_meta", {}).get("dev.horologe/error", {}).get("kind")
    time.sleep(10)
    after = cpu_seconds(pid) - answered
    during = answered - started
    print(f"cpu: answered {status} {kind} in {took:.2f} s; CPU {during:.2f} s during, {after:.2f} s in the 10 s after")


def quietly(port: int, body: Any) -> None:
    """POST and forget (the server may be stopped before it answers)."""
    with contextlib.suppress(OSError, http.client.HTTPException):
        post(port, body)


def flood_phase(port: int, pid: int) -> None:
    threads = [threading.Thread(target=quietly, args=(port, call(n, NEVER)), daemon=True) for n in range(32)]
    for thread in threads:
        thread.start()
    time.sleep(1)  # the calls are in
    ends = time.monotonic() + 30
    probes: list[float] = []
    stop = threading.Event()

    def probe() -> None:
        while not stop.is_set():
            started = time.perf_counter()
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                connection.request("GET", "/healthz")
                connection.getresponse().read()
                connection.close()
                probes.append((time.perf_counter() - started) * 1000)
            except OSError:
                probes.append(30_000.0)
            time.sleep(0.05)

    prober = threading.Thread(target=probe, daemon=True)
    prober.start()
    made = succeeded = 0
    while time.monotonic() < ends:
        made += 1
        try:
            status, body = post(port, call(1000 + made, {"name": "get_current_time", "arguments": {}}), timeout=10)
            succeeded += status == 200 and not json.loads(body)["result"]["isError"]
        except OSError:
            pass
    stop.set()
    prober.join()
    print(
        f"flood: 32 never-matching calls; in the next 30 s get_current_time {succeeded}/{made} succeeded, "
        f"/healthz p50 {statistics.median(probes):.1f} ms p99 {percentile(probes, 0.99):.1f} ms "
        f"({len(probes)} probes); RSS {rss_mib(pid):.0f} MiB"
    )


def batch_phase(port: int, pid: int) -> None:
    arguments = {"country": "US", "start_date": "1800-01-01", "end_date": "1999-12-31"}
    post(port, call(0, {"name": "business_days", "arguments": arguments}))  # libraries loaded, as in a running server
    wait_until_idle(pid)
    batch = [call(n, {"name": "business_days", "arguments": arguments}) for n in range(1, 101)]
    before_rss, before_cpu, wall = rss_mib(pid), cpu_seconds(pid), time.monotonic()
    status, body = post(port, batch, {"MCP-Protocol-Version": "2025-03-26"}, timeout=600)
    took, cpu = time.monotonic() - wall, cpu_seconds(pid) - before_cpu
    print(
        f"batch: 100 x business_days over 200 years: {status}, CPU {cpu:.2f} s, wall {took:.2f} s, answer "
        f"{len(body) / 1e6:.2f} MB, RSS {before_rss:.0f} -> {rss_mib(pid):.0f} MiB"
    )


def mixed_phase(port: int, pid: int, total: int) -> None:
    sequence = calls("full", "horologe", 997)
    counter = iter(range(total))
    lock = threading.Lock()
    marks: list[str] = []
    started = time.monotonic()

    def worker() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while True:
            with lock:
                n = next(counter, None)
            if n is None:
                break
            tool, arguments, language = sequence[n % len(sequence)]
            params: dict[str, Any] = {"name": tool, "arguments": arguments, "_meta": {}}
            headers = {"Accept-Language": language} if language else {}
            if n % 4 == 0:
                params["_meta"][CONTEXT_META] = {"locale": f"de-AT-x-{n}"}
            if n % 10 == 5:
                headers["Host"] = f"h{n}.example"
            try:
                post(port, call(n, params), headers, connection=connection)
            except (OSError, http.client.HTTPException):
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            if (n + 1) % 10_000 == 0:
                with lock:
                    marks.append(f"{(n + 1) // 1000}k {rss_mib(pid):.0f}")
        connection.close()

    workers = [threading.Thread(target=worker) for _ in range(4)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    print(f"mixed: {total} requests in {time.monotonic() - started:.0f} s; RSS MiB every 10k: {', '.join(marks)}")


def hosts_phase(port: int, pid: int) -> None:
    wait_until_idle(pid)  # RSS after the start-up warming, so what follows is what the requests hold
    before = rss_mib(pid)
    for n in range(5000):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        host = f"{n}-" + "h" * 60_000
        connection.request("POST", "/mcp", "{}", {**HEADERS, "Host": host})
        connection.getresponse().read()
        connection.close()
    print(f"hosts: 5,000 unique 60 KB Host values: RSS {before:.0f} -> {rss_mib(pid):.0f} MiB")


def locales_phase(port: int, pid: int) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    for n in range(-1, 20_000):  # the first (n = -1) with a plain de-AT, before RSS is read: the code path warm
        meta = {CONTEXT_META: {"locale": f"de-AT-x-{n}" if n >= 0 else "de-AT"}}
        params = {"name": "resolve_time_expression", "arguments": {"expression": "next week"}, "_meta": meta}
        post(port, call(n + 2, params), connection=connection)
        if n < 0:
            wait_until_idle(pid)
            before = rss_mib(pid)
    connection.close()
    print(f"locales: 20,000 unique locale tags: RSS {before:.0f} -> {rss_mib(pid):.0f} MiB")


def watch_phase() -> None:
    import timeit
    from datetime import UTC, datetime

    from horologe.context import RequestContext
    from horologe.core.zones import resolve_zone
    from horologe.protocol import execution
    from horologe.tools.schedule import next_occurrences
    from horologe.tools.schemas.calendar import NextOccurrencesArgs
    from horologe.tools.spec import ToolOptions

    options = ToolOptions(supported_formats=("iso8601",), precision="second")

    def one(rule: str, count: int, armed: bool) -> None:
        context = RequestContext(now=datetime(2026, 1, 1, tzinfo=UTC), default_zone=resolve_zone("UTC"))
        if armed:
            context.budget.arm(lambda: False, 5.0, execution.watch)
        next_occurrences(NextOccurrencesArgs(rule=rule, count=count), context, options)

    def best(rule: str, count: int, armed: bool) -> float:
        return min(timeit.repeat(lambda: one(rule, count, armed), number=20, repeat=7)) / 20

    everies = (64, 256, 1024, 4096)
    print("watch: per call, unwatched ms; watched / unwatched for WATCH_EVERY " + ", ".join(map(str, everies)))
    for rule in ORDINARY:
        for count in (10, 100):
            plain = best(rule, count, armed=False)
            ratios = []
            for every in everies:
                execution.WATCH_EVERY = every  # type: ignore[misc]
                ratios.append(best(rule, count, armed=True) / plain)
            shown = ", ".join(f"{ratio:.2f}x" for ratio in ratios)
            print(f"  {rule!r} x{count}: {plain * 1000:.2f} ms; {shown}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", help="a checkout (or export) whose src/ to run instead of the installed one")
    parser.add_argument("--only", default="cpu,flood,batch,hosts,locales,mixed")
    parser.add_argument("--mixed", type=int, default=100_000)
    args = parser.parse_args()
    print(f"source: {args.source or 'this checkout'}; load average {os.getloadavg()[0]:.1f}", flush=True)
    phases = {
        "cpu": cpu_phase,
        "flood": flood_phase,
        "batch": batch_phase,
        "hosts": hosts_phase,
        "locales": locales_phase,
        "mixed": lambda port, pid: mixed_phase(port, pid, args.mixed),
    }
    for name in args.only.split(","):
        if name == "watch":
            watch_phase()
            continue
        with server(args.source) as (port, pid):
            phases[name](port, pid)
        print(f"  (load average {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
