"""SEP-2792 on HTTP: `Accept-Language` agreement on /mcp, `Content-Language` mirroring, caching headers, REST.

/mcp (POST, JSON-RPC): the request's `params._meta["io.modelcontextprotocol/acceptLanguage"]` is canonical.
- Every `Accept-Language` field line is read from the raw ASGI headers and joined in received order with
  ", " (the server has already removed each line's surrounding whitespace). When the header and `_meta` are
  both present and differ by even one character, the answer is HTTP 400 with JSON-RPC error -32020
  (HeaderMismatch). The check runs before any grammar validation and normalizes nothing.
- A header without `_meta` creates no preference; a missing header is fine.
- JSON responses mirror the answer's `contentLanguage` (`result._meta` or `error.data._meta`) into exactly one
  `Content-Language` line, with `Vary: Accept-Language` when the language came from `_meta`, and
  `Cache-Control: private` when `_meta` was present but the header was not (a shared cache cannot see the
  language). SSE responses carry the language per message only: no stream-wide `Content-Language`.

REST (/mcp/tools/call and friends): `Accept-Language` is read the usual HTTP way and negotiated; JSON answers
whose text follows it say so with `Content-Language` and `Vary: Accept-Language`.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from horologe.i18n import ACCEPT_LANGUAGE_META, CONTENT_LANGUAGE_META, DEFAULT_LANGUAGE
from horologe.i18n.negotiate import is_valid_accept_language
from horologe.i18n.translate import choose, using
from horologe.transports.http_guard import PAYLOAD_KEY, respond

HEADER_MISMATCH = -32020
MCP_PATH = "/mcp"
REST_PREFIX = "/mcp/"
_PREVIEW = 200


def accept_language_header(scope: Scope) -> str | None:
    """Every `Accept-Language` field line joined in received order with ", "; None when there is none."""
    lines = [value.decode("latin-1").strip(" \t") for key, value in scope["headers"] if key == b"accept-language"]
    return ", ".join(lines) if lines else None


def meta_accept_language(payload: object) -> str | None:
    """The raw `_meta` acceptLanguage string of a JSON-RPC request body, without any validation."""
    if not isinstance(payload, dict):
        return None
    params = payload.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    value = meta.get(ACCEPT_LANGUAGE_META) if isinstance(meta, dict) else None
    return value if isinstance(value, str) else None


def mismatch_body(request_id: Any, header: str, canonical: str) -> bytes:
    """The HeaderMismatch (-32020) JSON-RPC error for a header that disagrees with `_meta`."""
    message = (
        "Bad Request: the request headers and body disagree: the request _meta acceptLanguage value is "
        f"{json.dumps(canonical[:_PREVIEW])} but the Accept-Language header is {json.dumps(header[:_PREVIEW])}"
    )
    error = {
        "code": HEADER_MISMATCH,
        "message": message,
        "data": {"mismatch": {"header": "Accept-Language", "body": "params._meta." + ACCEPT_LANGUAGE_META}},
    }
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "error": error}).encode()


def content_language_of(body: object) -> str | None:
    """`contentLanguage` of a JSON-RPC response: `result._meta` or `error.data._meta`."""
    if not isinstance(body, dict):
        return None
    carrier = body.get("result")
    if carrier is None and isinstance(body.get("error"), dict):
        carrier = body["error"].get("data")
    meta = carrier.get("_meta") if isinstance(carrier, dict) else None
    value = meta.get(CONTENT_LANGUAGE_META) if isinstance(meta, dict) else None
    return value if isinstance(value, str) else None


class LanguageHeaders:
    """ASGI middleware behind BodyGuard: agreement check, then language headers on the way out."""

    def __init__(self, app: ASGIApp, default_language: str = DEFAULT_LANGUAGE) -> None:
        self.app = app
        self.default_language = default_language

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        if path == MCP_PATH and scope["method"] == "POST":
            await self._mcp(scope, receive, send)
        elif path.startswith(REST_PREFIX):
            await self._rest(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _mcp(self, scope: Scope, receive: Receive, send: Send) -> None:
        payload = scope.get("state", {}).get(PAYLOAD_KEY)
        canonical = meta_accept_language(payload)
        header = accept_language_header(scope)
        if canonical is not None and header is not None and header != canonical:
            request_id = payload.get("id") if isinstance(payload, dict) else None
            await respond(send, 400, mismatch_body(request_id, header, canonical))
            return
        if canonical is None or not is_valid_accept_language(canonical):
            # No usable preference from _meta: the answer does not vary by language (a bare header is ignored).
            await self.app(scope, receive, send)
            return
        extra = [(b"vary", b"Accept-Language")]
        if header is None:
            extra.append((b"cache-control", b"private"))
        await self.app(scope, receive, _LanguageSender(send, extra, mirror=content_language_of))

    async def _rest(self, scope: Scope, receive: Receive, send: Send) -> None:
        header = accept_language_header(scope)
        if header is None or not is_valid_accept_language(header):
            await self.app(scope, receive, send)
            return
        choice = choose(header, self.default_language)

        def mirror(body: object) -> str | None:
            return choice.content_language if _localized_rest_answer(body) else None

        with using(choice):
            await self.app(scope, receive, _LanguageSender(send, [(b"vary", b"Accept-Language")], mirror=mirror))


def _localized_rest_answer(body: object) -> bool:
    # Successful answers and domain errors follow the request's language; the REST layer's own complaints
    # about the request's shape are English and carry no Content-Language.
    if not isinstance(body, dict):
        return False
    error = body.get("error")
    if error is None:
        return True
    data = error.get("data") if isinstance(error, dict) else None
    return isinstance(data, dict) and "error" in data


class _LanguageSender:
    """Wraps `send`: adds headers to the response start; buffers JSON bodies to mirror their language."""

    def __init__(self, send: Send, extra: list[tuple[bytes, bytes]], mirror: Any) -> None:
        self.send = send
        self.extra = extra
        self.mirror = mirror
        self.start: Message | None = None
        self.chunks: list[bytes] = []

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            content_type = next((value for key, value in headers if key.lower() == b"content-type"), b"")
            if content_type.split(b";")[0].strip().lower() != b"application/json":
                # SSE (per-message language only) and anything else: cache headers, no Content-Language.
                await self.send({**message, "headers": _merged(headers, self.extra)})
                return
            self.start = {**message, "headers": headers}
            return
        if self.start is None or message["type"] != "http.response.body":
            await self.send(message)
            return
        self.chunks.append(message.get("body", b""))
        if message.get("more_body", False):
            return
        body = b"".join(self.chunks)
        try:
            language = self.mirror(json.loads(body)) if body else None
        except ValueError:
            language = None
        extra = [*self.extra, (b"content-language", language.encode("latin-1"))] if language else self.extra
        headers = [(k, v) for k, v in _merged(self.start["headers"], extra) if k.lower() != b"content-length"]
        headers.append((b"content-length", str(len(body)).encode()))
        await self.send({**self.start, "headers": headers})
        await self.send({"type": "http.response.body", "body": body})


def _merged(headers: list[tuple[bytes, bytes]], extra: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """`headers` with each `extra` header set to exactly one line (an existing Vary is extended)."""
    names = {name for name, _ in extra}
    kept = [(k, v) for k, v in headers if k.lower() not in names - {b"vary"}]
    for name, value in extra:
        if name == b"vary":
            existing = [v for k, v in kept if k.lower() == b"vary"]
            kept = [(k, v) for k, v in kept if k.lower() != b"vary"]
            parts = [part.strip() for line in existing for part in line.split(b",") if part.strip()]
            if value.lower() not in {part.lower() for part in parts}:
                parts.append(value)
            kept.append((b"vary", b", ".join(parts)))
        else:
            kept.append((name, value))
    return kept
