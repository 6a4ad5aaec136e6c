"""The bearer-token gate on the protected routes: /mcp, the REST endpoints, /openapi.json and (when configured)
/metrics.

Answers, before anything reaches JSON-RPC:
- no token (or another scheme): 401 `WWW-Authenticate: Bearer resource_metadata="…", scope="…"`;
- a bad, expired or foreign token: 401 with `error="invalid_token"` as well;
- a good token without every scope the operation needs: 403 `error="insufficient_scope"`, naming all of them;
- two Authorization headers, or a token in the query string: 400 `error="invalid_request"`;
- the issuer unreachable: 503 with Retry-After.
Tokens are read from the Authorization header only and are never logged or echoed.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import parse_qsl

from mcp.server.auth.middleware.auth_context import auth_context_var
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from starlette.authentication import AuthCredentials
from starlette.types import ASGIApp, Receive, Scope, Send

from horologe.http.asgi import TOKEN_REFUSED_KEY, content_language, respond
from horologe.http.auth.scopes import ScopePolicy
from horologe.http.auth.tokens import TokenRejected, TokenVerifier, VerifierUnavailable
from horologe.http.errors import (
    AuthRefused,
    AuthRequired,
    AuthUnavailable,
    InsufficientScope,
    SeveralAuthorizations,
    TokenInQuery,
    TokenMalformed,
    TokenRefused,
    edge_status,
    oauth_body,
)
from horologe.http.request import ASKED_LANGUAGE_KEY, facts_of, language_of

logger = logging.getLogger("horologe.http.auth")
MAX_TOKEN_CHARS = 8192
# RFC 6750 §2.1 b64token.
TOKEN_SYNTAX = re.compile(r"[A-Za-z0-9\-._~+/]+=*")


class BearerAuth:
    """ASGI middleware: verify the bearer token and the operation's scopes, then record who called."""

    def __init__(self, app: ASGIApp, verifier: TokenVerifier, policy: ScopePolicy, metadata_url: str) -> None:
        self.app = app
        self.verifier = verifier
        self.policy = policy
        self.metadata_url = metadata_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        facts = facts_of(scope)
        needed = self.policy.needed(facts.operations if facts is not None else ())
        if any(key == "access_token" for key, _ in parse_qsl(scope.get("query_string", b"").decode("latin-1"))):
            await self._refuse(send, needed, TokenInQuery(), scope)
            return
        values = [value for key, value in scope["headers"] if key == b"authorization"]
        if len(values) > 1:
            await self._refuse(send, needed, SeveralAuthorizations(), scope)
            return
        scheme, _, token = (values[0].decode("latin-1") if values else "").partition(" ")
        if scheme.lower() != "bearer":
            await self._refuse(send, needed, AuthRequired(), scope)
            return
        token = token.strip(" ")
        if len(token) > MAX_TOKEN_CHARS or not TOKEN_SYNTAX.fullmatch(token):
            scope.setdefault("state", {})[TOKEN_REFUSED_KEY] = True
            await self._refuse(send, needed, TokenMalformed(), scope)
            return
        try:
            verified = await self.verifier.verify(token)
        except TokenRejected as exc:
            logger.info("refused a token on %s: %s", scope["path"][:100], exc)
            scope.setdefault("state", {})[TOKEN_REFUSED_KEY] = True
            await self._refuse(send, needed, TokenRefused(reason=str(exc)), scope)
            return
        except VerifierUnavailable as exc:
            await self._refuse(send, needed, AuthUnavailable(reason=str(exc)), scope)
            return
        if self.policy.missing(needed, verified.scopes):
            await self._refuse(send, needed, InsufficientScope(scopes=" ".join(needed)), scope)
            return
        user = AuthenticatedUser(verified)
        scope["user"], scope["auth"] = user, AuthCredentials(verified.scopes)
        reset = auth_context_var.set(user)
        try:
            await self.app(scope, receive, send)
        finally:
            auth_context_var.reset(reset)

    async def _refuse(self, send: Send, needed: tuple[str, ...], refusal: AuthRefused, scope: Scope) -> None:
        """The OAuth answer: the RFC 6750 body in the language the request asked for; the challenge (a latin-1
        header) in English; an issuer that cannot be reached is no challenge, only a retry."""
        language = language_of(scope, ASKED_LANGUAGE_KEY)
        headers = content_language(language)
        if isinstance(refusal, AuthUnavailable):
            headers.append((b"retry-after", b"5"))
        else:
            params = [f'resource_metadata="{self.metadata_url}"', f'scope="{" ".join(needed)}"']
            if refusal.oauth_error is not None:
                params = [f'error="{refusal.oauth_error}"', *params, f'error_description="{_quoted(str(refusal))}"']
            headers.append((b"www-authenticate", ("Bearer " + ", ".join(params)).encode()))
        await respond(send, edge_status(refusal).status, oauth_body(refusal, language), headers)


def _quoted(text: str) -> str:
    return text.replace("\\", "").replace('"', "'")
