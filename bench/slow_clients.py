"""Slow and greedy clients against a real server: RSS while N connections each hold most of a declared body, and
how long until the server cuts them off (issue 17, finding 5); or RSS while one client sends endless headers.

    .venv/bin/python bench/slow_clients.py [--connections 400] [--body 1048576] [--hold 40] [--port 18740]
    .venv/bin/python bench/slow_clients.py --endless-head [--hold 8]
    PYTHONPATH=/work/old-4cb4f68/src .venv/bin/python bench/slow_clients.py   # the checkout before the fix

Starts `horologe serve --transport http` on loopback. Bodies: opens the connections, sends each a request head
that declares `--body` bytes and all of them but one, and samples the server's RSS (from /proc) for `--hold`
seconds; prints the RSS before, the peak, the connections still open at the end, and the answers they got.
`--endless-head`: one connection sends header lines as fast as it can for `--hold` seconds; prints how much it
sent before the server closed it and the peak RSS.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import subprocess
import sys
import time


def rss_mib(pid: int) -> float:
    """The resident set size of a process, in MiB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def wait_healthy(port: int, deadline: float) -> None:
    """Wait until /healthz answers."""
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1) as probe:
            probe.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            if probe.recv(100).startswith(b"HTTP/1.1 200"):
                return
        time.sleep(0.2)
    raise SystemExit("server did not start")


def main() -> None:
    """Run the measurement and print one line per number."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--connections", type=int, default=400)
    parser.add_argument("--body", type=int, default=1_048_576)
    parser.add_argument("--hold", type=float, default=40.0)
    parser.add_argument("--port", type=int, default=18740)
    parser.add_argument("--endless-head", action="store_true")
    args = parser.parse_args()
    command = [sys.executable, "-m", "horologe", "serve", "--transport", "http", "--port", str(args.port)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_healthy(args.port, time.monotonic() + 60)
        before = rss_mib(server.pid)
        if args.endless_head:
            endless_head(args.port, server.pid, args.hold, before)
            return
        head = (
            f"POST /mcp/tools/call HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {args.body}\r\n\r\n"
        ).encode()
        payload = b" " * (args.body - 1)
        clients = []
        for _ in range(args.connections):
            client = socket.create_connection(("127.0.0.1", args.port))
            client.setblocking(False)
            clients.append([client, head + payload, b""])
        started = time.monotonic()
        peak = before
        while time.monotonic() - started < args.hold:
            for entry in clients:
                client, pending, _ = entry
                with contextlib.suppress(BlockingIOError, OSError):
                    if pending:
                        entry[1] = pending[client.send(pending[:262144]) :]
                    data = client.recv(65536)
                    entry[2] += data if data else b"<closed>"
            peak = max(peak, rss_mib(server.pid))
            time.sleep(0.05)
        answers: dict[str, int] = {}
        for _, _, got in clients:
            key = got.split(b"\r\n", 1)[0].decode(errors="replace") or "(nothing yet)"
            answers[key] = answers.get(key, 0) + 1
        still_open = sum(1 for _, _, got in clients if not got.endswith(b"<closed>"))
        print(f"connections: {args.connections} x {args.body} bytes declared, held {args.hold:g} s")
        print(f"rss before: {before:.1f} MiB; peak: {peak:.1f} MiB; rise: {peak - before:.1f} MiB")
        print(f"still open after {args.hold:g} s: {still_open}")
        for status, count in sorted(answers.items()):
            print(f"  {count:4d}  {status}")
        for client, _, _ in clients:
            client.close()
    finally:
        server.terminate()
        server.wait(timeout=30)


def endless_head(port: int, pid: int, hold: float, before: float) -> None:
    """Send header lines on one connection until the server closes it or `hold` seconds pass."""
    lines = (b"X-Pad: " + b"a" * 100 + b"\r\n") * 1000
    sent, peak, started = 0, before, time.monotonic()
    with socket.create_connection(("127.0.0.1", port)) as client:
        client.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        with contextlib.suppress(OSError):
            while time.monotonic() - started < hold:
                client.sendall(lines)
                sent += len(lines)
                if sent % (50 * len(lines)) == 0:
                    peak = max(peak, rss_mib(pid))
        peak = max(peak, rss_mib(pid))
        answer = b""
        with contextlib.suppress(OSError):
            client.settimeout(2)
            answer = client.recv(200)
    print(f"endless head: sent {sent / 1_048_576:.0f} MiB in {time.monotonic() - started:.1f} s")
    print(f"rss before: {before:.1f} MiB; peak: {peak:.1f} MiB; rise: {peak - before:.1f} MiB")
    status = answer.split(b"\r\n", 1)[0].decode(errors="replace")
    print(f"answer: {status or '(none; connection closed or reset)'}")


if __name__ == "__main__":
    os.environ.setdefault("DEFAULT_TIMEZONE", "UTC")
    main()
