"""The HTTP application: MCP Streamable HTTP at /mcp (both eras), the seed's REST endpoints, health and metrics.

App-wide, outermost first, only the layers that hold for every route: `access_log.AccessLog` (the request id, one
JSON log line, the HTTP counters) and Starlette's `CORSMiddleware` when CORS origins are configured. Everything else
is scoped to the routes that need it, from the one route table in `horologe.http.routes` (its docstring lists each
route's layers; tests/http/test_routes.py holds the app to it). The request timeout is on the exchange routes, not
app-wide: GET /mcp is a stream held open on purpose, and the probes answer at once.

What outlives a request is made here once and shared by the routes' layers (Starlette's route middleware never sees
the lifespan): the body budget, the rate-limit counter and the token verifier; the lifespan closes the latter two.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from mcp.server.context import ServerMiddleware
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
from horologe.http.body import BodyBudget
from horologe.http.calls import batch_deadline
from horologe.http.cancel import Cancellations
from horologe.http.connection import CLOSING_STATE_KEY
from horologe.http.direct import DirectServing
from horologe.http.hosts import AccessPolicy, HostOriginGuard
from horologe.http.language import record_language
from horologe.http.mcp import MCPEndpoint
from horologe.http.openapi import openapi_document
from horologe.http.ratelimit import (
    AuthFailureLimit,
    ClientAddress,
    Counter,
    Limiter,
    RefusedTokens,
    close_storage,
    counter_for,
)
from horologe.http.rest import capabilities_endpoint, method_not_allowed, rest_endpoint
from horologe.http.routes import Edge, Endpoints, build_routes
from horologe.http.sessions import SessionLimit
from horologe.http.timeout import Timeout
from horologe.protocol.metrics import Metrics
from horologe.protocol.server import build_server
from horologe.tools.registry import selected_tools


def http_server(settings: Settings, clock: Clock, *stages: ServerMiddleware[Any]) -> Server[Any]:
    """horologe's MCP server as the HTTP edge runs it: told each answer's language and what HTTP reads of a call
    (its batch's deadline); off HTTP this reader finds nothing."""
    return build_server(settings, clock, *stages, on_language=record_language, batch_deadline=batch_deadline)


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
        server = http_server(settings, clock or SystemClock(), metrics.stage)
    else:
        server.middleware.insert(0, metrics.stage)
    # Our guard checks Host and Origin on every user route; the SDK's own check would only repeat it on /mcp.
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
    # Stateless, a single request answered in JSON is served in its own task (horologe.http.direct).
    direct = None if http.stateful else DirectServing(server)
    addresses = ClientAddress(settings.rate_limit.trusted_proxies)
    edge, closers, public = _edge(settings, policy, metrics, addresses)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[dict[str, Any]]:
        async with contextlib.AsyncExitStack() as stack:
            for close in closers:
                stack.push_async_callback(close)
            for manager in managers:
                await stack.enter_async_context(manager.run())
            if direct is not None:
                await stack.enter_async_context(direct.run())
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

    endpoints = Endpoints(
        mcp=MCPEndpoint(managers[0], managers[-1], http.stateful, Cancellations(addresses), direct),
        rest=lambda method: rest_endpoint(server, method),
        capabilities=capabilities_endpoint(server, tools),
        openapi=openapi,
        healthz=healthz,
        readyz=readyz,
        metrics=metrics_endpoint,
        public=public,
    )
    # Access lines are INFO: a log level above it (`--log-level warning`) turns them off with everything else at INFO.
    access_log = http.access_log and settings.logging.level in ("DEBUG", "INFO")
    middleware = [Middleware(AccessLog, metrics=metrics, enabled=access_log, client_of=addresses.of)]
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
    return Starlette(
        routes=build_routes(edge, endpoints),
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={405: method_not_allowed},
    )


Closer = Callable[[], Awaitable[None]]


def _edge(
    settings: Settings, policy: AccessPolicy, metrics: Metrics, addresses: ClientAddress
) -> tuple[Edge, list[Closer], list[Route]]:
    """The route layers these settings turn on, what to close at shutdown, and the public routes auth adds."""
    http, limits = settings.http, settings.rate_limit
    closers: list[Closer] = []
    gate: list[Middleware] = []
    metrics_gate: list[Middleware] = []
    public: list[Route] = []
    counter: Counter | None = None
    if limits.enabled or http.stateful or (settings.auth.enabled and limits.auth_failures.strip()):
        counter = counter_for(limits)
        store = counter.storage
        closers.append(lambda: close_storage(store))
    if settings.auth.enabled:
        from horologe.http.auth import auth_layer  # JWT and cryptography load only when auth is on

        auth = auth_layer(settings.auth)
        closers.append(auth.verifier.aclose)
        public, metrics_gate = auth.routes, auth.metrics_gate
        if counter is not None and limits.auth_failures.strip():
            gate.append(Middleware(AuthFailureLimit, refused=RefusedTokens(limits, counter, addresses, metrics)))
        gate += auth.gate
    edge = Edge(
        host=Middleware(HostOriginGuard, policy=policy),
        timeout=Middleware(Timeout, seconds=http.request_timeout_seconds),
        batches=Middleware(
            Batches, seconds=http.request_timeout_seconds, budget_seconds=settings.execution.budget_seconds
        ),
        budget=BodyBudget(http.max_body_bytes, http.max_json_depth, http.max_buffered_body_bytes),
        gate=gate,
        metrics_gate=metrics_gate,
        limiter=Limiter(limits, counter, addresses, metrics) if limits.enabled and counter is not None else None,
        sessions=[Middleware(SessionLimit, http=http, counter=counter, addresses=addresses)]
        if http.stateful and counter is not None
        else [],
    )
    return edge, closers, public
