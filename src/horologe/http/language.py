"""SEP-2792 on HTTP: `Accept-Language` agreement on /mcp, `Content-Language` and caching headers, REST's header.

/mcp (POST, JSON-RPC): the request's `params._meta["io.modelcontextprotocol/acceptLanguage"]` is canonical.
- Every `Accept-Language` field line is read from the raw ASGI headers and joined in received order with
  ", " (the server has already removed each line's surrounding whitespace). When the header and `_meta` are
  both present and differ by even one character, the answer is HTTP 400 with JSON-RPC error -32020
  (HeaderMismatch). The check runs before any grammar validation and normalizes nothing.
- A header without `_meta` creates no preference; a missing header is fine.
- JSON responses carry the answer's `contentLanguage` in exactly one `Content-Language` line, with
  `Vary: Accept-Language` when the language came from `_meta`, and `private` added to `Cache-Control` when `_meta` was
  present but the header was not (a shared cache cannot see the language). SSE responses carry the language
  per message only: no stream-wide `Content-Language`.

REST (/mcp/tools/call and friends): the `Accept-Language` header is the preference, as HTTP has it (a body's
own `_meta` preference wins); the REST routes pass it into the request's `_meta`, so the pipeline negotiates
exactly as on /mcp. JSON answers whose text followed a preference say so with `Content-Language`; with
`Vary: Accept-Language` when the header carried it.

The answer's language is the one the pipeline reported for this request: the app factory passes
`record_language` into `build_server` as the pipeline's language observer, and it keeps the `Language` in this
request's state. The response body is never parsed again to find it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mcp.server.context import ServerRequestContext
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from horologe.http.asgi import refuse
from horologe.http.errors import HeaderMismatch
from horologe.http.request import ASKED_LANGUAGE_KEY, facts_of, language_of, note_language
from horologe.i18n.language import Language, choose
from horologe.i18n.negotiate import is_valid_accept_language
from horologe.wire import ACCEPT_LANGUAGE_META

_PREVIEW = 200


def record_language(ctx: ServerRequestContext[Any, Any], language: Language) -> None:
    """The pipeline's language observer: keep the language of the HTTP request behind `ctx` (none off HTTP)."""
    scope = getattr(ctx.request, "scope", None)
    if isinstance(scope, Mapping):
        note_language(scope, language)


def accept_language_header(scope: Scope) -> str | None:
    """Every `Accept-Language` field line joined in received order with ", "; None when there is none."""
    lines = [value.decode("latin-1").strip(" \t") for key, value in scope["headers"] if key == b"accept-language"]
    return ", ".join(lines) if lines else None


def mismatch(header: str, canonical: str) -> HeaderMismatch:
    """The HeaderMismatch (-32020) error for an `Accept-Language` header that disagrees with `_meta`."""
    return HeaderMismatch(
        field="acceptLanguage",
        body=json.dumps(canonical[:_PREVIEW]),
        header="Accept-Language",
        value=json.dumps(header[:_PREVIEW]),
        data={"mismatch": {"header": "Accept-Language", "body": "params._meta." + ACCEPT_LANGUAGE_META}},
    )


class LanguageHeaders:
    """POST /mcp behind the body guard: the `Accept-Language` agreement check, then language headers on the way out."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope.setdefault("state", {})
        facts = facts_of(scope)
        canonical = facts.accept_language if facts is not None else None
        header = accept_language_header(scope)
        if canonical is not None and header is not None and header != canonical:
            await refuse(send, mismatch(header, canonical), facts.request_id if facts is not None else None)
            return
        if canonical is None or not is_valid_accept_language(canonical):
            # No usable preference from _meta: the answer does not vary by language (a bare header is ignored).
            await self.app(scope, receive, send)
            return
        note_language(scope, choose(canonical), ASKED_LANGUAGE_KEY)  # the refusals behind this layer speak it
        extra = [(b"vary", b"Accept-Language")]
        if header is None:
            extra.append((b"cache-control", b"private"))
        await self.app(scope, receive, _LanguageSender(scope, send, extra))


class RestLanguageHeaders:
    """A REST route: `Content-Language` for an answer that followed a preference, `Vary` when the header gave one."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope.setdefault("state", {})
        header = accept_language_header(scope)
        varies = header is not None and is_valid_accept_language(header)
        if varies:
            note_language(scope, choose(header), ASKED_LANGUAGE_KEY)  # the refusals behind this layer speak it
        await self.app(scope, receive, _LanguageSender(scope, send, [(b"vary", b"Accept-Language")] if varies else []))


class _LanguageSender:
    """Wraps `send`: adds the caching headers, and `Content-Language` to a JSON answer whose text followed the
    request's language (the pipeline recorded it; answers made before the pipeline, such as REST's complaints
    about the body's shape, have none)."""

    def __init__(self, scope: Scope, send: Send, extra: list[tuple[bytes, bytes]]) -> None:
        self.scope = scope
        self.send = send
        self.extra = extra

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            extra = self.extra
            content_type = next((value for key, value in headers if key.lower() == b"content-type"), b"")
            language = language_of(self.scope)
            json_answer = content_type.split(b";")[0].strip().lower() == b"application/json"
            if json_answer and language is not None and language.requested:
                extra = [*extra, (b"content-language", language.content_language.encode("latin-1"))]
            message = {**message, "headers": _merged(headers, extra)}
        await self.send(message)


_LIST_FIELDS = frozenset({b"vary", b"cache-control"})
"""Comma-separated list fields: ours extends what the answer already says (SSE's `Cache-Control: no-cache,
no-transform` becomes `no-cache, no-transform, private`), never replaces it."""


def _merged(headers: list[tuple[bytes, bytes]], extra: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """`headers` with each `extra` header set to exactly one line (an existing Vary or Cache-Control is extended)."""
    names = {name for name, _ in extra}
    kept = [(k, v) for k, v in headers if k.lower() not in names - _LIST_FIELDS]
    for name, value in extra:
        if name in _LIST_FIELDS:
            existing = [v for k, v in kept if k.lower() == name]
            kept = [(k, v) for k, v in kept if k.lower() != name]
            parts = [part.strip() for line in existing for part in line.split(b",") if part.strip()]
            if value.lower() not in {part.lower() for part in parts}:
                parts.append(value)
            kept.append((name, b", ".join(parts)))
        else:
            kept.append((name, value))
    return kept
