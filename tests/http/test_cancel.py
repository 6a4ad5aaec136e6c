"""Cancellation over HTTP, in process: a 2026-07-28 client that goes away stops its JSON-answered call; a 2025
`notifications/cancelled` stops the call it names, sent by the same client as the rate limits see it, and the call
gets no answer (an empty event stream), while another client's same id is left alone."""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import anyio
import pytest
from starlette.types import ASGIApp, Message

from horologe.clock import FixedClock
from horologe.config import Settings
from horologe.context import RequestContext
from horologe.http.app import create_app
from horologe.http.asgi import replay
from horologe.tools import registry as catalog
from tests.asgi import running
from tests.conftest import FIXED_NOW
from tests.http.conftest import BASE_HEADERS, post_scope
from tests.http.test_rest import ENVELOPE, MODERN

pytestmark = pytest.mark.anyio


@dataclasses.dataclass
class Busy:
    """A planted tool that computes until its budget check stops it, and says when it started and stopped."""

    started: threading.Event = dataclasses.field(default_factory=threading.Event)
    stopped: threading.Event = dataclasses.field(default_factory=threading.Event)

    def __call__(self, arguments: Any, context: RequestContext, options: Any) -> dict[str, Any]:
        self.started.set()
        try:
            while True:
                context.budget.spend()
        finally:
            self.stopped.set()


@pytest.fixture
def busy(monkeypatch: pytest.MonkeyPatch) -> Busy:
    """get_current_time replaced by a call that only ends at its budget (a bug planted on purpose; no longer one
    bounded by construction, so it runs in a worker thread)."""
    planted = Busy()
    core = tuple(
        dataclasses.replace(spec, run=planted, bounded=None) if spec.name == "get_current_time" else spec
        for spec in catalog.TOOLSETS["core"]
    )
    monkeypatch.setitem(catalog.TOOLSETS, "core", core)
    return planted


@pytest.fixture
async def app(settings: Settings, busy: Busy) -> AsyncIterator[ASGIApp]:
    """The app, a minute of tool budget and of request timeout (nothing ends the planted call but a cancellation),
    X-Forwarded-For believed from loopback (a proxy in front)."""
    execution = settings.execution.model_copy(update={"budget_seconds": 60.0})
    http = settings.http.model_copy(update={"request_timeout_seconds": 60.0})
    limits = settings.rate_limit.model_copy(update={"trusted_proxies": ["127.0.0.1"]})
    tuned = settings.model_copy(update={"execution": execution, "http": http, "rate_limit": limits})
    application = create_app(tuned, FixedClock(FIXED_NOW))
    async with running(application):
        yield application


Exchange = Callable[[list[tuple[bytes, bytes]], bytes, Callable[[], Awaitable[Message]]], Awaitable[list[Message]]]


async def post(
    app: ASGIApp, headers: list[tuple[bytes, bytes]], body: bytes, after: Callable[[], Awaitable[Message]]
) -> list[Message]:
    """What the app sent for one POST whose connection, once the body is read, reports what `after` returns."""
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    await app(post_scope(headers, body), replay(body, after), send)
    return sent


async def stays_open() -> Message:
    await anyio.sleep_forever()
    raise AssertionError("unreachable")


def call(request_id: int, meta: dict[str, Any] | None = None) -> bytes:
    params: dict[str, Any] = {"name": "get_current_time", "arguments": {}}
    if meta is not None:
        params["_meta"] = meta
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}).encode()


def cancelled(request_id: int) -> bytes:
    params = {"requestId": request_id, "reason": "the user moved on"}
    return json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params}).encode()


MODERN_HEADERS = [
    *BASE_HEADERS,
    (b"mcp-protocol-version", MODERN.encode()),
    (b"mcp-method", b"tools/call"),
    (b"mcp-name", b"get_current_time"),
]
LEGACY = [*BASE_HEADERS, (b"mcp-protocol-version", b"2025-11-25")]


async def test_a_2026_07_28_client_that_goes_away_stops_its_json_answered_call(
    app: ASGIApp, busy: Busy, capfd: pytest.CaptureFixture[str]
) -> None:
    async def leaves_once_started() -> Message:
        await anyio.to_thread.run_sync(busy.started.wait, 10)
        return {"type": "http.disconnect"}

    with anyio.fail_after(20):
        sent = await post(app, MODERN_HEADERS, call(1, ENVELOPE), leaves_once_started)
    assert sent == []  # nobody to answer
    assert await anyio.to_thread.run_sync(busy.stopped.wait, 10)
    assert '"message":"POST /mcp 499"' in capfd.readouterr().err  # the client left; not a server error


async def cancel_during_call(
    app: ASGIApp, busy: Busy, call_as: bytes, cancel_as: bytes, body: bytes = call(7)
) -> list[Message]:
    """A 2025 call from the client forwarded as `call_as`, cancelled by the one forwarded as `cancel_as`; what the
    call's POST got (once its call stopped, or at once when it kept running)."""
    answer: list[Message] = []
    acknowledged: list[Message] = []

    async def calling() -> None:
        answer.extend(await post(app, [*LEGACY, (b"x-forwarded-for", call_as)], body, stays_open))

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(calling)
        with anyio.fail_after(10):
            await anyio.to_thread.run_sync(busy.started.wait, 10)
        acknowledged = await post(app, [*LEGACY, (b"x-forwarded-for", cancel_as)], cancelled(7), stays_open)
        if call_as != cancel_as:
            await anyio.sleep(0.2)
            assert not busy.stopped.is_set() and answer == []
            tasks.cancel_scope.cancel()
    assert acknowledged[0]["status"] == 202
    return answer


async def test_a_2025_call_cancelled_by_its_client_stops_and_gets_no_answer(app: ASGIApp, busy: Busy) -> None:
    with anyio.fail_after(20):
        answer = await cancel_during_call(app, busy, b"203.0.113.7", b"203.0.113.7")
    assert await anyio.to_thread.run_sync(busy.stopped.wait, 10)
    assert answer[0]["status"] == 200
    assert [(k, v) for k, v in answer[0]["headers"] if k != b"x-request-id"] == [
        (b"content-type", b"text/event-stream"),
        (b"cache-control", b"no-cache, no-transform"),
    ]
    assert answer[1:] == [{"type": "http.response.body", "body": b"", "more_body": False}]


async def test_another_client_behind_the_same_proxy_cannot_cancel_it(app: ASGIApp, busy: Busy) -> None:
    with anyio.fail_after(20):
        await cancel_during_call(app, busy, b"203.0.113.7", b"198.51.100.1")


async def test_a_2025_call_answered_with_sse_and_cancelled_ends_its_stream_without_an_answer(
    app: ASGIApp, busy: Busy
) -> None:
    with anyio.fail_after(20):
        answer = await cancel_during_call(app, busy, b"203.0.113.7", b"203.0.113.7", call(7, {"progressToken": "p"}))
    assert await anyio.to_thread.run_sync(busy.stopped.wait, 10)
    assert answer[0]["status"] == 200
    assert (b"content-type", b"text/event-stream") in [(k, v.split(b";")[0]) for k, v in answer[0]["headers"]]
    body = b"".join(message.get("body", b"") for message in answer[1:])
    assert body.startswith(b"id: ") and b'"id":7' not in body and b'"id": 7' not in body
    assert answer[-1] == {"type": "http.response.body", "body": b"", "more_body": False}
