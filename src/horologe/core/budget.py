"""How much computation one call may spend: a step counter that asks the caller whether time is up.

The core never reads a clock. A long loop calls `Budget.spend()` once per step; every `every` steps the budget
asks the `expired` check its caller supplied (the protocol edge: a deadline on the monotonic clock, or the
request's cancellation), and when it says yes the loop stops with `OutOfTime`, whose message says what to
narrow. A budget without a check only counts.

A library call that may run long without coming back to us between two steps (dateutil searching a rule that
never matches towards year 9999 inside one `next()`) goes through `Budget.watched`: the caller's `watch` (the
protocol edge's profile function, `horologe.protocol.execution.watch`) asks the same check from inside the library
call and stops it with `Expired`, which becomes the same `OutOfTime`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Final, TypeVar

from horologe.core.errors import OutOfTime
from horologe.core.messages import N_, Message, msg

T = TypeVar("T")
NARROW_GENERIC: Final = msg(N_("Ask for less in one call (a shorter range, fewer items)."))
Watch = Callable[[Callable[[], Any], Callable[[], bool]], Any]
"""Runs a library call, asking the check from inside it; raises `Expired` when the check says time is up."""


class Expired(BaseException):
    """Raised by a watch inside a library call; a BaseException, so a library's `except Exception` lets it by."""


class Budget:
    """A computation's allowance: `spend()` per step; the caller's `expired` check is asked every `every` steps."""

    __slots__ = ("_every", "_expired", "_left", "_watch", "seconds")

    def __init__(
        self,
        expired: Callable[[], bool] | None = None,
        *,
        seconds: float = 0.0,
        every: int = 64,
        watch: Watch | None = None,
    ) -> None:
        self._expired = expired
        self._every = every
        self._left = every
        self._watch = watch
        self.seconds = seconds

    def arm(self, expired: Callable[[], bool], seconds: float, watch: Watch | None = None) -> None:
        """Give a fresh budget its caller's check and watch (the executor does, once per call)."""
        self._expired = expired
        self._watch = watch
        self.seconds = seconds

    def spend(self, narrow: Message | None = None) -> None:
        """Count one step; raise OutOfTime (saying what to narrow) when the caller's check says time is up."""
        self._left -= 1
        if self._left > 0:
            return
        self._left = self._every
        if self._expired is not None and self._expired():
            raise out_of_time(self.seconds, narrow)

    def watched(self, work: Callable[..., T], *args: Any, narrow: Message | None = None) -> T:
        """`work(*args)`, a library call that may run long without coming back, under the caller's watch: stopped
        with OutOfTime (saying what to narrow) soon after the caller's check says time is up. Without a watch (or
        a check) it only runs."""
        if self._watch is None or self._expired is None:
            return work(*args)
        try:
            result: T = self._watch(partial(work, *args), self._expired)
        except Expired:
            raise out_of_time(self.seconds, narrow) from None
        return result


def out_of_time(seconds: float, narrow: Message | None = None) -> OutOfTime:
    """The error of a call stopped at its budget: how long it may run, and what to narrow."""
    return OutOfTime(
        N_("This call needed more computation than the server allows for one call ({seconds} s) and was stopped."),
        seconds=f"{seconds:g}",
        also=(narrow or NARROW_GENERIC,),
        details={"budget_seconds": seconds},
    )


UNLIMITED: Final = Budget()
"""The budget of calls made without one (direct library use): it only counts, and is never armed."""
