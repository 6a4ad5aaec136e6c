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
| protocol version not spoken          | -32022, `data.supported`          | same               | 400          |
| bad JSON / not a request             | -32700 / -32600                   | same               | 400          |
| a method the server does not have    | -32601 (the SDK's)                | same               | 404          |
| anything else (a bug)                | -32603 "Internal error", logged   | same               | 500          |

The refusals only HTTP makes (Host, Origin, sizes, rate limits, tokens, timeouts, sessions, header agreement) are
defined with their rows where they are raised, in `horologe.http.errors`, on top of this table.
"""

from __future__ import annotations

import json
import logging
import re
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
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    INVALID_TIMESTAMP,
    INVALID_TIMEZONE,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    SUPPORTED_VERSIONS,
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


class UnsupportedVersion(RequestError):
    """A request names a protocol revision this server does not speak (`data`: `supported` and `requested`)."""

    kind = "unsupported_protocol_version"
    template = N_("Unsupported protocol version {requested}. This server speaks {supported}.")


class HandshakeRefused(UnsupportedVersion):
    """`initialize` on a stdio connection whose first request chose the 2026-07-28 era: the revision asked for is
    spoken, but not on this connection (`data`: every revision spoken, and the one asked for)."""

    template = N_(
        "This connection serves protocol {serving}, chosen by its first request, and accepts no 'initialize': "
        "open a new connection for the handshake. This server speaks {supported}."
    )


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


class MethodNotFound(RequestError):
    """A method the server does not have (the SDK answers it itself; REST meets it when a capability is off)."""

    kind = "method_not_found"
    template = N_("Method not found")


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
    UnsupportedVersion: Answer(UNSUPPORTED_PROTOCOL_VERSION, 400),
    UnknownTool: Answer(INVALID_PARAMS, 404),
    UnknownResource: Answer(INVALID_PARAMS, 404),
    UnknownPrompt: Answer(INVALID_PARAMS, 404),
    InvalidCursor: Answer(INVALID_PARAMS, 400),
    InvalidRequestParams: Answer(INVALID_PARAMS, 400),
    MethodNotFound: Answer(METHOD_NOT_FOUND, 404),
    InternalError: Answer(INTERNAL_ERROR, 500),
}
"""Every error class we answer with: its JSON-RPC code and HTTP status (most specific class wins)."""


def answer_for(error: Exception, table: Mapping[type[Exception], Answer] = ANSWERS) -> Answer:
    """The code and status of an error: the entry of its most specific class in `table` (this module's, or an edge's
    table built on it); a bug otherwise."""
    for cls in type(error).__mro__:
        found = table.get(cls)
        if found is not None:
            return found
    return ANSWERS[InternalError]


def sdk_answer(error: MCPError) -> Answer:
    """The answer for a JSON-RPC error the SDK raised itself (method not found, unsupported version, ...): its own
    code, with the status of the table's first row for that code, so REST needs no second table of statuses."""
    code = error.error.code
    return Answer(code, next((row.status for row in ANSWERS.values() if row.code == code), 400))


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


@dataclass(frozen=True, slots=True)
class ToolFailure:
    """A tool call that failed with a domain error, kept typed (what asks the user, what counts it, read the error
    itself) until `tool_error` renders it, once, on the way out."""

    error: TimeError


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


def handshake_refused(serving: str, requested: object) -> HandshakeRefused:
    """The -32022 error for `initialize` on a connection already serving `serving`, naming every revision spoken
    (the same `data.supported` as every other -32022)."""
    supported = list(SUPPORTED_VERSIONS)
    shown = str(requested)[:40]
    return HandshakeRefused(
        serving=serving, supported=", ".join(supported), data={"supported": supported, "requested": shown}
    )


def edge_answer(
    error: RequestError,
    request_id: Any = None,
    *,
    language: Language | None = None,
    table: Mapping[type[Exception], Answer] = ANSWERS,
) -> tuple[int, bytes]:
    """The status and JSON-RPC error body for an error answered at an edge: its message in `language` when the
    request's language is known by then, else in English (the catalog's source)."""
    found = answer_for(error, table)
    text = message_of(error, language) if language is not None else str(error)
    body = error_response(found.code, text, request_id, error.data)
    return found.status, json.dumps(body).encode()


def arguments_error(tool: str, exc: ValidationError, accepted: Sequence[str]) -> InvalidArguments:
    """Describe pydantic's complaint about tool arguments in words a model can act on.

    Unknown and missing arguments have translated messages; pydantic's own explanations are English (`English`
    marks them, so the answer reports English as the language of that text).
    """
    problems = []
    found = _taken_branches(exc.errors(include_url=False))
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


_UNION_TAG: Final = re.compile(r"(?:constrained-)?(?:str|int|float|bool|list\[.*\]|dict\[.*\])")
"""How pydantic names a branch of a union in an error's location ('to_timezone.constrained-str')."""


def _taken_branches(found: list[Any]) -> list[Any]:
    """A union's errors narrowed to the branch the value's own type takes (a string's length, not that it is no
    list), the branch's name dropped from the location: one problem per argument, as a model reads it."""
    kept = []
    for item in found:
        loc = item["loc"]
        if len(loc) < 2 or not isinstance(loc[1], str) or not _UNION_TAG.fullmatch(loc[1]):
            kept.append(item)
            continue
        value = item.get("input")
        wanted = "str" if isinstance(value, str) else "list" if isinstance(value, list) else None
        siblings = [other["loc"][1] for other in found if other["loc"][:1] == loc[:1] and len(other["loc"]) > 1]
        if wanted is not None and wanted not in loc[1] and any(wanted in str(tag) for tag in siblings):
            continue  # another branch of this union is the one the value's type takes
        kept.append({**item, "loc": (loc[0], *loc[2:])})
    return kept


def _preview(item: Mapping[str, Any]) -> str:
    text = json.dumps(item.get("input"), default=str)
    return text if len(text) <= 40 else text[:37] + "..."
