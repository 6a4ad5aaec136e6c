"""Every long loop is under the call's budget: the heaviest read-only calls within the argument limits stop with a
clear `budget_exceeded` once their caller's check says time is up (so the tool budget, the request timeout and
SIGTERM's grace always act), and the calls without a long loop answer."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from typing import Any

import pytest

from horologe.context import RequestContext
from horologe.core.budget import Budget
from horologe.core.zones import resolve_zone
from horologe.protocol.errors import ToolFailure
from horologe.protocol.execution import watch
from horologe.protocol.handlers import run_tool
from horologe.tools.registry import TOOLS_BY_NAME
from horologe.tools.spec import ToolOptions
from tests.samples import HEAVIEST

OPTIONS = ToolOptions(("iso8601", "custom"), "milliseconds")
LOOPING = {"convert_timezone", "resolve_time_expression", "business_days", "next_occurrences", "find_meeting_time"}


def out_of_time_context() -> RequestContext:
    """A context whose budget's check says time is up whenever it is asked (every 64 steps, and from inside a
    watched library call)."""
    budget = Budget(lambda: True, seconds=5.0, watch=watch)
    return RequestContext(now=datetime(2026, 3, 1, 12, tzinfo=UTC), default_zone=resolve_zone("UTC"), budget=budget)


@pytest.mark.parametrize(("name", "arguments"), HEAVIEST, ids=[f"{name}-{i}" for i, (name, _) in enumerate(HEAVIEST)])
def test_the_heaviest_calls_stop_at_the_budget_where_they_loop(name: str, arguments: dict[str, Any]) -> None:
    if sys.getprofile() is not None:
        pytest.skip("a profiler is installed: the watch stays out of its way")
    result = run_tool(TOOLS_BY_NAME, name, arguments, out_of_time_context(), OPTIONS)
    if name in LOOPING:
        assert isinstance(result, ToolFailure) and result.error.kind == "budget_exceeded", result
    else:  # nothing to loop over: one library computation of bounded size
        assert not isinstance(result, ToolFailure), result.error.text.render()
    assert sys.getprofile() is None
