"""The whole ASGI app in process, on a fixed clock, and an HTTP client that talks to it without a socket."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import anyio
import httpx2
import pytest
from starlette.types import Message

from horologe.clock import FixedClock
from horologe.config import Settings
from horologe.http.app import create_app
from horologe.http.asgi import replay
from tests.asgi import running
from tests.conftest import BASE_URL, FIXED_NOW


@pytest.fixture
async def http(settings: Settings) -> AsyncIterator[httpx2.AsyncClient]:
    """An HTTP client on horologe's app (default settings, Host 127.0.0.1), lifespan running."""
    app = create_app(settings, FixedClock(FIXED_NOW))
    async with running(app), httpx2.AsyncClient(transport=httpx2.ASGITransport(app), base_url=BASE_URL) as client:
        client.headers["host"] = "127.0.0.1"
        yield client


@dataclass(frozen=True)
class RawAnswer:
    """What the app sent back for one raw request."""

    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes

    def header(self, name: bytes) -> list[bytes]:
        """Every value of a response header, in order."""
        return [value for key, value in self.headers if key.lower() == name]

    def json(self) -> Any:
        """The body as JSON (for SSE: the last `data:` line)."""
        if self.header(b"content-type")[:1] == [b"text/event-stream"]:
            data = [line[5:] for line in self.body.splitlines() if line.startswith(b"data:")]
            return json.loads(data[-1])
        return json.loads(self.body)


RawPost = Callable[[list[tuple[bytes, bytes]], bytes], Awaitable[RawAnswer]]
BASE_HEADERS: list[tuple[bytes, bytes]] = [
    (b"host", b"127.0.0.1"),
    (b"content-type", b"application/json"),
    (b"accept", b"application/json, text/event-stream"),
]


@pytest.fixture
async def raw_post(settings: Settings) -> AsyncIterator[RawPost]:
    """POST /mcp with exactly these header lines and body bytes, straight into the ASGI app (no client library
    normalizes anything); `BASE_HEADERS` are not added."""
    async with raw_poster(settings) as post:
        yield post


@pytest.fixture
async def raw_post_stateful(settings: Settings) -> AsyncIterator[RawPost]:
    """`raw_post` on the app with 2025-era sessions and SSE (`--stateful`)."""
    stateful = settings.model_copy(update={"http": settings.http.model_copy(update={"stateful": True})})
    async with raw_poster(stateful) as post:
        yield post


def post_scope(headers: list[tuple[bytes, bytes]], body: bytes) -> dict[str, Any]:
    """The ASGI scope of a POST /mcp from one loopback client, its Content-Length taken from `body`."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/mcp",
        "raw_path": b"/mcp",
        "query_string": b"",
        "root_path": "",
        "headers": [*headers, (b"content-length", str(len(body)).encode())],
        "client": ("127.0.0.1", 40000),
        "server": ("127.0.0.1", 8080),
        "state": {},
    }


@asynccontextmanager
async def raw_poster(settings: Settings) -> AsyncIterator[RawPost]:
    """The app for these settings, running, and a function that POSTs raw bytes to its /mcp."""
    app = create_app(settings, FixedClock(FIXED_NOW))

    async def post(headers: list[tuple[bytes, bytes]], body: bytes) -> RawAnswer:
        scope = post_scope(headers, body)
        sent: list[Message] = []

        async def connection_stays_open() -> Message:
            await anyio.sleep_forever()
            raise AssertionError("unreachable")

        async def send(message: Message) -> None:
            sent.append(message)

        await app(scope, replay(body, connection_stays_open), send)
        start = next(m for m in sent if m["type"] == "http.response.start")
        chunks = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        return RawAnswer(start["status"], list(start.get("headers", [])), chunks)

    async with running(app):
        yield post
