"""`--stateful` sessions: how many one client may open, and a clear answer when the process holds all it may.

The SDK's session manager caps the open sessions (`http.max_sessions`) and closes idle ones
(`http.session_idle_seconds`); it answers a session it cannot open with 503 and an "Internal error" code. This
layer counts the sessions each client opens (`http.new_sessions_per_client`, per token subject when auth is on,
else per client IP; in the rate limiter's store, so replicas sharing Redis share the count) and answers 429 past
that rate, and it turns the SDK's 503 into the error table's answer, with Retry-After. A client opening sessions
at the rate holds at most rate x idle time of them, so a few clients cannot fill the table for everyone.
"""

from __future__ import annotations

import math

from limits import parse_many
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from horologe.config import HttpSection
from horologe.http.asgi import header, refuse
from horologe.http.errors import TooManyNewSessions, TooManySessions
from horologe.http.ratelimit import ClientAddress, Counter, StoreUnavailable
from horologe.http.request import facts_of


class SessionLimit:
    """POST /mcp with `--stateful`: new sessions per client, and the answer when every session is taken."""

    def __init__(self, app: ASGIApp, http: HttpSection, counter: Counter, addresses: ClientAddress) -> None:
        self.app = app
        self.counter = counter
        self.addresses = addresses
        self.items = parse_many(http.new_sessions_per_client) if http.new_sessions_per_client.strip() else []
        self.max_sessions = http.max_sessions
        self.retry_seconds = min(60, math.ceil(http.session_idle_seconds))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Count a request that opens a session against its client; answer a full session table clearly."""
        if not _opens_session(scope):
            await self.app(scope, receive, send)
            return
        try:
            verdict = await self.counter.hit("new_sessions", self.addresses.identity(scope), self.items, 1)
        except StoreUnavailable:
            verdict = None  # the session table's own cap still holds
        if verdict is not None and not verdict.allowed:
            await refuse(send, TooManyNewSessions(seconds=verdict.reset), headers=verdict.headers(), scope=scope)
            return
        await self.app(scope, receive, self._answering_when_full(send, scope))

    def _answering_when_full(self, send: Send, scope: Scope) -> Send:
        replaced = False

        async def answering(message: Message) -> None:
            nonlocal replaced
            if message["type"] == "http.response.start" and message["status"] == 503:
                replaced = True
                error = TooManySessions(limit=self.max_sessions, seconds=self.retry_seconds)
                await refuse(send, error, headers=[(b"retry-after", str(self.retry_seconds).encode())], scope=scope)
            elif not replaced:
                await send(message)

        return answering


def _opens_session(scope: Scope) -> bool:
    facts = facts_of(scope)
    return facts is not None and facts.method == "initialize" and header(scope, b"mcp-session-id") is None
