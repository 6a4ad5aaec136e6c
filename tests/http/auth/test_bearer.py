"""Bearer tokens on /mcp and REST against a real issuer on loopback: what passes, what is refused, and how."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import time
from typing import Any

import httpx2
import pytest
from cryptography.hazmat.primitives import serialization

from tests.http.auth.conftest import AppClient, auth_settings
from tests.http.auth.issuer import RESOURCE, Issuer, new_key

pytestmark = pytest.mark.anyio
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}
METADATA = "http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp"


def rest_call(tool: str = "get_current_time") -> dict[str, object]:
    return {"name": tool, "arguments": {"timezone": "UTC"}}


def mcp_call(tool: str = "get_current_time") -> dict[str, object]:
    return {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": rest_call(tool)}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def challenge(response: httpx2.Response) -> str:
    return response.headers["www-authenticate"]


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@pytest.mark.parametrize("key_index", [0, 1, 2], ids=["RS256", "ES256", "EdDSA"])
async def test_a_good_token_calls_a_tool_on_rest_and_on_mcp(app_client: AppClient, issuer: Issuer, key_index: int):
    token = issuer.token(key=issuer.keys[key_index])
    async with app_client() as client:
        rest = await client.post("/mcp/tools/call", json=rest_call(), headers=bearer(token))
        mcp = await client.post("/mcp", json=mcp_call(), headers={**MCP_HEADERS, **bearer(token)})
    assert rest.status_code == 200 and rest.json()["structuredContent"]["timezone"] == "UTC"
    assert mcp.status_code == 200 and mcp.json()["result"]["structuredContent"]["timezone"] == "UTC"


@pytest.mark.parametrize(("path", "body"), [("/mcp/tools/call", rest_call()), ("/mcp", mcp_call())])
async def test_no_token_is_401_pointing_at_the_metadata_with_the_scope(app_client: AppClient, path: str, body: object):
    async with app_client() as client:
        response = await client.post(path, json=body, headers=MCP_HEADERS)
    assert response.status_code == 401
    assert challenge(response) == f'Bearer resource_metadata="{METADATA}", scope="horologe:read"'
    assert "result" not in response.text and "jsonrpc" not in response.text


def seconds_from_now(offset: int) -> Any:
    """A time claim computed when the test runs (a value fixed at collection would go stale in a long run)."""
    return lambda: int(time.time()) + offset


@pytest.mark.parametrize(
    ("claims", "reason"),
    [
        ({"exp": seconds_from_now(-120)}, "expired"),
        ({"nbf": seconds_from_now(120)}, "not valid yet"),
        ({"aud": "http://127.0.0.1:8080/other"}, "audience"),
        ({"aud": None}, "'aud'"),
        ({"iss": "http://127.0.0.1:1"}, "another authorization server"),
        ({"exp": None}, "'exp'"),
        ({"exp": 10**400}, "'exp' claim is not a time"),
        ({"exp": float("inf")}, "claims are invalid"),
        ({"iat": 10**400}, "not valid yet"),
        ({"nbf": -1}, "'nbf' claim is not a time"),
    ],
    ids=[
        "expired",
        "not-yet-valid",
        "wrong-audience",
        "no-audience",
        "wrong-issuer",
        "no-expiry",
        "huge-expiry",
        "infinite-expiry",
        "huge-issued-at",
        "negative-not-before",
    ],
)
async def test_bad_claims_are_401_invalid_token(
    app_client: AppClient, issuer: Issuer, claims: dict[str, Any], reason: str
):
    now_claims = {key: value() if callable(value) else value for key, value in claims.items()}
    async with app_client() as client:
        response = await client.post("/mcp/tools/call", json=rest_call(), headers=bearer(issuer.token(**now_claims)))
    assert response.status_code == 401
    assert challenge(response).startswith('Bearer error="invalid_token", resource_metadata=')
    assert reason in response.json()["error_description"]


async def test_clock_skew_and_audience_forms_are_tolerated(app_client: AppClient, issuer: Issuer):
    tokens = [
        issuer.token(exp=int(time.time()) - 5),  # within the 30 s skew
        issuer.token(aud=["https://other.example", RESOURCE]),
        issuer.token(aud="HTTP://127.0.0.1:8080/mcp/"),
    ]
    async with app_client() as client:
        statuses = [
            (await client.post("/mcp/tools/call", json=rest_call(), headers=bearer(token))).status_code
            for token in tokens
        ]
    assert statuses == [200, 200, 200]


async def test_missing_scope_is_403_naming_every_scope_needed(app_client: AppClient, issuer: Issuer):
    tool_scopes = {"get_current_time": ["horologe:clock"]}
    read_only = issuer.token(scope="horologe:read")
    async with app_client(tool_scopes=tool_scopes) as client:
        refused = await client.post("/mcp", json=mcp_call(), headers={**MCP_HEADERS, **bearer(read_only)})
        rest = await client.post("/mcp/tools/call", json=rest_call(), headers=bearer(read_only))
        other_tool = await client.post(
            "/mcp/tools/call", json={"name": "date_info", "arguments": {}}, headers=bearer(read_only)
        )
        both = await client.post(
            "/mcp/tools/call", json=rest_call(), headers=bearer(issuer.token(scope="horologe:clock horologe:read"))
        )
        no_scope = await client.post(
            "/mcp/tools/call",
            json={"name": "date_info", "arguments": {}},
            headers=bearer(issuer.token(scope=None)),
        )
    assert refused.status_code == rest.status_code == 403
    assert challenge(refused) == challenge(rest)
    assert challenge(refused).startswith('Bearer error="insufficient_scope", resource_metadata=')
    assert 'scope="horologe:read horologe:clock"' in challenge(refused)
    assert other_tool.status_code == 200 and both.status_code == 200
    assert no_scope.status_code == 403 and 'scope="horologe:read"' in challenge(no_scope)


async def test_a_broader_scope_implies_narrower_ones(app_client: AppClient, issuer: Issuer):
    implied = {"horologe:admin": ["horologe:write"], "horologe:write": ["horologe:read"]}
    token = issuer.token(scope=None, scp=["horologe:admin"])
    async with app_client(implied_scopes=implied, tool_scopes={"get_current_time": ["horologe:write"]}) as client:
        response = await client.post("/mcp/tools/call", json=rest_call(), headers=bearer(token))
    assert response.status_code == 200


async def test_unknown_kid_refetches_the_jwks_so_rotation_needs_no_restart(app_client: AppClient, issuer: Issuer):
    async with app_client(jwks_min_refresh_seconds=0) as client:
        assert (
            await client.post("/mcp/tools/call", json=rest_call(), headers=bearer(issuer.token()))
        ).status_code == 200
        rotated = new_key("ES256")
        early = issuer.token(key=rotated)  # signed with a key the JWKS does not publish yet
        refused = await client.post("/mcp/tools/call", json=rest_call(), headers=bearer(early))
        issuer.keys = [rotated]
        accepted = await client.post("/mcp/tools/call", json=rest_call(), headers=bearer(issuer.token(key=rotated)))
    assert refused.status_code == 401 and "does not know" in refused.json()["error_description"]
    assert accepted.status_code == 200
    assert issuer.jwks_fetches == 3


async def test_unknown_kid_refetches_are_rate_limited(app_client: AppClient, issuer: Issuer):
    strangers = [issuer.token(key=new_key("EdDSA")) for _ in range(20)]
    async with app_client(jwks_min_refresh_seconds=60) as client:
        await client.post("/mcp/tools/call", json=rest_call(), headers=bearer(issuer.token()))
        statuses = {
            (await client.post("/mcp/tools/call", json=rest_call(), headers=bearer(token))).status_code
            for token in strangers
        }
    assert statuses == {401}
    assert issuer.jwks_fetches == 1


async def test_alg_none_and_hs256_with_the_public_key_are_refused(app_client: AppClient, issuer: Issuer):
    claims = b64(json.dumps(issuer.claims()).encode())
    kid = issuer.keys[0].kid
    unsigned = f"{b64(json.dumps({'alg': 'none', 'typ': 'JWT', 'kid': kid}).encode())}.{claims}."
    pem = (
        issuer.keys[0]
        .private.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    signing_input = f"{b64(json.dumps({'alg': 'HS256', 'typ': 'JWT', 'kid': kid}).encode())}.{claims}"
    forged = f"{signing_input}.{b64(hmac.new(pem, signing_input.encode(), hashlib.sha256).digest())}"
    # An RS256 header pointing at the EC key: the key type does not fit the algorithm.
    confused = issuer.token(key=issuer.keys[0], headers={"kid": issuer.keys[1].kid})
    async with app_client() as client:
        responses = [
            await client.post("/mcp/tools/call", json=rest_call(), headers=bearer(token))
            for token in (unsigned, forged, confused)
        ]
    assert [response.status_code for response in responses] == [401, 401, 401]
    assert "algorithm" in responses[0].json()["error_description"]
    assert "algorithm" in responses[1].json()["error_description"]


async def test_a_tampered_signature_is_refused(app_client: AppClient, issuer: Issuer):
    head, _, signature = issuer.token().split(".")
    other = b64(json.dumps(issuer.claims(sub="admin")).encode())
    async with app_client() as client:
        response = await client.post("/mcp/tools/call", json=rest_call(), headers=bearer(f"{head}.{other}.{signature}"))
    assert response.status_code == 401


async def test_a_token_in_the_query_string_is_refused(app_client: AppClient, issuer: Issuer):
    token = issuer.token()
    async with app_client() as client:
        alone = await client.post(f"/mcp/tools/call?access_token={token}", json=rest_call())
        with_header = await client.post(
            f"/mcp/tools/call?access_token={token}", json=rest_call(), headers=bearer(token)
        )
    assert alone.status_code == with_header.status_code == 400
    assert 'error="invalid_request"' in challenge(alone)


@pytest.mark.parametrize(
    ("value", "status"),
    [
        ("Bearer", 401),
        ("Bearer ", 401),
        ("Basic dXNlcjpwYXNz", 401),
        ("Bearer a b", 401),
        ("Bearer tok\u00e9n", 401),
        ("Bearer not-a-jwt", 401),
        ("Bearer a.b.c", 401),
        ("Bearer " + "A" * 9000, 401),
        ("Bearer " + "A" * 1_048_576, 401),
        ("", 401),
    ],
    ids=["no-token", "empty", "basic", "two-words", "latin1", "opaque", "bad-jwt", "9k", "1MB", "blank"],
)
async def test_malformed_authorization_headers_are_refused(app_client: AppClient, value: str, status: int):
    async with app_client() as client:
        response = await client.post(
            "/mcp/tools/call", json=rest_call(), headers={b"Authorization": value.encode("latin-1")}
        )
    assert response.status_code == status
    assert challenge(response).startswith("Bearer ")


async def test_two_authorization_headers_are_a_bad_request(app_client: AppClient, issuer: Issuer):
    token = issuer.token()
    async with app_client() as client:
        response = await client.post(
            "/mcp/tools/call",
            json=rest_call(),
            headers=[("Authorization", f"Bearer {token}"), ("Authorization", f"Bearer {token}")],
        )
    assert response.status_code == 400


async def test_the_scheme_name_is_case_insensitive(app_client: AppClient, issuer: Issuer):
    async with app_client() as client:
        response = await client.post(
            "/mcp/tools/call", json=rest_call(), headers={"Authorization": f"bEARER {issuer.token()}"}
        )
    assert response.status_code == 200


async def test_health_readiness_and_metadata_stay_public(app_client: AppClient, issuer: Issuer):
    async with app_client() as client:
        statuses = [(await client.get(path)).status_code for path in ("/healthz", "/readyz", "/metrics")]
        inserted = await client.get("/.well-known/oauth-protected-resource/mcp")
        root = await client.get("/.well-known/oauth-protected-resource")
        capabilities = await client.get("/mcp/capabilities")
    assert statuses == [200, 200, 200]
    assert (
        inserted.json()
        == root.json()
        == {
            "resource": RESOURCE,
            "authorization_servers": [issuer.url],
            "scopes_supported": ["horologe:read"],
            "bearer_methods_supported": ["header"],
            "resource_name": "horologe",
        }
    )
    assert capabilities.status_code == 401


async def test_metrics_can_be_protected_with_their_own_scope(app_client: AppClient, issuer: Issuer):
    async with app_client(protect_metrics=True) as client:
        anonymous = await client.get("/metrics")
        reader = await client.get("/metrics", headers=bearer(issuer.token()))
        scraper = await client.get("/metrics", headers=bearer(issuer.token(scope="horologe:metrics")))
    assert anonymous.status_code == 401 and 'scope="horologe:metrics"' in challenge(anonymous)
    assert reader.status_code == 403 and scraper.status_code == 200


async def test_an_unreachable_jwks_is_503_and_recovers(app_client: AppClient, issuer: Issuer):
    issuer.jwks_status = 500
    async with app_client(jwks_min_refresh_seconds=0) as client:
        down = await client.post("/mcp/tools/call", json=rest_call(), headers=bearer(issuer.token()))
        issuer.jwks_status = 200
        up = await client.post("/mcp/tools/call", json=rest_call(), headers=bearer(issuer.token()))
    assert down.status_code == 503 and down.headers["retry-after"] == "5"
    assert up.status_code == 200


async def test_a_flooding_jwks_is_read_only_up_to_its_limit(app_client: AppClient, issuer: Issuer):
    issuer.flood_bytes = 200 * 1024 * 1024
    async with app_client() as client:
        response = await client.post("/mcp/tools/call", json=rest_call(), headers=bearer(issuer.token()))
    assert response.status_code == 503
    assert issuer.flood_sent < 50 * 1024 * 1024  # the limit (512 KiB) and the sockets' buffers, not the whole answer


async def test_a_slow_jwks_is_bounded_by_the_http_timeout(app_client: AppClient, issuer: Issuer):
    issuer.delay = 30.0
    started = time.monotonic()
    async with app_client(http_timeout_seconds=0.3) as client:
        response = await client.post("/mcp/tools/call", json=rest_call(), headers=bearer(issuer.token()))
    assert response.status_code == 503 and time.monotonic() - started < 20  # the timeout, not the issuer, ended it
    issuer.delay = 0.0


async def test_tokens_are_never_logged(app_client: AppClient, issuer: Issuer, caplog: pytest.LogCaptureFixture):
    caplog.set_level(logging.DEBUG)
    expired = issuer.token(exp=int(time.time()) - 600)
    good = issuer.token()
    async with app_client() as client:
        await client.post("/mcp/tools/call", json=rest_call(), headers=bearer(expired))
        await client.post("/mcp/tools/call", json=rest_call(), headers=bearer(good))
    assert "refused a token" in caplog.text
    assert expired not in caplog.text and good not in caplog.text
    assert expired.split(".")[2] not in caplog.text


async def test_verified_tokens_are_cached_but_expire_on_time(app_client: AppClient, issuer: Issuer):
    settings = auth_settings(issuer)
    token = issuer.token()
    async with app_client(settings) as client:
        for _ in range(3):
            assert (await client.post("/mcp/tools/call", json=rest_call(), headers=bearer(token))).status_code == 200
    assert issuer.jwks_fetches == 1
