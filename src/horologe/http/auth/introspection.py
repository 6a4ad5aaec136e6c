"""Opaque access tokens through RFC 7662 introspection, with a short cache of positive answers.

Only active tokens are cached, each for at most `cache_seconds` and never past its `exp`; revocation therefore
takes effect within `cache_seconds`. The introspection response must name this resource in `aud` (RFC 8707).
"""

from __future__ import annotations

import json
import logging
from typing import Any

import httpx2
from mcp.server.auth.provider import AccessToken

from horologe.clock import Clock, SystemClock
from horologe.http.auth.fetch import TooLarge, limited_body
from horologe.http.auth.tokens import TokenCache, TokenRejected, VerifierUnavailable, access_token, audience_matches
from horologe.http.auth.tokens import check_times as check_token_times

logger = logging.getLogger("horologe.http.auth")
MAX_RESPONSE_BYTES = 64 * 1024


class IntrospectionVerifier:
    """Asks the authorization server about each token it has not seen recently (client_secret_basic auth)."""

    def __init__(
        self,
        *,
        endpoint: str,
        client_id: str,
        client_secret: str,
        issuer: str,
        resource: str,
        client: httpx2.AsyncClient,
        cache_seconds: float,
        skew: float,
        clock: Clock | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.auth = httpx2.BasicAuth(client_id, client_secret)
        self.issuer = issuer
        self.resource = resource
        self.client = client
        self.skew = skew
        self.clock = clock or SystemClock()
        self.cache = TokenCache(cache_seconds, self.clock, skew)
        self.calls = 0

    async def verify(self, token: str) -> AccessToken:
        """The verified token; raises TokenRejected or VerifierUnavailable."""
        cached = self.cache.get(token)
        if cached is not None:
            return cached
        claims = await self._introspect(token)
        if claims.get("active") is not True:
            raise TokenRejected("The access token is not active.")
        if "iss" in claims and claims["iss"] != self.issuer:
            raise TokenRejected("The access token was issued by another authorization server.")
        if not audience_matches(claims.get("aud"), self.resource):
            raise TokenRejected("The access token was not issued for this resource (audience).")
        check_token_times(claims, self.clock.now().timestamp(), self.skew)
        verified = access_token(token, claims, self.resource)
        self.cache.put(token, verified, claims)
        return verified

    async def _introspect(self, token: str) -> dict[str, Any]:
        self.calls += 1
        try:
            status, body = await limited_body(
                self.client,
                "POST",
                self.endpoint,
                MAX_RESPONSE_BYTES,
                data={"token": token, "token_type_hint": "access_token"},
                auth=self.auth,
                headers={"Accept": "application/json"},
            )
        except httpx2.HTTPError as exc:
            logger.warning("introspection endpoint %s unreachable: %s", self.endpoint, type(exc).__name__)
            raise VerifierUnavailable("The authorization server could not be reached.") from None
        except TooLarge:
            logger.warning("introspection endpoint %s answered more than %d bytes", self.endpoint, MAX_RESPONSE_BYTES)
            raise VerifierUnavailable("The authorization server did not answer the introspection request.") from None
        if status != 200:
            logger.warning("introspection endpoint %s answered HTTP %d", self.endpoint, status)
            raise VerifierUnavailable("The authorization server did not answer the introspection request.")
        try:
            claims = json.loads(body)
        except ValueError:
            claims = None
        if not isinstance(claims, dict):
            logger.warning("introspection endpoint %s answered something other than a JSON object", self.endpoint)
            raise VerifierUnavailable("The authorization server answered the introspection request with nonsense.")
        return claims

    async def aclose(self) -> None:
        """Close the HTTP client used for introspection."""
        await self.client.aclose()
