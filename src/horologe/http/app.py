"""The HTTP application: MCP Streamable HTTP at /mcp (both eras), the seed's REST endpoints, health and metrics.

Requests pass these layers, outermost first (one file each in this package; `create_app` builds them in this
order, and tests/http/test_app.py holds it to this list):

1. `access_log.AccessLog`: the request id, one JSON log line, HTTP counters.
2. `hosts.HostOriginGuard`: Host and Origin allow-lists (DNS-rebinding protection).
3. Starlette's `CORSMiddleware`, only when CORS origins are configured.
4. `body.BodyGuard`: size, JSON and depth limits; parses the body once into `request.RequestFacts`.
5. `batch.Batches`: a 2025-03-26 JSON-RPC batch passes the layers below once per message, answered as one
   (one timeout, one tool budget, one answer size for the whole batch).
6. `era.EraGuard`: the body decides the era; the `MCP-Protocol-Version` header must agree (-32020, -32022).
7. `language.LanguageHeaders`: `Accept-Language` agreement; `Content-Language`, `Vary`, `Cache-Control`.
8. With auth on: `ratelimit.AuthFailureLimit` and `auth.bearer.BearerAuth`; then `ratelimit.RateLimit` when on;
   then, with `--stateful`, `sessions.SessionLimit` (new sessions per client, the answer when all are taken).

Layers 5 to 8 read the facts the body guard left, so they sit behind it. Then the route: the exchanges (POST and
DELETE /mcp, the REST routes) pass `timeout.Timeout` (504 for a request that does not answer in time); GET /mcp,
a stream held open on purpose, and the probes do not.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
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

from horologe.clock import Clock, SystemClock
from horologe.config import Settings
from horologe.core import tzdb
from horologe.http.access_log import AccessLog
from horologe.http.batch import Batches
from horologe.http.body import BodyGuard
from horologe.http.connection import CLOSING_STATE_KEY
from horologe.http.era import EraGuard
from horologe.http.hosts import AccessPolicy, HostOriginGuard
from horologe.http.language import LanguageHeaders
from horologe.http.mcp import MCPEndpoint
from horologe.http.openapi import openapi_document
from horologe.http.ratelimit import auth_failure_middleware, rate_limit_middleware
from horologe.http.rest import method_not_allowed, rest_routes
from horologe.http.sessions import session_limit_middleware
from horologe.http.timeout import Timeout
from horologe.protocol.metrics import Metrics
from horologe.protocol.server import build_server
from horologe.tools.registry import selected_tools

# Probes and scrapers address pods by IP: these carry no user data, so they skip the Host allow-list.
PUBLIC_PATHS = ("/healthz", "/readyz", "/metrics")


def create_app(settings: Settings, clock: Clock | None = None, server: Server[Any] | None = None) -> Starlette:
    """The ASGI application for these settings.

    `server` replaces horologe's MCP server behind /mcp and the REST routes (tests mount the conformance suite's
    fixture tools on this same HTTP stack: guards, body limits, timeout, metrics, access log).
    """
    http = settings.http
    policy = AccessPolicy.for_bind(settings.server.host, http.allowed_hosts, http.allowed_origins)
    metrics = Metrics()
    tools = selected_tools(settings.capabilities.toolsets, settings.server.transport)
    if server is None:
        server = build_server(settings, clock or SystemClock(), metrics.stage)
    else:
        server.middleware.insert(0, metrics.stage)
    # Our guard checks Host and Origin on every route; the SDK's own check would only repeat it on /mcp.
    security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    managers = [
        StreamableHTTPSessionManager(
            app=server,
            json_response=json_response,
            stateless=not http.stateful,
            security_settings=security,
            max_request_body_size=http.max_body_bytes,
            max_sessions=http.max_sessions,
            session_idle_timeout=http.session_idle_seconds,
        )
        for json_response in ((False,) if http.stateful else (True, False))
    ]
    endpoint = MCPEndpoint(managers[0], managers[-1], http.stateful)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[dict[str, Any]]:
        async with contextlib.AsyncExitStack() as stack:
            for manager in managers:
                await stack.enter_async_context(manager.run())
            yield {CLOSING_STATE_KEY: asyncio.Event()}  # every request's state shares it; see http/streams.py

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
        return JSONResponse(openapi_document(tools))

    # The request timeout bounds exchanges, so it wraps their routes only: GET /mcp is a stream held open on
    # purpose (http/streams.py), and the probes answer at once.
    timed = [Middleware(Timeout, seconds=http.request_timeout_seconds)]
    routes = [
        Route("/mcp", endpoint, methods=["POST", "DELETE"], middleware=timed),
        Route("/mcp", endpoint, methods=["GET"]),
        *rest_routes(server, tools, timed),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/metrics", metrics_endpoint, methods=["GET"]),
        Route("/openapi.json", openapi, methods=["GET"]),
    ]
    public_paths: tuple[str, ...] = PUBLIC_PATHS
    protection: list[Middleware] = []
    if settings.auth.enabled:
        from horologe.http.auth import auth_layer  # JWT and cryptography load only when auth is on

        auth = auth_layer(settings.auth, PUBLIC_PATHS)
        routes += auth.routes
        public_paths = auth.public_paths
        protection = [*auth_failure_middleware(settings.rate_limit, public_paths, metrics, clock), *auth.middleware]
    route_labels = [route.path for route in routes]
    protection += rate_limit_middleware(settings.rate_limit, public_paths, metrics, route_labels, clock)
    protection += session_limit_middleware(http, settings.rate_limit, public_paths)
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
        Middleware(
            BodyGuard,
            max_bytes=http.max_body_bytes,
            max_depth=http.max_json_depth,
            max_buffered=http.max_buffered_body_bytes,
        ),
        Middleware(Batches, seconds=http.request_timeout_seconds, budget_seconds=settings.execution.budget_seconds),
        Middleware(EraGuard),
        Middleware(LanguageHeaders),
        *protection,
    ]
    return Starlette(
        routes=routes, middleware=middleware, lifespan=lifespan, exception_handlers={405: method_not_allowed}
    )
