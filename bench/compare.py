"""`make bench`: horologe next to the official server on the realistic mix, stdio and HTTP, both eras, one run.

Servers (peers installed on first use by bench/peers.py under .bench/):
- horologe from this checkout, and with each --before DIR another horologe from that checkout (DIR/src), same venv;
- the official reference server `mcp-server-time`: over stdio as shipped, over HTTP served by its own
  `create_server` (../shared/tools/peers/official_http.py), one process like horologe;
- stdio only: the Go `mcp-time` (npm mcp-time-linux-x64), the fastest peer, and the bare asyncio loop
  (../shared/tools/baseline_stdio.py), the limit. Both in the 2025-11-25 era (neither speaks 2026-07-28).

Work (bench/mix.py): `paired` is the same questions in each server's vocabulary (get_current_time and convert_time,
what the official server has); `full` is horologe's weighted mix on its default surface (bench/mix.py). Half of
all calls carry a language. Ratios compare paired work only; the full mix is
reported beside it. Measurements are alternated in rounds (the order reversed every other round); each ratio is the
median of the ratios taken within a round. CPU steal (/proc/stat) is recorded around every measurement.

    .venv/bin/python bench/compare.py [--rounds 3] [--n 1000] [--duration 6] [--seq 500] [--before DIR]...
                                      [--skip-http] [--skip-stdio] [--json out.jsonl]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from peers import PEERS, npm_peer, official

ROOT = Path(__file__).resolve().parents[1]
DRIVE = [sys.executable, str(ROOT / "bench" / "drive.py")]
OFFICIAL = "official mcp-server-time"
TARGETS = {  # (transport, load, measure): (sense, ratio) from issue 16
    ("stdio", "", "req_per_s"): ("≥", 2.5),
    ("stdio", "", "p50_ms"): ("≤", 0.4),
    ("stdio", "", "rss_mib"): ("≤", 1.0),
    ("stdio", "", "startup_s"): ("≤", 0.6),
    ("http", "32 clients", "req_per_s"): ("≥", 2.0),
    ("http", "32 clients", "p99_ms"): ("≤", 1.0),
}


def cpu_ticks() -> tuple[int, int]:
    """(steal, total) jiffies of all CPUs so far."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return fields[7] if len(fields) > 7 else 0, sum(fields[:8])


def measure(command: list[str]) -> dict[str, Any]:
    """Run one driver command; its JSON result with the CPU steal (%) over its run."""
    steal_before, total_before = cpu_ticks()
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    steal_after, total_after = cpu_ticks()
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)}\n{done.stdout[-1000:]}{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result["steal_pct"] = round(100 * (steal_after - steal_before) / max(1, total_after - total_before), 1)
    return result


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_port(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"server for port {port} exited with {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"port {port} never opened")


def horologes(befores: list[Path] | None) -> list[tuple[str, dict[str, str]]]:
    """(label, extra environment) of each horologe measured: this checkout, and each --before one."""
    found: list[tuple[str, dict[str, str]]] = [("horologe", {})]
    for before in befores or []:
        found.append((f"horologe before ({before.name})", {"PYTHONPATH": str(before / "src")}))
    return found


def stdio_servers(args: argparse.Namespace, shared: Path) -> list[dict[str, Any]]:
    """Every stdio server: label, command, vocabulary, eras, mixes."""
    rows = [
        {"label": label, "cmd": [*(["env", *(f"{k}={v}" for k, v in env.items())] if env else []),
                                 sys.executable, "-m", "horologe"],
         "vocabulary": "horologe", "eras": ("legacy", "modern"), "mixes": ("paired", "full")}
        for label, env in horologes(args.before)
    ]  # fmt: skip
    rows.append({"label": OFFICIAL, "cmd": official(), "vocabulary": "official", "eras": ("legacy", "modern"),
                 "mixes": ("paired",)})  # fmt: skip
    go = npm_peer("mcp-time-linux-x64", "bin/mcp-time")[1]
    rows.append({"label": "Go mcp-time (fastest peer)", "cmd": [go], "vocabulary": "go", "eras": ("legacy",),
                 "mixes": ("paired",)})  # fmt: skip
    rows.append({"label": "bare asyncio loop (the limit)", "cmd": [sys.executable, str(shared / "baseline_stdio.py")],
                 "vocabulary": "official", "eras": ("legacy",), "mixes": ("paired",)})  # fmt: skip
    return rows


def run_stdio(args: argparse.Namespace, shared: Path, results: list[dict[str, Any]], round_: int) -> None:
    servers = stdio_servers(args, shared)
    for server in servers if round_ % 2 == 0 else servers[::-1]:
        for era in server["eras"]:
            for mix in server["mixes"]:
                command = [*DRIVE, "stdio", "--server", server["vocabulary"], "--mix", mix, "--era", era,
                           "--n", str(args.n), "--", *server["cmd"]]  # fmt: skip
                row = {"transport": "stdio", "server": server["label"], "era": era, "mix": mix, "load": ""}
                results.append({**row, "round": round_, **measure(command)})
                print(f"  stdio {server['label']} {era} {mix}: {results[-1]['req_per_s']} req/s", file=sys.stderr)


def run_http(args: argparse.Namespace, shared: Path, results: list[dict[str, Any]]) -> None:
    env = {**os.environ, "HOROLOGE_LOG_LEVEL": "WARNING", "HOROLOGE_HTTP__ACCESS_LOG": "false"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    servers: list[tuple[str, str, tuple[str, ...], subprocess.Popen[bytes], int]] = []
    official_python = Path(official()[0]).parent / "python"
    try:
        for label, extra in horologes(args.before):
            port = free_port()
            command = [sys.executable, "-m", "horologe", "serve", "--transport", "http", "--port", str(port)]
            process = subprocess.Popen(
                command, env={**env, **extra}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            servers.append((label, "horologe", ("paired", "full"), process, port))
        port = free_port()
        command = [str(official_python), str(shared / "peers" / "official_http.py"), str(port)]
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        servers.append((OFFICIAL, "official", ("paired",), process, port))
        for _, _, _, process, port in servers:
            wait_port(port, process)
        loads = {"32 clients": ["--concurrency", "32", "--duration", str(args.duration)]}
        if args.seq:
            loads["1 connection"] = ["--seq", str(args.seq)]
        for round_ in range(args.rounds):
            for label, vocabulary, mixes, _, port in servers if round_ % 2 == 0 else servers[::-1]:
                for era in ("legacy", "modern"):
                    for mix in mixes:
                        for load, flags in loads.items():
                            command = [*DRIVE, "http", "--url", f"http://127.0.0.1:{port}/mcp", "--server", vocabulary,
                                       "--mix", mix, "--era", era, *flags]  # fmt: skip
                            row = {"transport": "http", "server": label, "era": era, "mix": mix, "load": load}
                            results.append({**row, "round": round_, **measure(command)})
                            print(
                                f"  http {label} {era} {mix} {load}: {results[-1]['req_per_s']} req/s", file=sys.stderr
                            )
    finally:
        for _, _, _, process, _ in servers:
            process.terminate()
        for _, _, _, process, _ in servers:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


ERAS = {"legacy": "2025-11-25", "modern": "2026-07-28"}
MEASURES = ("req_per_s", "p50_ms", "p99_ms", "cpu_us", "rss_mib", "startup_s")


def within_round_ratio(rows: list[dict[str, Any]], peers: list[dict[str, Any]], key: str) -> float | None:
    """Median over rounds of (row / official row of the same round)."""
    by_round = {peer["round"]: peer for peer in peers}
    ratios = [row[key] / by_round[row["round"]][key] for row in rows if row["round"] in by_round and key in row]
    return statistics.median(ratios) if ratios else None


def report(results: list[dict[str, Any]], args: argparse.Namespace, loads: tuple[float, float]) -> None:
    groups: dict[tuple[str, str, str, str, str], list[dict[str, Any]]] = {}
    for row in results:
        groups.setdefault((row["transport"], row["load"], row["era"], row["server"], row["mix"]), []).append(row)
    steal = [row["steal_pct"] for row in results]
    print(f"\n## horologe vs the official server on the realistic mix ({args.rounds} alternated rounds)\n")
    print(f"Load average before/after: {loads[0]:.2f} / {loads[1]:.2f} on {os.cpu_count()} CPUs; CPU steal over the")
    print(
        f"measurements: median {statistics.median(steal):.1f}%, max {max(steal):.1f}%. Ratios are horologe / official"
    )
    print("on the same (paired) work, medians of within-round ratios; `full` rows compare horologe's whole mix with")
    print("the official server's paired work (it has no other tools).\n")
    for transport in ("stdio", "http"):
        keys = sorted({k for k in groups if k[0] == transport}, key=lambda k: (k[1], k[2]))
        if not keys:
            continue
        stdio = transport == "stdio"
        extra = " | CPU µs/call | peak RSS MiB | start-up s" if stdio else ""
        ratio_cols = " | x req/s | x p50 | x p99" + (" | x RSS | x start-up" if stdio else "")
        print(f"### {transport}\n")
        print(f"| load | era | server | mix | req/s | p50 ms | p99 ms{extra} | steal %{ratio_cols} |")
        print(
            "|---|---|---|---|---|---|---|"
            + ("---|---|---|" if stdio else "")
            + "---|---|---|---|"
            + ("---|---|" if stdio else "")
        )
        for key in keys:
            load, era, server, mix = key[1], key[2], key[3], key[4]
            rows = groups[key]
            peers = groups.get((transport, load, era, OFFICIAL, "paired"), [])
            med = {m: statistics.median(r[m] for r in rows) for m in MEASURES if m in rows[0]}
            cells = [load or "sequential", ERAS[era], server, mix, f"{med['req_per_s']:.0f}", f"{med['p50_ms']:.2f}",
                     f"{med['p99_ms']:.2f}"]  # fmt: skip
            if stdio:
                cells += [f"{med['cpu_us']:.0f}", f"{med['rss_mib']:.1f}", f"{med['startup_s']:.3f}"]
            cells.append(f"{statistics.median(r['steal_pct'] for r in rows):.1f}")
            for m in ("req_per_s", "p50_ms", "p99_ms", *(("rss_mib", "startup_s") if stdio else ())):
                value = within_round_ratio(rows, peers, m) if server != OFFICIAL else None
                cells.append("" if value is None else f"{value:.2f}x")
            print("| " + " | ".join(cells) + " |")
        print()
    print("### targets (issue 16), horologe / official on paired work, same run\n")
    print("| transport | load | era | server | measure | ratio | target | met |")
    print("|---|---|---|---|---|---|---|---|")
    for (transport, load, measure_), (sense, target) in TARGETS.items():
        for era in ("legacy", "modern"):
            for label, _ in horologes(args.before):
                rows = groups.get((transport, load, era, label, "paired"))
                peers = groups.get((transport, load, era, OFFICIAL, "paired"))
                if not rows or not peers:
                    continue
                value = within_round_ratio(rows, peers, measure_)
                if value is None:
                    continue
                met = value >= target if sense == "≥" else value <= target
                print(f"| {transport} | {load or 'sequential'} | {ERAS[era]} | {label} | {measure_} | {value:.2f}x |"
                      f" {sense} {target}x | {'yes' if met else 'no'} |")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--n", type=int, default=1000, help="stdio calls per measurement")
    parser.add_argument("--duration", type=float, default=6.0, help="seconds of each 32-client HTTP run")
    parser.add_argument("--seq", type=int, default=500, help="sequential HTTP calls on one connection (0: none)")
    parser.add_argument(
        "--before", type=Path, action="append", help="another horologe checkout to measure in the same run (repeatable)"
    )
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument("--skip-stdio", action="store_true")
    parser.add_argument("--json", type=Path, help="also write every measurement as JSON lines")
    args = parser.parse_args()
    shared = args.shared / "tools"
    PEERS.mkdir(exist_ok=True)
    load_before = os.getloadavg()[0]
    results: list[dict[str, Any]] = []
    if not args.skip_stdio:
        for round_ in range(args.rounds):
            run_stdio(args, shared, results, round_)
    if not args.skip_http:
        run_http(args, shared, results)
    if args.json:
        with args.json.open("w", encoding="utf-8") as sink:
            sink.writelines(json.dumps(row) + "\n" for row in results)
    report(results, args, (load_before, os.getloadavg()[0]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
