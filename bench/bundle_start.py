"""What the MCP Bundle's server type costs a user: its starts as Claude Desktop runs them, from dist/'s bundle.

The bundle is server type `uv` (docs/releasing.md): its first start installs the locked dependencies. Rows, each
the wall time from spawn to the answer to the seed's stdio line, in one run side by side:
- first start, empty uv cache: what a user without uv's cache meets (downloads every package; needs the network);
- first start, warm uv cache: a fresh install from packages uv already holds (any earlier `uvx horologe`);
- later start: the installed environment, through `uv run` as the manifest runs it;
- the environment's Python run directly: what a bundled-`python` server would cost once unpacked, the floor.

    make bundle && .venv/bin/python bench/bundle_start.py [--later 5]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from release.identity import identity  # noqa: E402

SEED_LINE = b'{"jsonrpc":"2.0","method":"tools/call","params":{"name":"get_current_time","arguments":{}},"id":1}\n'
UV = ROOT / ".tools" / "bin" / "uv"


def start(command: list[str], env: dict[str, str]) -> float:
    """Seconds from spawn to the seed line's answer (the server then reads end of input and leaves)."""
    began = time.perf_counter()
    done = subprocess.run(command, input=SEED_LINE, capture_output=True, env=env, timeout=900, check=False)
    took = time.perf_counter() - began
    if done.returncode != 0 or b'"id":1' not in done.stdout:
        raise SystemExit(f"bundle_start: {command[0]} failed: {done.stderr.decode().strip().splitlines()[-1:]}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--later", type=int, default=5, help="later starts to take the median of")
    args = parser.parse_args()
    bundle = ROOT / "dist" / identity().bundle_name
    if not bundle.exists():
        raise SystemExit(f"bundle_start: {bundle} is missing: run `make bundle`")
    with tempfile.TemporaryDirectory(prefix="bundle-start-") as scratch:
        unpacked = Path(scratch) / "horologe"
        zipfile.ZipFile(bundle).extractall(unpacked)
        config = json.loads((unpacked / "manifest.json").read_text(encoding="utf-8"))["server"]["mcp_config"]
        arguments = [argument.replace("${__dirname}", str(unpacked)) for argument in config["args"]]
        settings = {name: "" if value.startswith("${user_config.") else value for name, value in config["env"].items()}
        shell = {name: value for name, value in os.environ.items() if name not in ("VIRTUAL_ENV", "MAKEFLAGS")}
        env = {**shell, **settings, "UV_PYTHON_DOWNLOADS": "never", "UV_CACHE_DIR": str(Path(scratch) / "cache")}
        command = [str(UV), *arguments]
        rows = [("first start, empty uv cache", start(command, env))]
        shutil.rmtree(unpacked / ".venv")
        rows.append(("first start, warm uv cache", start(command, env)))
        later = [start(command, env) for _ in range(args.later)]
        direct = [str(unpacked / ".venv" / "bin" / "python"), str(unpacked / config["args"][-1])]
        floor = [start(direct, env) for _ in range(args.later)]
        rows += [("later start (uv run)", statistics.median(later)), ("its Python directly", statistics.median(floor))]
    print(f"load average {os.getloadavg()[0]:.2f}\n\n| start | seconds |\n|---|---|")
    for name, seconds in rows:
        print(f"| {name} | {seconds:.2f} |")


if __name__ == "__main__":
    main()
