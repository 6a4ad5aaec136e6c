"""The HTTP application: MCP Streamable HTTP at /mcp (both eras), the seed's REST endpoints, health and metrics.

Requests pass, outermost first: access log -> Host/Origin guard -> CORS (only when configured) -> body guard
(size, JSON, depth) -> timeout -> routes. /mcp answers JSON by default and switches to an SSE stream for a
request that asked for progress (`_meta.progressToken`), so notifications are never silently dropped.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import AsyncIterator, Callable
from typing import Any

from mcp.server.lowlevel.server import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from horologe.clock import Clock, SystemClock
from horologe.config import Settings
from horologe.core import tzdb
from horologe.server.app import Horologe, build_server, default_zone_from
from horologe.transports.http_guard import (
    PAYLOAD_KEY,
    AccessPolicy,
    BodyGuard,
    HostOriginGuard,
    Timeout,
)
from horologe.transports.http_language import LanguageHeaders
from horologe.transports.http_observe import AccessLog, Metrics
from horologe.transports.http_serve import SETTINGS_ENV
from horologe.transports.openapi import openapi_document
from horologe.transports.ratelimit import auth_failure_middleware, rate_limit_middleware
from horologe.transports.rest import rest_routes

# Probes and scrapers address pods by IP: these carry no user data, so they skip the Host allow-list.
PUBLIC_PATHS = ("/healthz", "/readyz", "/metrics")


class MCPEndpoint:
    """POST/GET/DELETE /mcp: JSON responses, or SSE when the request carries a progress token (or sessions are on)."""

    def __init__(self, json_manager: StreamableHTTPSessionManager, sse_manager: StreamableHTTPSessionManager) -> None:
        self.json_manager = json_manager
        self.sse_manager = sse_manager

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        payload = scope.get("state", {}).get(PAYLOAD_KEY)
        manager = self.sse_manager if wants_progress(payload) else self.json_manager
        await manager.handle_request(scope, receive, send)


def wants_progress(payload: object) -> bool:
    """Whether a JSON-RPC request asked for progress notifications."""
    if not isinstance(payload, dict):
        return False
    params = payload.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    return isinstance(meta, dict) and meta.get("progressToken") is not None


ServerFactory = Callable[[Settings, Clock, Horologe], Server[Any]]


def create_app(
    settings: Settings, clock: Clock | None = None, server_factory: ServerFactory | None = None
) -> Starlette:
    """The ASGI application for these settings.

    `server_factory` replaces the MCP server behind /mcp (tests mount the conformance suite's fixture tools on this
    same HTTP stack: guards, body limits, timeout, metrics, access log); REST tools keep using horologe's handlers.
    """
    clock = clock or SystemClock()
    http = settings.http
    policy = AccessPolicy.for_bind(settings.server.host, http.allowed_hosts, http.allowed_origins)
    horologe = Horologe(settings, clock, default_zone_from(settings))
    server = (server_factory or build_server)(settings, clock, horologe)
    metrics = Metrics()
    server.middleware.append(metrics.middleware())
    # Our guard checks Host and Origin on every route; the SDK's own check would only repeat it on /mcp.
    security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    managers = [
        StreamableHTTPSessionManager(
            app=server,
            json_response=json_response,
            stateless=not http.stateful,
            security_settings=security,
            max_request_body_size=http.max_body_bytes,
        )
        for json_response in ((False,) if http.stateful else (True, False))
    ]
    endpoint = MCPEndpoint(managers[0], managers[-1])

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            for manager in managers:
                await stack.enter_async_context(manager.run())
            yield

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> Response:
        try:
            ready = "Europe/Vienna" in tzdb.zone_names() and tzdb.get_zone("UTC") is not None
        except Exception:
            ready = False
        body = {"status": "ready" if ready else "not ready", "tzdata_version": tzdb.tzdata_version()}
        return JSONResponse(body, status_code=200 if ready else 503)

    async def metrics_endpoint(request: Request) -> Response:
        body, content_type = metrics.exposition()
        return Response(body, media_type=content_type)

    async def openapi(request: Request) -> Response:
        return JSONResponse(openapi_document())

    routes = [
        Route("/mcp", endpoint, methods=["GET", "POST", "DELETE"]),
        *rest_routes(horologe, server, metrics),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/metrics", metrics_endpoint, methods=["GET"]),
        Route("/openapi.json", openapi, methods=["GET"]),
    ]
    public_paths: tuple[str, ...] = PUBLIC_PATHS
    protection: list[Middleware] = []
    if settings.auth.enabled:
        from horologe.auth import auth_layer

        auth = auth_layer(settings.auth, PUBLIC_PATHS)
        routes += auth.routes
        public_paths = auth.public_paths
        protection = [*auth_failure_middleware(settings.rate_limit, public_paths, metrics), *auth.middleware]
    route_labels = [route.path for route in routes]
    protection += rate_limit_middleware(settings.rate_limit, public_paths, metrics, route_labels)
    middleware = [
        Middleware(AccessLog, metrics=metrics, enabled=http.access_log),
        Middleware(HostOriginGuard, policy=policy, public_paths=public_paths),
    ]
    if http.cors_origins:
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=list(http.cors_origins),
                allow_methods=["GET", "POST", "DELETE"],
                allow_headers=["*"],
                expose_headers=["Mcp-Session-Id", "MCP-Protocol-Version", "Content-Language", "X-Request-Id"],
            )
        )
    middleware += [
        Middleware(BodyGuard, max_bytes=http.max_body_bytes, max_depth=http.max_json_depth),
        Middleware(LanguageHeaders, default_language=settings.i18n.default_language),
        Middleware(Timeout, seconds=http.request_timeout_seconds),
        *protection,
    ]
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan)


def app_from_environment() -> Starlette:
    """The app for uvicorn workers: settings arrive serialized in the environment from `horologe serve`."""
    from horologe.config import load_settings
    from horologe.heap import settle_after_startup

    raw = os.environ.get(SETTINGS_ENV)
    settings = Settings.model_validate(json.loads(raw)) if raw else load_settings()
    app = create_app(settings)
    settle_after_startup()  # each worker is its own serving process
    return app
