"""stdio benchmark: horologe next to the official reference server `mcp-server-time` and the bare stdio baseline.

For each server, in one run:
- start-up to the first answer: spawn -> `initialize` response (2025-11-25 handshake), and spawn -> `server/discover`
  response (2026-07-28 era), median of --starts fresh processes each;
- latency and throughput: --n sequential `tools/call` (one in flight) after --warmup calls, p50/p99 and calls/s,
  in the legacy era (and the 2026-07-28 per-request envelope where the server speaks it);
- memory: peak RSS (VmHWM from /proc) of the server process at the end of its latency run.
The SDK floor row (bench/sdk_floor.py) is the SDK's low-level Server with a trivial tool and nothing of ours.

`mcp-server-time` is installed by bench/peers.py into its own virtual environment under .bench/ (gitignored).
Start-ups alternate between the servers, so drift on a noisy machine touches each the same way.
Prints Markdown tables (ratios are horologe / mcp-server-time from the same run).

The client reads answers through a buffer, as real clients do (the SDKs read 64 KiB chunks). `--reader bytewise`
reads them like ../shared/tools/stdio_bench.py, whose `readline()` on an unbuffered pipe makes one read(2) per
byte: the driver's own cost then grows with the size of each answer and is counted as server latency.

    .venv/bin/python bench/stdio_load.py [--n 2000] [--warmup 100] [--starts 5] [--reader buffered|bytewise]
                                         [--shared ../shared] [--json out.jsonl]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

from needs import require_shared
from peers import official

BYTEWISE = False  # --reader bytewise

ROOT = Path(__file__).resolve().parents[1]
MODERN = "2026-07-28"
ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "stdio_load", "version": "1"},
}
INITIALIZE = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "stdio_load", "version": "1"}}


def servers(shared: Path) -> list[dict[str, Any]]:
    vienna = {"timezone": "Europe/Vienna"}
    return [
        {"label": "horologe", "cmd": [sys.executable, "-m", "horologe", "serve"], "tool": "get_current_time",
         "args": vienna, "eras": ["legacy", "modern"]},
        {"label": "mcp-server-time (official reference)", "cmd": official(), "tool": "get_current_time",
         "args": vienna, "eras": ["legacy", "modern"]},
        {"label": "bare stdio baseline", "cmd": [sys.executable, str(shared / "tools" / "baseline_stdio.py")],
         "tool": "get_time", "args": {}, "eras": ["legacy"]},
        {"label": "SDK floor (low-level Server, trivial tool)",
         "cmd": [sys.executable, str(ROOT / "bench" / "sdk_floor.py"), "stdio"],
         "tool": "get_current_time", "args": {}, "eras": ["legacy", "modern"]},
    ]  # fmt: skip


class Session:
    """One server process and a line-oriented JSON-RPC exchange with it."""

    def __init__(self, cmd: list[str]) -> None:
        # Let every server cache its bytecode (any value of PYTHONDONTWRITEBYTECODE, even "0", forbids it):
        # pip compiles the peer's files at install, `uv sync` does not compile ours, so both start from .pyc.
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0, env=env
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.writer: IO[bytes] = self.process.stdin
        self.reader: IO[bytes] = self.process.stdout if BYTEWISE else io.BufferedReader(self.process.stdout)  # type: ignore[arg-type]
        self.next_id = 0

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.writer.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        while True:
            line = self.reader.readline()
            if not line:
                raise SystemExit(f"server closed stdout (rc={self.process.poll()}) during {method}")
            answer = json.loads(line)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise SystemExit(f"{method}: error {answer['error']}")
                result: dict[str, Any] = answer["result"]
                return result

    def notify(self, method: str) -> None:
        self.writer.write(json.dumps({"jsonrpc": "2.0", "method": method}).encode() + b"\n")

    def cpu_seconds(self) -> float:
        """User plus system CPU time the server process has used so far."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_rss_kib(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
        return 0

    def close(self) -> None:
        self.writer.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def startup(cmd: list[str], method: str) -> float:
    """Seconds from spawn to the first answer."""
    session = Session(cmd)
    if method == "initialize":
        session.request("initialize", INITIALIZE)
    else:
        session.request("server/discover", {"_meta": ENVELOPE})
    elapsed = time.perf_counter() - session.started
    session.close()
    return elapsed


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    low = int(k)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


def latency(server: dict[str, Any], era: str, n: int, warmup: int) -> dict[str, Any]:
    session = Session(server["cmd"])
    params: dict[str, Any] = {"name": server["tool"], "arguments": server["args"]}
    if era == "legacy":
        session.request("initialize", INITIALIZE)
        session.notify("notifications/initialized")
    else:
        params["_meta"] = ENVELOPE
    for _ in range(warmup):
        session.request("tools/call", params)
    samples: list[float] = []
    cpu_before = session.cpu_seconds()
    began = time.perf_counter()
    for _ in range(n):
        start = time.perf_counter()
        result = session.request("tools/call", params)
        samples.append(time.perf_counter() - start)
        if result.get("isError"):
            raise SystemExit(f"{server['label']}: tool error {result}")
    total = time.perf_counter() - began
    cpu_us = (session.cpu_seconds() - cpu_before) / n * 1e6
    rss = session.peak_rss_kib()
    session.close()
    ms = [s * 1000 for s in samples]
    return {
        "p50_ms": percentile(ms, 50),
        "p99_ms": percentile(ms, 99),
        "req_s": n / total,
        "cpu_us": cpu_us,
        "rss_mib": rss / 1024,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--starts", type=int, default=5, help="fresh processes per start-up measurement")
    parser.add_argument("--reader", choices=["buffered", "bytewise"], default="buffered", help="see above")
    parser.add_argument("--json", type=Path, help="also append raw results as JSON lines")
    args = parser.parse_args()
    require_shared(args.shared, "tools/baseline_stdio.py")
    global BYTEWISE
    BYTEWISE = args.reader == "bytewise"
    rows: list[dict[str, Any]] = [{"label": server["label"]} for server in servers(args.shared)]
    starts: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.starts):
        for server in servers(args.shared):
            for method in ("initialize", "server/discover") if "modern" in server["eras"] else ("initialize",):
                starts.setdefault((server["label"], method), []).append(startup(server["cmd"], method))
    for server, row in zip(servers(args.shared), rows, strict=True):
        row["start_initialize_s"] = statistics.median(starts[server["label"], "initialize"])
        if "modern" in server["eras"]:
            row["start_discover_s"] = statistics.median(starts[server["label"], "server/discover"])
        for era in server["eras"]:
            row[era] = latency(server, era, args.n, args.warmup)
        print(f"measured {server['label']}", file=sys.stderr)
    if args.json:
        with args.json.open("a") as sink:
            for row in rows:
                sink.write(json.dumps({"kind": "stdio", "n": args.n, "reader": args.reader, **row}) + "\n")
    print_tables(rows, args)
    return 0


def fmt(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def ratio(ours: float | None, theirs: float | None) -> str:
    return "—" if ours is None or not theirs else f"{ours / theirs:.2f}x"


def print_tables(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    print(f"\n### stdio: start-up to first answer (median of {args.starts} fresh processes)\n")
    print("| server | spawn → `initialize` answer (s) | spawn → `server/discover` answer (s) |")
    print("|---|---|---|")
    for row in rows:
        print(f"| {row['label']} | {fmt(row['start_initialize_s'])} | {fmt(row.get('start_discover_s'))} |")
    print(
        f"\n### stdio: {args.n} sequential `tools/call` after {args.warmup} warm-up calls ({args.reader} reader); "
        "server CPU per call (its own user+system time, whatever the client's reader costs); peak RSS after the run\n"
    )
    print("| server | era | p50 ms | p99 ms | calls/s | server CPU µs/call | peak RSS MiB |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        for era in ("legacy", "modern"):
            if era in row:
                r = row[era]
                label = "2025-11-25 handshake" if era == "legacy" else "2026-07-28 envelope"
                line = f"| {row['label']} | {label} | {r['p50_ms']:.3f} | {r['p99_ms']:.3f} | {r['req_s']:.0f} |"
                print(f"{line} {r['cpu_us']:.0f} | {r['rss_mib']:.1f} |")
    ours, peer = rows[0], rows[1]
    print("\n### horologe / mcp-server-time (same run) against the issue-8 targets\n")
    print("| measure | ratio | target | met |")
    print("|---|---|---|---|")
    checks = [
        ("start-up to `initialize`", ours["start_initialize_s"], peer["start_initialize_s"], 0.6, "≤"),
        ("start-up to `server/discover`", ours.get("start_discover_s"), peer.get("start_discover_s"), 0.6, "≤"),
        ("p50 latency (2025 era)", ours["legacy"]["p50_ms"], peer["legacy"]["p50_ms"], 0.7, "≤"),
        ("p50 latency (2026 era)", ours["modern"]["p50_ms"], peer["modern"]["p50_ms"], 0.7, "≤"),
        ("throughput (2025 era)", ours["legacy"]["req_s"], peer["legacy"]["req_s"], 1.4, "≥"),
        ("throughput (2026 era)", ours["modern"]["req_s"], peer["modern"]["req_s"], 1.4, "≥"),
        ("peak RSS (2025-era run)", ours["legacy"]["rss_mib"], peer["legacy"]["rss_mib"], 1.0, "≤"),
    ]
    extra = [  # not targets: the server's own cost per call, which no client reader changes
        ("server CPU per call (2025 era)", ours["legacy"]["cpu_us"], peer["legacy"]["cpu_us"]),
        ("server CPU per call (2026 era)", ours["modern"]["cpu_us"], peer["modern"]["cpu_us"]),
    ]
    for name, a, b, target, sense in checks:
        value = None if a is None or not b else a / b
        met = "n/a" if value is None else ("yes" if (value <= target if sense == "≤" else value >= target) else "no")
        print(f"| {name} | {ratio(a, b)} | {sense} {target}x | {met} |")
    for name, a, b in extra:
        print(f"| {name} | {ratio(a, b)} | (no target) | — |")


if __name__ == "__main__":
    raise SystemExit(main())
