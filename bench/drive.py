"""Load drivers for the realistic mix (bench/mix.py): one measurement per run, one JSON line on stdout.

    python bench/drive.py stdio --server horologe --mix full --era legacy --n 1000 -- CMD ARGS...
    python bench/drive.py http --url http://127.0.0.1:PORT/mcp --server official --mix paired --era modern \
        [--seq N | --concurrency 32 --duration 6]

stdio: spawns the server, times spawn -> first answer (`initialize` in the 2025-11-25 era, `server/discover` in the
2026-07-28 era, where the server speaks it, else the first call), then sends the calls one at a time, reading
answers through a 64 KiB buffer as MCP clients do; reports the server's own CPU per call and its peak RSS.
HTTP: HTTP/1.1 keep-alive on loopback, JSON answers (as ../shared/tools/http_bench.py), each client cycling
through the same sequence of calls. Every answer is checked: an error or `isError` ends the run loudly.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mix import MIXES, SERVERS, Call, calls

MODERN = "2026-07-28"
LEGACY = "2025-11-25"
ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"},
}
LANGUAGE_META = "io.modelcontextprotocol/acceptLanguage"


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile of values, interpolated."""
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    low = int(k)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


def summary(latencies: list[float], total: float) -> dict[str, float]:
    """Throughput and latency percentiles (ms) of one run."""
    ms = [x * 1000 for x in latencies]
    return {
        "n": len(ms),
        "req_per_s": round(len(ms) / total, 1),
        "mean_ms": round(statistics.fmean(ms), 4),
        "p50_ms": round(percentile(ms, 50), 4),
        "p90_ms": round(percentile(ms, 90), 4),
        "p99_ms": round(percentile(ms, 99), 4),
    }


def check(answer: dict[str, Any], call: Call) -> None:
    """Fail loudly on a JSON-RPC error or a tool error: a benchmark of refusals measures nothing."""
    result = answer.get("result")
    if result is None or result.get("isError"):
        raise SystemExit(f"{call[0]} {json.dumps(call[1])}: {json.dumps(answer)[:600]}")


# --- stdio ---------------------------------------------------------------------------------------------------------


class StdioServer:
    """One server process and a line-oriented JSON-RPC exchange with it."""

    def __init__(self, cmd: list[str]) -> None:
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0, env=env
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.writer: IO[bytes] = self.process.stdin
        self.reader = io.BufferedReader(self.process.stdout, 65536)  # type: ignore[arg-type]
        self.next_id = 0

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send a request and return the whole answer (banners and notifications are skipped)."""
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.writer.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        while True:
            line = self.reader.readline()
            if not line:
                raise SystemExit(f"server closed stdout (rc={self.process.poll()}) during {method}")
            try:
                answer: dict[str, Any] = json.loads(line)
            except ValueError:
                continue
            if answer.get("id") == self.next_id:
                return answer

    def cpu_seconds(self) -> float:
        """User plus system CPU time the server process has used so far."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_rss_mib(self) -> float:
        """VmHWM of the server process."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def close(self) -> None:
        """End the process this driver started: close its input, then wait (kill after 10 s)."""
        self.writer.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def stdio_params(call: Call, era: str) -> dict[str, Any]:
    """tools/call params of one call in the era's shape, with the language in `_meta` when the call has one."""
    tool, arguments, language = call
    meta: dict[str, Any] = dict(ENVELOPE) if era == "modern" else {}
    if language:
        meta[LANGUAGE_META] = language
    params: dict[str, Any] = {"name": tool, "arguments": arguments}
    if meta:
        params["_meta"] = meta
    return params


def run_stdio(args: argparse.Namespace, cmd: list[str]) -> dict[str, Any]:
    """Start-up, then n sequential calls after a warm-up; server CPU per call and peak RSS."""
    server = StdioServer(cmd)
    if args.era == "legacy":
        init = {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
        server.request("initialize", init)
        startup = time.perf_counter() - server.started
        server.writer.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    else:
        server.request("server/discover", {"_meta": ENVELOPE})
        startup = time.perf_counter() - server.started
    sequence = [stdio_params(call, args.era) for call in calls(args.mix, args.server, args.n)]
    for params, call in zip(sequence[: args.warmup], calls(args.mix, args.server, args.warmup), strict=True):
        check(server.request("tools/call", params), call)
    latencies = []
    cpu_before = server.cpu_seconds()
    began = time.perf_counter()
    for params in sequence:
        start = time.perf_counter()
        answer = server.request("tools/call", params)
        latencies.append(time.perf_counter() - start)
        if "result" not in answer or answer["result"].get("isError"):
            check(answer, (params["name"], params["arguments"], None))
    total = time.perf_counter() - began
    cpu_us = (server.cpu_seconds() - cpu_before) / args.n * 1e6
    rss = server.peak_rss_mib()
    server.close()
    return {"startup_s": round(startup, 4), **summary(latencies, total), "cpu_us": round(cpu_us, 1), "rss_mib": rss}


# --- HTTP ----------------------------------------------------------------------------------------------------------


def http_request(host: str, port: int, path: str, era: str, call: Call, rid: int, authorization: str = "") -> bytes:
    """One POST of a tools/call in the era's shape; the language as an Accept-Language header."""
    tool, arguments, language = call
    params: dict[str, Any] = {"name": tool, "arguments": arguments}
    headers = {
        "Host": f"{host}:{port}",
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "Connection": "keep-alive",
    }
    if era == "legacy":
        headers["MCP-Protocol-Version"] = LEGACY
    else:
        headers.update({"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": tool})
        params["_meta"] = ENVELOPE
    if language:
        headers["Accept-Language"] = language
    if authorization:
        headers["Authorization"] = authorization
    body = json.dumps(
        {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params}, separators=(",", ":")
    ).encode()
    headers["Content-Length"] = str(len(body))
    head = f"POST {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
    return head.encode() + body


async def read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """Status and body of one HTTP/1.1 answer (Content-Length or chunked)."""
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("closed")
    status = int(status_line.split()[1])
    length, chunked = 0, False
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        key, _, value = line.decode("latin-1").partition(":")
        key = key.strip().lower()
        if key == "content-length":
            length = int(value.strip())
        elif key == "transfer-encoding" and "chunked" in value.lower():
            chunked = True
    if not chunked:
        return status, await reader.readexactly(length)
    body = b""
    while size := int((await reader.readline()).strip(), 16):
        body += await reader.readexactly(size)
        await reader.readline()
    await reader.readline()
    return status, body


class HttpClient:
    """One keep-alive connection cycling through the prepared requests from its own offset."""

    def __init__(self, args: argparse.Namespace, sequence: list[Call], offset: int) -> None:
        parts = urlsplit(args.url)
        self.host, self.port, self.path = parts.hostname or "127.0.0.1", parts.port or 80, parts.path or "/"
        self.sequence = sequence
        self.requests = [
            http_request(self.host, self.port, self.path, args.era, call, i, args.authorization)
            for i, call in enumerate(sequence)
        ]
        self.position = offset % len(sequence)

    async def connect(self) -> None:
        """Open (or reopen) the connection."""
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def one(self, validate: bool = False) -> float:
        """Send the next call; seconds to its answer."""
        index = self.position
        self.position = (index + 1) % len(self.requests)
        start = time.perf_counter()
        self.writer.write(self.requests[index])
        status, body = await read_response(self.reader)
        elapsed = time.perf_counter() - start
        if status != 200 or (validate or b'"isError":true' in body) or b'"result"' not in body:
            answer = json.loads(body) if body.startswith(b"{") else {"status": status, "body": body[:300].decode()}
            if status != 200:
                raise SystemExit(f"HTTP {status}: {answer}")
            check(answer, self.sequence[index])
        return elapsed


async def run_http(args: argparse.Namespace) -> dict[str, Any]:
    """Sequential on one connection (--seq) or --concurrency clients for --duration seconds."""
    host = urlsplit(args.url).hostname or ""
    if not (host == "localhost" or host.startswith("127.") or host == "::1"):
        raise SystemExit("loopback targets only")
    sequence = calls(args.mix, args.server, max(args.seq, 500))
    count = 1 if args.seq else args.concurrency
    clients = [HttpClient(args, sequence, i * len(sequence) // count) for i in range(count)]
    await asyncio.gather(*(c.connect() for c in clients))
    for client in clients:  # check every distinct call once, then warm every connection
        for _ in range(len({json.dumps(c[:2]) for c in sequence}) if client is clients[0] else 0):
            await client.one(validate=True)
        for _ in range(max(1, args.warmup // count)):
            await client.one()
    latencies: list[float] = []
    began = time.perf_counter()
    if args.seq:
        for _ in range(args.seq):
            latencies.append(await clients[0].one())
    else:
        stop = began + args.duration

        async def worker(client: HttpClient) -> None:
            while time.perf_counter() < stop:
                latencies.append(await client.one())

        await asyncio.gather(*(worker(c) for c in clients))
    total = time.perf_counter() - began
    for client in clients:
        client.writer.close()
    return summary(latencies, total)


def main() -> int:
    """Parse the command line, run one measurement, print it as one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("transport", choices=("stdio", "http"))
    parser.add_argument("--server", choices=SERVERS, default="horologe", help="whose vocabulary the calls use")
    parser.add_argument("--mix", choices=MIXES, default="full")
    parser.add_argument("--era", choices=("legacy", "modern"), default="legacy")
    parser.add_argument("--n", type=int, default=1000, help="stdio: calls measured")
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--url", help="http: the /mcp endpoint")
    parser.add_argument("--seq", type=int, default=0, help="http: sequential calls on one connection")
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--duration", type=float, default=6.0)
    parser.add_argument("--authorization", default="", help="http: an Authorization header on every request")
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args, cmd = parser.parse_args(argv[:split]), argv[split + 1 :]
    if args.transport == "stdio":
        if not cmd:
            parser.error("stdio needs the server command after --")
        result = run_stdio(args, cmd)
    else:
        if not args.url:
            parser.error("http needs --url")
        result = asyncio.run(run_http(args))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
