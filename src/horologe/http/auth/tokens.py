"""What token verifiers share: their two failure kinds, audience and scope reading, and a short verified-token cache.

A verifier answers with the SDK's `AccessToken`, raises `TokenRejected` for a token that is not good for this
server (401) and `VerifierUnavailable` when it cannot tell because the issuer is unreachable (503).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable
from typing import Any, Final, Protocol
from urllib.parse import urlsplit, urlunsplit

from mcp.server.auth.provider import AccessToken

from horologe.clock import Clock


class TokenRejected(Exception):
    """The token is missing something, expired, forged or meant for someone else (HTTP 401 invalid_token)."""


class VerifierUnavailable(Exception):
    """The issuer's JWKS or introspection endpoint could not be reached or answered nonsense (HTTP 503)."""


class TokenVerifier(Protocol):
    """Turns a bearer token into an AccessToken for this resource, or raises."""

    async def verify(self, token: str) -> AccessToken:
        """The verified token; raises TokenRejected or VerifierUnavailable."""
        ...

    async def aclose(self) -> None:
        """Release network clients."""
        ...


def canonical_url(url: str) -> str:
    """A resource URL compared the RFC 8707 way: scheme and host lower-cased, no fragment, no trailing slash."""
    parts = urlsplit(url.strip())
    path = parts.path.rstrip("/") if parts.path != "/" else ""
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, parts.query, ""))


def audience_matches(audience: object, resource: str) -> bool:
    """Whether a token's `aud` (a string or a list of strings) names this resource."""
    values = [audience] if isinstance(audience, str) else audience if isinstance(audience, list) else []
    wanted = canonical_url(resource)
    return any(isinstance(value, str) and canonical_url(value) == wanted for value in values)


def scopes_of(claims: dict[str, Any]) -> list[str]:
    """Scopes from `scope` (space-separated, RFC 9068/7662) or `scp` (a list or a string, common in the wild)."""
    for key in ("scope", "scp"):
        value = claims.get(key)
        if isinstance(value, str):
            return value.split()
        if isinstance(value, list):
            return [item for item in value if isinstance(item, str)]
    return []


def access_token(token: str, claims: dict[str, Any], resource: str) -> AccessToken:
    """The SDK's AccessToken for verified claims (client_id from `client_id` or `azp`)."""
    client_id = claims.get("client_id") or claims.get("azp") or ""
    subject = claims.get("sub")
    expires = claims.get("exp")
    return AccessToken(
        token=token,
        client_id=str(client_id),
        scopes=scopes_of(claims),
        expires_at=int(expires) if isinstance(expires, int | float) else None,
        resource=resource,
        subject=str(subject) if subject is not None else None,
        claims={key: claims[key] for key in ("iss", "sub", "client_id", "azp", "jti") if key in claims},
    )


LATEST_SECONDS: Final = 253_402_300_799
"""9999-12-31T23:59:59Z: a time claim past it (or before 1970, or not finite) is refused, never computed with."""


def check_times(claims: dict[str, Any], now: float, skew: float) -> None:
    """`exp`, `nbf` and `iat` are times in range, and `exp`/`nbf` hold against the clock with `skew` seconds of
    tolerance; raises TokenRejected."""
    expires, not_before = claims.get("exp"), claims.get("nbf")
    for name in ("exp", "nbf", "iat"):
        value = claims.get(name)
        if value is not None and not _seconds(value):
            raise TokenRejected(f"The access token's '{name}' claim is not a time in seconds between 1970 and 9999.")
    if expires is not None and expires + skew <= now:
        raise TokenRejected("The access token expired.")
    if not_before is not None and not_before - skew > now:
        raise TokenRejected("The access token is not valid yet.")


def _seconds(value: object) -> bool:
    """Whether a claim is a number of seconds between 1970 and 9999 (not a boolean, not infinite or NaN)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= LATEST_SECONDS


class TokenCache:
    """Verified tokens by their SHA-256, each until `ttl` passes or the token expires; bounded in size (oldest out)."""

    def __init__(self, ttl: float, clock: Clock, skew: float, max_entries: int = 10_000) -> None:
        self.ttl = ttl
        self.clock = clock
        self.skew = skew
        self.max_entries = max_entries
        self._entries: dict[bytes, tuple[float, AccessToken, dict[str, Any]]] = {}

    def get(self, token: str) -> AccessToken | None:
        """The cached verification, if still fresh and the token is still within its validity."""
        key = hashlib.sha256(token.encode()).digest()
        entry = self._entries.get(key)
        if entry is None:
            return None
        until, verified, times = entry
        if time.monotonic() >= until:
            del self._entries[key]
            return None
        try:
            check_times(times, self.clock.now().timestamp(), self.skew)
        except TokenRejected:
            del self._entries[key]
            return None
        return verified

    def put(self, token: str, verified: AccessToken, claims: dict[str, Any]) -> None:
        """Remember a verified token (with its `exp`/`nbf`, re-checked on every hit)."""
        if self.ttl <= 0:
            return
        while len(self._entries) >= self.max_entries:
            del self._entries[next(iter(self._entries))]
        times: dict[str, Any] = {key: claims[key] for key in ("exp", "nbf") if key in claims}
        self._entries[hashlib.sha256(token.encode()).digest()] = (time.monotonic() + self.ttl, verified, times)


def expand_scopes(granted: Iterable[str], implied: dict[str, tuple[str, ...]]) -> frozenset[str]:
    """Granted scopes plus every scope they imply, transitively (a broader scope includes narrower ones)."""
    result: set[str] = set()
    pending = list(granted)
    while pending:
        scope = pending.pop()
        if scope not in result:
            result.add(scope)
            pending.extend(implied.get(scope, ()))
    return frozenset(result)
