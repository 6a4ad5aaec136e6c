"""How much computation one call may spend: a step counter that asks the caller whether time is up.

The core never reads a clock. A long loop calls `Budget.spend()` once per step; every `every` steps the budget
asks the `expired` check its caller supplied (the protocol edge: a deadline on the monotonic clock, or the
request's cancellation), and when it says yes the loop stops with `OutOfTime`, whose message says what to
narrow. A budget without a check only counts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from horologe.core.errors import OutOfTime
from horologe.core.messages import N_, Message, msg

NARROW_GENERIC: Final = msg(N_("Ask for less in one call (a shorter range, fewer items)."))


class Budget:
    """A computation's allowance: `spend()` per step; the caller's `expired` check is asked every `every` steps."""

    __slots__ = ("_every", "_expired", "_left", "seconds")

    def __init__(self, expired: Callable[[], bool] | None = None, *, seconds: float = 0.0, every: int = 64) -> None:
        self._expired = expired
        self._every = every
        self._left = every
        self.seconds = seconds

    def arm(self, expired: Callable[[], bool], seconds: float) -> None:
        """Give a fresh budget its caller's check (the executor does, once per call)."""
        self._expired = expired
        self.seconds = seconds

    def spend(self, narrow: Message | None = None) -> None:
        """Count one step; raise OutOfTime (saying what to narrow) when the caller's check says time is up."""
        self._left -= 1
        if self._left > 0:
            return
        self._left = self._every
        if self._expired is not None and self._expired():
            raise out_of_time(self.seconds, narrow)


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
