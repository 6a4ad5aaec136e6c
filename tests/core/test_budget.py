"""The step budget: it counts, asks its caller's check every few steps, and stops with a message saying what to do."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from horologe.core.budget import UNLIMITED, Budget, Expired, out_of_time
from horologe.core.errors import OutOfTime
from horologe.core.recurrence import NARROW_RULE


def test_the_callers_check_is_asked_once_every_few_steps() -> None:
    asked: list[int] = []

    def expired() -> bool:
        asked.append(1)
        return False

    budget = Budget(expired, every=10)
    for _ in range(95):
        budget.spend()
    assert len(asked) == 9


def test_a_check_that_says_time_is_up_stops_the_next_step_with_the_narrowing_hint() -> None:
    budget = Budget(lambda: True, seconds=2.5, every=3)
    budget.spend()
    budget.spend()
    with pytest.raises(OutOfTime) as caught:
        budget.spend(NARROW_RULE)
    assert caught.value.kind == "budget_exceeded"
    assert caught.value.message.startswith(
        "This call needed more computation than the server allows for one call (2.5 s)"
    )
    assert caught.value.message.endswith("or use a rule that matches more often.")


def test_without_a_hint_the_message_says_to_ask_for_less() -> None:
    assert out_of_time(5).message.endswith("Ask for less in one call (a shorter range, fewer items).")
    assert out_of_time(0.25).details == {"budget_seconds": 0.25}


def test_the_unlimited_budget_never_stops() -> None:
    for _ in range(10_000):
        UNLIMITED.spend()


def stop_at_once(work: Callable[[], Any], expired: Callable[[], bool]) -> Any:
    """A caller's watch (the protocol edge's is a profile function) that stops the call when time is up."""
    if expired():
        raise Expired
    return work()


def test_a_watched_call_stopped_by_the_callers_watch_is_out_of_time_saying_what_to_narrow() -> None:
    budget = Budget(lambda: True, seconds=4.0, watch=stop_at_once)
    with pytest.raises(OutOfTime) as caught:
        budget.watched(sorted, [3, 1, 2], narrow=NARROW_RULE)
    assert caught.value.message.endswith("or use a rule that matches more often.")
    assert caught.value.details == {"budget_seconds": 4.0}


def test_a_watched_call_hands_back_its_result_or_its_own_error() -> None:
    budget = Budget(lambda: False, watch=stop_at_once)
    assert budget.watched(sorted, [3, 1, 2]) == [1, 2, 3]
    with pytest.raises(KeyError):
        budget.watched({}.__getitem__, "missing")


def test_without_a_watch_or_a_check_the_call_only_runs() -> None:
    assert UNLIMITED.watched(sorted, [2, 1]) == [1, 2]
    assert Budget(watch=stop_at_once).watched(sorted, [2, 1]) == [1, 2]
    assert Budget(lambda: True).watched(sorted, [2, 1]) == [1, 2]
