"""SEP-2792 cost on stdio: `tools/call get_current_time` and `tools/list`, with and without a language preference.

The driver logic follows ../shared/tools/stdio_bench.py (spawn, handshake or 2026 envelope, sequential requests,
every response validated), plus `_meta["io.modelcontextprotocol/acceptLanguage"]` on each request. Variants run
in alternating rounds, each in a fresh server process, so drift hits both alike; the report is the median of
the per-round medians.

    uv run python bench/language_stdio.py [--n 2000] [--rounds 5] [--era modern|legacy]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from typing import Any

SERVE = [sys.executable, "-m", "horologe", "serve", "--transport", "stdio"]
ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "language_bench", "version": "1"},
}
LANGUAGE_KEY = "io.modelcontextprotocol/acceptLanguage"
CONTENT_KEY = "io.modelcontextprotocol/contentLanguage"


def run(method: str, language: str | None, era: str, n: int, warmup: int) -> list[float]:
    """Per-request latencies (ms) of `n` sequential requests to a fresh server."""
    process = subprocess.Popen(SERVE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdin is not None and process.stdout is not None
    writer, reader = process.stdin, process.stdout
    next_id = 0

    def request(name: str, params: dict[str, Any] | None) -> dict[str, Any]:
        nonlocal next_id
        next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": next_id, "method": name}
        if params is not None:
            message["params"] = params
        writer.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        writer.flush()
        while True:
            line = reader.readline()
            if not line:
                raise SystemExit("server closed stdout")
            response = json.loads(line)
            if response.get("id") == next_id:
                if "error" in response:
                    raise SystemExit(f"error response: {response}")
                result: dict[str, Any] = response["result"]
                return result

    meta: dict[str, Any] = dict(ENVELOPE) if era == "modern" else {}
    if era == "legacy":
        client = {"name": "language_bench", "version": "1"}
        request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": client})
        writer.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    if language is not None:
        meta[LANGUAGE_KEY] = language
    params: dict[str, Any] = {"_meta": meta}
    if method == "tools/call":
        params |= {"name": "get_current_time", "arguments": {"timezone": "Europe/Vienna"}}
    latencies = []
    for index in range(warmup + n):
        started = time.perf_counter()
        result = request(method, params)
        elapsed = (time.perf_counter() - started) * 1000
        if method == "tools/call":
            assert result.get("isError") is False, result
        else:
            assert len(result["tools"]) >= 6
        if language is not None:
            assert CONTENT_KEY in result.get("_meta", {}), result.get("_meta")
        if index >= warmup:
            latencies.append(elapsed)
    writer.close()
    process.wait(timeout=10)
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--era", choices=["modern", "legacy"], default="modern")
    parser.add_argument("--language", default="de-AT, de;q=0.9, en;q=0.5")
    options = parser.parse_args()
    for method in ("tools/call", "tools/list"):
        medians: dict[str, list[float]] = {"none": [], "preference": []}
        p95: dict[str, list[float]] = {"none": [], "preference": []}
        for _ in range(options.rounds):
            for label, language in (("none", None), ("preference", options.language)):
                latencies = sorted(run(method, language, options.era, options.n, options.warmup))
                medians[label].append(statistics.median(latencies))
                p95[label].append(latencies[int(len(latencies) * 0.95)])
        base, with_language = statistics.median(medians["none"]), statistics.median(medians["preference"])
        print(
            f"{method:<10} era={options.era} n={options.n}x{options.rounds}  "
            f"median no preference {base:.3f} ms, with preference {with_language:.3f} ms "
            f"({(with_language / base - 1) * 100:+.1f}%); p95 {statistics.median(p95['none']):.3f} / "
            f"{statistics.median(p95['preference']):.3f} ms"
        )


if __name__ == "__main__":
    main()
