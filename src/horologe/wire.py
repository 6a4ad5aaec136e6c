"""What things are called on the wire: `_meta` keys, edge normalization of raw requests, JSON-RPC codes and bodies.

Every transport and the protocol layer take their names from here, so a key or a code is spelled once.

`_meta` keys of the MCP texts (SEP-2792 language, the 2026-07-28 envelope) and of SEP-1655 client-side state,
plus our own under `dev.horologe/` for what no text names: the `_meta` carrier of SEP-1809's client context (the
SEP puts it at the top level only) and the state capability's extension identifier. The `io.modelcontextprotocol/`
prefix is reserved for the MCP texts; the spellings horologe once invented under it are still read, never
written. SEP-1655's state keys are not valid `_meta` keys under the current key rules (sep-rules.md §0.6); we
follow the SEP text for interop: we write the no-slash spelling and read every spelling the SEP uses.

JSON-RPC codes: the standard ones and the 2026-07-28 ones are the SDK's named constants; the seed's domain
codes (-32000 invalid timezone, -32001 invalid timestamp, -32002 conversion error) are kept for the seed's
clients. What no MCP text defines gets a code outside the JSON-RPC reserved range (-32768..-32000), as the
2026-07-28 revision asks, mirroring the HTTP status: 429 rate limited, 401 and 403 for refused tokens.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from mcp_types import (
    CLIENT_CAPABILITIES_META_KEY,
    HEADER_MISMATCH,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    PROTOCOL_VERSION_META_KEY,
    SERVER_INFO_META_KEY,
    UNSUPPORTED_PROTOCOL_VERSION,
    jsonrpc_message_adapter,
)
from mcp_types.version import KNOWN_PROTOCOL_VERSIONS, LATEST_MODERN_VERSION, MODERN_PROTOCOL_VERSIONS

from horologe.core.messages import N_, Message, msg

__all__ = [
    "ACCEPT_LANGUAGE_META",
    "ANY_STATE_KEY",
    "BATCH_VERSION",
    "CLIENT_CAPABILITIES_META",
    "CLIENT_CONTEXT_KEYS",
    "CLIENT_CONTEXT_META",
    "CONTENT_LANGUAGE_META",
    "CONTEXT_REPORT_META",
    "CONVERSION_ERROR",
    "DEFAULT_ENVELOPE",
    "ERROR_META",
    "FORBIDDEN",
    "HEADER_MISMATCH",
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "INVALID_TIMESTAMP",
    "INVALID_TIMEZONE",
    "MAX_BATCH",
    "METHOD_NOT_FOUND",
    "NOT_AN_OBJECT",
    "NOT_JSONRPC",
    "PARSE_ERROR",
    "PROTOCOL_VERSION_META",
    "RATE_LIMITED",
    "SERVER_INFO_META",
    "STATE_EXTENSION",
    "STATE_EXTENSIONS",
    "STATE_KEYS",
    "STATE_KEY_SPELLINGS",
    "STATE_REPORT_META",
    "SUPPORTED_VERSIONS",
    "TOP_LEVEL_CLIENT_CONTEXT",
    "UNAUTHORIZED",
    "UNAVAILABLE",
    "UNSUPPORTED_PROTOCOL_VERSION",
    "BatchMember",
    "batch_members",
    "envelope_version",
    "error_response",
    "message_problem",
    "meta_of",
    "needs_normalizing",
    "normalize_request",
    "readable_id",
    "shape_problem",
    "unsupported_version",
]

# --- `_meta` keys ------------------------------------------------------------------------------------------------

ACCEPT_LANGUAGE_META: Final = "io.modelcontextprotocol/acceptLanguage"
CONTENT_LANGUAGE_META: Final = "io.modelcontextprotocol/contentLanguage"
CLIENT_CONTEXT_META: Final = "dev.horologe/clientContext"
"""Ours: SEP-1809's client context inside `_meta` (the SEP only places it at the top level of the request)."""
CLIENT_CONTEXT_KEYS: Final = (CLIENT_CONTEXT_META, "io.modelcontextprotocol/clientContext")
"""Where a client context is read, first found wins: ours, then the reserved-prefix spelling horologe used before
(still sent by clients built against it). No MCP text defines either."""
CLIENT_CAPABILITIES_META: Final = CLIENT_CAPABILITIES_META_KEY
SERVER_INFO_META: Final = SERVER_INFO_META_KEY
PROTOCOL_VERSION_META: Final = PROTOCOL_VERSION_META_KEY
PROGRESS_TOKEN_META: Final = "progressToken"
TRACE_META_KEYS: Final = ("traceparent", "tracestate", "baggage")

STATE_EXTENSION: Final = "dev.horologe/client-state"
"""Ours: the SEP-1655 state capability as a SEP-2133 extension identifier (`capabilities.extensions`)."""
STATE_EXTENSIONS: Final = (STATE_EXTENSION, "io.modelcontextprotocol/state")
"""Extension identifiers that declare the state capability: ours, then the reserved-prefix one used before."""
STATE_KEYS: Final[Mapping[str, str]] = {
    "session": "modelcontextprotocol.io/state/session",
    "server": "modelcontextprotocol.io/state/server",
}
STATE_KEY_SPELLINGS: Final[Mapping[str, tuple[str, ...]]] = {
    scope: (key, key + "/", "http://" + key, "http://" + key + "/") for scope, key in STATE_KEYS.items()
}
ANY_STATE_KEY: Final = frozenset(spelling for spellings in STATE_KEY_SPELLINGS.values() for spelling in spellings)

CONTEXT_REPORT_META: Final = "dev.horologe/context"
"""Ours: which client context (SEP-1809) and stored preferences a tool result applied, ignored and why."""
ERROR_META: Final = "dev.horologe/error"
"""Ours: the structured error of an `isError` tool result (code, kind, message, suggestions, details)."""
STATE_REPORT_META: Final = "dev.horologe/state"
"""Ours: which client-side state items were ignored, and why."""

TOP_LEVEL_CLIENT_CONTEXT: Final = "clientContext"
"""SEP-1809 places the client context beside `params`, at the top level of the JSON-RPC request."""

DEFAULT_ENVELOPE: Final[Mapping[str, Any]] = MappingProxyType(
    {PROTOCOL_VERSION_META: LATEST_MODERN_VERSION, CLIENT_CAPABILITIES_META: MappingProxyType({})}
)
"""The 2026-07-28 envelope of a request that sent none (the newest revision, no client capabilities)."""

SUPPORTED_VERSIONS: Final = KNOWN_PROTOCOL_VERSIONS
"""Every revision horologe speaks: 2024-11-05 … 2025-11-25 through `initialize`, 2026-07-28 per request. Both
`server/discover`'s `supportedVersions` and -32022's `data.supported` list all of them."""

BATCH_VERSION: Final = "2025-03-26"
"""The one revision with JSON-RPC batches (a server MUST receive them); 2025-06-18 removed them."""
MAX_BATCH: Final = 100
"""The most messages one batch may carry."""

# --- JSON-RPC codes ----------------------------------------------------------------------------------------------

INVALID_TIMEZONE: Final = -32000
"""The seed's code for an unknown or unusable timezone."""
INVALID_TIMESTAMP: Final = -32001
"""The seed's code for an unreadable or out-of-range timestamp."""
CONVERSION_ERROR: Final = -32002
"""The seed's code for a local time that cannot be placed on the timeline."""
RATE_LIMITED: Final = 429
"""A request refused by rate limiting (requests, or refused tokens); outside the reserved range, as HTTP's 429."""
UNAUTHORIZED: Final = 401
"""A request refused for want of a valid bearer token (its answer is an OAuth error body, RFC 6750)."""
FORBIDDEN: Final = 403
"""A request refused because its token lacks a scope (an OAuth error body, RFC 6750)."""
UNAVAILABLE: Final = 503
"""A request refused for want of capacity (sessions, buffered bodies); outside the reserved range, as HTTP's 503."""


def error_response(code: int, message: str, request_id: Any = None, data: Any = None) -> dict[str, Any]:
    """A JSON-RPC error response object."""
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def meta_of(params: object) -> Mapping[str, Any] | None:
    """The `_meta` object of raw request params, when there is one."""
    meta = params.get("_meta") if isinstance(params, Mapping) else None
    return meta if isinstance(meta, Mapping) else None


def envelope_version(message: object) -> tuple[bool, Any]:
    """Whether a request carries the 2026-07-28 envelope (its `_meta` names a protocol version), and that version.

    The key alone decides the era, as the SDK's router has it: a half-built envelope is still a 2026-07-28 request.
    """
    meta = meta_of(message.get("params")) if isinstance(message, Mapping) else None
    if meta is None or PROTOCOL_VERSION_META not in meta:
        return False, None
    return True, meta[PROTOCOL_VERSION_META]


def unsupported_version(message: object) -> str | None:
    """The version a request's envelope names when it is not a per-request revision horologe speaks, or None (the
    handshake revisions are reached through `initialize`, never in an envelope)."""
    enveloped, version = envelope_version(message)
    if enveloped and isinstance(version, str) and version not in MODERN_PROTOCOL_VERSIONS:
        return version
    return None


def needs_normalizing(message: dict[str, Any]) -> bool:
    """Whether `normalize_request` would change this message (most requests need nothing)."""
    if "method" not in message:
        return False
    if TOP_LEVEL_CLIENT_CONTEXT in message:
        return True
    params = message.get("params") if message["method"] == "initialize" else None
    capabilities = params.get("capabilities") if isinstance(params, dict) else None
    return isinstance(capabilities, dict) and "state" in capabilities


def normalize_request(message: dict[str, Any]) -> dict[str, Any]:
    """Put what the SDK's parser would drop where it keeps it (in place; returns the message).

    - SEP-1809's top-level `clientContext` moves to `params._meta["dev.horologe/clientContext"]`;
      a `_meta` one already there (under either spelling) wins. The top-level member is removed either way.
    - SEP-1655's `capabilities.state` on `initialize` is also declared as the SEP-2133 extension
      `capabilities.extensions["dev.horologe/client-state"]`, which the SDK's typed capabilities keep.
    Messages whose `params` or `_meta` is not an object are left for the protocol layer to judge.
    """
    if "method" not in message:
        return message
    if TOP_LEVEL_CLIENT_CONTEXT in message:
        context = message.pop(TOP_LEVEL_CLIENT_CONTEXT)
        params = message.setdefault("params", {})
        if isinstance(params, dict):
            meta = params.setdefault("_meta", {})
            if isinstance(meta, dict) and not any(key in meta for key in CLIENT_CONTEXT_KEYS):
                meta[CLIENT_CONTEXT_META] = context
    if message["method"] == "initialize":
        params = message.get("params")
        capabilities = params.get("capabilities") if isinstance(params, dict) else None
        if isinstance(capabilities, dict) and "state" in capabilities:
            extensions = capabilities.setdefault("extensions", {})
            if isinstance(extensions, dict):
                extensions.setdefault(STATE_EXTENSION, {})
    return message


# --- Messages no answer could carry -----------------------------------------------------------------------------

_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")


def message_problem(message: Mapping[str, Any], raw: str | bytes) -> Message | None:
    """Why a parsed request cannot be served as sent (`raw` is its JSON text), or None.

    A request's id must be a string or an integer (JSON-RPC 2.0 §4; MCP forbids null): any other id would make it
    a notification nobody answers; a method beside a result or an error would make it a response nobody answers.
    A string holding a lone UTF-16 surrogate (`"\\ud800"`, which only a JSON escape
    can produce) is not Unicode text: no answer quoting it could be encoded.
    """
    if "method" in message and "id" in message and not isinstance(message["id"], str) and readable_id(message) is None:
        shown = json.dumps(message["id"])
        return msg(
            N_("the id must be a string or an integer (got {value})."),
            value=shown if len(shown) <= 40 else shown[:37] + "...",
        )
    if "method" in message and ("result" in message or "error" in message):  # read as a response, it would be dropped
        return msg(N_("a message is a request (with a method) or a response (with a result or an error), not both."))
    escapes = raw.find("\\u") != -1 if isinstance(raw, str) else raw.find(b"\\u") != -1
    if escapes and _has_lone_surrogate(message):
        return msg(N_("a string holds a lone UTF-16 surrogate such as \\ud800, which is not text. Send valid Unicode."))
    return None


def readable_id(message: Mapping[str, Any]) -> str | int | None:
    """The message's id when an answer can carry it (a string of valid Unicode, or an integer), else None."""
    value = message.get("id")
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and not _lone_surrogate(value):
        return value
    return None


def _has_lone_surrogate(value: Any) -> bool:
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            if _lone_surrogate(node):
                return True
        elif isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def _lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


# --- JSON-RPC batches (2025-03-26) ----------------------------------------------------------------------------

NOT_AN_OBJECT: Final = N_("a message must be a JSON object.")
NOT_JSONRPC: Final = N_(
    "expected a JSON-RPC 2.0 request, notification or response "
    '({{"jsonrpc": "2.0", "id": 1, "method": "...", "params": {{...}}}}).'
)


@dataclass(frozen=True, slots=True)
class BatchMember:
    """One member of a batch: the message to serve, or why it is refused (answered with `request_id`)."""

    message: dict[str, Any] | None
    problem: Message | None = None
    request_id: str | int | None = None


def batch_members(payload: list[Any]) -> list[BatchMember] | Message:
    """The members of a 2025-03-26 batch, each to serve or refused with its reason; or why the whole batch is refused.

    Both edges (stdio and HTTP) split batches here, so a member is judged alike on both: not an object, an
    `initialize` (a batch may not carry it), a message no answer could carry, or not a JSON-RPC message at all
    is an Invalid Request answered with the member's id when it can be read.
    """
    if not payload or len(payload) > MAX_BATCH:
        return msg(N_("a batch holds 1 to {limit} messages."), limit=MAX_BATCH)
    members = []
    for member in payload:
        if not isinstance(member, dict):
            members.append(BatchMember(None, msg(NOT_AN_OBJECT)))
            continue
        request_id = readable_id(member)
        if member.get("method") == "initialize":
            problem: Message | None = msg(N_("a batch may not carry 'initialize'."))
        else:
            problem = message_problem(member, json.dumps(member)) or shape_problem(member)
        members.append(BatchMember(None if problem else member, problem, request_id))
    return members


def shape_problem(message: Mapping[str, Any]) -> Message | None:
    """Why a JSON object is not a JSON-RPC 2.0 message (request, notification or response), or None."""
    try:
        jsonrpc_message_adapter.validate_python(message, by_name=False)
    except ValueError:  # pydantic's ValidationError
        return msg(NOT_JSONRPC)
    return None
