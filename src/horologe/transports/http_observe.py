"""What the HTTP server tells operators: JSON access logs on stderr and Prometheus metrics.

Metric names follow the OpenTelemetry MCP conventions where they exist (`mcp.server.operation.duration`,
in seconds, with the conventions' buckets), spelled the Prometheus way.
"""

from __future__ import annotations

import functools
import logging
import os
import random
import re
import time
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from horologe.jsontext import compact_json
from horologe.server.catalog import TOOLS_BY_NAME
from horologe.transports.http_guard import PAYLOAD_KEY, header

KNOWN_METHODS = frozenset(
    {
        "initialize",
        "ping",
        "server/discover",
        "tools/list",
        "tools/call",
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "prompts/list",
        "prompts/get",
        "completion/complete",
        "notifications/initialized",
        "notifications/cancelled",
    }
)
KNOWN_ROUTES = frozenset(
    {
        "/mcp",
        "/mcp/tools/call",
        "/mcp/resources/read",
        "/mcp/prompts/get",
        "/mcp/capabilities",
        "/healthz",
        "/readyz",
        "/metrics",
        "/openapi.json",
    }
)
OTEL_MCP_BUCKETS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300)
REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
access_logger = logging.getLogger("horologe.access")


class Metrics:
    """The process's metrics; in multi-worker mode each worker writes to the shared multiprocess directory."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.operations = Counter(
            "mcp_server_operations",
            "MCP requests handled, by method, tool and outcome (ok, tool_error, error).",
            ["mcp_method_name", "tool", "outcome"],
            registry=self.registry,
        )
        self.duration = Histogram(
            "mcp_server_operation_duration_seconds",
            "Duration of MCP requests (OpenTelemetry MCP semantic conventions).",
            ["mcp_method_name", "tool", "outcome"],
            buckets=OTEL_MCP_BUCKETS,
            registry=self.registry,
        )
        self.http_requests = Counter(
            "horologe_http_requests",
            "HTTP requests by route and status.",
            ["route", "method", "status"],
            registry=self.registry,
        )
        self.in_flight = Gauge(
            "horologe_http_requests_in_flight",
            "HTTP requests being served.",
            registry=self.registry,
            multiprocess_mode="livesum",
        )
        self._children: dict[tuple[Any, tuple[str, ...]], Any] = {}
        self.rate_limited = Counter(
            "horologe_rate_limited_requests", "Requests refused by rate limiting.", ["route"], registry=self.registry
        )
        self.auth_failure_limited = Counter(
            "horologe_auth_failure_limited_requests",
            "Requests refused unchecked because their address sent too many refused tokens.",
            registry=self.registry,
        )

    def exposition(self) -> tuple[bytes, str]:
        """The metrics text; aggregated over workers when running several."""
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            from prometheus_client import multiprocess

            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
            return generate_latest(registry), CONTENT_TYPE_LATEST
        return generate_latest(self.registry), CONTENT_TYPE_LATEST

    def record(self, method: str, tool: str, outcome: str, seconds: float) -> None:
        """Count one MCP operation and its duration."""
        self._child(self.operations, method, tool, outcome).inc()
        self._child(self.duration, method, tool, outcome).observe(seconds)

    def count_http(self, route: str, method: str, status: int) -> None:
        """Count one HTTP request (the route is a bounded label; the HTTP parser only accepts known methods)."""
        self._child(self.http_requests, route, method, str(status)).inc()

    def _child(self, metric: Any, *labels: str) -> Any:
        # prometheus_client's labels() lookup costs more than the update; the label sets are few and bounded.
        key = (metric, labels)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = metric.labels(*labels)
        return child

    def middleware(self) -> Any:
        """A server middleware that records every MCP request (any transport that uses this server)."""

        async def measure(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
            name = ctx.params.get("name") if ctx.params else None
            # Labels come from fixed sets only: a client choosing names must not grow the metrics without bound.
            tool = (name if name in TOOLS_BY_NAME else "unknown") if ctx.method == "tools/call" else ""
            method = ctx.method if ctx.method in KNOWN_METHODS else "other"
            started = time.perf_counter()
            outcome = "error"
            try:
                result = await call_next(ctx)
                outcome = "tool_error" if _is_tool_error(result) else "ok"
                return result
            except MCPError:
                raise
            finally:
                self.record(method, tool, outcome, time.perf_counter() - started)

        return measure


def _is_tool_error(result: object) -> bool:
    if isinstance(result, dict):
        return result.get("isError") is True
    return getattr(result, "is_error", False) is True


class AccessLog:
    """One JSON line per request on stderr: id, method, path, status, duration; never headers or query strings."""

    def __init__(self, app: ASGIApp, metrics: Metrics, enabled: bool = True) -> None:
        self.app = app
        self.metrics = metrics
        self.enabled = enabled

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        supplied = header(scope, b"x-request-id")
        request_id = supplied if supplied and REQUEST_ID.match(supplied) else new_request_id()
        status = 500
        started = time.perf_counter()

        async def tagged_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", []), (b"x-request-id", request_id.encode())]
            await send(message)

        self.metrics.in_flight.inc()
        try:
            await self.app(scope, receive, tagged_send)
        finally:
            self.metrics.in_flight.dec()
            duration = time.perf_counter() - started
            route = _route(scope["path"])
            self.metrics.count_http(route, scope["method"], status)
            if self.enabled:
                self._log(scope, request_id, status, duration)

    def _log(self, scope: Scope, request_id: str, status: int, duration: float) -> None:
        payload = scope.get("state", {}).get(PAYLOAD_KEY)
        entry: dict[str, Any] = {
            "ts": _utc_stamp(int(time.time())),  # noqa: TID251 - when the server logged, not a tool input
            "request_id": request_id,
            "method": scope["method"],
            "path": scope["path"][:200],
            "status": status,
            "duration_ms": round(duration * 1000, 3),
            "client": (scope.get("client") or ("", 0))[0],
        }
        if isinstance(payload, dict):
            if isinstance(payload.get("method"), str):
                entry["mcp_method"] = payload["method"][:64]
            params = payload.get("params")
            name = params.get("name") if isinstance(params, dict) else payload.get("name")
            if isinstance(name, str):
                entry["name"] = name[:64]
        # One unbuffered write per line: lines from concurrent requests never interleave, and no flush is needed.
        os.write(2, (compact_json(entry) + "\n").encode())


def new_request_id() -> str:
    """32 random hex digits, like a uuid4 without its syscall (ids need to be unique, not unguessable).

    `random` reseeds in a forked child, and spawned workers seed themselves, so workers never share a sequence.
    """
    return f"{random.getrandbits(128):032x}"


@functools.lru_cache(maxsize=2)
def _utc_stamp(second: int) -> str:
    """The access log's timestamp for a Unix second (every line of the same second shares it)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(second))


def _route(path: str) -> str:
    """A bounded label for a path (unknown paths share one label)."""
    return path if path in KNOWN_ROUTES else "other"
