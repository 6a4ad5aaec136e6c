"""Rate limits for the HTTP transport, counted with the `limits` library in memory or in Redis (shared by replicas).

Who: the token's subject when auth is on, else the client IP (X-Forwarded-For is believed only from
`trusted_proxies`). What: each operation counts against the most specific rate configured for it (its tool, else its
MCP method, else the default). How: a moving window (`limits`' moving-window strategy; on Redis an atomic script
takes the place and another reads the window), so "N/minute" admits at most N in any 60 seconds, never 2N across a
minute boundary as windows aligned to the clock would. A refused request takes no place in the window.

Answers: 429 with Retry-After and RateLimit-Limit/-Remaining/-Reset (the latter two on every limited response).
If the store is unreachable: `fail_mode="open"` lets requests through (one warning per outage), `"closed"`
answers 503. Every store call is bounded by `storage_timeout_seconds`; after a failure the store is left alone
for `retry_seconds`, then tried again, so the server recovers by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import ipaddress
import logging
import math
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from horologe.config import RateLimitSection
from horologe.http.asgi import TOKEN_REFUSED_KEY, refuse
from horologe.http.errors import RateLimited, RateLimitUnavailable, TooManyRefusedTokens
from horologe.http.request import facts_of, operations
from horologe.protocol.metrics import Metrics

logger = logging.getLogger("horologe.ratelimit")
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True, slots=True)
class Verdict:
    """The tightest limit a request met: its size, what is left, seconds to reset, and whether it passed."""

    limit: int
    remaining: int
    reset: int
    allowed: bool

    def headers(self) -> list[tuple[bytes, bytes]]:
        """RateLimit-* headers (IETF draft), plus Retry-After when refused."""
        headers = [
            (b"ratelimit-limit", str(self.limit).encode()),
            (b"ratelimit-remaining", str(self.remaining).encode()),
            (b"ratelimit-reset", str(self.reset).encode()),
        ]
        return headers if self.allowed else [*headers, (b"retry-after", str(self.reset).encode())]


class Rates:
    """The configured rates, resolved per operation: tool, else method, else default."""

    def __init__(self, section: RateLimitSection) -> None:
        self.default = parse_many(section.default) if section.default.strip() else []
        self.methods = {name: parse_many(rate) for name, rate in section.methods.items()}
        self.tools = {name: parse_many(rate) for name, rate in section.tools.items()}

    def bucket(self, method: str, tool: str | None) -> tuple[str, list[RateLimitItem]]:
        """The counter name and limits for one operation."""
        if tool is not None and tool in self.tools:
            return f"tool:{tool}", self.tools[tool]
        if method in self.methods:
            return f"method:{method}", self.methods[method]
        return "default", self.default


class ClientAddress:
    """The caller's IP: the peer, or the right-most X-Forwarded-For hop not added by one of our trusted proxies."""

    def __init__(self, trusted: Iterable[str]) -> None:
        self.trusted: tuple[Network, ...] = tuple(ipaddress.ip_network(net, strict=False) for net in trusted)

    def of(self, scope: Scope) -> str:
        """The client address for this request."""
        peer = str((scope.get("client") or ("unknown", 0))[0])
        if not self.trusted or not self._is_trusted(peer):
            return peer
        forwarded = ",".join(value.decode("latin-1") for key, value in scope["headers"] if key == b"x-forwarded-for")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        address = peer
        for hop in reversed(hops):
            if not _is_ip(hop):
                return address  # garbage from a client; the last address our proxies vouch for stands
            address = hop
            if not self._is_trusted(hop):
                return hop
        return address

    def identity(self, scope: Scope) -> str:
        """Who a request counts against: the token's subject when it carries one, else the client address."""
        user = scope.get("user")
        token = getattr(user, "access_token", None)
        principal = f"sub:{token.subject or token.client_id}" if token else f"ip:{self.of(scope)}"
        if len(principal) > 80:
            principal = "h:" + hashlib.blake2s(principal.encode()).hexdigest()
        return principal

    def _is_trusted(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.trusted)


def _is_ip(value: str) -> bool:
    try:
        ipaddress.ip_address(value)
    except ValueError:
        return False
    return True


class StoreUnavailable(Exception):
    """The counter store did not answer in time or refused the connection."""


class Counter:
    """Moving windows counted in a `limits` storage, with a bounded wait and a pause after failures."""

    def __init__(self, storage: Storage, timeout: float, retry_seconds: float) -> None:
        self.storage = storage
        self.strategy = MovingWindowRateLimiter(storage)
        self.timeout = timeout
        self.retry_seconds = retry_seconds
        self._paused_until = 0.0
        self.failing = False

    async def hit(self, bucket: str, identity: str, items: list[RateLimitItem], cost: int) -> Verdict | None:
        """Count `cost` against every limit of the bucket; the tightest verdict, or None when there are no limits.

        Each limit takes the whole cost or, when its window has no room for it, nothing; the shortest windows are
        asked first and the first refusal ends the count, so a refused request fills no longer window (once the
        shorter ones let it through, only a refusal by a longer one leaves it counted in the shorter ones)."""
        if not items:
            return None
        if time.monotonic() < self._paused_until:
            raise StoreUnavailable("paused after a failure")
        verdicts = []
        try:
            async with asyncio.timeout(self.timeout):
                for item in sorted(items, key=lambda item: item.get_expiry()):
                    allowed = await self.strategy.hit(item, bucket, identity, cost=cost)
                    stats = await self.strategy.get_window_stats(item, bucket, identity)
                    # When the oldest entry leaves the window: `limits` stamps entries with time.time(), so this
                    # reads the same clock (a Clock's instant could disagree with the store's by a tick).
                    reset = max(1, math.ceil(stats.reset_time - time.time()))  # noqa: TID251
                    verdicts.append(Verdict(item.amount, max(0, stats.remaining), reset, allowed))
                    if not allowed:
                        break
        except Exception as exc:  # the store's own errors, timeouts, refused connections: all mean "unavailable"
            self._paused_until = time.monotonic() + self.retry_seconds
            if not self.failing:
                logger.warning(
                    "rate-limit store unreachable (%s); retrying every %.1fs", type(exc).__name__, self.retry_seconds
                )
            self.failing = True
            raise StoreUnavailable(type(exc).__name__) from None
        if self.failing:
            logger.warning("rate-limit store reachable again; limits apply")
            self.failing = False
        refused = [verdict for verdict in verdicts if not verdict.allowed]
        return min(refused or verdicts, key=lambda verdict: (verdict.remaining, -verdict.reset))


def counter_for(section: RateLimitSection) -> Counter:
    """The counter an app's limits share: the section's store (memory or Redis) and timeouts."""
    timeout = section.storage_timeout_seconds
    return Counter(storage_for(section.storage_uri, timeout), timeout, section.retry_seconds)


def storage_for(uri: str, timeout: float) -> Storage:
    """Memory storage, or Redis (redis-py's asyncio client) with short socket timeouts and no retries."""
    if uri == "memory://":
        return MemoryStorage()
    options: dict[str, Any] = {"socket_timeout": timeout, "socket_connect_timeout": timeout, "retry_on_timeout": False}
    return RedisStorage(uri, implementation="redispy", wrap_exceptions=True, **options)


async def close_storage(storage: Storage) -> None:
    """Close a Redis storage's connection pool (memory storage holds nothing to close)."""
    client = getattr(getattr(storage, "bridge", None), "storage", None)  # limits keeps the redis client there
    if client is not None and hasattr(client, "aclose"):
        with contextlib.suppress(Exception):  # shutting down: an unreachable Redis must not stop the shutdown
            await client.aclose()


class Limiter:
    """The request rate limit: the configured rates, the counter and how callers are told apart. Made once by the
    app factory and shared by every route that is limited (route middleware never sees the lifespan, so what must
    outlive a request lives here)."""

    def __init__(
        self, section: RateLimitSection, counter: Counter, addresses: ClientAddress, metrics: Metrics | None = None
    ) -> None:
        self.rates = Rates(section)
        self.fail_closed = section.fail_mode == "closed"
        self.counter = counter
        self.addresses = addresses
        self.metrics = metrics

    async def check(self, scope: Scope, performs: str | None) -> Verdict | None:
        """Count a request's operations; the tightest verdict, or None when no limit applies."""
        identity = self.addresses.identity(scope)
        costs: dict[str, tuple[list[RateLimitItem], int]] = {}
        facts = facts_of(scope)
        for operation in facts.operations if facts is not None else operations(None, performs):
            bucket, items = self.rates.bucket(operation.method, operation.tool)
            costs[bucket] = (items, costs.get(bucket, (items, 0))[1] + 1)
        verdicts = [await self.counter.hit(bucket, identity, items, cost) for bucket, (items, cost) in costs.items()]
        found = [verdict for verdict in verdicts if verdict is not None]
        refused = [verdict for verdict in found if not verdict.allowed]
        return min(refused or found, key=lambda verdict: verdict.remaining) if found else None


class RateLimit:
    """A limited route: count each request, add RateLimit-* headers, refuse with 429 (or 503 when failing closed).

    `label` names the route in the refusal counter; `performs` is the MCP method of a REST route without a body.
    """

    def __init__(self, app: ASGIApp, limiter: Limiter, label: str, performs: str | None = None) -> None:
        self.app = app
        self.limiter = limiter
        self.label = label
        self.performs = performs

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limiter = self.limiter
        try:
            verdict = await limiter.check(scope, self.performs)
        except StoreUnavailable:
            if limiter.fail_closed:
                await refuse(send, RateLimitUnavailable(), headers=[(b"retry-after", b"1")], scope=scope)
                return
            verdict = None
        if verdict is None:
            await self.app(scope, receive, send)
            return
        if not verdict.allowed:
            if limiter.metrics is not None:
                limiter.metrics.rate_limited.labels(self.label).inc()
            await refuse(send, RateLimited(seconds=verdict.reset), headers=verdict.headers(), scope=scope)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *verdict.headers()]
            await send(message)

        await self.app(scope, receive, send_with_headers)


class RefusedTokens:
    """Refused tokens per client IP: a client that sent too many is blocked before any token is looked at.

    Every refused token (malformed, bad signature, unknown to introspection, expired, foreign) counts against
    `rate_limit.auth_failures` for the caller's IP, in the shared store. The refusal that uses up the limit blocks
    the address in this process until its oldest counted refusal leaves the window: its requests to protected routes
    are then refused before any token is looked at, so guessing tokens cannot turn into one introspection call (or
    JWKS refetch) each. Other replicas block it at their own next refusal. Passing requests cost no store round
    trip, and requests without a token are not counted (they cost nothing, and clients start OAuth discovery with
    one). When the store is unreachable the token check decides alone (the request rate limit has its own fail
    mode). One object, made by the app factory, for every protected route.
    """

    MAX_BLOCKED = 65536  # addresses held at once; expired ones are dropped first

    def __init__(
        self, section: RateLimitSection, counter: Counter, addresses: ClientAddress, metrics: Metrics | None = None
    ) -> None:
        self.items = parse_many(section.auth_failures)
        self.counter = counter
        self.addresses = addresses
        self.metrics = metrics
        self.blocked: dict[str, tuple[float, int]] = {}  # address -> (monotonic deadline, limit)

    def wait(self, identity: str) -> Verdict | None:
        """The refusal for a blocked address (None when it may pass)."""
        blocked = self.blocked.get(identity)
        if blocked is None:
            return None
        wait = math.ceil(blocked[0] - time.monotonic())
        if wait > 0:
            return Verdict(blocked[1], 0, wait, False)
        del self.blocked[identity]
        return None

    async def count(self, identity: str) -> None:
        """Count one refused token of an address; block it once it used up its limit."""
        with contextlib.suppress(StoreUnavailable):
            verdict = await self.counter.hit("auth_failures", f"ip:{identity}", self.items, 1)
            if verdict is not None and verdict.remaining == 0:
                if len(self.blocked) >= self.MAX_BLOCKED:
                    now = time.monotonic()
                    self.blocked = {key: value for key, value in self.blocked.items() if value[0] > now}
                if len(self.blocked) < self.MAX_BLOCKED:
                    self.blocked[identity] = (time.monotonic() + verdict.reset, verdict.limit)


class AuthFailureLimit:
    """A protected route, in front of the bearer gate: an address that sent too many refused tokens gets 429."""

    def __init__(self, app: ASGIApp, refused: RefusedTokens) -> None:
        self.app = app
        self.refused = refused

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refused = self.refused
        identity = refused.addresses.of(scope)
        verdict = refused.wait(identity)
        if verdict is not None:
            if refused.metrics is not None:
                refused.metrics.auth_failure_limited.inc()
            await refuse(send, TooManyRefusedTokens(seconds=verdict.reset), headers=verdict.headers(), scope=scope)
            return
        await self.app(scope, receive, send)
        if scope.get("state", {}).get(TOKEN_REFUSED_KEY):
            await refused.count(identity)
