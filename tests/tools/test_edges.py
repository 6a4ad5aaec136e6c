"""An edge sweep of every tool's arguments at the year limits and the size limits: 0 internal errors, 0 hangs.

Each argument of each tool, in turn, takes every value of its kind's edge list (the first and last instants of
the calendar, zones 14 hours either side of UTC, huge numbers and amounts, over-long strings and lists,
pathological recurrence rules) while the others keep the values of the tool's first sample (tests/samples.py);
timestamps are also crossed with the extreme zones. A call may answer or refuse (an `isError` result); it may not
raise (that is an internal error) or run past its budget. `python -m tests.tools.test_edges` prints the counts.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, Final

import pytest

from horologe.context import RequestContext
from horologe.core.budget import Budget
from horologe.core.format import OutputFormat
from horologe.core.zones import resolve_zone
from horologe.protocol.errors import ToolFailure
from horologe.protocol.handlers import run_tool
from horologe.tools.registry import selected_tools, tool_schemas
from horologe.tools.spec import ToolOptions, ToolSpec
from tests.samples import SAMPLES

# Short: a case that never finds an answer (an EXRULE that excludes every occurrence) is stopped by the budget, and
# spent all of it; a slow moment that stops a case which would answer only turns an answer into a refusal.
BUDGET_SECONDS: Final = 0.5
# Counted in this thread's CPU seconds: the budget runs on the wall clock, so a call within it spends at most
# BUDGET_SECONDS of CPU however loaded the machine is; past that by a second, it did not stop at its budget.
HANG_SECONDS: Final = BUDGET_SECONDS + 1.0
WAIT_SECONDS: Final = 60.0  # and a call that waits instead of computing: far past any loaded machine's delay
FORMATS: Final[tuple[OutputFormat, ...]] = ("iso8601", "rfc3339", "rfc2822", "http", "unix", "unix_ms", "human")
OPTIONS: Final = ToolOptions((*FORMATS, "custom"), "milliseconds")
TOOLS: Final = {spec.name: spec for spec in selected_tools(["all"], "stdio")}

INSTANTS: Final[list[Any]] = [
    "0001-01-01T00:00:00Z",
    "0001-01-01T00:00:00",
    "0001-01-01",
    "9999-12-31T23:59:59.999999Z",
    "9999-12-31T12:00:00Z",
    "9999-12-31T23:59:59",
    "9999-12-31",
    -62135596800,
    253402300799,
    253402300799999,
    10**30,
    -(10**30),
    1e308,
    -1e308,
    "now",
    "",
    "x" * 10_000,
]
ZONES: Final = ["Pacific/Kiritimati", "Etc/GMT+12", "America/New_York", "+14:00", "-12:00", "UTC", "x" * 10_000]
AMOUNTS: Final[list[Any]] = [
    "P9999Y",
    "-P9999Y",
    "PT" + "9" * 30 + "S",
    "P" + "9" * 30 + "D",
    "10000 years",
    "-10000 years",
    "1e30 days",
    10**30,
    "1 day",
]
INTEGERS: Final[list[Any]] = [0, -1, 1, 10**30, -(10**30), 2**63]
DATES: Final[list[Any]] = ["0001-01-01", "9999-12-31", "0001-01-01T00:00:00Z", "10000-01-01", "x" * 10_000]
RULES: Final = [
    "RRULE:FREQ=SECONDLY\nEXRULE:FREQ=SECONDLY",
    "FREQ=SECONDLY;BYSETPOS=366",
    "FREQ=DAILY;BYMONTHDAY=29;BYMONTH=2;BYDAY=MO",
    "FREQ=HOURLY;BYMONTHDAY=29;BYMONTH=2;BYDAY=MO",
    "FREQ=MONTHLY;BYDAY=MO;BYSETPOS=6",
    "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30",
    "FREQ=SECONDLY;INTERVAL=60;BYSECOND=5",
    "DTSTART:99991231T235959Z\nRRULE:FREQ=SECONDLY",
    "DTSTART:00010101T000000\nRRULE:FREQ=YEARLY",
    "DTSTART;TZID=Pacific/Kiritimati:99991231T230000\nRRULE:FREQ=HOURLY",
    "FREQ=YEARLY;BYWEEKNO=53;BYDAY=MO;COUNT=1000",
    "* * * * *",
    "0 0 29 2 1",
    "0 0 31 2 *",
]
STRINGS: Final[list[Any]] = ["", "\x00", "x" * 100_000, "🕰" * 1000]
KINDS: Final[dict[str, list[Any]]] = {
    "timestamp": INSTANTS,
    "start_time": INSTANTS,
    "end_time": INSTANTS,
    "reference_time": INSTANTS,
    "date": INSTANTS,
    "timezone": ZONES,
    "to_timezone": ZONES,
    "from_timezone": ZONES,
    "amount": AMOUNTS,
    "duration": AMOUNTS,
    "duration_seconds": INTEGERS,
    "count": INTEGERS,
    "limit": INTEGERS,
    "offset": INTEGERS,
    "year": [1, 9999, 0, 10_000, 10**30],
    "step_minutes": INTEGERS,
    "start_date": DATES,
    "end_date": DATES,
    "rule": RULES,
    "custom_format": ["%Y" * 10_000, "%", "%Q", "%-d %s %G-W%V"],
    "extra_holidays": [["0001-01-01", "9999-12-31"], ["2026-01-01"] * 367],
    "weekend": [[0, 1, 2, 3, 4, 5, 6], []],
    "participants": [[{"timezone": zone} for zone in ZONES], [{"timezone": "UTC"}] * 51],
    "fields": [["timezone"] * 6, ["x" * 10_000]],
}


def context() -> RequestContext:
    """A context at a fixed instant, with a budget measured here (the executor's job on a server)."""
    deadline = time.monotonic() + BUDGET_SECONDS
    budget = Budget(lambda: time.monotonic() >= deadline, seconds=BUDGET_SECONDS)
    return RequestContext(now=datetime(2026, 3, 1, 12, tzinfo=UTC), default_zone=resolve_zone("UTC"), budget=budget)


def cases(spec: ToolSpec) -> Iterator[dict[str, Any]]:
    """The tool's first sample with one argument at an edge; and timestamps crossed with the extreme zones."""
    names = list(tool_schemas(spec)[0]["properties"])
    base = SAMPLES[spec.name][0]
    for name in names:
        for value in KINDS.get(name, STRINGS):
            yield {**base, name: value}
    zone_names = [name for name in names if "timezone" in name]
    for instant_name in [name for name in names if name in INSTANTS_ARGUMENTS]:
        for zone_name in zone_names:
            for instant in INSTANTS[:7]:
                for zone in ZONES[:5]:
                    yield {**base, instant_name: instant, zone_name: zone}
    for fmt in FORMATS if "format" in names else ():
        for instant in INSTANTS[:7]:
            yield {**base, "format": fmt, "timezone": "Pacific/Kiritimati", **_instant(names, instant)}


INSTANTS_ARGUMENTS: Final = ("timestamp", "start_time", "end_time", "reference_time", "date")


def _instant(names: list[str], instant: Any) -> dict[str, Any]:
    return {name: instant for name in names if name in INSTANTS_ARGUMENTS}


def sweep(spec: ToolSpec) -> Counter[str]:
    """Run every case of one tool; count answers, refusals, internal errors and hangs."""
    counts: Counter[str] = Counter()
    for arguments in cases(spec):
        started, began = time.thread_time(), time.monotonic()
        try:
            result = run_tool(TOOLS, spec.name, arguments, context(), OPTIONS)
        except Exception as exc:  # an exception out of run_tool is answered -32603 Internal error
            counts["internal"] += 1
            counts[f"internal: {spec.name} {arguments!r:.200} {exc!r:.200}"] += 1
            continue
        finally:
            if time.thread_time() - started > HANG_SECONDS or time.monotonic() - began > WAIT_SECONDS:
                counts["hang"] += 1
                counts[f"hang: {spec.name} {arguments!r:.200}"] += 1
        counts["refused" if isinstance(result, ToolFailure) else "answered"] += 1
    return counts


@pytest.mark.parametrize("name", list(TOOLS))
def test_no_tool_argument_at_an_edge_makes_an_internal_error_or_a_hang(name: str) -> None:
    counts = sweep(TOOLS[name])
    problems = [key for key in counts if key.startswith(("internal:", "hang:"))]
    assert not problems, problems[:10]
    assert counts["answered"] + counts["refused"] >= 10


def main() -> None:
    """Print the sweep's counts per tool and in total."""
    total: Counter[str] = Counter()
    for name, spec in TOOLS.items():
        counts = sweep(spec)
        total.update({key: value for key, value in counts.items() if ":" not in key})
        print(f"{name:26} {dict((k, v) for k, v in counts.items() if ':' not in k)}")
        for key in counts:
            if ":" in key:
                print("   ", key)
    print(f"{'total':26} calls={sum(total[k] for k in ('answered', 'refused'))} {dict(total)}")


if __name__ == "__main__":
    main()


def unbounded(schema: Any, kind: str, limit: str, path: str = "") -> list[str]:
    """Where a JSON schema allows a value of `kind` ('array', 'string') of any length (no `limit` keyword); a string
    with an `enum` or `const` is bounded by it."""
    found: list[str] = []
    if isinstance(schema, dict):
        if schema.get("type") == kind and limit not in schema and not {"enum", "const"} & set(schema):
            found.append(path or "(root)")
        for key, value in schema.items():
            found += unbounded(value, kind, limit, f"{path}.{key}" if path else key)
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            found += unbounded(value, kind, limit, f"{path}[{index}]")
    return found


@pytest.mark.parametrize("name", list(TOOLS))
def test_every_list_argument_has_a_maximum_length(name: str) -> None:
    assert unbounded(tool_schemas(TOOLS[name])[0], "array", "maxItems") == []


@pytest.mark.parametrize("name", list(TOOLS))
def test_every_text_argument_declares_its_maximum_length(name: str) -> None:
    assert unbounded(tool_schemas(TOOLS[name])[0], "string", "maxLength") == []


@pytest.mark.parametrize("name", list(TOOLS))
def test_text_over_its_declared_limit_is_refused_naming_the_limit_before_any_work(name: str) -> None:
    """Each text argument, one character over its published limit (60 KB for a time), is refused by validation: the
    message names the argument and the limit, and no tool body runs (a budget nobody may spend)."""
    spec = TOOLS[name]
    schema = tool_schemas(spec)[0]
    for field, node in schema["properties"].items():
        limit = next((option["maxLength"] for option in node.get("anyOf", [node]) if "maxLength" in option), None)
        if limit is None:
            continue
        overlong = "a " * 30_000 if field in INSTANTS_ARGUMENTS else "x" * (limit + 1)
        untouchable = RequestContext(now=datetime(2026, 3, 1, 12, tzinfo=UTC), default_zone=resolve_zone("UTC"))
        untouchable.budget.arm(_no_work, 1.0)
        result = run_tool(TOOLS, name, {**SAMPLES[name][0], field: overlong}, untouchable, OPTIONS)
        assert isinstance(result, ToolFailure), field
        text = result.error.text.render()
        assert result.error.kind == "invalid_arguments", field
        assert f"{field}: String should have at most {limit} characters" in text, text


def _no_work() -> bool:
    raise AssertionError("a tool body ran with an argument over its limit")
