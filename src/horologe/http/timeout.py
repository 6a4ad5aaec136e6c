"""The request timeout: a request that does not start its answer in time gets 504 (or is cut if streaming)."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from horologe.http.asgi import refuse
from horologe.http.errors import RequestTimedOut
from horologe.http.request import facts_of

logger = logging.getLogger("horologe.http")


class Timeout:
    """Bound the time to the start of a response; a request that overruns gets 504 (or is cut if streaming).

    One watchdog task per event loop looks at the running requests' deadlines a few times per timeout and cancels
    the ones that overran, so a request may run up to a quarter of the timeout (at most 1 s) longer. A timer per
    request (`asyncio.timeout`) cost about 3% of a request's CPU; this costs a set insertion.
    """

    def __init__(self, app: ASGIApp, seconds: float) -> None:
        self.app = app
        self.seconds = seconds
        self.tick = min(1.0, seconds / 4)
        self._running: set[_Deadline] = set()
        self._watchdog: asyncio.Task[None] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        task, loop = asyncio.current_task(), asyncio.get_running_loop()
        assert task is not None  # uvicorn runs every request in its own task
        cancelling = task.cancelling()
        deadline = _Deadline(task, loop.time() + self.seconds)
        self._running.add(deadline)
        self._keep_watch(loop)
        try:
            await self.app(scope, receive, tracking_send)
        except asyncio.CancelledError:
            if not deadline.overran or task.uncancel() > cancelling:  # someone else cancelled it too: let it go
                raise
            logger.warning("request to %s timed out after %.1fs", scope["path"], self.seconds)
            if not started:
                facts = facts_of(scope)  # behind the body guard (POST /mcp): the answer carries the request's id
                await refuse(send, RequestTimedOut(), facts.request_id if facts is not None else None)
        finally:
            self._running.discard(deadline)

    def _keep_watch(self, loop: asyncio.AbstractEventLoop) -> None:
        watchdog = self._watchdog
        if watchdog is None or watchdog.done() or watchdog.get_loop() is not loop:
            self._watchdog = loop.create_task(self._watch(loop))

    async def _watch(self, loop: asyncio.AbstractEventLoop) -> None:
        # Ends once no request is running, so an idle server (or a finished test) leaves no task behind.
        while self._running:
            await asyncio.sleep(self.tick)
            now = loop.time()
            for deadline in [d for d in self._running if d.at <= now and not d.overran]:
                deadline.overran = True
                deadline.task.cancel()


@dataclass(slots=True, eq=False)
class _Deadline:
    task: asyncio.Task[Any]
    at: float
    overran: bool = False
