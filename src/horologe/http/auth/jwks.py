"""JWT access tokens checked against the issuer's JWKS: fetched over HTTP, cached, refreshed on an unknown `kid`.

Only asymmetric algorithms are accepted (the configured list never holds `none` or HS*), and a key is used only
for the algorithm its type allows, so a token "signed" with HS256 and a public key as the secret is refused.
Refetches on unknown `kid` are rate limited, so a flood of forged `kid`s costs the issuer one request per period.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from typing import Any

import anyio
import httpx2
import jwt
from mcp.server.auth.provider import AccessToken

from horologe.clock import Clock, SystemClock
from horologe.http.auth.fetch import limited_body
from horologe.http.auth.tokens import (
    TokenCache,
    TokenRejected,
    VerifierUnavailable,
    access_token,
    audience_matches,
    check_times,
)

logger = logging.getLogger("horologe.http.auth")
MAX_JWKS_BYTES = 512 * 1024
# Which key types may verify which algorithm (a JWK without `alg` is still bound by its `kty`).
KEY_TYPES = {"RS": "RSA", "PS": "RSA", "ES": "EC", "Ed": "OKP"}


@dataclass(frozen=True, slots=True)
class SigningKey:
    """One public key from the JWKS, with the JWK members that decide what it may verify."""

    kid: str | None
    kty: str
    alg: str | None
    key: Any

    def fits(self, algorithm: str) -> bool:
        """Whether this key may verify this algorithm: its `alg` (when given) agrees and its type matches."""
        return (self.alg is None or self.alg == algorithm) and self.kty == KEY_TYPES.get(algorithm[:2])


class JWKSCache:
    """The issuer's signing keys by `kid`; refetched when older than `ttl` or, at most every `min_refresh`
    seconds, when a token names a `kid` we do not know (key rotation without restart)."""

    def __init__(self, url: str, client: httpx2.AsyncClient, ttl: float, min_refresh: float) -> None:
        self.url = url
        self.client = client
        self.ttl = ttl
        self.min_refresh = min_refresh
        self._keys: list[SigningKey] = []
        self._fetched_at: float | None = None
        self._attempted_at = float("-inf")
        self._lock = anyio.Lock()
        self.fetches = 0

    async def candidates(self, kid: str | None) -> list[SigningKey]:
        """Keys that may have signed a token with this `kid` (all keys when the token names none)."""
        now = time.monotonic()
        stale = self._fetched_at is None or now - self._fetched_at >= self.ttl
        if stale and now - self._attempted_at >= self.min_refresh:
            await self._refresh(now)
        found = self._matching(kid)
        if not found and kid is not None and time.monotonic() - self._attempted_at >= self.min_refresh:
            await self._refresh(time.monotonic())
            found = self._matching(kid)
        if not found and self._fetched_at is None:
            raise VerifierUnavailable("The issuer's keys could not be fetched.")
        return found

    def _matching(self, kid: str | None) -> list[SigningKey]:
        return [key for key in self._keys if kid is None or key.kid == kid]

    async def _refresh(self, asked_at: float) -> None:
        async with self._lock:
            if self._attempted_at >= asked_at:
                return  # another request refreshed while this one waited
            self._attempted_at = time.monotonic()
            self.fetches += 1
            try:
                self._keys = await self._fetch()
                self._fetched_at = time.monotonic()
            except (httpx2.HTTPError, ValueError, jwt.PyJWTError) as exc:
                # Keep the keys we have (stale beats nothing); a first failure makes the verifier unavailable.
                logger.warning("could not refresh the JWKS from %s: %s", self.url, type(exc).__name__)

    async def _fetch(self) -> list[SigningKey]:
        status, body = await limited_body(
            self.client, "GET", self.url, MAX_JWKS_BYTES, headers={"Accept": "application/json"}
        )
        if status != 200:
            raise ValueError(f"JWKS answered HTTP {status}")
        document = json.loads(body)
        if not isinstance(document, dict) or not isinstance(document.get("keys"), list):
            raise ValueError("JWKS is not an object with a 'keys' list")
        keys = []
        for entry in document["keys"]:
            if not isinstance(entry, dict) or entry.get("use", "sig") != "sig" or entry.get("kty") == "oct":
                continue  # encryption keys and shared secrets never verify access tokens
            try:
                parsed = jwt.PyJWK.from_dict(entry)
            except jwt.PyJWTError:
                logger.info("skipping an unusable key (kid %r) in the JWKS", str(entry.get("kid"))[:64])
                continue
            kid, alg = entry.get("kid"), entry.get("alg")
            keys.append(SigningKey(_text(kid), str(entry["kty"]), _text(alg), parsed.key))
        return keys


class JWTVerifier:
    """JWT access tokens: signature by the issuer's JWKS, `iss`, `aud` naming this resource, `exp`/`nbf`."""

    def __init__(
        self,
        *,
        issuer: str,
        resource: str,
        jwks: JWKSCache,
        algorithms: tuple[str, ...],
        skew: float,
        clock: Clock | None = None,
        cache_seconds: float = 60.0,
    ) -> None:
        self.issuer = issuer
        self.resource = resource
        self.jwks = jwks
        self.algorithms = algorithms
        self.skew = skew
        self.clock = clock or SystemClock()
        self.cache = TokenCache(cache_seconds, self.clock, skew)

    async def verify(self, token: str) -> AccessToken:
        """The verified token; raises TokenRejected or VerifierUnavailable."""
        cached = self.cache.get(token)
        if cached is not None:
            return cached
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError:
            raise TokenRejected("The access token is not a well-formed JWT.") from None
        algorithm, kid = header.get("alg"), header.get("kid")
        if not isinstance(algorithm, str) or algorithm not in self.algorithms:
            raise TokenRejected("The access token's signing algorithm is not accepted.")
        if kid is not None and not isinstance(kid, str):
            raise TokenRejected("The access token's key id is not a string.")
        keys = [key for key in await self.jwks.candidates(kid) if key.fits(algorithm)]
        if not keys:
            raise TokenRejected("The access token was signed with a key this server does not know.")
        if kid is None and len(keys) > 1:
            raise TokenRejected("The access token names no key id and the issuer has several keys.")
        claims = self._decode(token, keys[0], algorithm)
        verified = access_token(token, claims, self.resource)
        self.cache.put(token, verified, claims)
        return verified

    def _decode(self, token: str, key: SigningKey, algorithm: str) -> dict[str, Any]:
        try:
            claims: dict[str, Any] = jwt.decode(
                token,
                key.key,
                algorithms=[algorithm],
                issuer=self.issuer,
                leeway=self.skew,
                options={"require": ["exp", "iss", "aud"], "verify_aud": False},
            )
        except jwt.ExpiredSignatureError:
            raise TokenRejected("The access token expired.") from None
        except jwt.ImmatureSignatureError:
            raise TokenRejected("The access token is not valid yet.") from None
        except jwt.InvalidIssuerError:
            raise TokenRejected("The access token was issued by another authorization server.") from None
        except jwt.MissingRequiredClaimError as exc:
            raise TokenRejected(f"The access token has no '{exc.claim}' claim.") from None
        except jwt.PyJWTError:
            raise TokenRejected("The access token's signature or claims are invalid.") from None
        if not audience_matches(claims.get("aud"), self.resource):
            raise TokenRejected("The access token was not issued for this resource (audience).")
        check_times(claims, self.clock.now().timestamp(), self.skew)
        return claims

    async def aclose(self) -> None:
        """Close the HTTP client used for the JWKS."""
        await self.jwks.client.aclose()


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None
