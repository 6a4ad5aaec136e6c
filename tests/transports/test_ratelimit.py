"""Rate limits in process: memory storage, headers, buckets, identities, and an unreachable Redis."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import anyio
import httpx2
import pytest
from limits import parse_many
from limits.aio.storage import MemoryStorage

from horologe.config import ConfigError, load_settings
from horologe.transports.http import create_app
from horologe.transports.ratelimit import ClientAddress, Coalescer, Counter
from tests.e2e.conftest import free_port

pytestmark = pytest.mark.anyio
CALL = {"name": "get_current_time", "arguments": {"timezone": "UTC"}}


@asynccontextmanager
async def limited(client_ip: str = "10.1.1.1", **rate_limit: Any) -> AsyncIterator[httpx2.AsyncClient]:
    section = {"enabled": True, **rate_limit}
    app = create_app(load_settings(overrides={"rate_limit": section, "http": {"access_log": False}}))
    async with app.router.lifespan_context(app):
        transport = httpx2.ASGITransport(app=app, client=(client_ip, 1234))
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1:8080") as client:
            yield client


async def statuses(
    client: httpx2.AsyncClient, count: int, path: str = "/mcp/tools/call", json: object = CALL, **kwargs: Any
) -> list[int]:
    return [(await client.post(path, json=json, **kwargs)).status_code for _ in range(count)]


async def test_the_default_rate_refuses_with_429_and_headers():
    async with limited(default="3/minute") as client:
        first = await client.post("/mcp/tools/call", json=CALL)
        assert await statuses(client, 2) == [200, 200]
        refused = await client.post("/mcp/tools/call", json=CALL)
        metrics = (await client.get("/metrics")).text
    assert first.headers["ratelimit-limit"] == "3" and first.headers["ratelimit-remaining"] == "2"
    assert 1 <= int(first.headers["ratelimit-reset"]) <= 60
    assert refused.status_code == 429 and refused.headers["ratelimit-remaining"] == "0"
    assert refused.headers["retry-after"] == refused.headers["ratelimit-reset"]
    assert refused.json()["error"]["code"] == -32000
    assert 'horologe_rate_limited_requests_total{route="/mcp/tools/call"} 1.0' in metrics


async def test_per_tool_and_per_method_rates_win_over_the_default():
    async with limited(
        default="100/minute", tools={"get_current_time": "1/minute"}, methods={"tools/call": "3/minute"}
    ) as c:
        tool = await statuses(c, 2)
        other = await statuses(c, 4, json={"name": "list_timezones", "arguments": {}})
        mcp = await statuses(
            c,
            2,
            path="/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": CALL},
            headers={"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"},
        )
    assert tool == [200, 429]
    assert other == [200, 200, 200, 429]
    assert mcp == [429, 429]  # /mcp and REST share the tool's counter


class ManualClock:
    def __init__(self, timestamp: float) -> None:
        self.timestamp = timestamp

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.timestamp, UTC)


async def test_several_limits_in_one_rate_all_apply_in_clock_aligned_windows():
    clock = ManualClock(1_800_000_000.0)  # a whole minute
    counter = Counter(MemoryStorage(), 1.0, 1.0, clock)
    items = parse_many("2/second;4/minute")

    async def allowed() -> bool:
        verdict = await counter.hit("default", "ip:1", items, 1)
        assert verdict is not None
        return verdict.allowed

    results = [await allowed() for _ in range(3)]
    clock.timestamp += 1.0
    later = await allowed()
    final = await allowed()
    clock.timestamp += 59.0
    next_minute = await allowed()
    assert results == [True, True, False] and later is True
    assert final is False  # the minute's 4 are used up (refused requests count too)
    assert next_minute is True


async def test_health_metrics_and_metadata_are_never_limited():
    async with limited(default="1/minute") as client:
        got = [(await client.get(path)).status_code for path in ("/healthz", "/readyz", "/metrics") for _ in range(3)]
    assert set(got) == {200}


async def test_clients_are_counted_apart_by_ip():
    async with limited("10.0.0.1", default="1/minute") as first, limited("10.0.0.2", default="1/minute") as second:
        assert await statuses(first, 2) == [200, 429]
        assert await statuses(second, 1) == [200]


def scope(peer: str, *forwarded: str) -> dict[str, Any]:
    return {"client": (peer, 1), "headers": [(b"x-forwarded-for", value.encode()) for value in forwarded]}


def test_forwarded_for_is_believed_only_from_trusted_proxies() -> None:
    addresses = ClientAddress(["10.0.0.0/8", "::1"])
    assert ClientAddress([]).of(scope("10.0.0.5", "1.2.3.4")) == "10.0.0.5"
    assert addresses.of(scope("203.0.113.9", "1.2.3.4")) == "203.0.113.9"  # the peer is no proxy of ours
    assert addresses.of(scope("10.0.0.5", "6.6.6.6, 1.2.3.4")) == "1.2.3.4"  # spoofed left part ignored
    assert addresses.of(scope("10.0.0.5", "6.6.6.6", "1.2.3.4, 10.0.0.7")) == "1.2.3.4"
    assert addresses.of(scope("10.0.0.5", "junk, 1.2.3.4")) == "1.2.3.4"
    assert addresses.of(scope("10.0.0.5", "1.2.3.4, junk")) == "10.0.0.5"
    assert addresses.of(scope("10.0.0.5")) == "10.0.0.5" and addresses.of(scope("10.0.0.5", "10.0.0.6")) == "10.0.0.6"
    assert addresses.of({"client": None, "headers": []}) == "unknown"


async def test_trusted_proxy_clients_are_limited_by_their_forwarded_address():
    async with limited("127.0.0.1", default="1/minute", trusted_proxies=["127.0.0.1"]) as client:
        a = await statuses(client, 2, headers={"X-Forwarded-For": "198.51.100.1"})
        b = await statuses(client, 1, headers={"X-Forwarded-For": "198.51.100.2"})
    assert a == [200, 429] and b == [200]


@pytest.mark.parametrize(("mode", "status"), [("open", 200), ("closed", 503)])
async def test_an_unreachable_redis_fails_in_the_configured_mode_without_hanging(mode: str, status: int):
    uri = f"redis://127.0.0.1:{free_port()}/0"
    started = time.monotonic()
    with anyio.fail_after(10):
        async with limited(default="1/minute", storage_uri=uri, fail_mode=mode) as client:
            results = await statuses(client, 5)
    assert results == [status] * 5
    assert time.monotonic() - started < 5


async def test_a_blackholed_redis_is_bounded_by_the_storage_timeout():
    # 192.0.2.0/24 is TEST-NET-1: connections go nowhere, so only our timeout ends the wait.
    started = time.monotonic()
    with anyio.fail_after(10):
        async with limited(default="1/minute", storage_uri="redis://192.0.2.1:6379/0", fail_mode="closed") as client:
            results = await statuses(client, 3)
    assert results == [503, 503, 503] and time.monotonic() - started < 3


@pytest.mark.parametrize(
    ("section", "named"),
    [
        ({"default": "lots"}, "rate_limit.default"),
        ({"tools": {"t": "5 per fortnight"}}, "rate_limit.tools"),
        ({"methods": {"tools/list": ""}}, "rate_limit.methods"),
        ({"trusted_proxies": ["10.0.0.0/33"]}, "rate_limit.trusted_proxies"),
        ({"storage_uri": "memcached://x:1"}, "rate_limit.storage_uri"),
        ({"storage_uri": "redis://"}, "rate_limit.storage_uri"),
        ({"fail_mode": "sideways"}, "rate_limit.fail_mode"),
        ({"storage_timeout_seconds": 0}, "rate_limit.storage_timeout_seconds"),
    ],
)
def test_bad_rate_limit_config_fails_naming_the_key(section: dict, named: str) -> None:
    with pytest.raises(ConfigError, match=named.replace(".", r"\.")):
        load_settings(overrides={"rate_limit": section})


class SlowCountingStorage(MemoryStorage):
    """Memory storage whose increments take a moment and are counted, so concurrent callers pile up."""

    def __init__(self) -> None:
        super().__init__()
        self.trips = 0

    async def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        self.trips += 1
        await anyio.sleep(0.01)
        return await super().incr(key, expiry, amount=amount)


@pytest.mark.anyio
async def test_concurrent_hits_share_round_trips_and_keep_exact_counts() -> None:
    storage = SlowCountingStorage()
    coalescer = Coalescer(storage)
    counts: list[int] = []

    async def hit() -> None:
        counts.append(await coalescer.incr("k", 60, 1))

    async with anyio.create_task_group() as tasks:
        for _ in range(50):
            tasks.start_soon(hit)
    assert sorted(counts) == list(range(1, 51))
    assert storage.trips < 10
    assert await coalescer.incr("k", 60, 2) == 52


@pytest.mark.anyio
async def test_a_failed_trip_fails_every_caller_waiting_on_it() -> None:
    class Broken(MemoryStorage):
        async def incr(self, key: str, expiry: int, amount: int = 1) -> int:
            await anyio.sleep(0.01)
            raise ConnectionError("store down")

    coalescer = Coalescer(Broken())
    failures: list[str] = []

    async def hit() -> None:
        try:
            await coalescer.incr("k", 60, 1)
        except ConnectionError as exc:
            failures.append(str(exc))

    async with anyio.create_task_group() as tasks:
        for _ in range(5):
            tasks.start_soon(hit)
    assert failures == ["store down"] * 5
