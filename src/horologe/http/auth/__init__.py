"""OAuth 2.1 resource server for the HTTP transport: bearer tokens, audience and scope checks, RFC 9728 metadata.

stdio never uses this (the MCP spec: stdio takes credentials from the environment). `auth_layer(settings)` gives
`create_app` what it needs: the metadata routes (public: no gate), the gate for protected routes, the gate for
/metrics when it is protected, and the verifier to close at shutdown.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from functools import cache

import httpx2
from mcp.server.auth.provider import AccessToken
from starlette.middleware import Middleware
from starlette.routing import Route

from horologe.clock import Clock
from horologe.config import AuthSection
from horologe.http.auth.bearer import BearerAuth
from horologe.http.auth.introspection import IntrospectionVerifier
from horologe.http.auth.jwks import JWKSCache, JWTVerifier
from horologe.http.auth.metadata import metadata_routes, metadata_url
from horologe.http.auth.scopes import ScopePolicy
from horologe.http.auth.tokens import TokenRejected, TokenVerifier, VerifierUnavailable

__all__ = [
    "AuthLayer",
    "BearerAuth",
    "EitherVerifier",
    "IntrospectionVerifier",
    "JWKSCache",
    "JWTVerifier",
    "ScopePolicy",
    "TokenRejected",
    "TokenVerifier",
    "VerifierUnavailable",
    "auth_layer",
    "build_verifier",
]


@dataclass(frozen=True)
class AuthLayer:
    """What the HTTP app adds when auth is on: public routes, the gates routes pass, the verifier they share."""

    routes: list[Route]
    gate: list[Middleware]
    metrics_gate: list[Middleware]
    verifier: TokenVerifier


class EitherVerifier:
    """JWTs (three dot-separated parts) to the JWKS verifier, anything else to introspection."""

    def __init__(self, jwt: JWTVerifier, introspection: IntrospectionVerifier) -> None:
        self.jwt = jwt
        self.introspection = introspection

    async def verify(self, token: str) -> AccessToken:
        """The verified token; raises TokenRejected or VerifierUnavailable."""
        verifier: TokenVerifier = self.jwt if token.count(".") == 2 else self.introspection
        return await verifier.verify(token)

    async def aclose(self) -> None:
        """Close both verifiers' HTTP clients."""
        await self.jwt.aclose()
        await self.introspection.aclose()


def build_verifier(auth: AuthSection, clock: Clock | None = None) -> TokenVerifier:
    """The verifier for this configuration: JWKS, introspection, or both."""

    def client() -> httpx2.AsyncClient:
        return httpx2.AsyncClient(timeout=auth.http_timeout_seconds, follow_redirects=False, verify=_tls())

    jwt = introspection = None
    if auth.jwks_url:
        jwks = JWKSCache(auth.jwks_url, client(), auth.jwks_cache_seconds, auth.jwks_min_refresh_seconds)
        jwt = JWTVerifier(
            issuer=auth.issuer,
            resource=auth.resource,
            jwks=jwks,
            algorithms=auth.algorithms,
            skew=auth.clock_skew_seconds,
            clock=clock,
        )
    if auth.introspection_endpoint:
        introspection = IntrospectionVerifier(
            endpoint=auth.introspection_endpoint,
            client_id=auth.introspection_client_id,
            client_secret=auth.introspection_client_secret,
            issuer=auth.issuer,
            resource=auth.resource,
            client=client(),
            cache_seconds=auth.introspection_cache_seconds,
            skew=auth.clock_skew_seconds,
            clock=clock,
        )
    if jwt is not None and introspection is not None:
        return EitherVerifier(jwt, introspection)
    verifier = jwt or introspection
    if verifier is None:
        raise ValueError("auth.jwks_url or auth.introspection_endpoint is required when auth.enabled is true")
    return verifier


@cache
def _tls() -> ssl.SSLContext:
    """The TLS context every verifier's client uses, made once: httpx's own default, whose CA certificates took
    20-50 ms to load for each client (twice at start-up with both JWKS and introspection)."""
    return httpx2.create_ssl_context()


def auth_layer(auth: AuthSection, clock: Clock | None = None) -> AuthLayer:
    """Metadata routes and the bearer gates for an enabled auth section (one verifier for every route)."""
    verifier = build_verifier(auth, clock)
    implied = dict(auth.implied_scopes)
    policy = ScopePolicy(required=auth.required_scopes, per_tool=dict(auth.tool_scopes), implied=implied)
    url = metadata_url(auth.resource)
    gate = [Middleware(BearerAuth, verifier=verifier, policy=policy, metadata_url=url)]
    metrics_gate = []
    if auth.protect_metrics:
        metrics_policy = ScopePolicy(required=auth.metrics_scopes, implied=implied)
        metrics_gate = [Middleware(BearerAuth, verifier=verifier, policy=metrics_policy, metadata_url=url)]
    return AuthLayer(metadata_routes(auth), gate, metrics_gate, verifier)
