"""How tool bodies run: in a worker thread, off the event loop, each call under a time budget.

While one call computes, the event loop keeps answering health checks, other requests, cancellation and
shutdown. A thread cannot be killed, so the budget is cooperative: the call's `Budget` (`horologe.core.budget`)
asks this module's check (the monotonic clock against the call's deadline, and whether the request was
cancelled) every few steps of each long loop, and the loop stops with a clear error saying what to narrow. The
event loop also stops waiting a little after the deadline, so an answer leaves on time even if a library
stretch between two checks runs long; that thread then ends at its next check.

Threads rather than a process pool: tools are short and CPU-bound in pure Python, a thread hop costs tens of
microseconds where a process round trip costs a pickled context and milliseconds (see bench/offloop.py).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Final, TypeVar

import anyio
import anyio.to_thread

from horologe.context import RequestContext
from horologe.core.budget import Budget, out_of_time

T = TypeVar("T")

GRACE_SECONDS: Final = 0.25
"""How long past the deadline the event loop waits for the worker to stop at its own check (with its own words)."""


class Executor:
    """Runs tool bodies in worker threads, each under `budget_seconds` of wall time."""

    def __init__(self, budget_seconds: float) -> None:
        self.budget_seconds = budget_seconds

    async def run(self, call: Callable[[RequestContext], T], context: RequestContext) -> T:
        """Run `call(context with its budget)` in a worker thread; cancelled or late, it stops at its next check."""
        stop = threading.Event()
        deadline = time.monotonic() + self.budget_seconds

        def expired() -> bool:
            return stop.is_set() or time.monotonic() >= deadline

        budgeted = replace(context, budget=Budget(expired, seconds=self.budget_seconds))
        try:
            with anyio.fail_after(self.budget_seconds + GRACE_SECONDS):
                return await anyio.to_thread.run_sync(call, budgeted, abandon_on_cancel=True)
        except TimeoutError:
            raise out_of_time(self.budget_seconds) from None
        finally:
            stop.set()
