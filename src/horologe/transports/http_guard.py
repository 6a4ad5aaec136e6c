"""HTTP edge protection: Host/Origin allow-lists, body size and JSON depth limits, request timeouts.

Every check answers with a clear status and, where the caller speaks JSON-RPC, a JSON-RPC error body.
The parsed JSON body is left in `scope["state"]["horologe.payload"]` for the routes behind.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import json
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from horologe.core.client_context import TOP_LEVEL_MEMBER, lift_client_context

logger = logging.getLogger("horologe.http")

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
PAYLOAD_KEY = "horologe.payload"
# Set by the bearer gate when it refused a presented token; the auth-failure limit counts these.
TOKEN_REFUSED_KEY = "horologe.token_refused"
JSON_BODY_PATHS = ("/mcp",)


def is_loopback(host: str) -> bool:
    """Whether a bind address only accepts connections from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True, slots=True)
class AccessPolicy:
    """Which Host and Origin header values are accepted ('*' accepts any; 'name:*' any port)."""

    hosts: tuple[str, ...]
    origins: tuple[str, ...]

    @classmethod
    def for_bind(cls, bind_host: str, hosts: Iterable[str], origins: Iterable[str]) -> AccessPolicy:
        """The configured lists, or localhost defaults when bound to loopback; refuses a public bind without a list."""
        hosts, origins = tuple(hosts), tuple(origins)
        if not hosts:
            if not is_loopback(bind_host):
                raise ValueError(
                    f"binding to {bind_host} needs an explicit Host allow-list so DNS-rebinding protection stays on: "
                    "pass --allowed-host api.example.com (repeatable) or set HOROLOGE_HTTP__ALLOWED_HOSTS='[\"...\"]'; "
                    "use '*' only behind a proxy that checks Host itself"
                )
            hosts = LOOPBACK_HOSTS
        if not origins:
            origins = tuple(f"{scheme}://{host}:*" for host in hosts if host != "*" for scheme in ("http", "https"))
        return cls(hosts, origins)

    def host_allowed(self, value: str | None) -> bool:
        """Whether a Host header is on the list."""
        return value is not None and _allowed(value.lower(), self.hosts)

    def origin_allowed(self, value: str) -> bool:
        """Whether an Origin header is on the list."""
        return _allowed(value.lower(), self.origins)


@functools.lru_cache(maxsize=4096)
def _allowed(value: str, patterns: tuple[str, ...]) -> bool:
    """Whether a value matches a list (cached: the same few Host and Origin values arrive on every request)."""
    return any(_matches(value, pattern.lower()) for pattern in patterns)


def _matches(value: str, pattern: str) -> bool:
    if pattern == "*":
        return True
    if pattern.endswith(":*"):
        base = pattern[:-2]
        return value == base or (value.startswith(base + ":") and value[len(base) + 1 :].isdigit())
    if value == pattern:
        return True
    # A pattern without a port accepts that host on any port.
    return (
        ":" not in pattern.rsplit("]", 1)[-1] and value.startswith(pattern + ":") and value.rsplit(":", 1)[1].isdigit()
    )


def json_error(code: int, message: str, request_id: Any = None) -> bytes:
    """A JSON-RPC error response body."""
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}).encode()


async def respond(send: Send, status: int, body: bytes, headers: Iterable[tuple[bytes, bytes]] = ()) -> None:
    """Send a complete JSON response."""
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *headers],
        }
    )
    await send({"type": "http.response.body", "body": body})


def close_on_shutdown(send: Send, close: Callable[[], Awaitable[None]]) -> Send:
    """A lifespan `send` that runs `close` (a middleware's clients) before the server is told shutdown is complete."""

    async def closing_send(message: Message) -> None:
        if message["type"] == "lifespan.shutdown.complete":
            await close()
        await send(message)

    return closing_send


def header(scope: Scope, name: bytes) -> str | None:
    """The first value of a request header, decoded as latin-1."""
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


class HostOriginGuard:
    """DNS-rebinding protection on every route: 421 for a foreign Host, 403 for a foreign Origin."""

    def __init__(self, app: ASGIApp, policy: AccessPolicy, public_paths: Iterable[str] = ()) -> None:
        self.app = app
        self.policy = policy
        self.public_paths = frozenset(public_paths)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in self.public_paths:
            await self.app(scope, receive, send)
            return
        host = header(scope, b"host")
        if not self.policy.host_allowed(host):
            logger.warning("refused Host %r on %s", (host or "")[:100], scope["path"])
            await respond(send, 421, json_error(-32600, "Misdirected request: this Host is not served here."))
            return
        origin = header(scope, b"origin")
        if origin is not None and not self.policy.origin_allowed(origin):
            logger.warning("refused Origin %r on %s", origin[:100], scope["path"])
            await respond(send, 403, json_error(-32600, "Forbidden: requests from this Origin are not allowed."))
            return
        await self.app(scope, receive, send)


class BodyGuard:
    """POST bodies on /mcp routes: bounded size, valid JSON, bounded nesting; the parsed body goes to the state."""

    def __init__(self, app: ASGIApp, max_bytes: int, max_depth: int) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.max_depth = max_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or not scope["path"].startswith(JSON_BODY_PATHS):
            await self.app(scope, receive, send)
            return
        declared = header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await respond(send, 413, json_error(-32600, f"Request body larger than {self.max_bytes} bytes."))
            return
        body = await self._read(receive)
        if body is None:
            await respond(send, 413, json_error(-32600, f"Request body larger than {self.max_bytes} bytes."))
            return
        try:
            # JSON over HTTP is UTF-8 (RFC 8259 §8.1); decoding first skips json.loads' encoding sniffing, which
            # cost as much as the parse itself. Other encodings and invalid UTF-8 are a parse error.
            payload = json.loads(body.decode())
        except (ValueError, RecursionError):
            await respond(send, 400, json_error(-32700, "Parse error: the body is not valid JSON."))
            return
        # Counting brackets is cheap and bounds the depth from above; walk the tree only when it might be deep.
        brackets = body.count(b"{") + body.count(b"[")
        if brackets > self.max_depth and _depth(payload, self.max_depth) > self.max_depth:
            await respond(send, 400, json_error(-32600, f"Invalid Request: JSON nested deeper than {self.max_depth}."))
            return
        if isinstance(payload, dict) and TOP_LEVEL_MEMBER in payload and "method" in payload:
            # SEP-1809's top-level clientContext would be dropped by the SDK's parser: move it into params._meta.
            body = json.dumps(lift_client_context(payload)).encode()
        scope.setdefault("state", {})[PAYLOAD_KEY] = payload
        await self.app(scope, _replay(body, receive), send)

    async def _read(self, receive: Receive) -> bytes | None:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)


def _depth(value: Any, limit: int) -> int:
    """Nesting depth of a JSON value, counted without recursion and stopping past `limit`."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict | list):
            deepest = max(deepest, level)
            if deepest > limit:
                return deepest
            children = node.values() if isinstance(node, dict) else node
            stack.extend((child, level + 1) for child in children)
    return deepest


def _replay(body: bytes, receive: Receive) -> Receive:
    """Hand the buffered body to the app once, then pass the connection's own events (disconnect) through."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


class Timeout:
    """Bound the time to the start of a response; a request that overruns gets 504 (or is cut if streaming).

    One watchdog task per event loop looks at the running requests' deadlines a few times per timeout and cancels
    the ones that overran, so a request may run up to a quarter of the timeout (at most 1 s) longer. A timer per
    request (`asyncio.timeout`) cost about 3% of a request's CPU; this costs a set insertion.
    """

    def __init__(self, app: ASGIApp, seconds: float) -> None:
        self.app = app
        self.seconds = seconds
        self.tick = min(1.0, seconds / 4)
        self._running: set[_Deadline] = set()
        self._watchdog: asyncio.Task[None] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        task, loop = asyncio.current_task(), asyncio.get_running_loop()
        assert task is not None  # uvicorn runs every request in its own task
        cancelling = task.cancelling()
        deadline = _Deadline(task, loop.time() + self.seconds)
        self._running.add(deadline)
        self._keep_watch(loop)
        try:
            await self.app(scope, receive, tracking_send)
        except asyncio.CancelledError:
            if not deadline.overran or task.uncancel() > cancelling:  # someone else cancelled it too: let it go
                raise
            logger.warning("request to %s timed out after %.1fs", scope["path"], self.seconds)
            if not started:
                await respond(send, 504, json_error(-32603, "The request took too long and was stopped."))
        finally:
            self._running.discard(deadline)

    def _keep_watch(self, loop: asyncio.AbstractEventLoop) -> None:
        watchdog = self._watchdog
        if watchdog is None or watchdog.done() or watchdog.get_loop() is not loop:
            self._watchdog = loop.create_task(self._watch(loop))

    async def _watch(self, loop: asyncio.AbstractEventLoop) -> None:
        # Ends once no request is running, so an idle server (or a finished test) leaves no task behind.
        while self._running:
            await asyncio.sleep(self.tick)
            now = loop.time()
            for deadline in [d for d in self._running if d.at <= now and not d.overran]:
                deadline.overran = True
                deadline.task.cancel()


@dataclass(slots=True, eq=False)
class _Deadline:
    task: asyncio.Task[Any]
    at: float
    overran: bool = False
