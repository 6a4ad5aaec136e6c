"""DNS-rebinding protection on the routes that serve users: the Host and Origin allow-lists, 421 for a foreign
Host, 403 for a foreign Origin. Probes and scrapers address pods by IP: their routes do not pass this guard."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from starlette.types import ASGIApp, Receive, Scope, Send

from horologe.config import LOOPBACK_HOSTS, is_loopback
from horologe.http.asgi import header, refuse
from horologe.http.errors import ForbiddenOrigin, MisdirectedHost

logger = logging.getLogger("horologe.http")


@dataclass(frozen=True, slots=True)
class AccessPolicy:
    """Which Host and Origin header values are accepted ('*' accepts any; 'name:*' any port)."""

    hosts: tuple[str, ...]
    origins: tuple[str, ...]

    @classmethod
    def for_bind(cls, bind_host: str, hosts: Iterable[str], origins: Iterable[str]) -> AccessPolicy:
        """The configured lists, or localhost defaults when bound to loopback; refuses a public bind without a list."""
        hosts, origins = tuple(hosts), tuple(origins)
        if not hosts:
            if not is_loopback(bind_host):
                raise ValueError(
                    f"binding to {bind_host} needs an explicit Host allow-list so DNS-rebinding protection stays on: "
                    "pass --allowed-host api.example.com (repeatable) or set HOROLOGE_HTTP__ALLOWED_HOSTS='[\"...\"]'; "
                    "use '*' only behind a proxy that checks Host itself"
                )
            hosts = LOOPBACK_HOSTS
        if not origins:
            origins = tuple(f"{scheme}://{host}:*" for host in hosts if host != "*" for scheme in ("http", "https"))
        return cls(hosts, origins)

    def host_allowed(self, value: str | None) -> bool:
        """Whether a Host header is on the list."""
        return value is not None and _allowed(value.lower(), self.hosts)

    def origin_allowed(self, value: str) -> bool:
        """Whether an Origin header is on the list."""
        return _allowed(value.lower(), self.origins)


MOST_REMEMBERED: Final = 1024
"""Accepted values remembered at most: the same few Host and Origin values arrive on every request."""
_accepted: set[tuple[str, tuple[str, ...]]] = set()


def _allowed(value: str, patterns: tuple[str, ...]) -> bool:
    """Whether a value matches a list. Only accepted values are remembered, and at most `MOST_REMEMBERED` of
    them: a refused value (any header a client makes up) never stays in memory."""
    if (value, patterns) in _accepted:
        return True
    if not any(_matches(value, pattern.lower()) for pattern in patterns):
        return False
    if len(_accepted) < MOST_REMEMBERED:
        _accepted.add((value, patterns))
    return True


def _matches(value: str, pattern: str) -> bool:
    if pattern == "*":
        return True
    if pattern.endswith(":*"):
        base = pattern[:-2]
        return value == base or (value.startswith(base + ":") and _is_port(value[len(base) + 1 :]))
    if value == pattern:
        return True
    # A pattern without a port accepts that host on any port.
    return (
        ":" not in pattern.rsplit("]", 1)[-1] and value.startswith(pattern + ":") and _is_port(value.rsplit(":", 1)[1])
    )


def _is_port(text: str) -> bool:
    """ASCII digits only: `str.isdigit` also takes '²' and other scripts' digits."""
    return text.isascii() and text.isdigit()


class HostOriginGuard:
    """DNS-rebinding protection on a route: 421 for a foreign Host, 403 for a foreign Origin."""

    def __init__(self, app: ASGIApp, policy: AccessPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        host = header(scope, b"host")
        if not self.policy.host_allowed(host):
            logger.warning("refused Host %r on %s", (host or "")[:100], scope["path"])
            await refuse(send, MisdirectedHost())
            return
        origin = header(scope, b"origin")
        if origin is not None and not self.policy.origin_allowed(origin):
            logger.warning("refused Origin %r on %s", origin[:100], scope["path"])
            await refuse(send, ForbiddenOrigin())
            return
        await self.app(scope, receive, send)
