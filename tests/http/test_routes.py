"""The app is built from one route table: only route-agnostic layers app-wide, each route its own list."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest
from starlette.applications import Starlette
from starlette.routing import Route

from horologe.config import load_settings
from horologe.http.access_log import route_label
from horologe.http.app import create_app
from horologe.http.routes import ENDPOINTS, REST

EXCHANGE = ["HostOriginGuard", "Timeout"]
GATE = ["AuthFailureLimit", "BearerAuth"]
MCP_POST = ["HostOriginGuard", "BodyGuard", "Batches", "Timeout", "EraGuard", "LanguageHeaders"]
REST_POST = [*EXCHANGE, "BodyGuard", "RestLanguageHeaders"]


def everything_on() -> dict[str, Any]:
    """Settings overrides that turn every optional layer on: CORS, auth (metrics too), rate limits, sessions."""
    return {
        "http": {"cors_origins": ["https://app.example"], "stateful": True, "access_log": False},
        "rate_limit": {"enabled": True},
        "auth": {
            "enabled": True,
            "issuer": "https://issuer.example",
            "resource": "http://127.0.0.1:8000/mcp",
            "jwks_url": "https://issuer.example/jwks",
            "protect_metrics": True,
        },
    }


def layers(route: Route) -> list[str]:
    """The middleware a route's requests pass, outermost first, read off the composed app."""
    found, node = [], route.app
    while hasattr(node, "app"):
        found.append(type(node).__name__)
        node = node.app
    return found


def app_wide(app: Starlette) -> list[str]:
    return [getattr(entry.cls, "__name__", "") for entry in app.user_middleware]


def table(app: Starlette) -> dict[str, list[str]]:
    return {
        f"{','.join(sorted(route.methods or ()))} {route.path}": layers(route)
        for route in app.routes
        if isinstance(route, Route)
    }


def test_with_everything_on_each_route_passes_its_own_layers_and_only_route_agnostic_ones_are_app_wide() -> None:
    app = create_app(load_settings(overrides=everything_on()))
    assert app_wide(app) == ["AccessLog", "CORSMiddleware"]
    limited = [*GATE, "RateLimit"]
    assert table(app) == {
        "POST /mcp": [*MCP_POST, *limited, "SessionLimit"],
        "GET,HEAD /mcp": ["HostOriginGuard", *limited],
        "DELETE /mcp": [*EXCHANGE, *limited],
        **{f"POST {row.path}": [*REST_POST, *limited] for row in REST},
        "GET,HEAD /mcp/capabilities": [*EXCHANGE, "RestLanguageHeaders", *limited],
        "GET,HEAD /openapi.json": ["HostOriginGuard", *limited],
        "GET,HEAD /healthz": [],
        "GET,HEAD /readyz": [],
        "GET,HEAD /metrics": ["BearerAuth"],
        # the SDK's metadata handler, readable from any origin (its own CORS), no gate
        "GET,HEAD,OPTIONS /.well-known/oauth-protected-resource/mcp": ["CORSMiddleware"],
        "GET,HEAD,OPTIONS /.well-known/oauth-protected-resource": ["CORSMiddleware"],
    }


def test_by_default_routes_pass_only_the_guards_and_the_probes_none() -> None:
    app = create_app(load_settings(overrides={"http": {"access_log": False}}))
    assert app_wide(app) == ["AccessLog"]
    assert table(app) == {
        "POST /mcp": MCP_POST,
        "GET,HEAD /mcp": ["HostOriginGuard"],
        "DELETE /mcp": EXCHANGE,
        **{f"POST {row.path}": REST_POST for row in REST},
        "GET,HEAD /mcp/capabilities": [*EXCHANGE, "RestLanguageHeaders"],
        "GET,HEAD /openapi.json": ["HostOriginGuard"],
        "GET,HEAD /healthz": [],
        "GET,HEAD /readyz": [],
        "GET,HEAD /metrics": [],
    }


def test_the_capabilities_list_the_tables_endpoints() -> None:
    assert ENDPOINTS == {
        "mcp": "/mcp",
        "tools_call": "/mcp/tools/call",
        "resources_read": "/mcp/resources/read",
        "prompts_get": "/mcp/prompts/get",
        "openapi": "/openapi.json",
    }


@pytest.mark.anyio
async def test_the_access_log_labels_a_request_by_the_route_it_matched() -> None:
    app = create_app(load_settings(overrides={"http": {"access_log": False}}))
    transport = httpx2.ASGITransport(app=app)
    async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        assert (await client.get("/healthz")).status_code == 200
        assert (await client.get("/no/such/path")).status_code == 404
        assert (await client.put("/mcp")).status_code == 405
        exposition = (await client.get("/metrics")).text
    assert 'route="/healthz"' in exposition and 'route="other"' in exposition and 'route="/mcp"' in exposition
    assert route_label({}) == "other"
