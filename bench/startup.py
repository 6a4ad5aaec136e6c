"""Where start-up goes: horologe's spawn -> first answer next to the official server's, and what of it is ours.

Rows, alternated over --starts rounds (medians):
- the bare interpreter (`python -c pass`, this venv);
- the SDK's imports alone: the modules horologe's stdio server imports from the SDK (with the package `__init__`s
  deferred as horologe defers them), nothing of ours;
- horologe and the official `mcp-server-time`: spawn -> `initialize` answer over stdio.
Then `python -X importtime` of `horologe` answering `initialize` (the minimum self time of each module over
--imports runs), summed by owner: horologe, the MCP SDK (mcp, mcp_types), pydantic, the rest.

    .venv/bin/python bench/startup.py [--starts 9] [--imports 5] [--before DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

from peers import official

HELLO = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "startup", "version": "1"}}
INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HELLO}).encode() + b"\n"
SDK_ONLY = (
    "from horologe.deferred_imports import defer_package_init; defer_package_init('mcp', 'mcp.server'); "
    "import mcp_types, mcp.server.lowlevel.server, mcp.server.context"
)
OWNERS = {"horologe": "horologe (ours)", "mcp": "MCP SDK", "mcp_types": "MCP SDK", "pydantic": "pydantic",
          "pydantic_core": "pydantic", "pydantic_settings": "pydantic-settings"}  # fmt: skip


def first_answer(cmd: list[str], env: dict[str, str]) -> float:
    """Seconds from spawn to the first line on stdout after sending `initialize`."""
    began = time.perf_counter()
    process = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(INITIALIZE)
    process.stdin.flush()
    process.stdout.readline()
    elapsed = time.perf_counter() - began
    process.stdin.close()
    process.wait(timeout=10)
    return elapsed


def exit_time(cmd: list[str], env: dict[str, str]) -> float:
    """Seconds from spawn to exit."""
    began = time.perf_counter()
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - began


def import_profile(env: dict[str, str], runs: int) -> dict[str, float]:
    """Milliseconds of import self time by owner (minimum per module over runs)."""
    best: dict[str, int] = {}
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "horologe"], input=INITIALIZE, capture_output=True, env=env
        )
        for line in done.stderr.decode().splitlines():
            found = re.match(r"import time:\s+(\d+) \|\s+\d+ \|\s*(\S+)", line)
            if found:
                name, spent = found[2], int(found[1])
                best[name] = min(best.get(name, spent), spent)
    owners: dict[str, float] = {}
    for name, spent in best.items():
        owner = OWNERS.get(name.split(".")[0], "the rest (stdlib, anyio, starlette, uvicorn, ...)")
        owners[owner] = owners.get(owner, 0) + spent / 1000
    return owners


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--starts", type=int, default=9)
    parser.add_argument("--imports", type=int, default=5)
    parser.add_argument("--before", type=Path, help="another horologe checkout, measured in the same rounds")
    args = parser.parse_args()
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    envs = {"horologe": env}
    if args.before:
        envs[f"horologe before ({args.before.name})"] = {**env, "PYTHONPATH": str(args.before / "src")}
    rows: dict[str, list[float]] = {}
    for _ in range(args.starts):
        rows.setdefault("python -c pass", []).append(exit_time([sys.executable, "-c", "pass"], env))
        rows.setdefault("SDK imports alone", []).append(exit_time([sys.executable, "-c", SDK_ONLY], env))
        for label, own in envs.items():
            rows.setdefault(label, []).append(first_answer([sys.executable, "-m", "horologe"], own))
        rows.setdefault("official mcp-server-time", []).append(first_answer(official(), env))
    reference = statistics.median(rows["official mcp-server-time"])
    print(f"### Start-up, median of {args.starts} alternated rounds (load average {os.getloadavg()[0]:.1f})\n")
    print("| what | seconds | vs official start-up |\n|---|---|---|")
    for label, values in rows.items():
        print(f"| {label} | {statistics.median(values):.3f} | {statistics.median(values) / reference:.2f}x |")
    for label, own in envs.items():
        owners = import_profile(own, args.imports)
        total = sum(owners.values())
        print(f"\n### {label}: import self time by owner (-X importtime, minimum of {args.imports} runs)\n")
        print("| owner | ms | share |\n|---|---|---|")
        for owner, spent in sorted(owners.items(), key=lambda item: -item[1]):
            print(f"| {owner} | {spent:.0f} | {spent / total:.0%} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
