"""The refusals only the HTTP edge makes, and their rows on top of the protocol's error table.

Host and Origin, body sizes, media types, header agreement, rate limits, bearer tokens, timeouts, slow clients,
sessions and buffers: these are raised in `horologe.http` only, so they are defined here with their JSON-RPC code
and HTTP status (`EDGE_ANSWERS`, which extends `horologe.protocol.errors.ANSWERS`). A refusal is rendered once, by
`http.asgi.refuse` (a JSON-RPC error body) or, for bearer tokens, by `oauth_body` (RFC 6750's body beside the
`WWW-Authenticate` challenge). Its message is in the request's language when the edge knows it by then (the
language layer of the route has read `_meta` or `Accept-Language`; see `http.language`), else in English.

| error                                                 | code                  | HTTP status     |
|-------------------------------------------------------|-----------------------|-----------------|
| body or batch answer too large, Host, Origin, media type | -32600             | 413/421/403/415 |
| a REST body of the wrong shape                        | -32602                | 400             |
| header and body disagree                              | -32020                | 400             |
| rate limited, refused tokens, new sessions            | 429                   | 429             |
| bearer token missing or refused                       | OAuth body (RFC 6750) | 401/400         |
| token lacks a scope                                   | OAuth body (RFC 6750) | 403             |
| the request took too long                             | -32603                | 504             |
| request too slow, or its head too big                 | -32600                | 408/431         |
| a method the route does not serve                     | -32600                | 405             |
| Accept names no media type we answer                  | -32600                | 406             |
| unavailable: sessions, buffers, rate-limit store, issuer | 503                | 503             |
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar, Final

from horologe.core.messages import N_
from horologe.i18n.language import Language
from horologe.protocol.errors import ANSWERS, Answer, RequestError, answer_for, edge_answer, message_of
from horologe.wire import (
    FORBIDDEN,
    HEADER_MISMATCH,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    RATE_LIMITED,
    UNAUTHORIZED,
    UNAVAILABLE,
)


class BodyTooLarge(RequestError):
    """The request body is larger than the configured limit."""

    template = N_("Request body larger than {limit} bytes.")


class MisdirectedHost(RequestError):
    """The Host header names a host this server does not serve (DNS-rebinding protection)."""

    template = N_("Misdirected request: this Host is not served here.")


class ForbiddenOrigin(RequestError):
    """The Origin header names an origin that may not call this server."""

    template = N_("Forbidden: requests from this Origin are not allowed.")


class UnsupportedMediaType(RequestError):
    """A REST body that is not declared as JSON."""

    template = N_("Send the body as JSON with 'Content-Type: application/json'.")


class HeaderMismatch(RequestError):
    """An HTTP header disagrees with the value the body carries (SEP-2792, SEP-2243)."""

    kind = "header_mismatch"
    template = N_(
        "Bad Request: the request headers and body disagree: the request _meta {field} value is {body} but the "
        "{header} header is {value}"
    )


class RateLimited(RequestError):
    """The caller sent more requests than its rate allows."""

    kind = "rate_limited"
    template = N_("Too many requests: retry after {seconds} s.")


class TooManyRefusedTokens(RateLimited):
    """The caller's address sent too many refused tokens; its requests are refused unchecked for a while."""

    template = N_("Too many requests with refused tokens from this address: retry after {seconds} s.")


class RateLimitUnavailable(RequestError):
    """The rate-limit store cannot be reached and the server is configured to fail closed."""

    kind = "unavailable"
    template = N_("Rate limiting is unavailable right now; retry shortly.")


class RequestTimedOut(RequestError):
    """The request ran longer than the configured timeout and was stopped."""

    kind = "timeout"
    template = N_("The request took too long and was stopped.")


class RequestTooSlow(RequestError):
    """The request line, headers or body did not arrive within the configured deadline (a slow client)."""

    template = N_("The request did not arrive within {seconds} s; send the headers and the body without pauses.")


class HeadersTooLarge(RequestError):
    """The request line and headers are larger than the configured limit."""

    template = N_("Request line and headers larger than {limit} bytes.")


class MethodNotAllowed(RequestError):
    """An HTTP method the route does not serve (the answer's Allow header lists those it does)."""

    template = N_("Method {method} is not allowed on {path}; use {allowed}.")


class BatchAnswerTooLarge(RequestError):
    """A batch's answer reached its size limit: this message was not run."""

    template = N_(
        "The batch's answer reached {limit} bytes, so this request was not run; send it in a smaller batch or on its "
        "own."
    )


class NotAcceptable(RequestError):
    """The Accept header names none of the media types the answer can take."""

    template = N_("Not Acceptable: the Accept header must include {types}.")


class TooManySessions(RequestError):
    """`--stateful`: every session the process may hold is open; a new one must wait until one ends."""

    kind = "unavailable"
    template = N_(
        "All {limit} sessions of this server are in use; retry after {seconds} s, or use the stateless "
        "2026-07-28 protocol, which needs no session."
    )


class TooManyNewSessions(RateLimited):
    """`--stateful`: this client opened more sessions than its rate allows."""

    template = N_("Too many new sessions from this client: reuse a session, or retry after {seconds} s.")


class ServerBusy(RequestError):
    """The process holds as many request bodies as it may buffer at once; the client should retry shortly."""

    kind = "unavailable"
    template = N_("The server is receiving too many requests at once; retry after {seconds} s.")


class AuthRefused(RequestError):
    """A bearer-token refusal (RFC 6750), answered with an OAuth error body and a `WWW-Authenticate` challenge."""

    kind = "unauthorized"
    oauth_error: ClassVar[str | None] = None


class AuthRequired(AuthRefused):
    """No bearer token (or another scheme) on a protected route."""

    template = N_("Sign in first.")


class TokenMalformed(AuthRefused):
    """A bearer token that is not RFC 6750 token syntax, or too long."""

    oauth_error = "invalid_token"
    template = N_("The access token is malformed.")


class TokenRefused(AuthRefused):
    """A bearer token the verifier refused (expired, foreign audience, bad signature, ...); `reason` says which."""

    oauth_error = "invalid_token"
    template = N_("{reason}")


class TokenInQuery(AuthRefused):
    """A token sent in the query string, where it would be logged."""

    oauth_error = "invalid_request"
    template = N_("Send the token in the Authorization header.")


class SeveralAuthorizations(AuthRefused):
    """More than one Authorization header."""

    oauth_error = "invalid_request"
    template = N_("Send one Authorization header.")


class InsufficientScope(AuthRefused):
    """A valid token without every scope the operation needs."""

    kind = "forbidden"
    oauth_error = "insufficient_scope"
    template = N_("This operation needs the scopes: {scopes}.")


class AuthUnavailable(AuthRefused):
    """The token cannot be checked now (the issuer or its keys are unreachable)."""

    kind = "unavailable"
    oauth_error = "temporarily_unavailable"
    template = N_("{reason}")


class InvalidBody(RequestError):
    """A REST body whose shape is not the one its route takes; `shape` shows the one it does."""

    kind = "invalid_params"
    template = N_("The body must be {shape}.")


EDGE_ANSWERS: Final[Mapping[type[Exception], Answer]] = {
    **ANSWERS,
    BodyTooLarge: Answer(INVALID_REQUEST, 413),
    MisdirectedHost: Answer(INVALID_REQUEST, 421),
    ForbiddenOrigin: Answer(INVALID_REQUEST, 403),
    UnsupportedMediaType: Answer(INVALID_REQUEST, 415),
    InvalidBody: Answer(INVALID_PARAMS, 400),
    HeaderMismatch: Answer(HEADER_MISMATCH, 400),
    RateLimited: Answer(RATE_LIMITED, 429),
    AuthRefused: Answer(UNAUTHORIZED, 401),
    TokenInQuery: Answer(UNAUTHORIZED, 400),
    SeveralAuthorizations: Answer(UNAUTHORIZED, 400),
    InsufficientScope: Answer(FORBIDDEN, 403),
    AuthUnavailable: Answer(UNAVAILABLE, 503),
    RateLimitUnavailable: Answer(UNAVAILABLE, 503),
    RequestTimedOut: Answer(INTERNAL_ERROR, 504),
    RequestTooSlow: Answer(INVALID_REQUEST, 408),
    MethodNotAllowed: Answer(INVALID_REQUEST, 405),
    NotAcceptable: Answer(INVALID_REQUEST, 406),
    BatchAnswerTooLarge: Answer(INVALID_REQUEST, 413),
    HeadersTooLarge: Answer(INVALID_REQUEST, 431),
    TooManySessions: Answer(UNAVAILABLE, 503),
    ServerBusy: Answer(UNAVAILABLE, 503),
}
"""The protocol's table and the HTTP refusals' rows: what an error answered over HTTP gets (most specific wins)."""


def edge_status(error: Exception) -> Answer:
    """The code and status of an error answered over HTTP."""
    return answer_for(error, EDGE_ANSWERS)


def http_answer(error: RequestError, request_id: Any = None, language: Language | None = None) -> tuple[int, bytes]:
    """The status and JSON-RPC error body of a refusal answered over HTTP (this table's rows; the message in
    `language` when the request's language is known, else English)."""
    return edge_answer(error, request_id, language=language, table=EDGE_ANSWERS)


def oauth_body(refusal: AuthRefused, language: Language | None = None) -> bytes:
    """The RFC 6750 error body of a bearer-token refusal: its OAuth error code and a description."""
    description = message_of(refusal, language) if language is not None else str(refusal)
    return json.dumps({"error": refusal.oauth_error or "unauthorized", "error_description": description}).encode()
