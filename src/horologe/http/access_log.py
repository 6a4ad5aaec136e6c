"""The access log: one JSON line per HTTP request on stderr (id, method, path, status, duration; never headers or
query strings), in the shape of every other log line (`horologe.logs`), and the HTTP request counters."""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from horologe.http.asgi import header
from horologe.http.request import CLIENT_GONE_KEY, facts_of
from horologe.jsontext import compact_json
from horologe.logs import timestamp
from horologe.protocol.metrics import Metrics

CLIENT_GONE = 499
"""What the log and metrics say of a request whose client went away before its answer (nginx's code)."""
REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


class AccessLog:
    """One JSON line per request on stderr: id, method, path, status, duration; never headers or query strings."""

    def __init__(self, app: ASGIApp, metrics: Metrics, client_of: Callable[[Scope], str], enabled: bool = True) -> None:
        self.app = app
        self.metrics = metrics
        self.enabled = enabled
        self.client_of = client_of
        """Who the line names as the client: the rate limits' reading (`X-Forwarded-For` from trusted proxies)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        supplied = header(scope, b"x-request-id")
        request_id = supplied if supplied and REQUEST_ID.match(supplied) else new_request_id()
        status = 500
        responded = False
        started = time.perf_counter()

        async def tagged_send(message: Message) -> None:
            nonlocal status, responded
            if message["type"] == "http.response.start":
                status, responded = message["status"], True
                message["headers"] = [*message.get("headers", []), (b"x-request-id", request_id.encode())]
            await send(message)

        self.metrics.in_flight.inc()
        try:
            await self.app(scope, receive, tagged_send)
        finally:
            self.metrics.in_flight.dec()
            if not responded and scope.get("state", {}).get(CLIENT_GONE_KEY):
                status = CLIENT_GONE
            duration = time.perf_counter() - started
            route = route_label(scope)
            self.metrics.count_http(route, scope["method"], status)
            if self.enabled:
                self._log(scope, request_id, status, duration)

    def _log(self, scope: Scope, request_id: str, status: int, duration: float) -> None:
        facts = facts_of(scope)
        path = scope["path"][:200]
        entry: dict[str, Any] = {
            "ts": timestamp(time.time()),  # noqa: TID251 - when the server logged, not a tool input
            "level": "INFO",
            "logger": "horologe.access",
            "message": f"{scope['method']} {path} {status}",
            "request_id": request_id,
            "method": scope["method"],
            "path": path,
            "status": status,
            "duration_ms": round(duration * 1000, 3),
            "client": self.client_of(scope),
        }
        if facts is not None:
            if facts.method is not None:
                entry["mcp_method"] = facts.method[:64]
            if facts.name is not None:
                entry["name"] = facts.name[:64]
        # One unbuffered write per line: lines from concurrent requests never interleave, and no flush is needed.
        os.write(2, (compact_json(entry) + "\n").encode())


def new_request_id() -> str:
    """32 random hex digits, like a uuid4 without its syscall (ids need to be unique, not unguessable).

    `random` reseeds in a forked child, and spawned workers seed themselves, so workers never share a sequence.
    """
    return f"{random.getrandbits(128):032x}"


def route_label(scope: Scope) -> str:
    """A bounded label for a request: the path of the route the router matched it to (set in the scope once the
    app has answered), or "other" for a path no route serves."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else "other"
