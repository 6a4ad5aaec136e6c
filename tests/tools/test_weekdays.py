"""One weekday vocabulary: one definition, one spelling in every result, arguments in any case."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, get_args

import pytest
from mcp.client import Client

from horologe.core.weekdays import ARGUMENT_NAMES, DAY_NAMES, weekday_number
from horologe.tools.schemas import Weekday, weekday_name
from tests.calls import structured

SOURCE = Path(__file__).parents[2] / "src" / "horologe"


def test_the_argument_type_is_the_one_vocabulary() -> None:
    assert get_args(Weekday) == ARGUMENT_NAMES == tuple(name.lower() for name in DAY_NAMES)


@pytest.mark.parametrize(("text", "number"), [("Monday", 0), ("mon", 0), (" SUN ", 6), ("Thu", 3), ("Tues", None)])
def test_a_weekday_is_read_in_any_case_full_or_abbreviated(text: str, number: int | None) -> None:
    assert weekday_number(text) == number
    assert weekday_name(text) == (ARGUMENT_NAMES[number] if number is not None else text.strip().lower())


def test_no_module_spells_the_week_again() -> None:
    """Only core/weekdays.py and the argument type (a `Literal`, held equal to it above) list the seven days."""
    found = []
    for path in SOURCE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Tuple | ast.List) and len(node.elts) == 7:
                texts = [e.value.lower() for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
                if texts == list(ARGUMENT_NAMES):
                    found.append(str(path.relative_to(SOURCE)))
    assert sorted(found) == ["core/weekdays.py", "tools/schemas/__init__.py"]


@pytest.mark.anyio
async def test_every_result_spells_weekdays_alike(client: Client) -> None:
    days: list[Any] = []
    business = await structured(client, "business_days", {"start_date": "2026-11-20", "count": 2, "country": "AT"})
    days += [business["result_day_of_week"], *business["weekend"]]
    week = await structured(client, "resolve_time_expression", {"expression": "this week", "locale": "de-AT"})
    days.append(week["week_start"])
    people = [{"timezone": "UTC", "working_hours": {"days": ["mon", "Friday"]}}]
    meeting = await structured(
        client,
        "find_meeting_time",
        {"duration": 30, "start_date": "2026-11-23", "end_date": "2026-11-27", "participants": people},
    )
    days += meeting["working_hours"][0]["days"]
    assert days and all(day in DAY_NAMES for day in days), days
