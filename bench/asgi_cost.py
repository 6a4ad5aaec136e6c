"""CPU per `tools/call` of horologe's HTTP app next to the SDK's floor, called in process, on the realistic mix.

No uvicorn and no sockets: each app is called directly as ASGI, in interleaved rounds, and the process CPU time
per request is reported. What uvicorn and the load generator cost is the same for every server, so this is the
steadiest view of what horologe adds on top of the SDK (the HTTP benchmark's ratios swing with the machine).
The requests are bench/mix.py's full mix (half with an Accept-Language header) in the era chosen; the floor
answers every call with the time, so its row is what the SDK alone costs per request.

    .venv/bin/python bench/asgi_cost.py [--n 2000] [--rounds 5] [--era modern|legacy] [--profile]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HOROLOGE_LOG_LEVEL", "WARNING")

from drive import http_request
from mix import calls

App = Any
ERA = "modern"  # --era
SEQUENCE = calls("full", "horologe", 500)


def request(request_id: int) -> tuple[dict[str, Any], bytes]:
    """The scope and body bench/drive.py sends for the request_id-th call of the mix in ERA."""
    raw = http_request("127.0.0.1", 8080, "/mcp", ERA, SEQUENCE[request_id % len(SEQUENCE)], request_id)
    head, body = raw.split(b"\r\n\r\n", 1)
    headers = [
        (name.strip().lower(), value.strip())
        for name, _, value in (line.partition(b":") for line in head.split(b"\r\n")[1:])
    ]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/mcp",
        "raw_path": b"/mcp",
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8080),
        "state": {},
    }
    return scope, body


async def start(app: App) -> None:
    """Run the app's lifespan startup (its session managers)."""
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}
    asyncio.get_running_loop().create_task(app(scope, inbox.get, outbox.put))
    await inbox.put({"type": "lifespan.startup"})
    started = await outbox.get()
    if started["type"] != "lifespan.startup.complete":
        raise SystemExit(f"startup failed: {started}")


async def call(app: App, request_id: int) -> None:
    """One request through the whole app; fails loudly on anything but 200."""
    scope, body = request(request_id)
    delivered = False

    async def receive() -> dict[str, Any]:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # the client stays connected
        raise AssertionError("unreachable")

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    answer = b"".join(message.get("body", b"") for message in sent)
    if sent[0].get("status") != 200 or b'"isError":true' in answer:
        raise SystemExit(f"request failed: {sent}")


FLOOR = "SDK floor (low-level Server, trivial tool)"
HOROLOGE = "horologe"
HOROLOGE_LOGGING = "horologe, JSON access log on"


def build(label: str) -> App:
    """One app by label: the SDK floor, or horologe with its access log off (default here) or on."""
    from horologe.deferred_imports import defer_package_init

    defer_package_init("mcp", "mcp.server")
    if label == FLOOR:
        import sdk_floor

        return sdk_floor.app
    from horologe.config import load_settings
    from horologe.http.app import create_app

    # Access log off unless asked for: its line goes to stderr, which a terminal makes expensive.
    overrides = {"server": {"transport": "http"}, "http": {"access_log": label == HOROLOGE_LOGGING}}
    return create_app(load_settings(overrides=overrides))


def apps() -> dict[str, App]:
    """The SDK floor and horologe (access log off), built side by side."""
    return {label: build(label) for label in (FLOOR, HOROLOGE)}


async def measure(n: int, rounds: int) -> dict[str, list[float]]:
    found = apps()
    for app in found.values():
        await start(app)
        for request_id in range(300):
            await call(app, request_id)
    results: dict[str, list[float]] = {label: [] for label in found}
    for _ in range(rounds):
        for label, app in found.items():
            began = time.process_time()
            for request_id in range(n):
                await call(app, request_id)
            results[label].append((time.process_time() - began) / n * 1e6)
    return results


async def profile(n: int) -> None:
    import cProfile
    import pstats

    app = build(HOROLOGE)
    await start(app)
    for request_id in range(300):
        await call(app, request_id)
    profiler = cProfile.Profile()
    profiler.enable()
    for request_id in range(n):
        await call(app, request_id)
    profiler.disable()
    pstats.Stats(profiler).sort_stats(os.environ.get("SORT", "cumulative")).print_stats(
        int(os.environ.get("TOP", "40"))
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=2000, help="requests per round and app")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--era", choices=("modern", "legacy"), default="modern")
    parser.add_argument("--profile", action="store_true", help="cProfile horologe's app instead")
    args = parser.parse_args()
    global ERA
    ERA = args.era
    if args.profile:
        asyncio.run(profile(args.n))
        return 0
    results = asyncio.run(measure(args.n, args.rounds))
    floor = statistics.median(next(iter(results.values())))
    era = "2026-07-28" if ERA == "modern" else "2025-11-25"
    print(
        f"### In-process CPU per {era} tools/call on the full mix"
        f" (median of {args.rounds} interleaved rounds of {args.n})\n"
    )
    least = min(next(iter(results.values())))
    print("| app | µs per request | vs SDK floor | least of the rounds, µs | vs SDK floor |")
    print("|---|---|---|---|---|")
    for label, values in results.items():
        median = statistics.median(values)
        print(f"| {label} | {median:.0f} | {median / floor:.2f}x | {min(values):.0f} | {min(values) / least:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
