"""How tool bodies run: in a worker thread, off the event loop, each call under a time budget.

While one call computes, the event loop keeps answering health checks, other requests, cancellation and
shutdown. The budget is cooperative first: the call's `Budget` (`horologe.core.budget`) asks this module's check
(the monotonic clock against the call's deadline, and whether the request was cancelled) every few steps of each
long loop, and the loop stops with a clear error saying what to narrow. The event loop also stops waiting a little
after the deadline, so an answer leaves on time even if a library stretch between two checks runs long.

A library call that never comes back between two checks (dateutil searching a never-matching rule towards year
9999 inside one `next()`) runs under `watch` (through `Budget.watched`): a profile function (`sys.setprofile`),
in the worker thread only and for that one library call, counts the interpreter's call and return events and asks
the same check every `WATCH_EVERY` of them. When time is up it raises inside the library's own frame; CPython
drops a profile function that raises and unwinds the call at once. Never inside a finalizer (`__del__`, which the
garbage collector may run in the middle of the call): CPython would swallow the error there and the call would run
on unwatched, so the watch raises at the first event after it. So an answered (late or cancelled) call stops
computing within milliseconds, and its thread serves the next call; nothing is ever raised across threads.
Profile rather than trace: coverage.py uses the trace function. A job whose call was answered before a thread
took it is never started.

Every tool body runs in a worker thread, so no tool work holds the event loop whatever its arguments, except the
calls its tool proves cheap by construction (`ToolSpec.bounded`: the current time or a conversion on exact zone
keys and ISO times, answered in ISO 8601), which never reach a reader whose cost an argument can raise and run on
the loop (tests/tools/test_bounded.py). The hop cost those calls, the most frequent, a third of the HTTP
throughput (bench/compare.py). (An earlier design ran every read-only call on the loop first and moved it to a
thread after 2 ms, which held only where a call reached a check: one 60 KB phrase then froze a server for 42 s.)
What the hop costs is measured by bench/asgi_cost.py, what the loop keeps by bench/loop_lag.py.

Tool code runs in turns: one worker thread at a time holds the `Baton`, and hands it to the next waiting call at a
check once its turn (`TURN_SECONDS`) is over. With a GIL only one thread computes at a time anyway; what the turns
change is who waits. Without them every busy worker queues for the GIL beside the event loop, which waits behind
all of them at every socket call (32 workers of hostile calls: `/healthz` took seconds, bench/loop_lag.py); with
them the loop shares the GIL with one worker, and a small call waits for the turns ahead of it, not for the long
calls to end.

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
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from functools import partial
from types import FrameType
from typing import Any, Final, TypeVar

from horologe.context import RequestContext
from horologe.core.budget import Expired, out_of_time

T = TypeVar("T")
Outcome = tuple[Any, BaseException | None]
"""What a job ended with: its result, or the exception it raised."""

GRACE_SECONDS: Final = 0.25
"""How long past the deadline the event loop waits for the worker to stop at its own check (with its own words)."""
MOST_THREADS: Final = 32
"""Worker threads started at most (on demand); calls beyond wait for one, each at most its budget."""
TURN_SECONDS: Final = 0.002
"""How long a call computes before it hands the baton to the next waiting call (at its next check)."""
WATCH_EVERY: Final = 256
"""Profile events between two checks inside a watched library call (bench/bounds.py --only watch)."""
_QUIET: Final = sys.maxsize


class Job:
    """One call's work, what hands its outcome back, and whether its caller has stopped waiting (a job abandoned
    before a thread took it is never started)."""

    __slots__ = ("abandoned", "deliver", "work")

    def __init__(self, work: Callable[[], Any], deliver: Callable[[Outcome], None]) -> None:
        self.work = work
        self.deliver = deliver
        self.abandoned = False


class Baton:
    """Which worker thread may run tool code now: one at a time, in turns, first come first served.

    A thread takes the baton before a job and releases it after; the holder calls `checkpoint` at its budget checks
    and hands the baton on there when its turn is over and another call waits. Waiting threads block on a lock of
    their own, so they do not queue for the GIL.
    """

    def __init__(self, turn_seconds: float = TURN_SECONDS) -> None:
        self._lock = threading.Lock()
        self._waiting: deque[threading.Lock] = deque()
        self._held = False
        self._turn = turn_seconds
        self._began = 0.0

    def take(self) -> None:
        """Wait for the baton (first come, first served) and hold it."""
        with self._lock:
            if self._held:
                turn = threading.Lock()
                turn.acquire()
                self._waiting.append(turn)
            else:
                self._held = True
                turn = None
        if turn is not None:
            turn.acquire()  # released by the holder that hands the baton over
        self._began = time.monotonic()

    def release(self) -> None:
        """Hand the baton to the first waiting thread, or put it down."""
        with self._lock:
            if self._waiting:
                self._waiting.popleft().release()
            else:
                self._held = False

    def checkpoint(self) -> None:
        """The holder at one of its checks: when its turn is over and a call waits, go to the back of the line."""
        if self._waiting and time.monotonic() - self._began >= self._turn:
            self.release()
            self.take()


class WorkerThreads:
    """Daemon threads that take jobs from one queue, started as calls need them, up to `most`.

    A thread runs a job's work holding the baton, counts itself idle, then hands the outcome back: the call that the
    answer wakes up already sees an idle thread instead of starting another.
    """

    def __init__(self, most: int = MOST_THREADS, baton: Baton | None = None) -> None:
        self.baton = baton or Baton()
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

    def _work(self, job: Job) -> None:
        while True:
            # A call answered before a thread took it (late or cancelled while queued): nobody waits for its work.
            outcome = None if job.abandoned else self._run(job.work)
            with self._lock:
                self._idle += 1
            if outcome is not None:
                job.deliver(outcome)
            job = self._jobs.get()

    def _run(self, work: Callable[[], Any]) -> Outcome:
        self.baton.take()
        try:
            return _outcome_of(work)
        finally:
            self.baton.release()


class _Deadline:
    """When one call must stop: its deadline on the monotonic clock, or as soon as its request is cancelled. Asked
    at the call's checks, which are also where its turn with the baton may end."""

    __slots__ = ("at", "baton", "stopped")

    def __init__(self, seconds: float, baton: Baton) -> None:
        self.at = time.monotonic() + seconds
        self.baton = baton
        self.stopped = False

    def expired(self) -> bool:
        self.baton.checkpoint()
        return self.stopped or time.monotonic() >= self.at


class Executor:
    """Runs tool bodies in worker threads, each under `budget_seconds` of wall time."""

    def __init__(self, budget_seconds: float, threads: WorkerThreads | None = None) -> None:
        self.budget_seconds = budget_seconds
        self.threads = threads or WorkerThreads()

    async def run(
        self,
        call: Callable[[RequestContext], T],
        context: RequestContext,
        ends: float | None = None,
        *,
        on_loop: bool = False,
    ) -> T:
        """Run `call(context)` in a worker thread with the context's budget armed; cancelled or late, it stops at its
        next check (or its watched library call, `Budget.watched`, at its next few hundred interpreter events).

        `ends` (monotonic) is a budget shared with other calls (an HTTP batch's): the call gets what is left of it, at
        most its own. A request cancelled over HTTP is stopped by its edge (`horologe.http.cancel`), as any cancelled
        task: this wait is cancelled, and the work ends at its next check. `on_loop`: a call its tool proved cheap
        by construction (`ToolSpec.bounded`) runs here, on the event loop, unbudgeted.
        """
        seconds = self.budget_seconds
        if ends is not None:
            seconds = min(seconds, ends - time.monotonic())
            if seconds <= 0:
                raise out_of_time(self.budget_seconds)
        if on_loop:
            return call(context)
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[T] = loop.create_future()
        deadline = _Deadline(seconds, self.threads.baton)
        context.budget.arm(deadline.expired, self.budget_seconds, watch)

        def deliver(outcome: Outcome) -> None:
            try:
                loop.call_soon_threadsafe(_settle, answer, *outcome)
            except RuntimeError:
                return  # a closed loop: nobody waits for this answer any more

        late = loop.call_later(seconds + GRACE_SECONDS, _too_late, answer, self.budget_seconds)
        # The work sees the caller's context variables (tracing, logging), as a task would.
        job = self.threads.submit(partial(contextvars.copy_context().run, call, context), deliver)
        try:
            return await answer
        finally:
            deadline.stopped = True
            late.cancel()
            job.abandoned = True


def watch(work: Callable[[], T], expired: Callable[[], bool]) -> T:
    """`work()`, a library call, with `expired` asked every `WATCH_EVERY` interpreter events inside it; `Expired`
    unwinds it when time is up. A profile function already installed (a developer's profiler) is left alone: the
    call then runs unwatched."""
    if sys.getprofile() is not None:
        return work()
    left = WATCH_EVERY
    due = False

    def check(frame: FrameType, event: str, arg: object) -> None:
        nonlocal left, due
        left -= 1
        if left > 0:
            return
        left = WATCH_EVERY
        due = due or expired()
        if not due:
            return
        if _in_finalizer(frame):  # raised there, Expired would be swallowed and the watch dropped with it
            left = 1  # stop at the first event after the finalizer instead
            return
        raise Expired

    sys.setprofile(check)
    try:
        return work()
    finally:
        left = _QUIET  # no check (and no raise) on the call below, before the profile function is gone
        sys.setprofile(None)  # CPython has removed it already if it raised


def _in_finalizer(frame: FrameType | None) -> bool:
    """Whether the frame runs inside an object's `__del__`, which the garbage collector may start in the middle of
    any watched call; CPython ignores (prints) what a finalizer raises."""
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


def _outcome_of(work: Callable[[], Any]) -> Outcome:
    try:
        return (work(), None)
    except BaseException as exc:  # handed to the caller, which raises it
        return (None, exc)


def _settle(answer: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if answer.done():
        return
    if error is not None:
        answer.set_exception(error)
    else:
        answer.set_result(result)


def _too_late(answer: asyncio.Future[Any], seconds: float) -> None:
    _settle(answer, None, out_of_time(seconds))
