"""Where start-up goes: horologe's spawn -> first answers next to the official server's, and what of it is ours.

Each horologe is measured as a user runs it: its wheel (`uv build`) installed in a fresh virtual environment with
its bytecode compiled, as the official server is installed in its own (the development venv's ~260 distributions
make every entry-point scan slower). Rows, alternated over --starts rounds (medians):
- the bare interpreter (`python -c pass`) and the SDK's imports alone (the modules horologe's stdio server imports
  from the SDK, with the package `__init__`s deferred as horologe defers them; nothing of ours), in horologe's venv:
  the floor that no stdio server on the SDK's low-level `Server` goes below;
- horologe (this checkout, and --before) and the official `mcp-server-time`: spawn -> the `initialize` answer, then
  -> the first `tools/list` answer (what a client waits for before it can call anything), over stdio.
Then `python -X importtime` of `horologe` answering `initialize` (the minimum self time of each module over
--imports runs), summed by owner: horologe, the MCP SDK (mcp, mcp_types), pydantic, the rest.

    .venv/bin/python bench/startup.py [--starts 9] [--imports 5] [--before DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from peers import official

HELLO = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "startup", "version": "1"}}
INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HELLO}).encode() + b"\n"
INITIALIZED = b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
LIST_TOOLS = b'{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n'
ROOT = Path(__file__).resolve().parents[1]
SDK_ONLY = (
    "from horologe.deferred_imports import defer_package_init; defer_package_init('mcp', 'mcp.server'); "
    "import mcp_types, mcp.server.lowlevel.server, mcp.server.context"
)
OWNERS = {"horologe": "horologe (ours)", "mcp": "MCP SDK", "mcp_types": "MCP SDK", "pydantic": "pydantic",
          "pydantic_core": "pydantic", "pydantic_settings": "pydantic-settings"}  # fmt: skip


def first_answers(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Seconds from spawn to the `initialize` answer, and to the first `tools/list` answer sent right after it."""
    began = time.perf_counter()
    process = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(INITIALIZE)
    process.stdin.flush()
    assert b'"result"' in process.stdout.readline()
    initialized = time.perf_counter() - began
    process.stdin.write(INITIALIZED + LIST_TOOLS)
    process.stdin.flush()
    assert b'"tools"' in process.stdout.readline()
    listed = time.perf_counter() - began
    process.stdin.close()
    process.wait(timeout=10)
    return initialized, listed


@contextlib.contextmanager
def installed(checkout: Path) -> Iterator[Path]:
    """The python of a fresh virtual environment with `checkout`'s wheel installed, bytecode compiled."""
    uv = shutil.which("uv") or str(ROOT / ".tools" / "bin" / "uv")
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([uv, "build", "-q", "--wheel", "-o", folder, str(checkout)], check=True)
        wheel = next(Path(folder).glob("*.whl"))
        venv = Path(folder) / "venv"
        subprocess.run([uv, "venv", "-q", "--python", sys.executable, str(venv)], check=True)
        environment = {**os.environ, "VIRTUAL_ENV": str(venv)}
        subprocess.run([uv, "pip", "install", "-q", "--compile-bytecode", str(wheel)], check=True, env=environment)
        yield venv / "bin" / "python"


def exit_time(cmd: list[str], env: dict[str, str]) -> float:
    """Seconds from spawn to exit."""
    began = time.perf_counter()
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - began


def import_profile(python: Path, env: dict[str, str], runs: int) -> dict[str, float]:
    """Milliseconds of import self time by owner (minimum per module over runs)."""
    best: dict[str, int] = {}
    for _ in range(runs):
        done = subprocess.run(
            [str(python), "-X", "importtime", "-m", "horologe"], input=INITIALIZE, capture_output=True, env=env
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
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONDONTWRITEBYTECODE", "VIRTUAL_ENV")}
    with contextlib.ExitStack() as stack:
        pythons = {"horologe": stack.enter_context(installed(ROOT))}
        if args.before:
            pythons[f"horologe before ({args.before.name})"] = stack.enter_context(installed(args.before))
        rows = measure(pythons, env, args.starts)
        print(f"### Start-up, median of {args.starts} alternated rounds (load average {os.getloadavg()[0]:.1f})\n")
        print("| what | initialize answer, s | vs official | tools/list answer, s | vs official |")
        print("|---|---|---|---|---|")
        reference = [statistics.median(column) for column in zip(*rows["official mcp-server-time"], strict=True)]
        for label, values in rows.items():
            medians = [statistics.median(column) for column in zip(*values, strict=True)]
            cells = [f"{median:.3f} | {median / base:.2f}x" for median, base in zip(medians, reference, strict=True)]
            print(f"| {label} | {' | '.join(cells)} |")
        for label, python in pythons.items():
            owners = import_profile(python, env, args.imports)
            total = sum(owners.values())
            print(f"\n### {label}: import self time by owner (-X importtime, minimum of {args.imports} runs)\n")
            print("| owner | ms | share |\n|---|---|---|")
            for owner, spent in sorted(owners.items(), key=lambda item: -item[1]):
                print(f"| {owner} | {spent:.0f} | {spent / total:.0%} |")
    return 0


def measure(pythons: dict[str, Path], env: dict[str, str], starts: int) -> dict[str, list[tuple[float, float]]]:
    """Each row's (initialize, tools/list) seconds per round; the floors have no answers (their exit time twice)."""
    rows: dict[str, list[tuple[float, float]]] = {}
    ours = pythons["horologe"]
    for _ in range(starts):
        for label, code in (("python -c pass", "pass"), ("SDK imports alone", SDK_ONLY)):
            spent = exit_time([str(ours), "-c", code], env)
            rows.setdefault(label, []).append((spent, spent))
        for label, python in pythons.items():
            rows.setdefault(label, []).append(first_answers([str(python), "-m", "horologe"], env))
        rows.setdefault("official mcp-server-time", []).append(first_answers(official(), env))
    return rows


if __name__ == "__main__":
    raise SystemExit(main())
