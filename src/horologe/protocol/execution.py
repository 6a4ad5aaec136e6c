"""How tool bodies run: in a worker thread, off the event loop, each call under a time budget.

While one call computes, the event loop keeps answering health checks, other requests, cancellation and
shutdown. The budget is cooperative first: the call's `Budget` (`horologe.core.budget`) asks this module's check
(the monotonic clock against the call's deadline, and whether the request was cancelled) every few steps of each
long loop, and the loop stops with a clear error saying what to narrow. The event loop also stops waiting a little
after the deadline, so an answer leaves on time even if a library stretch between two checks runs long.

A library loop that never reaches one of our checks (dateutil searching a never-matching rule towards year 9999
inside one `next()`) would keep its thread busy long after the answer. So a call that has been answered (late or
cancelled) and still runs `STOP_AFTER_SECONDS` later is interrupted: `Abandoned` is raised inside its thread at
the next Python instruction (`PyThreadState_SetAsyncExc`), whatever library runs there, and repeated until the
work ends. Every library a tool runs is pure Python, so its CPU use ends within milliseconds of the interruption
(bench/budget.py measures it); a worker process per call would cost a process round trip on every call
(bench/offloop.py) for the few rules that need it. The interruption is aimed only at the job it was meant for: a
thread marks its job finished under the pool's lock before it takes another, and clears an interruption that
arrived too late.

Threads rather than a process pool: tools are short and CPU-bound in pure Python; a process round trip pickles
arguments, context and result and costs more than most calls (bench/offloop.py). The hop is a job queue and
`call_soon_threadsafe` rather than `anyio.to_thread`: on the realistic mix the request path cost 21% more
instructions per call with anyio's hop (its limiter, cancel scopes, deadline), 5% with this one
(bench/offloop.py --instructions).
"""

from __future__ import annotations

import asyncio
import contextvars
import ctypes
import logging
import queue
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from functools import partial
from typing import Any, Final, TypeVar

from horologe.context import RequestContext
from horologe.core.budget import out_of_time

logger = logging.getLogger("horologe")
T = TypeVar("T")
Outcome = tuple[Any, BaseException | None]
"""What a job ended with: its result, or the exception it raised."""

GRACE_SECONDS: Final = 0.25
"""How long past the deadline the event loop waits for the worker to stop at its own check (with its own words)."""
MOST_THREADS: Final = 32
"""Worker threads started at most (on demand); calls beyond wait for one, each at most its budget."""
BATCH_DEADLINE_KEY: Final = "horologe.batch_deadline"
"""Where an HTTP batch leaves, in each message's scope state, when its shared tool budget ends (monotonic clock)."""
STOP_AFTER_SECONDS: Final = 0.25
"""How long an answered call's work may go on before its thread is interrupted (and again, until it ends)."""
STOP_ATTEMPTS: Final = 20
"""Interruptions at most per call: work that outlasts them all sits in C code the interruption cannot reach."""


class Abandoned(BaseException):
    """Raised inside a worker thread whose call was already answered (late or cancelled).

    A BaseException, so a library's `except Exception` does not swallow it.
    """


class Job:
    """One call's work, what hands its outcome back, the thread running it (None before and after), and whether
    its caller has stopped waiting (a job abandoned before a thread took it is never started)."""

    __slots__ = ("abandoned", "deliver", "interrupted", "thread", "work")

    def __init__(self, work: Callable[[], Any], deliver: Callable[[Outcome], None]) -> None:
        self.work = work
        self.deliver = deliver
        self.thread: int | None = None
        self.abandoned = False
        self.interrupted = False


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

    def submit(self, work: Callable[[], Any], deliver: Callable[[Outcome], None]) -> Job:
        """Queue a job; start another thread when none is idle and the limit allows."""
        job = Job(work, deliver)
        with self._lock:
            start = self._idle <= 0 and self._started < self._most
            if start:
                self._started += 1
            else:
                self._idle -= 1  # a waiting thread takes this job (or the job waits for one)
        if start:
            threading.Thread(target=self._work, args=(job,), name="horologe-tool", daemon=True).start()
        else:
            self._jobs.put(job)
        return job

    def interrupt(self, job: Job) -> bool:
        """Raise `Abandoned` inside the thread running `job`; False once the job has ended (nothing to stop)."""
        with self._lock:
            if job.thread is None:
                return False
            job.interrupted = True
            _raise_in_thread(job.thread, Abandoned)
            return True

    def _work(self, job: Job) -> None:
        ident = threading.get_ident()
        while True:
            outcome = self._run(job, ident)
            with self._lock:
                self._idle += 1
            try:
                job.deliver(outcome)
                job = self._jobs.get()
            except Abandoned:  # never aimed here (the job is marked finished): a thread is never lost to one
                logger.warning("a worker thread was interrupted between jobs")
                job = self._jobs.get()

    def _run(self, job: Job, ident: int) -> Outcome:
        """Run a job to its end; an interruption may land anywhere until the job is marked finished."""
        outcome: Outcome = (None, Abandoned())
        started = False
        while True:
            try:
                if not started and not job.abandoned:
                    started = True
                    job.thread = ident
                    outcome = _outcome_of(job.work)
                with self._lock:
                    job.thread = None  # from here on, nobody aims at this job
                if job.interrupted:
                    _raise_in_thread(ident, None)  # an interruption that arrived after the work ended is dropped
                return outcome
            except Abandoned as exc:
                outcome = (None, exc)


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
        self._running: dict[Hashable, asyncio.Future[Any]] = {}

    async def run(
        self,
        call: Callable[[RequestContext], T],
        context: RequestContext,
        key: Hashable = None,
        ends: float | None = None,
    ) -> T:
        """Run `call(context)` in a worker thread with the context's budget armed; cancelled or late, it stops at its
        next check, or is interrupted (`Abandoned`) soon after.

        With a `key`, `cancel(key)` stops the call as its own cancellation would (a request whose cancellation
        arrives in another exchange: stateless HTTP). `ends` (monotonic) is a budget shared with other calls (an
        HTTP batch's): the call gets what is left of it, at most its own.
        """
        seconds = self.budget_seconds
        if ends is not None:
            seconds = min(seconds, ends - time.monotonic())
            if seconds <= 0:
                raise out_of_time(self.budget_seconds)
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[T] = loop.create_future()
        deadline = _Deadline(seconds)
        context.budget.arm(deadline.expired, self.budget_seconds)

        def deliver(outcome: Outcome) -> None:
            try:
                loop.call_soon_threadsafe(_settle, answer, *outcome)
            except RuntimeError:
                return  # a closed loop: nobody waits for this answer any more

        late = loop.call_later(seconds + GRACE_SECONDS, _too_late, answer, self.budget_seconds)
        # The work sees the caller's context variables (tracing, logging), as a task would.
        job = self.threads.submit(partial(contextvars.copy_context().run, call, context), deliver)
        attempts = iter(range(STOP_ATTEMPTS))
        if key is not None:
            self._running.setdefault(key, answer)
        try:
            return await answer
        finally:
            deadline.stopped = True
            late.cancel()
            if key is not None and self._running.get(key) is answer:
                del self._running[key]
            job.abandoned = True
            if job.thread is not None:  # answered (late or cancelled) while still running
                loop.call_later(STOP_AFTER_SECONDS, self._stop, job, loop, attempts)

    def cancel(self, key: Hashable) -> bool:
        """Stop the running call registered under `key`, if any: it is answered at once (as a call stopped at its
        budget: nobody waits for its result) and its work ends as an answered call's does."""
        answer = self._running.pop(key, None)
        if answer is None or answer.done():
            return False
        _settle(answer, None, out_of_time(self.budget_seconds))
        return True

    def _stop(self, job: Job, loop: asyncio.AbstractEventLoop, attempts: Iterator[int]) -> None:
        """Interrupt an answered job that is still running, again every `STOP_AFTER_SECONDS` until it has ended (at
        most `STOP_ATTEMPTS` times)."""
        if next(attempts, None) is None:
            logger.warning("a tool call still runs after %d interruptions; it is left to end by itself", STOP_ATTEMPTS)
            return
        if self.threads.interrupt(job):
            loop.call_later(STOP_AFTER_SECONDS, self._stop, job, loop, attempts)


def _outcome_of(work: Callable[[], Any]) -> Outcome:
    try:
        return (work(), None)
    except BaseException as exc:  # handed to the caller, which raises it
        return (None, exc)


def _raise_in_thread(ident: int, exception: type[BaseException] | None) -> None:
    """Raise `exception` in the thread `ident` at its next Python instruction (None: drop a pending one)."""
    pending = ctypes.py_object(exception) if exception is not None else ctypes.py_object()  # NULL clears
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), pending)


def _settle(answer: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if answer.done():
        return
    if error is not None:
        answer.set_exception(error)
    else:
        answer.set_result(result)


def _too_late(answer: asyncio.Future[Any], seconds: float) -> None:
    _settle(answer, None, out_of_time(seconds))
