"""Opaque tokens through RFC 7662 introspection against a real endpoint on loopback."""

from __future__ import annotations

import time

import pytest

from horologe.config import load_settings
from tests.http.auth.conftest import AppClient, auth_settings
from tests.http.auth.issuer import RESOURCE, Issuer

pytestmark = pytest.mark.anyio
CALL = {"name": "get_current_time", "arguments": {"timezone": "UTC"}}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def introspection_only(issuer: Issuer, **auth: object):
    settings = auth_settings(issuer, introspection=True, **auth)
    section = settings.auth.model_dump() | {"jwks_url": ""}
    return load_settings(overrides={"auth": section, "http": {"access_log": False}})


async def test_an_active_token_passes_and_is_cached(app_client: AppClient, issuer: Issuer):
    token = issuer.opaque_token()
    async with app_client(introspection_only(issuer)) as client:
        statuses = [
            (await client.post("/mcp/tools/call", json=CALL, headers=bearer(token))).status_code for _ in range(3)
        ]
    assert statuses == [200, 200, 200]
    assert issuer.introspections == 1


async def test_revocation_shows_once_the_short_cache_lapses(app_client: AppClient, issuer: Issuer):
    token = issuer.opaque_token()
    async with app_client(introspection_only(issuer, introspection_cache_seconds=0)) as client:
        first = await client.post("/mcp/tools/call", json=CALL, headers=bearer(token))
        issuer.opaque[token]["active"] = False
        second = await client.post("/mcp/tools/call", json=CALL, headers=bearer(token))
    assert (first.status_code, second.status_code) == (200, 401)
    assert "not active" in second.json()["error_description"]


@pytest.mark.parametrize(
    ("claims", "reason"),
    [
        ({"aud": "https://other.example/mcp"}, "audience"),
        ({"aud": None}, "audience"),
        ({"iss": "https://evil.example"}, "another authorization server"),
        ({"exp": int(time.time()) - 600}, "expired"),
        ({"exp": 10**400}, "'exp' claim is not a time"),
        ({"nbf": float("inf")}, "'nbf' claim is not a time"),
        ({"iat": float("nan")}, "'iat' claim is not a time"),
    ],
)
async def test_foreign_or_expired_opaque_tokens_are_401(app_client: AppClient, issuer: Issuer, claims, reason):
    token = issuer.opaque_token(**claims)
    async with app_client(introspection_only(issuer)) as client:
        response = await client.post("/mcp/tools/call", json=CALL, headers=bearer(token))
    assert response.status_code == 401 and reason in response.json()["error_description"]


async def test_unknown_tokens_are_401_and_never_cached(app_client: AppClient, issuer: Issuer):
    async with app_client(introspection_only(issuer)) as client:
        for _ in range(2):
            assert (await client.post("/mcp/tools/call", json=CALL, headers=bearer("nope"))).status_code == 401
    assert issuer.introspections == 2


async def test_wrong_client_credentials_or_a_dead_endpoint_are_503(app_client: AppClient, issuer: Issuer):
    wrong_secret = introspection_only(issuer, introspection_client_secret="wrong")
    dead = introspection_only(issuer, introspection_endpoint="http://127.0.0.1:9/introspect")
    async with app_client(wrong_secret) as client:
        refused = await client.post("/mcp/tools/call", json=CALL, headers=bearer(issuer.opaque_token()))
    async with app_client(dead) as client:
        unreachable = await client.post("/mcp/tools/call", json=CALL, headers=bearer(issuer.opaque_token()))
    assert refused.status_code == unreachable.status_code == 503


async def test_jwts_and_opaque_tokens_side_by_side(app_client: AppClient, issuer: Issuer):
    async with app_client(auth_settings(issuer, introspection=True)) as client:
        jwt = await client.post("/mcp/tools/call", json=CALL, headers=bearer(issuer.token()))
        opaque = await client.post("/mcp/tools/call", json=CALL, headers=bearer(issuer.opaque_token(scope="x")))
    assert jwt.status_code == 200 and opaque.status_code == 403
    assert RESOURCE in opaque.headers["www-authenticate"] or "resource_metadata" in opaque.headers["www-authenticate"]


async def test_a_flooding_introspection_endpoint_is_read_only_up_to_the_limit(app_client: AppClient, issuer: Issuer):
    issuer.flood_bytes = 200 * 1024 * 1024
    async with app_client(introspection_only(issuer)) as client:
        response = await client.post("/mcp/tools/call", json=CALL, headers=bearer(issuer.opaque_token()))
    assert response.status_code == 503
    assert issuer.flood_sent < 50 * 1024 * 1024  # the limit (64 KiB) and the sockets' buffers, not the whole answer
