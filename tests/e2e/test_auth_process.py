"""An authorization-enabled horologe process, driven by the SDK's client carrying a bearer token."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.e2e.conftest import RunningServer, free_port, start_http_server
from tests.http.auth.issuer import Issuer, live_issuer

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def issuer() -> Iterator[Issuer]:
    with live_issuer("RS256") as issuer:
        yield issuer


@pytest.fixture(scope="module")
def protected(issuer: Issuer) -> Iterator[RunningServer]:
    port = free_port()
    env = {
        "HOROLOGE_AUTH__ENABLED": "true",
        "HOROLOGE_AUTH__ISSUER": issuer.url,
        "HOROLOGE_AUTH__RESOURCE": f"http://127.0.0.1:{port}/mcp",
        "HOROLOGE_AUTH__JWKS_URL": issuer.jwks_url,
        "HOROLOGE_AUTH__TOOL_SCOPES": '{"convert_timezone": ["horologe:convert"]}',
        "HOROLOGE_LOG_LEVEL": "INFO",
    }
    server = start_http_server(env=env, port=port)
    yield server
    log = server.stop()
    assert issuer.token_log and not any(token in log for token in issuer.token_log), "a token reached the logs"


def token_for(issuer: Issuer, server: RunningServer, scope: str = "horologe:read") -> str:
    token = issuer.token(aud=f"{server.url}/mcp", scope=scope)
    issuer.token_log.append(token)
    return token


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_the_sdk_client_with_a_bearer_token_calls_tools(issuer: Issuer, protected: RunningServer, mode: str):
    headers = {"Authorization": f"Bearer {token_for(issuer, protected)}"}
    async with httpx2.AsyncClient(headers=headers, timeout=10) as http_client:
        transport = streamable_http_client(f"{protected.url}/mcp", http_client=http_client)
        async with Client(transport, mode=mode, cache=None) as client:
            tools = await client.list_tools()
            now = await client.call_tool("get_current_time", {"timezone": "Asia/Kathmandu"})
    assert len(tools.tools) >= 6
    assert now.structured_content is not None and now.structured_content["timestamp"].endswith("+05:45")


def post(server: RunningServer, path: str, body: dict[str, Any], headers: dict[str, str]) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("POST", path, json.dumps(body).encode(), {"Content-Type": "application/json", **headers})
        response = connection.getresponse()
        response.read()
        return response
    finally:
        connection.close()


def test_a_client_without_a_token_can_discover_where_to_get_one(issuer: Issuer, protected: RunningServer):
    refused = post(protected, "/mcp/tools/call", {"name": "get_current_time"}, {})
    challenge = refused.getheader("www-authenticate") or ""
    metadata_url = challenge.split('resource_metadata="')[1].split('"')[0]
    metadata = httpx2.get(metadata_url, timeout=10).json()
    assert refused.status == 401 and 'scope="horologe:read"' in challenge
    assert metadata["resource"] == f"{protected.url}/mcp" and metadata["authorization_servers"] == [issuer.url]


def test_a_write_scope_tool_needs_its_own_scope_over_the_wire(issuer: Issuer, protected: RunningServer):
    body = {"name": "convert_timezone", "arguments": {"timestamp": "2026-01-01T00:00:00", "to_timezone": "UTC"}}
    reader = post(protected, "/mcp/tools/call", body, {"Authorization": f"Bearer {token_for(issuer, protected)}"})
    both = token_for(issuer, protected, "horologe:read horologe:convert")
    converter = post(protected, "/mcp/tools/call", body, {"Authorization": f"Bearer {both}"})
    assert reader.status == 403
    assert 'scope="horologe:read horologe:convert"' in (reader.getheader("www-authenticate") or "")
    assert converter.status in (200, 400)  # authorized; 400 would be a domain error, never 401/403


def test_a_one_megabyte_authorization_header_is_refused_and_the_server_lives_on(protected: RunningServer):
    try:
        status = post(
            protected, "/mcp/tools/call", {"name": "x"}, {"Authorization": "Bearer " + "A" * 1_048_576}
        ).status
    except (ConnectionError, http.client.HTTPException):
        status = 0  # the HTTP parser may drop the connection instead of answering
    assert status in (0, 400, 401, 431)
    health = http.client.HTTPConnection("127.0.0.1", protected.port, timeout=10)
    health.request("GET", "/healthz")
    assert health.getresponse().status == 200
    health.close()
