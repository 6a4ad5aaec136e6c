"""Calls cheap by construction run on the event loop (`ToolSpec.bounded`): which calls qualify, that they never reach
a reader whose cost an argument can raise (places, phrases, close-name suggestions, locale data), and that every
other call runs in a worker thread."""

from __future__ import annotations

import dataclasses
import threading
from contextlib import AsyncExitStack
from datetime import UTC, datetime
from typing import Any, NoReturn

import pytest

from horologe.config import Settings
from horologe.context import RequestContext
from horologe.core import tzdb, zones
from horologe.core.gazetteer import Gazetteer
from horologe.core.zones import resolve_zone
from horologe.i18n import cldr
from horologe.protocol.handlers import run_tool
from horologe.tools import present, reading
from horologe.tools import registry as catalog
from horologe.tools.spec import ToolOptions
from tests.calls import structured
from tests.conftest import IN_PROCESS
from tests.fixtures import connect, horologe_server

LONGEST_KEYS = sorted((key for key in tzdb.zone_names() if "/" in key), key=len, reverse=True)[:5]
ACCEPTED: list[tuple[str, dict[str, Any]]] = [
    ("get_current_time", {}),
    ("get_current_time", {"timezone": LONGEST_KEYS[0]}),
    ("get_current_time", {"timezone": "US/Eastern", "format": "iso8601"}),
    (
        "convert_timezone",
        {"timestamp": "2026-11-28T10:00:00", "from_timezone": "Europe/Vienna", "to_timezone": "Asia/Tokyo"},
    ),
    ("convert_timezone", {"timestamp": "0002-01-01T00:00:00.000001+14:00", "to_timezone": LONGEST_KEYS[:4]}),
    ("convert_timezone", {"timestamp": "9998-12-31 23:59:59Z", "to_timezone": "Pacific/Kiritimati"}),
    ("convert_timezone", {"timestamp": "2026-03-29T02:30", "to_timezone": "Europe/Berlin"}),  # in a DST gap
    ("convert_timezone", {"timestamp": "2026-10-25", "from_timezone": "Europe/Berlin", "to_timezone": ["Etc/GMT+5"]}),
]
REFUSED: list[tuple[str, dict[str, Any]]] = [
    ("get_current_time", {"timezone": "Vienna"}),  # a place
    ("get_current_time", {"timezone": "Europe/Viena"}),  # misspelt: suggestions
    ("get_current_time", {"timezone": "europe/vienna"}),
    ("get_current_time", {"timezone": "EST"}),  # an abbreviation
    ("get_current_time", {"timezone": "Europe/Vienna", "format": "human"}),  # locale data
    ("get_current_time", {"timezone": "Europe/Vienna", "format": "custom", "custom_format": "%H"}),
    ("convert_timezone", {"timestamp": "3pm tomorrow", "to_timezone": "Europe/Vienna"}),  # a phrase
    ("convert_timezone", {"timestamp": "2026-02-30T10:00:00", "to_timezone": "Europe/Vienna"}),  # no such day
    ("convert_timezone", {"timestamp": "0001-01-01T00:00:00+14:00", "to_timezone": "Europe/Vienna"}),  # year 0
    ("convert_timezone", {"timestamp": "2026-11-28T10:00:00", "to_timezone": LONGEST_KEYS[:5]}),  # many first loads
    ("convert_timezone", {"timestamp": "2026-11-28T10:00:00", "to_timezone": []}),
    ("convert_timezone", {"timestamp": "2026-11-28T10:00:00", "to_timezone": "Asia/Tokyo", "format": "human"}),
    ("convert_timezone", {"timestamp": "2026-11-28T10:00:00 Vienna", "to_timezone": "Asia/Tokyo"}),
]
QUERIES = [name for name in vars(Gazetteer) if not name.startswith("_") and callable(getattr(Gazetteer, name))]
QUERIES.remove("open")  # opening the table once per process is no query
OPTIONS = ToolOptions(supported_formats=("iso8601", "rfc2822", "unix", "human", "custom"), precision="milliseconds")


def fresh(**preferences: Any) -> RequestContext:
    return RequestContext(
        now=datetime(2026, 11, 28, 12, tzinfo=UTC), default_zone=resolve_zone("Europe/Vienna"), preferences=preferences
    )


def bounded(name: str, arguments: dict[str, Any], context: RequestContext | None = None) -> bool:
    check = catalog.TOOLS_BY_NAME[name].bounded
    return check is not None and check(arguments, context or fresh())


@pytest.mark.parametrize(("name", "arguments"), ACCEPTED, ids=lambda value: str(value)[:60])
def test_a_call_on_exact_keys_and_iso_times_is_bounded(name: str, arguments: dict[str, Any]) -> None:
    assert bounded(name, arguments)


@pytest.mark.parametrize(("name", "arguments"), REFUSED, ids=lambda value: str(value)[:60])
def test_a_call_that_may_search_read_a_phrase_or_load_locale_data_is_not(name: str, arguments: dict[str, Any]) -> None:
    assert not bounded(name, arguments)


def test_a_stored_format_that_needs_locale_data_makes_the_current_time_unbounded() -> None:
    assert not bounded("get_current_time", {"timezone": "Europe/Vienna"}, fresh(format="human"))
    assert bounded("get_current_time", {"timezone": "Europe/Vienna"}, fresh(format="iso8601"))


def test_only_the_tools_read_from_exact_keys_declare_bounded_calls() -> None:
    assert {spec.name for spec in catalog.TOOLS if spec.bounded is not None} == {"get_current_time", "convert_timezone"}


def _unreachable(*args: object, **kwargs: object) -> NoReturn:
    raise AssertionError("a bounded call reached a reader whose cost its arguments can raise")


@pytest.fixture
def poisoned(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every query of the places table, the phrase reader, close-name suggestions and CLDR's locale data, each
    raising if reached; the zone readings cache emptied, so every name is read again."""
    for query in QUERIES:
        monkeypatch.setattr(Gazetteer, query, _unreachable)
    for owner, name in [
        (reading, "resolve_expression"),
        (zones, "_by_name"),
        (zones, "_unknown"),
        (cldr, "_locale"),
    ]:
        monkeypatch.setattr(owner, name, _unreachable)
    present._resolved.cache_clear()


@pytest.mark.parametrize(("name", "arguments"), ACCEPTED, ids=lambda value: str(value)[:60])
def test_a_bounded_call_answers_without_reaching_any_unbounded_reader(
    name: str, arguments: dict[str, Any], poisoned: None
) -> None:
    result = run_tool(catalog.TOOLS_BY_NAME, name, arguments, fresh(), OPTIONS)
    assert isinstance(result, dict) and result["isError"] is False, result


def test_the_poison_is_reached_by_an_unbounded_call(poisoned: None) -> None:
    with pytest.raises(AssertionError, match="reached a reader"):
        run_tool(catalog.TOOLS_BY_NAME, "get_current_time", {"timezone": "Vienna"}, fresh(), OPTIONS)


@pytest.mark.anyio
async def test_bounded_calls_run_on_the_event_loop_and_the_others_in_a_worker_thread(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran_on: list[str] = []

    def recorded(spec: Any) -> Any:
        def run(arguments: Any, context: RequestContext, options: ToolOptions) -> dict[str, Any]:
            ran_on.append(threading.current_thread().name)
            return spec.run(arguments, context, options)  # type: ignore[no-any-return]

        return dataclasses.replace(spec, run=run)

    monkeypatch.setitem(catalog.TOOLSETS, "core", tuple(recorded(spec) for spec in catalog.TOOLSETS["core"]))
    async with AsyncExitStack() as stack:
        client = await connect(horologe_server(settings), settings, IN_PROCESS, stack)
        loop_thread = threading.current_thread().name
        await structured(client, "get_current_time", {"timezone": "Europe/Vienna"})
        await structured(client, "get_current_time", {"timezone": "Vienna"})
        await structured(client, "convert_timezone", {"timestamp": "2026-11-28T10:00", "to_timezone": "Asia/Tokyo"})
        await structured(client, "convert_timezone", {"timestamp": "10am", "to_timezone": "Asia/Tokyo"})
    assert ran_on == [loop_thread, "horologe-tool", loop_thread, "horologe-tool"]
