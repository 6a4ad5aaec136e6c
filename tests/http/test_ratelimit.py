"""Rate limits in process: moving windows (memory and Redis), headers, buckets, identities, an unreachable Redis."""

from __future__ import annotations

import contextlib
import shutil
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from limits import parse_many
from limits.aio.storage import MemoryStorage

from horologe.config import ConfigError, Settings, load_settings
from horologe.http.app import create_app
from horologe.http.ratelimit import ClientAddress, Counter, RefusedTokens, Verdict, close_storage, storage_for
from horologe.wire import RATE_LIMITED
from tests.asgi import running
from tests.e2e.conftest import free_port
from tests.e2e.test_http_sessions import HEADERS, INITIALIZE
from tests.e2e.test_ratelimit_redis import REDIS, Redis
from tests.http.auth.issuer import CLIENT_ID, CLIENT_SECRET, RESOURCE, Issuer, live_issuer

pytestmark = pytest.mark.anyio
CALL = {"name": "get_current_time", "arguments": {"timezone": "UTC"}}


# A whole minute, in the clock `limits` stamps window entries with: a window aligned to the clock would begin here.
MINUTE = 1_800_000_000.0


class StoreTime:
    """The clock the counter's store reads (`limits` stamps entries with time.time()), set and moved by the test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, start: float) -> None:
        self.now = start
        monkeypatch.setattr(time, "time", lambda: self.now)


@pytest.fixture
def store_time(monkeypatch: pytest.MonkeyPatch) -> StoreTime:
    return StoreTime(monkeypatch, MINUTE - 0.5)  # half a second before a minute boundary


@asynccontextmanager
async def limited(client_ip: str = "10.1.1.1", **rate_limit: Any) -> AsyncIterator[httpx2.AsyncClient]:
    section = {"enabled": True, **rate_limit}
    app = create_app(load_settings(overrides={"rate_limit": section, "http": {"access_log": False}}))
    async with running(app):
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
    assert refused.json()["error"]["code"] == RATE_LIMITED
    assert 'horologe_rate_limited_requests_total{route="/mcp/tools/call"} 1.0' in metrics


async def test_per_tool_and_per_method_rates_win_over_the_default():
    async with limited(
        default="100/minute", tools={"get_current_time": "1/minute"}, methods={"tools/call": "3/minute"}
    ) as c:
        tool = await statuses(c, 2)
        other = await statuses(c, 4, json={"name": "date_info", "arguments": {}})
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


async def test_several_limits_in_one_rate_all_apply(store_time: StoreTime):
    counter = Counter(MemoryStorage(), 1.0, 1.0)
    items = parse_many("2/second;4/minute")

    async def allowed() -> bool:
        verdict = await counter.hit("default", "ip:1", items, 1)
        assert verdict is not None
        return verdict.allowed

    results = [await allowed() for _ in range(3)]
    store_time.now += 1.5
    later = [await allowed() for _ in range(3)]
    store_time.now += 59.0  # 60.5 s after the first two: they have left the minute, the next two have not
    next_minute = [await allowed() for _ in range(3)]
    assert results == [True, True, False]  # the third fills no place in the minute
    assert later == [True, True, False]  # the minute's 4 are used up
    assert next_minute == [True, True, False]


async def admitted_over(counter: Counter, store_time: StoreTime, rate: str, seconds: float, step: float) -> list[float]:
    """One client asking every `step` seconds for `seconds`: the times it was let through."""
    items = parse_many(rate)
    admitted = []
    end = store_time.now + seconds
    while store_time.now < end:
        verdict = await counter.hit("default", "ip:203.0.113.1", items, 1)
        assert verdict is not None
        if verdict.allowed:
            admitted.append(store_time.now)
        store_time.now += step
    return admitted


def most_in_any_window(admitted: list[float], seconds: float) -> int:
    """The most admissions inside any window of `seconds` (closed at its start, open at its end)."""
    return max(sum(1 for other in admitted if start <= other < start + seconds) for start in admitted)


async def check_no_client_gets_twice_its_rate(counter: Counter, store_time: StoreTime) -> None:
    admitted = await admitted_over(counter, store_time, "5/minute", 200.0, 1.0)
    assert most_in_any_window(admitted, 60.0) == 5  # a fixed window would let 10 through across the boundary
    assert admitted[:5] == [MINUTE - 0.5 + n for n in range(5)]  # its first five, on both sides of it
    assert len(admitted) == 20  # and the rate itself, five in every 60 s, is still given


async def test_no_client_gets_twice_its_rate_across_a_window_boundary(store_time: StoreTime) -> None:
    await check_no_client_gets_twice_its_rate(Counter(MemoryStorage(), 1.0, 1.0), store_time)


async def test_the_reset_is_when_the_oldest_request_leaves_the_window(store_time: StoreTime) -> None:
    counter = Counter(MemoryStorage(), 1.0, 1.0)
    items = parse_many("2/minute")
    first = await counter.hit("default", "ip:1", items, 1)
    store_time.now += 20.0
    second = await counter.hit("default", "ip:1", items, 1)
    store_time.now += 10.0
    refused = await counter.hit("default", "ip:1", items, 1)
    assert first == Verdict(limit=2, remaining=1, reset=60, allowed=True)
    assert second == Verdict(limit=2, remaining=0, reset=40, allowed=True)
    assert refused == Verdict(limit=2, remaining=0, reset=30, allowed=False)  # the first leaves 60 s after it came
    store_time.now += 30.01
    assert await counter.hit("default", "ip:1", items, 1) == Verdict(limit=2, remaining=0, reset=20, allowed=True)


async def test_a_batch_takes_its_whole_cost_or_nothing(store_time: StoreTime) -> None:
    counter = Counter(MemoryStorage(), 1.0, 1.0)
    items = parse_many("3/minute")
    assert (await counter.hit("default", "ip:1", items, 2)) == Verdict(3, 1, 60, True)
    assert (await counter.hit("default", "ip:1", items, 2)) == Verdict(3, 1, 60, False)  # no room for two: none taken
    assert (await counter.hit("default", "ip:1", items, 1)) == Verdict(3, 0, 60, True)


async def test_the_request_limit_admits_no_more_across_a_minute_boundary(store_time: StoreTime):
    async with limited(default="3/minute") as client:
        before = await statuses(client, 3)
        store_time.now += 1.0  # the next minute on the clock
        after = await statuses(client, 3)
        store_time.now += 59.01  # just over 60 s after the first three
        a_minute_later = await statuses(client, 4)
    assert before == [200, 200, 200]
    assert after == [429, 429, 429]
    assert a_minute_later == [200, 200, 200, 429]


async def test_sessions_per_client_admit_no_more_across_a_minute_boundary(store_time: StoreTime):
    settings = load_settings(
        overrides={"http": {"stateful": True, "new_sessions_per_client": "2/minute", "access_log": False}}
    )
    app = create_app(settings)
    async with running(app):
        transport = httpx2.ASGITransport(app=app, client=("203.0.113.2", 1234))
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1:8080") as client:

            async def opened() -> list[int]:
                return [(await client.post("/mcp", json=INITIALIZE, headers=HEADERS)).status_code for _ in range(2)]

            before = await opened()
            store_time.now += 1.0
            after = await opened()
            store_time.now += 59.5
            later = await opened()
    assert before == [200, 200] and after == [429, 429] and later == [200, 200]


async def test_refused_tokens_are_counted_in_a_moving_window(store_time: StoreTime) -> None:
    counter = Counter(MemoryStorage(), 1.0, 1.0)
    refused = RefusedTokens(
        load_settings(overrides={"rate_limit": {"auth_failures": "3/minute"}}).rate_limit, counter, ClientAddress([])
    )
    for _ in range(2):
        await refused.count("203.0.113.3")
    store_time.now += 1.0  # the next minute on the clock
    await refused.count("203.0.113.3")
    blocked = refused.wait("203.0.113.3")
    assert blocked is not None and blocked.reset == 59  # until the first refusal leaves the window
    refused.blocked.clear()  # as another replica, which has not blocked it yet, sees the store
    assert (await counter.hit("auth_failures", "ip:203.0.113.3", refused.items, 1)) == Verdict(3, 0, 59, False)


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
    # A hang guard, not a speed target: a refused connection fails at once; the app's start-up under coverage on
    # a loaded machine has taken over 10 s.
    with anyio.fail_after(60):
        async with limited(default="1/minute", storage_uri=uri, fail_mode=mode) as client:
            results = await statuses(client, 5)
    assert results == [status] * 5


async def test_a_blackholed_redis_is_bounded_by_the_storage_timeout():
    # 192.0.2.0/24 is TEST-NET-1: connections go nowhere, so only our timeout ends the wait (the kernel's own
    # connect timeout is about two minutes, well past this guard).
    with anyio.fail_after(60):
        async with limited(default="1/minute", storage_uri="redis://192.0.2.1:6379/0", fail_mode="closed") as client:
            results = await statuses(client, 3)
    assert results == [503, 503, 503]  # within fail_after: the storage timeout ended each wait, not the OS's


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
        ({"auth_failures": "ten a minute"}, "rate_limit.auth_failures"),
    ],
)
def test_bad_rate_limit_config_fails_naming_the_key(section: dict[str, Any], named: str) -> None:
    with pytest.raises(ConfigError, match=named.replace(".", r"\.")):
        load_settings(overrides={"rate_limit": section})


# --- refused tokens per client address (auth on) -----------------------------------------------------------------


@pytest.fixture
def issuer() -> Iterator[Issuer]:
    with live_issuer("RS256") as issuer:
        yield issuer


def guarded_settings(issuer: Issuer, **rate_limit: Any) -> Settings:
    """Auth on with opaque tokens only (each unknown token costs an introspection call); rate-limit keys given."""
    auth = {
        "enabled": True,
        "issuer": issuer.url,
        "resource": RESOURCE,
        "introspection_endpoint": issuer.introspection_url,
        "introspection_client_id": CLIENT_ID,
        "introspection_client_secret": CLIENT_SECRET,
    }
    return load_settings(overrides={"auth": auth, "rate_limit": rate_limit, "http": {"access_log": False}})


@asynccontextmanager
async def clients(settings: Settings, *ips: str) -> AsyncIterator[list[httpx2.AsyncClient]]:
    """One client per address, all on one app (so they share its counters)."""
    app = create_app(settings)
    async with running(app), contextlib.AsyncExitStack() as stack:
        made = [
            await stack.enter_async_context(
                httpx2.AsyncClient(
                    transport=httpx2.ASGITransport(app=app, client=(ip, 1234)), base_url="http://127.0.0.1:8080"
                )
            )
            for ip in ips
        ]
        yield made


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_an_address_sending_refused_tokens_is_cut_off_before_any_more_introspection(issuer: Issuer):
    good = issuer.opaque_token()
    async with clients(guarded_settings(issuer, auth_failures="3/minute"), "203.0.113.7", "203.0.113.8") as (
        guesser,
        neighbour,
    ):
        guesses = [
            (await guesser.post("/mcp/tools/call", json=CALL, headers=bearer(f"guess{n}"))).status_code
            for n in range(3)
        ]
        assert issuer.introspections == 3
        blocked = await guesser.post("/mcp/tools/call", json=CALL, headers=bearer("guess3"))
        blocked_good = await guesser.post("/mcp/tools/call", json=CALL, headers=bearer(good))
        blocked_mcp = await guesser.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert issuer.introspections == 3  # nothing more reached the authorization server
        other = await neighbour.post("/mcp/tools/call", json=CALL, headers=bearer(good))
        health = await guesser.get("/healthz")
        metadata = await guesser.get("/.well-known/oauth-protected-resource/mcp")
        metrics = (await neighbour.get("/metrics", headers=bearer(good))).text
    assert guesses == [401, 401, 401]
    assert blocked.status_code == blocked_good.status_code == blocked_mcp.status_code == 429
    assert 1 <= int(blocked.headers["retry-after"]) <= 60 and blocked.headers["ratelimit-remaining"] == "0"
    assert "refused tokens" in blocked.json()["error"]["message"] and blocked.json()["error"]["code"] == RATE_LIMITED
    assert other.status_code == 200 and health.status_code == 200 and metadata.status_code == 200
    assert "horologe_auth_failure_limited_requests_total 3.0" in metrics


async def test_requests_without_a_token_and_good_tokens_are_never_counted(issuer: Issuer):
    good = issuer.opaque_token()
    async with clients(guarded_settings(issuer, auth_failures="2/minute"), "203.0.113.9") as (client,):
        anonymous = [(await client.post("/mcp/tools/call", json=CALL)).status_code for _ in range(5)]
        passing = [
            (await client.post("/mcp/tools/call", json=CALL, headers=bearer(good))).status_code for _ in range(5)
        ]
        malformed = [
            (await client.post("/mcp/tools/call", json=CALL, headers=bearer("bad token!"))).status_code
            for _ in range(3)
        ]
    assert anonymous == [401] * 5 and passing == [200] * 5
    assert malformed == [401, 401, 429]  # malformed tokens count too, though they never reach the issuer


async def test_an_empty_auth_failure_rate_turns_the_limit_off(issuer: Issuer):
    async with clients(guarded_settings(issuer, auth_failures=""), "203.0.113.10") as (client,):
        got = [
            (await client.post("/mcp/tools/call", json=CALL, headers=bearer(f"x{n}"))).status_code for n in range(40)
        ]
    assert got == [401] * 40 and issuer.introspections == 40


async def test_an_unreachable_store_lets_the_token_check_decide(issuer: Issuer):
    uri = f"redis://127.0.0.1:{free_port()}/0"
    # A hang guard, not a speed target: a refused connection fails at once; the app's start-up under coverage on
    # a loaded machine has taken over 10 s.
    with anyio.fail_after(60):
        async with clients(guarded_settings(issuer, auth_failures="1/minute", storage_uri=uri), "203.0.113.11") as (
            client,
        ):
            got = [
                (await client.post("/mcp/tools/call", json=CALL, headers=bearer(f"x{n}"))).status_code for n in range(3)
            ]
    assert got == [401, 401, 401]


@pytest.fixture
def redis() -> Iterator[Redis]:
    if shutil.which("redis-server") is None and not Path(REDIS).exists():
        pytest.skip("redis-server is not installed (.ci/run installs it)")
    server = Redis()
    server.start()
    yield server
    server.kill()


@pytest.mark.e2e
async def test_no_client_gets_twice_its_rate_across_a_window_boundary_on_redis(redis: Redis, store_time: StoreTime):
    storage = storage_for(f"redis://127.0.0.1:{redis.port}/0", 5.0)
    try:
        await check_no_client_gets_twice_its_rate(Counter(storage, 5.0, 1.0), store_time)
    finally:
        await close_storage(storage)


@pytest.mark.e2e
async def test_replicas_sharing_redis_each_block_at_their_next_refusal(issuer: Issuer, redis: Redis):
    settings = guarded_settings(issuer, auth_failures="3/minute", storage_uri=f"redis://127.0.0.1:{redis.port}/0")
    ip = "198.51.100.77"
    async with clients(settings, ip) as (first,), clients(settings, ip) as (second,):
        on_first = [
            (await first.post("/mcp/tools/call", json=CALL, headers=bearer(f"g{n}"))).status_code for n in range(4)
        ]
        on_second = [
            (await second.post("/mcp/tools/call", json=CALL, headers=bearer(f"h{n}"))).status_code for n in range(3)
        ]
    assert on_first == [401, 401, 401, 429]
    assert on_second == [401, 429, 429]  # the count is shared: one check to learn it, then blocked
    assert issuer.introspections == 4


async def test_a_refusal_on_mcp_speaks_the_language_its_meta_asked_for():
    german = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "ping",
        "params": {"_meta": {"io.modelcontextprotocol/acceptLanguage": "de"}},
    }
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    async with limited(default="1/minute") as client:
        await client.post("/mcp", json=german, headers=headers)
        refused = await client.post("/mcp", json=german, headers=headers)
    assert refused.status_code == 429 and refused.headers["content-language"] == "de"
    assert refused.json()["error"]["message"].startswith("Zu viele Anfragen")
