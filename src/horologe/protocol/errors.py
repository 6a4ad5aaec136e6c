"""Every error the server answers with, and the one table that turns each into an answer.

Domain errors (`horologe.core.errors`) and the request errors defined here carry their message as an id and
parameters (`horologe.core.messages`); the text is rendered once, here, in the request's language. `ANSWERS`
maps each class to its JSON-RPC code and HTTP status; the most specific class wins (its MRO is walked, as
Starlette walks exception handlers). tests/protocol/test_errors.py proves every class is mapped and has a
message, as httpx proves every transport exception is mapped.

| error                                | tools/call                        | other methods      | HTTP status  |
|--------------------------------------|-----------------------------------|--------------------|--------------|
| domain error (zone, timestamp, ...)  | `isError` result, code in `_meta` | -32602, code in data | 400        |
| tool arguments fail the schema       | `isError` result (-32602)         | -32602             | 400          |
| unknown tool, prompt, resource       | -32602                            | -32602             | 404          |
| invalid cursor                       | -                                 | -32602             | 400          |
| header and body disagree             | -32020                            | same               | 400          |
| protocol version not spoken          | -32022, `data.supported`          | same               | 400          |
| bad JSON / not a request             | -32700 / -32600                   | same               | 400          |
| body too large, Host, Origin         | -32600                            | same               | 413/421/403  |
| rate limited, refused tokens         | 429                               | same               | 429          |
| bearer token missing or refused      | OAuth body (RFC 6750), code 401   | same               | 401/400/503  |
| token lacks a scope                  | OAuth body (RFC 6750), code 403   | same               | 403          |
| the request took too long            | -32603                            | same               | 504          |
| request too slow or its head too big | -32600                            | same               | 408/431      |
| a method the route does not serve    | -32600                            | same               | 405          |
| too many sessions or bodies at once  | 503 (new sessions per client: 429)| same               | 503/429      |
| anything else (a bug)                | -32603 "Internal error", logged   | same               | 500          |
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from horologe.core.errors import (
    ConversionError,
    InvalidArgument,
    InvalidArguments,
    InvalidTimestamp,
    InvalidTimezone,
    TimeError,
)
from horologe.core.messages import N_, English, Message, joined, msg
from horologe.i18n.language import Language
from horologe.wire import (
    CONVERSION_ERROR,
    ERROR_META,
    FORBIDDEN,
    HEADER_MISMATCH,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    INVALID_TIMESTAMP,
    INVALID_TIMEZONE,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    RATE_LIMITED,
    SUPPORTED_VERSIONS,
    UNAUTHORIZED,
    UNAVAILABLE,
    UNSUPPORTED_PROTOCOL_VERSION,
    error_response,
)

logger = logging.getLogger("horologe")

MAX_PROBLEMS: Final = 10
"""At most this many problems are listed in one answer (then "and N more"): an answer stays small."""
SUGGESTIONS: Final = N_("Suggestions: {suggestions}.")
DID_YOU_MEAN: Final = N_("Did you mean {candidates}?")


class RequestError(Exception):
    """An error of the request rather than of the time domain: its message, a kind, and data for the answer."""

    kind: ClassVar[str] = "invalid_request"
    template: ClassVar[str]

    def __init__(
        self, *, data: Mapping[str, object] | None = None, also: tuple[Message, ...] = (), **params: object
    ) -> None:
        self.text = Message(type(self).template, params, also)
        super().__init__(self.text.render())
        self.data = dict(data) if data else None


class ParseError(RequestError):
    """The bytes are not a JSON document (or not UTF-8)."""

    kind = "parse_error"
    template = N_("Parse error: {reason}")


class InvalidRequest(RequestError):
    """The JSON is not a JSON-RPC request we can serve (a batch, not an object, nested too deep, too long)."""

    template = N_("Invalid Request: {reason}")


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


class UnsupportedVersion(RequestError):
    """A request names a protocol revision this server does not speak (`data`: `supported` and `requested`)."""

    kind = "unsupported_protocol_version"
    template = N_("Unsupported protocol version {requested}. This server speaks {supported}.")


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


class BatchAnswerTooLarge(RequestError):
    """A batch's answer reached its size limit: this message was not run."""

    template = N_(
        "The batch's answer reached {limit} bytes, so this request was not run; send it in a smaller batch or on its "
        "own."
    )


class RequestTooSlow(RequestError):
    """The request line, headers or body did not arrive within the configured deadline (a slow client)."""

    kind = "timeout"
    template = N_("The request did not arrive within {seconds} s; send the headers and the body without pauses.")


class HeadersTooLarge(RequestError):
    """The request line and headers are larger than the configured limit."""

    template = N_("Request line and headers larger than {limit} bytes.")


class MethodNotAllowed(RequestError):
    """An HTTP method the route does not serve (the answer's Allow header lists those it does)."""

    template = N_("Method {method} is not allowed on {path}; use {allowed}.")


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


class UnknownTool(RequestError):
    """`tools/call` named a tool this server does not offer."""

    kind = "unknown_tool"
    template = N_("Unknown tool {name}. Available tools: {tools}.")


class ToolNotEnabled(UnknownTool):
    """`tools/call` named a tool of a toolset this server does not offer."""

    template = N_(
        "Tool {name} is not enabled on this server (toolset '{toolset}'; the operator can add it with --toolsets). "
        "Available tools: {tools}."
    )


class UnknownResource(RequestError):
    """`resources/read` named a URI no resource has."""

    kind = "unknown_resource"
    template = N_("Unknown resource {uri}.")


class UnknownPrompt(RequestError):
    """`prompts/get` named a prompt this server does not offer."""

    kind = "unknown_prompt"
    template = N_("Unknown prompt {name}. Available: {prompts}.")


class InvalidCursor(RequestError):
    """A list request carried a cursor this server never gave out (every list fits in one page)."""

    kind = "invalid_cursor"
    template = N_("Invalid cursor {cursor}: this list has a single page; ask again without a cursor.")


class InvalidRequestParams(RequestError):
    """The request's params do not match the method's schema (the SDK's validation)."""

    kind = "invalid_params"
    template = N_("Invalid request parameters")


class InternalError(RequestError):
    """A bug: the message says nothing of it, the log has the traceback."""

    kind = "internal_error"
    template = N_("Internal error")


@dataclass(frozen=True, slots=True)
class Answer:
    """How an error is answered: its JSON-RPC code and its HTTP status."""

    code: int
    status: int


ANSWERS: Final[Mapping[type[Exception], Answer]] = {
    TimeError: Answer(INVALID_PARAMS, 400),
    InvalidTimezone: Answer(INVALID_TIMEZONE, 400),
    InvalidTimestamp: Answer(INVALID_TIMESTAMP, 400),
    ConversionError: Answer(CONVERSION_ERROR, 400),
    InvalidArgument: Answer(INVALID_PARAMS, 400),
    RequestError: Answer(INVALID_REQUEST, 400),
    ParseError: Answer(PARSE_ERROR, 400),
    BodyTooLarge: Answer(INVALID_REQUEST, 413),
    BatchAnswerTooLarge: Answer(INVALID_REQUEST, 413),
    MisdirectedHost: Answer(INVALID_REQUEST, 421),
    ForbiddenOrigin: Answer(INVALID_REQUEST, 403),
    UnsupportedMediaType: Answer(INVALID_REQUEST, 415),
    HeaderMismatch: Answer(HEADER_MISMATCH, 400),
    UnsupportedVersion: Answer(UNSUPPORTED_PROTOCOL_VERSION, 400),
    RateLimited: Answer(RATE_LIMITED, 429),
    AuthRefused: Answer(UNAUTHORIZED, 401),
    TokenInQuery: Answer(UNAUTHORIZED, 400),
    SeveralAuthorizations: Answer(UNAUTHORIZED, 400),
    InsufficientScope: Answer(FORBIDDEN, 403),
    AuthUnavailable: Answer(UNAUTHORIZED, 503),
    RateLimitUnavailable: Answer(INTERNAL_ERROR, 503),
    RequestTimedOut: Answer(INTERNAL_ERROR, 504),
    RequestTooSlow: Answer(INVALID_REQUEST, 408),
    MethodNotAllowed: Answer(INVALID_REQUEST, 405),
    HeadersTooLarge: Answer(INVALID_REQUEST, 431),
    TooManySessions: Answer(UNAVAILABLE, 503),
    TooManyNewSessions: Answer(RATE_LIMITED, 429),
    ServerBusy: Answer(UNAVAILABLE, 503),
    UnknownTool: Answer(INVALID_PARAMS, 404),
    UnknownResource: Answer(INVALID_PARAMS, 404),
    UnknownPrompt: Answer(INVALID_PARAMS, 404),
    InvalidCursor: Answer(INVALID_PARAMS, 400),
    InvalidRequestParams: Answer(INVALID_PARAMS, 400),
    InternalError: Answer(INTERNAL_ERROR, 500),
}
"""Every error class we answer with: its JSON-RPC code and HTTP status (most specific class wins)."""

STATUS_OF_CODE: Final[Mapping[int, int]] = {
    PARSE_ERROR: 400,
    INVALID_REQUEST: 400,
    METHOD_NOT_FOUND: 404,
    INVALID_PARAMS: 400,
    INTERNAL_ERROR: 500,
    HEADER_MISMATCH: 400,
    UNSUPPORTED_PROTOCOL_VERSION: 400,
    RATE_LIMITED: 429,
    UNAVAILABLE: 503,
}
"""The HTTP status of a JSON-RPC error the SDK answered itself (REST turns it into a status)."""


def answer_for(error: Exception) -> Answer:
    """The code and status of an error: the entry of its most specific mapped class; a bug otherwise."""
    for cls in type(error).__mro__:
        found = ANSWERS.get(cls)
        if found is not None:
            return found
    return ANSWERS[InternalError]


def status_of_code(code: int) -> int:
    """The HTTP status for a JSON-RPC error code."""
    return STATUS_OF_CODE.get(code, 400)


def message_of(error: TimeError | RequestError, language: Language) -> str:
    """The error's message in the request's language (English pieces are reported as a fallback)."""
    return language.render(error.text)


def error_body(error: TimeError, language: Language) -> dict[str, object]:
    """The structured domain error clients receive: code, kind, message, suggestions and details."""
    body: dict[str, object] = {
        "code": answer_for(error).code,
        "kind": error.kind,
        "message": message_of(error, language),
        "suggestions": list(error.suggestions),
    }
    if error.details:
        body["details"] = error.details
    return body


def tool_error(error: TimeError, language: Language) -> dict[str, Any]:
    """A `tools/call` result that tells the model what went wrong and how to fix it."""
    body = error_body(error, language)
    text = str(body["message"])
    if error.suggestions and DID_YOU_MEAN not in error.text.templates():
        text += " " + language.render(msg(SUGGESTIONS, suggestions=", ".join(error.suggestions)))
    return {
        "content": [{"type": "text", "text": text}],
        # Not structuredContent: that must match the tool's outputSchema, and clients (the TypeScript SDK, the
        # Inspector) reject a result whose structured content does not, even on errors.
        "_meta": {ERROR_META: body},
        "isError": True,
    }


def protocol_error(error: Exception, language: Language, method: str = "") -> tuple[MCPError, int]:
    """The JSON-RPC error (and HTTP status) for an exception raised while handling a request.

    Bugs are logged with their traceback and answered with a generic message: nothing internal leaks.
    """
    if isinstance(error, ValidationError):
        error = InvalidRequestParams()
    elif not isinstance(error, TimeError | RequestError):
        logger.error("unexpected error while handling %s", method or "a request", exc_info=error)
        error = InternalError()
    answer = answer_for(error)
    if isinstance(error, TimeError):
        # Outside tools/call a domain error is a bad parameter (a zone in a resource URI, a prompt argument): -32602,
        # as 2026-07-28 asks of protocol errors; the seed's own code stays in `data.error.code`.
        body = error_body(error, language)
        return MCPError(code=INVALID_PARAMS, message=str(body["message"]), data={"error": body}), answer.status
    return MCPError(code=answer.code, message=message_of(error, language), data=error.data), answer.status


def unsupported_version_error(requested: object) -> UnsupportedVersion:
    """The -32022 error for a revision we do not speak, naming every one we do."""
    supported = list(SUPPORTED_VERSIONS)
    shown = str(requested)[:40]
    return UnsupportedVersion(
        requested=repr(shown), supported=", ".join(supported), data={"supported": supported, "requested": shown}
    )


def edge_answer(error: RequestError, request_id: Any = None) -> tuple[int, bytes]:
    """The HTTP status and JSON-RPC error body for an error answered at the edge, before any language is known."""
    found = answer_for(error)
    body = error_response(found.code, str(error), request_id, error.data)
    return found.status, json.dumps(body).encode()


def arguments_error(tool: str, exc: ValidationError, accepted: Sequence[str]) -> InvalidArguments:
    """Describe pydantic's complaint about tool arguments in words a model can act on.

    Unknown and missing arguments have translated messages; pydantic's own explanations are English (`English`
    marks them, so the answer reports English as the language of that text).
    """
    problems = []
    found = exc.errors(include_url=False)
    for item in found[:MAX_PROBLEMS]:
        name = ".".join(str(part) for part in item["loc"])[:100] or "arguments"
        if item["type"] == "extra_forbidden":
            problems.append(msg(N_("unknown argument {name}"), name=repr(name)))
        elif item["type"] == "missing":
            problems.append(msg(N_("missing required argument {name}"), name=repr(name)))
        else:
            reason = English(str(item["msg"]))
            problems.append(msg(N_("{name}: {reason} (got {value})"), name=name, reason=reason, value=_preview(item)))
    if len(found) > MAX_PROBLEMS:
        problems.append(msg(N_("and {count} more"), count=len(found) - MAX_PROBLEMS))
    listed = problems[0] if len(problems) == 1 else joined(problems)
    return InvalidArguments(
        N_("Invalid arguments for {tool}: {problems}. Accepted arguments: {accepted}."),
        tool=tool,
        problems=listed,
        accepted=", ".join(accepted),
        details={"tool": tool},
    )


def _preview(item: Mapping[str, Any]) -> str:
    text = json.dumps(item.get("input"), default=str)
    return text if len(text) <= 40 else text[:37] + "..."
