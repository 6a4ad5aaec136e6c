"""How tool bodies run: in a worker thread, off the event loop, each call under a time budget.

While one call computes, the event loop keeps answering health checks, other requests, cancellation and
shutdown. A thread cannot be killed, so the budget is cooperative: the call's `Budget` (`horologe.core.budget`)
asks this module's check (the monotonic clock against the call's deadline, and whether the request was
cancelled) every few steps of each long loop, and the loop stops with a clear error saying what to narrow. The
event loop also stops waiting a little after the deadline, so an answer leaves on time even if a library
stretch between two checks runs long; that thread then ends at its next check.

Threads rather than a process pool: tools are short and CPU-bound in pure Python; a process round trip pickles
arguments, context and result and costs more than most calls (bench/offloop.py). The hop is a job queue and
`call_soon_threadsafe` rather than `anyio.to_thread`: on the realistic mix the request path cost 21% more
instructions per call with anyio's hop (its limiter, cancel scopes, deadline), 5% with this one
(bench/offloop.py --instructions).
"""

from __future__ import annotations

import asyncio
import contextvars
import queue
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any, Final, TypeVar

from horologe.context import RequestContext
from horologe.core.budget import out_of_time

T = TypeVar("T")
Outcome = tuple[Any, BaseException | None]
"""What a job ended with: its result, or the exception it raised."""
Job = tuple[Callable[[], Any], Callable[[Outcome], None]]
"""A job: the work, and what hands its outcome back."""

GRACE_SECONDS: Final = 0.25
"""How long past the deadline the event loop waits for the worker to stop at its own check (with its own words)."""
MOST_THREADS: Final = 32
"""Worker threads started at most (on demand); calls beyond wait for one, each at most its budget."""


class WorkerThreads:
    """Daemon threads that take jobs from one queue, started as calls need them, up to `most`.

    A thread runs a job's work, counts itself idle, then hands the outcome back: the call that the answer wakes
    up already sees an idle thread instead of starting another.
    """

    def __init__(self, most: int = MOST_THREADS) -> None:
        self._jobs: queue.SimpleQueue[Job] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._most = most
        self._started = 0
        self._idle = 0

    def submit(self, work: Callable[[], Any], deliver: Callable[[Outcome], None]) -> None:
        """Queue a job; start another thread when none is idle and the limit allows."""
        with self._lock:
            start = self._idle <= 0 and self._started < self._most
            if start:
                self._started += 1
            else:
                self._idle -= 1  # a waiting thread takes this job (or the job waits for one)
        if start:
            threading.Thread(target=self._work, args=((work, deliver),), name="horologe-tool", daemon=True).start()
        else:
            self._jobs.put((work, deliver))

    def _work(self, job: Job) -> None:
        while True:
            work, deliver = job
            try:
                outcome: Outcome = (work(), None)
            except BaseException as exc:  # handed to the caller, which raises it
                outcome = (None, exc)
            with self._lock:
                self._idle += 1
            deliver(outcome)
            job = self._jobs.get()


class _Deadline:
    """When one call must stop: its deadline on the monotonic clock, or as soon as its request is cancelled."""

    __slots__ = ("at", "stopped")

    def __init__(self, seconds: float) -> None:
        self.at = time.monotonic() + seconds
        self.stopped = False

    def expired(self) -> bool:
        return self.stopped or time.monotonic() >= self.at


class Executor:
    """Runs tool bodies in worker threads, each under `budget_seconds` of wall time."""

    def __init__(self, budget_seconds: float, threads: WorkerThreads | None = None) -> None:
        self.budget_seconds = budget_seconds
        self.threads = threads or WorkerThreads()

    async def run(self, call: Callable[[RequestContext], T], context: RequestContext) -> T:
        """Run `call(context)` in a worker thread with the context's budget armed; cancelled or late, it stops at its
        next check."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[T] = loop.create_future()
        deadline = _Deadline(self.budget_seconds)
        context.budget.arm(deadline.expired, self.budget_seconds)

        def deliver(outcome: Outcome) -> None:
            try:
                loop.call_soon_threadsafe(_settle, answer, *outcome)
            except RuntimeError:
                return  # a closed loop: nobody waits for this answer any more

        late = loop.call_later(self.budget_seconds + GRACE_SECONDS, _too_late, answer, self.budget_seconds)
        # The work sees the caller's context variables (tracing, logging), as a task would.
        self.threads.submit(partial(contextvars.copy_context().run, call, context), deliver)
        try:
            return await answer
        finally:
            deadline.stopped = True
            late.cancel()


def _settle(answer: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if answer.done():
        return
    if error is not None:
        answer.set_exception(error)
    else:
        answer.set_result(result)


def _too_late(answer: asyncio.Future[Any], seconds: float) -> None:
    _settle(answer, None, out_of_time(seconds))
