"""HTTP benchmark: horologe (1 and 2 workers) next to the SDK's MCPServer time server and a bare Starlette baseline.

The SDK floor row (bench/sdk_floor.py: the low-level Server with a trivial tool, no middleware) shows what no
server on the SDK can beat on this machine.

Each server runs alone on a loopback port; ../shared/tools/http_bench.py drives /mcp sequentially (2000 requests
on one connection) and with 32 concurrent clients for 10 s, in both protocol eras. Prints Markdown tables: throughput
and latency, then each server's peak RSS summed over its processes (supervisor and workers).

    .venv/bin/python bench/http_load.py [--shared ../shared] [--duration 10] [--seq 2000] [--json results.jsonl]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

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
    ]


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
    args = parser.parse_args()
    loads = {
        "sequential": ["--seq", str(args.seq)],
        "32 clients": ["--concurrency", "32", "--duration", str(args.duration)],
    }
    rows = []
    memory: dict[str, tuple[float, int]] = {}
    env = {**os.environ, "HOROLOGE_LOG_LEVEL": "WARNING"}
    for server in servers(args.shared):
        port = free_port()
        cmd = [*server["cmd"], "--port", str(port)]
        process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=ROOT)
        try:
            wait_ready(port, process, server["ready"])
            for era in server["eras"]:
                for load_name, load in loads.items():
                    result = drive(args.shared, port, server["tool"], era, load)
                    rows.append({"server": server["label"], "era": era, "load": load_name, **result})
                    if args.json:
                        with args.json.open("a", encoding="utf-8") as out:
                            out.write(json.dumps(rows[-1]) + "\n")
            memory[server["label"]] = (peak_rss_mib(process.pid), len(process_tree(process.pid)))
        finally:
            process.terminate()
            process.wait(timeout=30)
    print_table(rows)
    print("\n| server | peak RSS after its runs, all processes (MiB) | processes |")
    print("|---|---|---|")
    for label, (mib, count) in memory.items():
        print(f"| {label} | {mib:.1f} | {count} |")
    return 0


def print_table(rows: list[dict[str, Any]]) -> None:
    reference = {(r["era"], r["load"]): r for r in rows if r["server"].startswith("SDK MCPServer")}
    print("| server | era | load | req/s | p50 ms | p99 ms | errors | req/s vs SDK MCPServer |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        base = reference.get((r["era"], r["load"]))
        ratio = f"{r['req_per_s'] / base['req_per_s']:.2f}x" if base and r["era"] != "none" else "-"
        errors = r.get("errors", r.get("non_200", 0))
        print(
            f"| {r['server']} | {r['era']} | {r['load']} | {r['req_per_s']:.0f} | {r['p50_ms']:.2f} | "
            f"{r['p99_ms']:.2f} | {errors} | {ratio} |"
        )


if __name__ == "__main__":
    raise SystemExit(main())
