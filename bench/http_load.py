"""HTTP benchmark: horologe (1 and 2 workers) next to the SDK's MCPServer time server and a bare Starlette baseline.

The SDK floor row (bench/sdk_floor.py: the low-level Server with a trivial tool, no middleware) shows what no
server on the SDK can beat on this machine.

Every server runs on its own loopback port for the whole run, and the load goes to one at a time:
../shared/tools/http_bench.py drives /mcp sequentially (2000 requests on one connection) and with 32 concurrent
clients for 10 s, in both protocol eras. No server writes access logs (the peers run with --no-access-log), except
the row that measures horologe's default JSON access log. Prints Markdown tables: throughput
and latency, then each server's peak RSS summed over its processes (supervisor and workers).

    .venv/bin/python bench/http_load.py [--shared ../shared] [--duration 10] [--seq 2000] [--json results.jsonl]
    .venv/bin/python bench/http_load.py --only MCPServer "horologe, 2" --era modern --concurrent-only --rounds 5

The second form is the target row alone, in alternating rounds: this machine's speed swings between minutes, so one
run's ratio can be off by a third; the median of the ratios taken within each round is steadier. Shorter rounds
(`--duration 4 --rounds 9`) alternate more often.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from needs import require_shared

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_ready(port: int, process: subprocess.Popen[bytes], path: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"server exited early with {process.returncode}")
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        try:
            connection.request("GET", path)
            connection.getresponse().read()
            return
        except OSError:
            time.sleep(0.2)
        finally:
            connection.close()
    raise SystemExit(f"server on {port} not ready")


def process_tree(pid: int) -> list[int]:
    """A process and all its descendants (uvicorn's workers and their helpers)."""
    found, pending = [], [pid]
    while pending:
        current = pending.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*"):
            children = (task / "children").read_text().split() if (task / "children").exists() else []
            pending.extend(int(child) for child in children)
    return found


def peak_rss_mib(pid: int) -> float:
    """Peak RSS (VmHWM) summed over a server's processes: what the whole server needed at its largest."""
    total_kib = 0
    for member in process_tree(pid):
        try:
            status = Path(f"/proc/{member}/status").read_text()
        except OSError:
            continue  # exited meanwhile
        total_kib += next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), 0)
    return total_kib / 1024


def servers(shared: Path) -> list[dict[str, Any]]:
    python = sys.executable
    uvicorn = [python, "-m", "uvicorn", "--host", "127.0.0.1", "--no-access-log", "--log-level", "warning"]
    horologe = [python, "-m", "horologe", "serve", "--transport", "http", "--host", "127.0.0.1"]
    return [
        {
            "label": "bare Starlette baseline",
            "cmd": [*uvicorn, "--app-dir", str(shared / "tools"), "baseline_http:app"],
            "tool": "get_time",
            "eras": ["none"],
            "ready": "/",
        },
        {
            "label": "SDK MCPServer time server (1 process)",
            "cmd": [*uvicorn, "--app-dir", str(shared / "tools"), "sdk_time_server:app"],
            "tool": "get_time",
            "eras": ["legacy", "modern"],
            "ready": "/",
        },
        {
            "label": "SDK floor: low-level Server, trivial tool, 2 workers",
            "cmd": [*uvicorn, "--workers", "2", "--app-dir", str(ROOT / "bench"), "sdk_floor:app"],
            "tool": "get_current_time",
            "eras": ["legacy", "modern"],
            "ready": "/",
        },
        {
            "label": "horologe, 1 worker",
            "cmd": horologe,
            "tool": "get_current_time",
            "eras": ["legacy", "modern"],
            "ready": "/healthz",
        },
        {
            "label": "horologe, 2 workers",
            "cmd": [*horologe, "--workers", "2"],
            "tool": "get_current_time",
            "eras": ["legacy", "modern"],
            "ready": "/healthz",
        },
        {
            "label": "horologe, 2 workers, JSON access log on (its default)",
            "cmd": [*horologe, "--workers", "2"],
            "tool": "get_current_time",
            "eras": ["modern"],
            "ready": "/healthz",
            "env": {"HOROLOGE_HTTP__ACCESS_LOG": "true"},
        },
    ]


def cpu_ticks() -> tuple[int, int]:
    """(steal, total) jiffies of all CPUs so far (/proc/stat): time the hypervisor gave this VM's CPUs elsewhere."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return fields[7] if len(fields) > 7 else 0, sum(fields[:8])


def drive(shared: Path, port: int, tool: str, era: str, load: list[str]) -> dict[str, Any]:
    command = [
        sys.executable,
        str(shared / "tools" / "http_bench.py"),
        "--url",
        f"http://127.0.0.1:{port}/mcp",
        "--era",
        era,
        "--tool",
        tool,
        *load,
    ]
    completed = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True)
    result: dict[str, Any] = json.loads(completed.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--seq", type=int, default=2000)
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--json", type=Path, help="also append raw results as JSON lines")
    parser.add_argument("--only", nargs="*", default=(), help="run only servers whose label contains one of these")
    parser.add_argument("--era", choices=("legacy", "modern"), help="run only this era")
    parser.add_argument("--concurrent-only", action="store_true", help="skip the sequential runs")
    parser.add_argument(
        "--rounds", type=int, default=1, help="repeat every server's runs, alternating servers; the table gives medians"
    )
    args = parser.parse_args()
    require_shared(args.shared, "tools/http_bench.py", "tools/baseline_http.py", "tools/sdk_time_server.py")
    loads = {
        "sequential": ["--seq", str(args.seq)],
        "32 clients": ["--concurrency", "32", "--duration", str(args.duration)],
    }
    if args.concurrent_only:
        del loads["sequential"]
    rows: list[dict[str, Any]] = []
    # Like the uvicorn-run peers (--no-access-log), horologe writes no access log unless a row turns it on.
    env = {**os.environ, "HOROLOGE_LOG_LEVEL": "WARNING", "HOROLOGE_HTTP__ACCESS_LOG": "false"}
    chosen = [s for s in servers(args.shared) if not args.only or any(part in s["label"] for part in args.only)]
    # Every server stays up for the whole run (an idle server costs no CPU) and the rounds alternate the load
    # between them, so a slow minute of this shared machine hits every server instead of one.
    running: list[tuple[dict[str, Any], int, subprocess.Popen[bytes]]] = []
    try:
        for server in chosen:
            port = free_port()
            cmd = [*server["cmd"], "--port", str(port)]
            server_env = {**env, **server.get("env", {})}
            quiet = subprocess.DEVNULL
            process = subprocess.Popen(cmd, stdout=quiet, stderr=quiet, env=server_env, cwd=ROOT)
            running.append((server, port, process))
            wait_ready(port, process, server["ready"])
        for round_number in range(args.rounds):
            for server, port, _ in running:
                for era in server["eras"]:
                    if args.era and era not in (args.era, "none"):
                        continue
                    for load_name, load in loads.items():
                        steal_before, total_before = cpu_ticks()
                        result = drive(args.shared, port, server["tool"], era, load)
                        steal_after, total_after = cpu_ticks()
                        steal = 100 * (steal_after - steal_before) / max(1, total_after - total_before)
                        row = {"server": server["label"], "era": era, "load": load_name, "round": round_number}
                        row["cpu_steal_pct"] = round(steal, 1)
                        rows.append({**row, **result})
                        if args.json:
                            with args.json.open("a", encoding="utf-8") as out:
                                out.write(json.dumps(rows[-1]) + "\n")
        memory = {server["label"]: (peak_rss_mib(p.pid), len(process_tree(p.pid))) for server, _, p in running}
    finally:
        for _, _, process in running:
            process.terminate()
        for _, _, process in running:
            process.wait(timeout=30)
    print_table(rows)
    print("\n| server | peak RSS after its runs, all processes (MiB) | processes |")
    print("|---|---|---|")
    for label, (mib, count) in memory.items():
        print(f"| {label} | {mib:.1f} | {count} |")
    return 0


STEAL_LIMIT = 10.0  # % of CPU time the hypervisor took: rounds above it on either side are left out of "clean"


def print_table(rows: list[dict[str, Any]]) -> None:
    """One line per server, era and load: medians over the rounds; ratios are taken within each round."""
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["server"], r["era"], r["load"]), []).append(r)
    reference = {(r["era"], r["load"], r["round"]): r for r in rows if r["server"].startswith("SDK MCPServer")}
    rounds = max((r["round"] for r in rows), default=0) + 1
    spread = " (min-max over rounds)" if rounds > 1 else ""
    print(
        f"| server | era | load | req/s | p50 ms | p99 ms | errors | CPU steal % | req/s vs SDK MCPServer{spread} |"
        f" same, rounds under {STEAL_LIMIT:.0f}% steal on both sides (rounds) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (server, era, load), runs in groups.items():
        pairs = [(r, base) for r in runs if era != "none" and (base := reference.get((era, load, r["round"])))]
        ratios = [r["req_per_s"] / base["req_per_s"] for r, base in pairs]
        clean = [
            r["req_per_s"] / base["req_per_s"]
            for r, base in pairs
            if max(r["cpu_steal_pct"], base["cpu_steal_pct"]) < STEAL_LIMIT
        ]
        ratio = "-"
        if ratios:
            ratio = f"{statistics.median(ratios):.2f}x"
            ratio += f" ({min(ratios):.2f}-{max(ratios):.2f})" if len(ratios) > 1 else ""
        clean_ratio = f"{statistics.median(clean):.2f}x ({len(clean)})" if clean else "-"
        errors = sum(r.get("errors", r.get("non_200", 0)) for r in runs)
        req, p50, p99, steal = (
            statistics.median(r[key] for r in runs) for key in ("req_per_s", "p50_ms", "p99_ms", "cpu_steal_pct")
        )
        print(
            f"| {server} | {era} | {load} | {req:.0f} | {p50:.2f} | {p99:.2f} | {errors} | {steal:.1f} | {ratio} |"
            f" {clean_ratio} |"
        )


if __name__ == "__main__":
    raise SystemExit(main())
