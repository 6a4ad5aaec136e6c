"""The request timeout: 504 for what overruns, nothing else touched, the watchdog ends when idle."""

from __future__ import annotations

import asyncio
import json

import pytest
from starlette.types import Message, Receive, Scope, Send

from horologe.http.request import FACTS_KEY, read_facts
from horologe.http.timeout import Timeout


async def _no_body() -> Message:
    raise AssertionError("the apps under test never read the request body")


async def _slow_app(scope: Scope, receive: Receive, send: Send) -> None:
    await asyncio.sleep(10)


async def _streaming_then_slow_app(scope: Scope, receive: Receive, send: Send) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await asyncio.sleep(10)


@pytest.mark.anyio
async def test_a_request_that_overruns_gets_504_without_hanging() -> None:
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    await Timeout(_slow_app, seconds=0.05)({"type": "http", "path": "/mcp"}, _no_body, send)
    assert sent[0]["status"] == 504
    assert b"-32603" in sent[1]["body"]


@pytest.mark.anyio
async def test_a_request_read_before_the_timeout_is_answered_with_its_id() -> None:
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    facts = read_facts({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "get_current_time"}})
    scope = {"type": "http", "path": "/mcp", "state": {FACTS_KEY: facts}}
    await Timeout(_slow_app, seconds=0.05)(scope, _no_body, send)
    assert sent[0]["status"] == 504
    assert json.loads(sent[1]["body"])["id"] == 7


@pytest.mark.anyio
async def test_only_the_requests_that_overrun_are_stopped_and_the_watchdog_then_ends() -> None:
    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        await asyncio.sleep(scope["sleep"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    timeout = Timeout(app, seconds=0.2)
    statuses: dict[float, int] = {}

    async def request(sleep: float) -> None:
        async def send(message: Message) -> None:
            if message["type"] == "http.response.start":
                statuses[sleep] = message["status"]

        await timeout({"type": "http", "path": "/mcp", "sleep": sleep}, _no_body, send)

    await asyncio.gather(*(request(sleep) for sleep in (0.0, 0.05, 0.1, 0.6, 5.0)))
    assert statuses == {0.0: 200, 0.05: 200, 0.1: 200, 0.6: 504, 5.0: 504}
    await asyncio.sleep(timeout.tick * 2)
    watchdog = timeout._watchdog
    assert watchdog is not None and watchdog.done()  # nothing is left running on an idle server
    await request(0.0)  # a later request starts a new watchdog
    assert statuses[0.0] == 200


@pytest.mark.anyio
async def test_a_request_cancelled_by_someone_else_stays_cancelled() -> None:
    timeout = Timeout(_slow_app, seconds=0.05)
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    task = asyncio.create_task(timeout({"type": "http", "path": "/mcp"}, _no_body, send))
    await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert sent == []


@pytest.mark.anyio
async def test_a_stream_that_overruns_is_cut_without_a_second_response() -> None:
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    await Timeout(_streaming_then_slow_app, seconds=0.05)({"type": "http", "path": "/mcp"}, _no_body, send)
    assert [message["type"] for message in sent] == ["http.response.start"]
