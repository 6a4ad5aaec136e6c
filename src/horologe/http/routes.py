"""The route table: every route the HTTP app serves, and the layers each one passes, as Starlette scopes them.

App-wide, whatever the route, only what is route-agnostic (`horologe.http.app`): `access_log.AccessLog` (the
request id, one log line, the HTTP counters under the matched route's path) and, when configured, Starlette's
`CORSMiddleware` (it answers preflights for any route). Every other layer is on the routes that need it
(`Route(middleware=…)`), outermost first:

| route | its layers |
|---|---|
| POST /mcp | host guard, body guard, batches, timeout, era guard, language headers, gate, rate limit, sessions |
| GET /mcp (the stream) | host guard, gate, rate limit (no timeout: it is held open on purpose) |
| DELETE /mcp | host guard, timeout, gate, rate limit |
| POST /mcp/tools/call and the other REST routes | host guard, timeout, body guard, REST language, gate, rate limit |
| GET /mcp/capabilities | host guard, timeout, REST language, gate, rate limit |
| GET /openapi.json | host guard, gate, rate limit |
| GET /healthz, /readyz | none: probes address pods by IP and carry no user data |
| GET /metrics | the metrics gate, when auth protects it (scrapers address pods by IP) |
| the OAuth metadata documents | none: clients read them before they have a token |

"gate" is the refused-token limit and the bearer check when auth is on; "rate limit" when it is on; "sessions" with
`--stateful`. The body guard reads the body before the era, language and auth layers, which read what it found; the
REST timeout is outside the body guard, so a body dripped in slowly counts against it; on POST /mcp the batch layer
sits outside the timeout, because a 2025-03-26 batch keeps one timeout of its own for all its messages and answers
each message it could not run (a slow body there is cut by the connection, 408). Route middleware never sees the
lifespan: what outlives a request (the body budget, the rate-limit counters, the token verifier) is made once by
the app factory and handed to every route's layers (`Edge`). tests/http/test_routes.py holds the app-wide list
and every route's list to this table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from starlette.middleware import Middleware
from starlette.routing import Route

from horologe.http.batch import Batches
from horologe.http.body import BodyBudget, BodyGuard
from horologe.http.era import EraGuard
from horologe.http.language import LanguageHeaders, RestLanguageHeaders
from horologe.http.ratelimit import Limiter, RateLimit


@dataclass(frozen=True, slots=True)
class Row:
    """One route: its path, its methods, its name in the capabilities' `endpoints`, and for a REST route the MCP
    method it performs."""

    path: str
    methods: tuple[str, ...]
    name: str
    performs: str | None = None


MCP: Final = Row("/mcp", ("POST",), "mcp")
MCP_STREAM: Final = Row("/mcp", ("GET",), "mcp_stream")
MCP_END: Final = Row("/mcp", ("DELETE",), "mcp_end")
TOOLS_CALL: Final = Row("/mcp/tools/call", ("POST",), "tools_call", "tools/call")
RESOURCES_READ: Final = Row("/mcp/resources/read", ("POST",), "resources_read", "resources/read")
PROMPTS_GET: Final = Row("/mcp/prompts/get", ("POST",), "prompts_get", "prompts/get")
CAPABILITIES: Final = Row("/mcp/capabilities", ("GET",), "capabilities", "capabilities")
OPENAPI: Final = Row("/openapi.json", ("GET",), "openapi")
HEALTHZ: Final = Row("/healthz", ("GET",), "healthz")
READYZ: Final = Row("/readyz", ("GET",), "readyz")
METRICS: Final = Row("/metrics", ("GET",), "metrics")

REST: Final = (TOOLS_CALL, RESOURCES_READ, PROMPTS_GET)
"""The seed's REST routes that take a JSON body, each performing one MCP method."""
ENDPOINTS: Final = {row.name: row.path for row in (MCP, *REST, OPENAPI)}
"""What `GET /mcp/capabilities` lists for a client to call."""


@dataclass(frozen=True)
class Edge:
    """The layers this configuration turns on, each made once by the app factory; routes share their state."""

    host: Middleware
    timeout: Middleware
    budget: BodyBudget
    gate: list[Middleware] = field(default_factory=list)
    metrics_gate: list[Middleware] = field(default_factory=list)
    limiter: Limiter | None = None
    sessions: list[Middleware] = field(default_factory=list)
    batches: Middleware = field(default_factory=lambda: Middleware(Batches))
    """The batch layer, with the request timeout and tool budget a whole batch shares."""

    def body(self, performs: str | None = None) -> Middleware:
        """The body guard, in the shared budget, for a route performing `performs` (None: JSON-RPC)."""
        return Middleware(BodyGuard, budget=self.budget, performs=performs)

    def protected(self, row: Row) -> list[Middleware]:
        """The gate and the rate limit, counted under the route's path."""
        if self.limiter is None:
            return list(self.gate)
        return [*self.gate, Middleware(RateLimit, limiter=self.limiter, label=row.path, performs=row.performs)]


RouteEndpoint = Callable[..., Any]
"""A route's endpoint as Starlette takes it: a request-response function or an ASGI app."""


@dataclass(frozen=True)
class Endpoints:
    """What answers each route, once it has passed its layers."""

    mcp: RouteEndpoint
    rest: Callable[[str], RouteEndpoint]
    """The endpoint of a REST route, by the MCP method it performs."""
    capabilities: RouteEndpoint
    openapi: RouteEndpoint
    healthz: RouteEndpoint
    readyz: RouteEndpoint
    metrics: RouteEndpoint
    public: list[Route] = field(default_factory=list)
    """Routes that stand as they are (the OAuth metadata documents)."""


def build_routes(edge: Edge, endpoints: Endpoints) -> list[Route]:
    """Every route of the table with its own layers (the table in this module's docstring)."""
    exchange = [edge.host, edge.timeout]

    def route(row: Row, endpoint: RouteEndpoint, layers: list[Middleware]) -> Route:
        return Route(row.path, endpoint, methods=list(row.methods), middleware=layers)

    mcp = [
        edge.host,
        edge.body(),
        edge.batches,
        edge.timeout,
        Middleware(EraGuard),
        Middleware(LanguageHeaders),
        *edge.protected(MCP),
        *edge.sessions,
    ]
    return [
        route(MCP, endpoints.mcp, mcp),
        route(MCP_STREAM, endpoints.mcp, [edge.host, *edge.protected(MCP_STREAM)]),
        route(MCP_END, endpoints.mcp, [*exchange, *edge.protected(MCP_END)]),
        *(
            route(
                row,
                endpoints.rest(str(row.performs)),
                [*exchange, edge.body(row.performs), Middleware(RestLanguageHeaders), *edge.protected(row)],
            )
            for row in REST
        ),
        route(
            CAPABILITIES,
            endpoints.capabilities,
            [*exchange, Middleware(RestLanguageHeaders), *edge.protected(CAPABILITIES)],
        ),
        route(OPENAPI, endpoints.openapi, [edge.host, *edge.protected(OPENAPI)]),
        route(HEALTHZ, endpoints.healthz, []),
        route(READYZ, endpoints.readyz, []),
        route(METRICS, endpoints.metrics, list(edge.metrics_gate)),
        *endpoints.public,
    ]
