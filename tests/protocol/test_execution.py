"""The executor: tool bodies run in a worker thread under a budget, and the event loop stays free meanwhile."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from types import FrameType

import anyio
import pytest

from horologe.context import RequestContext
from horologe.core.budget import Budget, Expired
from horologe.core.errors import OutOfTime
from horologe.core.recurrence import expand, parse_rule
from horologe.core.zones import resolve_zone
from horologe.protocol.execution import GRACE_SECONDS, WATCH_EVERY, Executor, WorkerThreads, watch

pytestmark = pytest.mark.anyio


def fresh() -> RequestContext:
    """One request's context (each request has its own, with its own budget)."""
    return RequestContext(now=datetime(2026, 1, 1, tzinfo=UTC), default_zone=resolve_zone("UTC"))


def spin(context: RequestContext) -> str:
    """A cooperative loop that only ends at its budget."""
    while True:
        context.budget.spend()


async def test_the_body_runs_in_another_thread_with_a_budget_of_its_own() -> None:
    def body(context: RequestContext) -> tuple[int, float]:
        return threading.get_ident(), context.budget.seconds

    ident, seconds = await Executor(3.0).run(body, fresh())
    assert ident != threading.get_ident() and seconds == 3.0


async def test_a_cooperative_body_stops_at_its_budget_with_its_own_error() -> None:
    started = time.monotonic()
    with pytest.raises(OutOfTime) as caught:
        await Executor(0.3).run(spin, fresh())
    assert 0.29 < time.monotonic() - started < 0.3 + GRACE_SECONDS + 5  # never before the budget; a hang guard after
    assert caught.value.details == {"budget_seconds": 0.3}


async def test_a_body_that_never_checks_is_answered_at_the_budget_and_the_loop_stays_free() -> None:
    release = threading.Event()
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await anyio.sleep(0.01)

    started = time.monotonic()
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(tick)
        with pytest.raises(OutOfTime):
            await Executor(0.2).run(lambda context: release.wait(5), fresh())
        tasks.cancel_scope.cancel()
    release.set()
    assert time.monotonic() - started < 0.2 + GRACE_SECONDS + 5  # answered at the budget, not when the body ends
    assert ticks >= 10  # the loop ran meanwhile


async def test_cancelling_the_request_stops_the_body_at_its_next_check() -> None:
    stopped = threading.Event()

    def body(context: RequestContext) -> None:
        try:
            spin(context)
        finally:
            stopped.set()

    with anyio.move_on_after(0.1):
        await Executor(30).run(body, fresh())
    assert await anyio.to_thread.run_sync(stopped.wait, 2)


async def test_more_calls_than_threads_all_complete_on_the_threads_there_are() -> None:
    threads = WorkerThreads(most=3)
    executor = Executor(5, threads)
    seen: set[int] = set()
    results: list[int] = []

    def body(context: RequestContext) -> int:
        seen.add(threading.get_ident())
        time.sleep(0.02)
        return len(seen)

    async def one() -> None:
        results.append(await executor.run(body, fresh()))

    async with anyio.create_task_group() as tasks:
        for _ in range(12):
            tasks.start_soon(one)
    assert len(results) == 12 and len(seen) <= 3


async def test_one_call_computes_at_a_time_and_hands_over_at_its_checks() -> None:
    executor = Executor(30, WorkerThreads(most=4))
    release = threading.Event()
    inside, most_inside = 0, 0
    lock = threading.Lock()

    def long(context: RequestContext) -> str:
        nonlocal inside, most_inside
        while not release.is_set():
            with lock:
                inside += 1
                most_inside = max(most_inside, inside)
            time.sleep(0.0005)  # lets go of the GIL: without turns, the other long call would compute meanwhile
            with lock:
                inside -= 1
            context.budget.spend()
        return "long"

    async with anyio.create_task_group() as tasks:
        for _ in range(2):
            tasks.start_soon(executor.run, long, fresh())
        await anyio.sleep(0.05)
        with anyio.fail_after(10):  # a hang guard: the short call waits for turns, not for the long calls to end
            assert await executor.run(lambda context: "short", fresh()) == "short"
        assert not release.is_set()  # answered while the long calls were still computing
        release.set()
    assert most_inside == 1


async def test_an_error_in_the_body_reaches_the_caller() -> None:
    def body(context: RequestContext) -> None:
        raise KeyError("bug")

    with pytest.raises(KeyError):
        await Executor(5).run(body, fresh())


def busy(context: RequestContext, stopped: threading.Event) -> None:
    """A library call that never comes back to a budget check (dateutil searching a rule that never matches),
    watched as the recurrence tools watch theirs."""

    def library() -> None:
        while True:
            sum(range(100))

    try:
        context.budget.watched(library)
    finally:
        stopped.set()


async def test_a_watched_library_call_ends_soon_after_its_answer_and_its_thread_serves_again() -> None:
    threads = WorkerThreads(most=1)
    executor = Executor(0.2, threads)
    stopped = threading.Event()
    with pytest.raises(OutOfTime):
        await executor.run(lambda context: busy(context, stopped), fresh())
    assert await anyio.to_thread.run_sync(stopped.wait, 10), "the answered call is still computing"
    assert await executor.run(lambda context: threading.current_thread().name, fresh()) == "horologe-tool"


async def test_a_cancelled_watched_library_call_ends_too() -> None:
    stopped = threading.Event()
    with anyio.move_on_after(0.1):
        await Executor(30).run(lambda context: busy(context, stopped), fresh())
    assert await anyio.to_thread.run_sync(stopped.wait, 10)


async def test_a_call_abandoned_while_queued_never_starts() -> None:
    threads = WorkerThreads(most=1)
    executor = Executor(30, threads)
    release, ran = threading.Event(), threading.Event()
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(executor.run, lambda context: release.wait(10), fresh())
        await anyio.sleep(0)
        with anyio.move_on_after(0.05):
            await executor.run(lambda context: ran.set(), fresh())
        release.set()
    assert await executor.run(lambda context: "next", fresh()) == "next"
    assert not ran.is_set()


def endless() -> None:
    """A library loop that never comes back to a budget check."""
    while True:
        divmod(7, 3)


def library_that_swallows_errors() -> None:
    """A library loop that catches every Exception: the watch's stop is not one."""
    while True:
        try:
            endless()
        except Exception:
            continue


def after(checks: int) -> Callable[[], bool]:
    """A check that says time is up at its `checks`-th question."""
    asked = iter(range(checks))
    return lambda: next(asked, None) is None


@pytest.mark.parametrize("work", [endless, library_that_swallows_errors])
def test_the_watch_stops_a_library_loop_from_inside_and_is_gone_afterwards(work: Callable[[], None]) -> None:
    with pytest.raises(Expired):
        watch(work, after(3))
    assert sys.getprofile() is None


def test_time_up_inside_a_finalizer_stops_the_call_after_it_not_the_finalizer() -> None:
    # The garbage collector runs finalizers inside whatever code is running: a watch raising in one would have the
    # error swallowed (printed as unraisable), the profile function dropped, and the call run on unwatched.
    finalized: list[bool] = []

    class Finalized:
        def __del__(self) -> None:
            for _ in range(2 * WATCH_EVERY):  # long enough for the watch's first check to come inside it
                divmod(7, 3)
            finalized.append(True)

    def work() -> str:
        Finalized()  # dies at once: its finalizer runs inside the watched call
        return "answered"

    with pytest.raises(Expired):
        watch(work, lambda: True)
    assert finalized == [True]
    assert sys.getprofile() is None


def test_the_watch_hands_back_the_result_or_the_calls_own_error_and_is_gone_afterwards() -> None:
    assert watch(lambda: sorted([3, 1, 2]), lambda: False) == [1, 2, 3]
    with pytest.raises(KeyError):
        watch(lambda: dict[str, int]()["missing"], lambda: True)  # too short to reach a check
    assert sys.getprofile() is None


def test_a_profiler_already_there_is_left_alone_and_the_call_runs_unwatched() -> None:
    seen: list[str] = []

    def profiler(frame: FrameType, event: str, arg: object) -> None:
        seen.append(event)

    sys.setprofile(profiler)
    try:
        assert watch(sys.getprofile, lambda: True) is profiler
    finally:
        sys.setprofile(None)
    assert seen


def test_a_rule_searched_inside_one_library_call_stops_at_the_budget() -> None:
    # Date and time parts that meet once in decades: dateutil searches inside one next(), between two of our steps.
    budget = Budget(after(5), seconds=2.0, every=10**9, watch=watch)  # spend() never asks: only the watch does
    rule = parse_rule("FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO;BYHOUR=23")
    with pytest.raises(OutOfTime) as caught:
        next(expand(rule, UTC, datetime(2026, 1, 1, tzinfo=UTC), budget=budget))
    assert caught.value.details == {"budget_seconds": 2.0}
    assert sys.getprofile() is None


async def test_every_call_runs_in_a_worker_thread_however_small() -> None:
    def body(context: RequestContext) -> int:
        return threading.get_ident()

    assert await Executor(3.0).run(body, fresh()) != threading.get_ident()


async def test_a_batch_with_no_time_left_answers_out_of_time_without_starting_the_call() -> None:
    started: list[int] = []

    def body(context: RequestContext) -> None:
        started.append(1)

    with pytest.raises(OutOfTime):
        await Executor(3.0).run(body, fresh(), ends=time.monotonic() - 0.001)
    assert started == []


async def test_a_call_proved_bounded_runs_on_the_event_loop_itself_and_still_keeps_a_batch_budget() -> None:
    executor = Executor(3.0)
    assert await executor.run(lambda context: threading.get_ident(), fresh(), on_loop=True) == threading.get_ident()
    with pytest.raises(OutOfTime):
        await executor.run(lambda context: None, fresh(), ends=time.monotonic() - 0.001, on_loop=True)
