"""ASGI plumbing shared by the HTTP layers: reading headers, sending complete JSON answers, lifespan hooks."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from starlette.types import Message, Receive, Scope, Send

from horologe.http.errors import http_answer
from horologe.http.request import ASKED_LANGUAGE_KEY, language_of
from horologe.i18n.language import Language
from horologe.protocol.errors import RequestError

TOKEN_REFUSED_KEY = "horologe.token_refused"
"""Set in the scope's state when the bearer gate refused a presented token; the auth-failure limit counts these."""


def header(scope: Scope, name: bytes) -> str | None:
    """The first value of a request header, decoded as latin-1."""
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


async def respond(send: Send, status: int, body: bytes, headers: Iterable[tuple[bytes, bytes]] = ()) -> None:
    """Send a complete JSON response."""
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *headers],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def refuse(
    send: Send,
    error: RequestError,
    request_id: Any = None,
    headers: Iterable[tuple[bytes, bytes]] = (),
    scope: Scope | None = None,
) -> None:
    """Answer a request error at the edge: the error table's status and a JSON-RPC error body, its message in the
    language noted for the request (`scope`: behind its route's language layer), else in English."""
    status, body, language_headers = refusal(error, request_id, scope)
    await respond(send, status, body, [*headers, *language_headers])


def refusal(
    error: RequestError, request_id: Any = None, scope: Scope | None = None
) -> tuple[int, bytes, list[tuple[bytes, bytes]]]:
    """A refusal rendered once: its status, its JSON-RPC error body, and `Content-Language` when its message
    followed the language the request asked for (noted in `scope` by its route's language layer)."""
    language = language_of(scope, ASKED_LANGUAGE_KEY) if scope is not None else None
    status, body = http_answer(error, request_id, language)
    return status, body, content_language(language)


def content_language(language: Language | None) -> list[tuple[bytes, bytes]]:
    """The `Content-Language` of a refusal rendered in `language` (none when the request asked for none)."""
    if language is None or not language.requested:
        return []
    return [(b"content-language", language.content_language.encode("latin-1"))]


def close_on_shutdown(send: Send, close: Callable[[], Awaitable[None]]) -> Send:
    """A lifespan `send` that runs `close` (a middleware's clients) before the server is told shutdown is complete."""

    async def closing_send(message: Message) -> None:
        if message["type"] == "lifespan.shutdown.complete":
            await close()
        await send(message)

    return closing_send


def replay(body: bytes, receive: Receive) -> Receive:
    """Hand a buffered body to the app once, then pass the connection's own events (disconnect) through."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed
