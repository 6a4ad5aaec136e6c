"""What the body guard learns about a request, for the layers behind it: read once, typed, in one place.

The body guard (`horologe.http.body`) parses a POST body once and leaves a `RequestFacts` in the ASGI scope's
state (the one way ASGI hands a value down a request); the layers behind it on the same route (language headers,
auth scopes, rate limits, the access log, the /mcp endpoint and the REST routes) read its fields through
`facts_of` instead of digging in the JSON. A request without a JSON body (GET, DELETE) has no facts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from starlette.types import Scope

from horologe.i18n.language import Language
from horologe.wire import ACCEPT_LANGUAGE_META, PROGRESS_TOKEN_META, meta_of

FACTS_KEY: Final = "horologe.request"
ASKED_LANGUAGE_KEY: Final = "horologe.asked_language"
"""The language a request asked for, noted by its route's language layer: the edge's refusals behind it use it."""
CLIENT_GONE_KEY: Final = "horologe.client_gone"
"""Set when the client went away before its answer and that cancelled the request (`horologe.http.cancel`): the
access log then says 499, as nginx does, not the 500 of a request that ended without an answer."""
ANSWER_LANGUAGE_KEY: Final = "horologe.answer_language"
"""The language the pipeline answered in (its observer notes it): the answer's `Content-Language`."""


@dataclass(frozen=True, slots=True)
class Operation:
    """One MCP operation: its method ('' when the request carries none, e.g. GET /mcp) and tool, if any."""

    method: str
    tool: str | None = None


@dataclass(frozen=True, slots=True)
class RequestFacts:
    """A parsed body and what the layers behind the body guard need from it."""

    payload: Any
    operations: tuple[Operation, ...]
    method: str | None = None
    name: str | None = None
    request_id: Any = None
    accept_language: str | None = None
    wants_progress: bool = False


def operations(payload: object, performs: str | None = None) -> tuple[Operation, ...]:
    """The operations a request performs: a REST route's (`performs`, the tool named in its body), else those of its
    parsed JSON-RPC body (a batch gives several)."""
    if performs is not None:
        method = performs
        name = payload.get("name") if isinstance(payload, dict) and method == "tools/call" else None
        return (Operation(method, name if isinstance(name, str) else None),)
    messages = payload if isinstance(payload, list) else [payload]
    found = tuple(_jsonrpc_operation(message) for message in messages)
    return found or (Operation(""),)


def _jsonrpc_operation(message: object) -> Operation:
    if not isinstance(message, dict) or not isinstance(message.get("method"), str):
        return Operation("")
    method: str = message["method"]
    params: Any = message.get("params")
    name = params.get("name") if method == "tools/call" and isinstance(params, dict) else None
    return Operation(method, name if isinstance(name, str) else None)


def read_facts(payload: object, performs: str | None = None) -> RequestFacts:
    """The facts of a parsed body: a JSON-RPC message (or batch), or the body of a REST route performing `performs`."""
    body = payload if isinstance(payload, dict) else {}
    request_id, method, params = body.get("id"), body.get("method"), body.get("params")
    name = params.get("name") if isinstance(params, dict) else body.get("name")
    meta = meta_of(params)
    accept_language = meta.get(ACCEPT_LANGUAGE_META) if meta is not None else None
    return RequestFacts(
        payload=payload,
        operations=operations(payload, performs),
        method=method if isinstance(method, str) else None,
        name=name if isinstance(name, str) else None,
        request_id=request_id if isinstance(request_id, str | int) and not isinstance(request_id, bool) else None,
        accept_language=accept_language if isinstance(accept_language, str) else None,
        wants_progress=meta is not None and meta.get(PROGRESS_TOKEN_META) is not None,
    )


def facts_of(scope: Scope) -> RequestFacts | None:
    """The facts the body guard left for this request, if it read a body."""
    facts = scope.get("state", {}).get(FACTS_KEY)
    return facts if isinstance(facts, RequestFacts) else None


def note_language(scope: Mapping[str, Any], language: Language, key: str = ANSWER_LANGUAGE_KEY) -> None:
    """Keep a language of this request: the one the answer used (default), or `ASKED_LANGUAGE_KEY`'s."""
    state = scope.get("state")
    if isinstance(state, dict):
        state[key] = language


def language_of(scope: Mapping[str, Any], key: str = ANSWER_LANGUAGE_KEY) -> Language | None:
    """A language noted for this request (the answer's by default), if its route got that far."""
    language = scope.get("state", {}).get(key)
    return language if isinstance(language, Language) else None
