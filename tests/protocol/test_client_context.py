"""Client context (SEP-1809) through the SDK client (`_meta` placement) and over raw stdio (top-level placement)."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client

import horologe
from horologe.wire import CLIENT_CONTEXT_META as CLIENT_CONTEXT_META_KEY
from horologe.wire import CONTEXT_REPORT_META as CONTEXT_REPORT_META_KEY
from tests.calls import request_meta
from tests.sep1809 import EXAMPLE_1, EXAMPLE_2, EXAMPLE_3
from tests.test_stdio import served

ERAS = ["legacy", "2026-07-28"]

# The clientContext objects of the proposal's three examples come from tests/sep1809.py.


async def call(
    client: Client, name: str, arguments: dict[str, Any], context: object = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The result dict and its context report."""
    meta = request_meta({CLIENT_CONTEXT_META_KEY: context}) if context is not None else None
    result = await client.call_tool(name, arguments, meta=meta)
    dumped: dict[str, Any] = result.model_dump(by_alias=True, mode="json", exclude_none=True)
    return dumped, dumped.get("_meta", {}).get(CONTEXT_REPORT_META_KEY, {})


@pytest.mark.wire("meta")
@pytest.mark.anyio
async def test_example_1_sales_this_month_in_vienna(wire_client: Client) -> None:
    result, report = await call(wire_client, "resolve_time_expression", {"expression": "this month"}, EXAMPLE_1)
    body = result["structuredContent"]
    assert body["timezone"] == "Europe/Vienna"
    assert (body["start"], body["end"]) == ("2026-11-01T00:00:00+01:00", "2026-12-01T00:00:00+01:00")
    assert report == {"applied": EXAMPLE_1}  # nothing ignored: nothing said about it


@pytest.mark.anyio
async def test_example_2_as_of_now_is_the_clients_timestamp(client: Client) -> None:
    result, report = await call(client, "resolve_time_expression", {"expression": "now"}, EXAMPLE_2)
    body = result["structuredContent"]
    assert datetime.fromisoformat(body["instant"]) == datetime(2025, 11, 12, 13, 23, tzinfo=UTC)
    assert report == {"applied": EXAMPLE_2}
    current, _ = await call(client, "get_current_time", {}, EXAMPLE_2)
    assert current["structuredContent"]["timestamp"] == "2025-11-12T13:23:00Z"


@pytest.mark.anyio
async def test_example_3_logins_in_the_last_week_in_los_angeles(client: Client) -> None:
    result, report = await call(client, "resolve_time_expression", {"expression": "last week"}, EXAMPLE_3)
    body = result["structuredContent"]
    # 2025-11-12 is a Wednesday; en-US weeks start on Sunday, so last week is Sun Nov 2 .. Sun Nov 9. Nov 2 is
    # the fall-back day: its midnight is still PDT, and the week is 169 hours long.
    assert body["start"] == "2025-11-02T00:00:00-07:00"
    assert body["end"] == "2025-11-09T00:00:00-08:00"
    assert datetime.fromisoformat(body["end"]) - datetime.fromisoformat(body["start"]) == timedelta(hours=169)
    assert body["week_start"] == "Sunday"
    assert report == {"applied": EXAMPLE_3}


BAD_CONTEXTS: list[tuple[object, str]] = [
    ({"timezone": "Mars/Base"}, "timezone"),
    ({"currentTimestamp": "2025-11-12T14:23:00"}, "currentTimestamp"),
    ({"currentTimestamp": "not a time"}, "currentTimestamp"),
    ({"locale": "en_US"}, "locale"),
    ({"locale": "qq-ZZ"}, "locale"),
    ({"userLocation": {"coordinates": {"latitude": 123, "longitude": 0}}}, "userLocation.coordinates"),
    ({"userLocation": {"country": "Austria"}}, "userLocation.country"),
    ("Europe/Vienna", "clientContext"),
]


@pytest.mark.anyio
@pytest.mark.parametrize(("context", "field"), BAD_CONTEXTS)
async def test_bad_context_is_ignored_and_reported_never_failing(client: Client, context: object, field: str) -> None:
    result, report = await call(client, "get_current_time", {}, context)
    assert result["isError"] is False
    assert result["structuredContent"]["timezone"] == "UTC"
    assert result["structuredContent"]["timestamp"] == "2026-11-22T03:11:30.123Z"
    assert field in report["ignored"]


@pytest.mark.wire("meta")
@pytest.mark.anyio
async def test_the_report_travels_on_error_results_and_without_context(wire_client: Client) -> None:
    result, report = await call(
        wire_client, "resolve_time_expression", {"expression": "gibberish"}, {"timezone": "x/y"}
    )
    assert result["isError"] is True
    assert result["_meta"]["dev.horologe/error"]["kind"] == "unknown_expression"
    assert "timezone" in report["ignored"]
    plain, empty = await call(wire_client, "get_current_time", {})
    assert empty == {} and CONTEXT_REPORT_META_KEY not in plain.get("_meta", {})  # nothing sent, nothing said


@pytest.mark.anyio
async def test_a_disagreeing_offset_is_reported_and_the_zone_interprets(client: Client) -> None:
    context = {"timezone": "Europe/Vienna", "currentTimestamp": "2025-07-01T12:00:00+01:00"}
    result, report = await call(client, "resolve_time_expression", {"expression": "today"}, context)
    assert result["structuredContent"]["start"] == "2025-07-01T00:00:00+02:00"
    assert report["conflicts"][0]["fields"] == ["timezone", "currentTimestamp"]


@pytest.mark.anyio
async def test_precedence_explicit_argument_over_context_over_server_default(client: Client) -> None:
    vienna = {"timezone": "Europe/Vienna"}
    explicit, _ = await call(client, "get_current_time", {"timezone": "Asia/Tokyo"}, vienna)
    from_context, _ = await call(client, "get_current_time", {}, vienna)
    default, _ = await call(client, "get_current_time", {})
    assert explicit["structuredContent"]["timezone"] == "Asia/Tokyo"
    assert from_context["structuredContent"]["timezone"] == "Europe/Vienna"
    assert default["structuredContent"]["timezone"] == "UTC"
    stamp = {"currentTimestamp": "2025-11-12T14:23:00+01:00"}
    argument, _ = await call(
        client, "resolve_time_expression", {"expression": "today", "reference_time": "2024-02-29T12:00:00Z"}, stamp
    )
    assert argument["structuredContent"]["start"] == "2024-02-29T00:00:00Z"


@pytest.mark.anyio
async def test_the_users_country_narrows_ambiguous_zone_names(client: Client) -> None:
    unhinted, _ = await call(client, "get_current_time", {"timezone": "IST"})
    hinted, _ = await call(client, "get_current_time", {"timezone": "IST"}, {"userLocation": {"country": "IE"}})
    assert unhinted["isError"] is True
    assert hinted["structuredContent"]["timezone"] == "Europe/Dublin"


HUMAN = [
    ("en-US", "America/New_York", "Saturday, November 21, 2026, 10:11\u202fPM EST"),
    ("de-AT", "Europe/Vienna", "Sonntag, 22. November 2026, 04:11 MEZ"),
    ("fr-FR", "Europe/Paris", "dimanche 22 novembre 2026, 04:11 CET"),
    ("ja-JP", "Asia/Tokyo", "2026年11月22日日曜日 12:11 JST"),
]


@pytest.mark.anyio
@pytest.mark.parametrize(("locale", "zone", "expected"), HUMAN)
async def test_human_output_follows_the_locale(client: Client, locale: str, zone: str, expected: str) -> None:
    context = {"timezone": zone, "locale": locale}
    current, _ = await call(client, "get_current_time", {"format": "human"}, context)
    assert current["structuredContent"]["formatted"] == expected
    formatted, _ = await call(client, "format_time", {"timestamp": "2026-11-22T03:11:30Z", "format": "human"}, context)
    assert formatted["structuredContent"]["formatted"] == expected


@pytest.mark.anyio
async def test_human_output_without_locale_is_unchanged(client: Client) -> None:
    result, _ = await call(client, "get_current_time", {"format": "human"}, {"timezone": "Europe/Vienna"})
    assert result["structuredContent"]["formatted"] == "Sunday, November 22, 2026 at 4:11 AM CET"


# --- over a real stdio process, with the proposal's literal top-level placement --------------------------------

ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
}


def top_level(request_id: int, expression: str, context: dict[str, Any], meta: dict[str, Any] | None = None) -> bytes:
    params: dict[str, Any] = {
        "name": "resolve_time_expression",
        "arguments": {"expression": expression},
        "_meta": {**ENVELOPE},
    }
    params["_meta"].update(meta or {})
    body = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params, "clientContext": context}
    return json.dumps(body).encode() + b"\n"


@pytest.mark.e2e
def test_the_three_examples_over_stdio_with_top_level_placement() -> None:
    lines = [
        top_level(101, "this month", EXAMPLE_1),
        top_level(102, "now", EXAMPLE_2),
        top_level(103, "last week", EXAMPLE_3),
        top_level(104, "now", {"timezone": "Mars/Base"}, {CLIENT_CONTEXT_META_KEY: {"timezone": "Asia/Tokyo"}}),
    ]
    serve = [sys.executable, "-m", "horologe", "serve", "--transport", "stdio"]
    completed = subprocess.run(serve, input=b"".join(lines), capture_output=True, timeout=60, check=False)
    assert completed.returncode == 0, completed.stderr.decode()
    by_id = {m["id"]: m["result"] for m in map(json.loads, completed.stdout.splitlines())}
    assert by_id[101]["structuredContent"]["start"].endswith("T00:00:00+01:00")
    assert by_id[101]["_meta"][CONTEXT_REPORT_META_KEY]["applied"] == EXAMPLE_1
    assert datetime.fromisoformat(by_id[102]["structuredContent"]["instant"]) == datetime(
        2025, 11, 12, 13, 23, tzinfo=UTC
    )
    assert by_id[103]["structuredContent"]["start"] == "2025-11-02T00:00:00-07:00"
    assert by_id[103]["_meta"][CONTEXT_REPORT_META_KEY]["applied"] == EXAMPLE_3
    # Both placements at once: the explicit _meta one wins.
    assert by_id[104]["structuredContent"]["timezone"] == "Asia/Tokyo"
    assert "ignored" not in by_id[104]["_meta"][CONTEXT_REPORT_META_KEY]


@pytest.mark.anyio
async def test_coordinates_alone_give_the_users_zone(client: Client) -> None:
    context = {"userLocation": {"coordinates": {"latitude": 19.076, "longitude": 72.8777}}}
    result, report = await call(client, "get_current_time", {}, context)
    assert result["structuredContent"]["timezone"] == "Asia/Kolkata"
    assert report["applied"]["userLocation"]["timezone"] == "Asia/Kolkata"


@pytest.mark.anyio
async def test_a_city_in_its_country_gives_the_users_zone(client: Client) -> None:
    context = {"userLocation": {"city": "München", "country": "DE"}}
    result, _ = await call(client, "get_current_time", {}, context)
    assert result["structuredContent"]["timezone"] == "Europe/Berlin"


@pytest.mark.anyio
async def test_the_client_locale_formats_every_human_answer_alike(client: Client) -> None:
    """With client locale de-AT and no language asked for, format_time and convert_timezone both answer in German."""
    context = {"locale": "de-AT"}
    instant = "2026-11-22T14:30:00Z"
    formatted, _ = await call(
        client, "format_time", {"timestamp": instant, "timezone": "Europe/Vienna", "format": "human"}, context
    )
    converted, _ = await call(
        client,
        "convert_timezone",
        {"timestamp": instant, "from_timezone": "UTC", "to_timezone": "Europe/Vienna", "format": "human"},
        context,
    )
    german = formatted["structuredContent"]["formatted"]
    assert "November" in german and "Sonntag" in german
    assert converted["structuredContent"]["converted"]["formatted"] == german


def context_call(request_id: int, arguments: dict[str, Any], context: dict[str, Any]) -> bytes:
    """A bare `get_current_time` line with a client context in `_meta` (the connection serves 2026-07-28)."""
    params = {"name": "get_current_time", "arguments": arguments, "_meta": {CLIENT_CONTEXT_META_KEY: context}}
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}).encode() + b"\n"


def test_the_report_never_lists_a_zone_an_explicit_argument_overrode() -> None:
    vienna = {"timezone": "Europe/Vienna", "locale": "de-AT"}
    paris = {"userLocation": {"city": "Paris", "country": "FR"}}
    lines = served(
        context_call(1, {}, vienna)
        + context_call(2, {"timezone": "Asia/Tokyo"}, vienna)
        + context_call(3, {"timezone": "local"}, vienna)  # 'local' is the user's zone: the context decided it
        + context_call(4, {"timezone": "Asia/Tokyo"}, paris)
    )
    reports = {answer["id"]: answer["result"]["_meta"][CONTEXT_REPORT_META_KEY] for answer in map(json.loads, lines)}
    assert reports[1] == {"applied": {"timezone": "Europe/Vienna", "locale": "de-AT"}}
    assert reports[2] == {
        "applied": {"locale": "de-AT"},
        "ignored": {"timezone": "not used: the call named its zone (or needed none)"},
    }
    assert reports[3] == reports[1]
    assert reports[4] == {"applied": {"userLocation": {"city": "Paris", "country": "FR"}}}


def test_tools_read_the_users_zone_only_through_user_zone() -> None:
    """`RequestContext.user_zone` records that the user's zone was used; a direct read would escape the report."""
    package = Path(horologe.__file__).parent
    readers = [
        f"{path.relative_to(package)}:{number}"
        for folder in ("tools", "protocol")
        for path in sorted((package / folder).rglob("*.py"))
        for number, text in enumerate(path.read_text().splitlines(), start=1)
        if "ctx.default_zone" in text or "context.default_zone" in text
    ]
    assert readers == []


VIENNA = {"timezone": "Europe/Vienna"}
TEXT_NAMES_ITS_ZONE: list[tuple[str, dict[str, Any]]] = [
    ("convert_timezone", {"timestamp": "9am PST", "to_timezone": "UTC"}),
    ("convert_timezone", {"timestamp": "2026-11-23T09:00:00-08:00", "to_timezone": "UTC"}),
    ("format_time", {"timestamp": "9am PST", "format": "rfc2822"}),
    ("add_time", {"timestamp": "15:00 in Tokyo", "amount": "2 hours"}),
    ("calculate_duration", {"start_time": "9am PST", "end_time": "5pm PST"}),
    ("date_info", {"date": "11pm PST"}),
    ("date_info", {"date": "2026-03-01"}),  # a day needs no zone
    ("business_days", {"start_date": "9am in Tokyo", "count": 3, "country": "JP"}),
]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("tool", "arguments"), TEXT_NAMES_ITS_ZONE, ids=[f"{tool}-{n}" for n, (tool, _) in enumerate(TEXT_NAMES_ITS_ZONE)]
)
async def test_a_zone_written_in_the_time_leaves_the_users_zone_unused(
    client: Client, tool: str, arguments: dict[str, Any]
) -> None:
    result, report = await call(client, tool, arguments, VIENNA)
    assert result["isError"] is False, result
    assert "Europe/Vienna" not in json.dumps(result["structuredContent"])
    assert report == {"ignored": {"timezone": "not used: the call named its zone (or needed none)"}}


@pytest.mark.anyio
async def test_a_time_without_its_zone_is_read_in_the_users_and_says_so(client: Client) -> None:
    converted, report = await call(client, "convert_timezone", {"timestamp": "9am", "to_timezone": "UTC"}, VIENNA)
    assert converted["structuredContent"]["original"]["timezone"] == "Europe/Vienna"
    assert report == {"applied": VIENNA}
    # An offset only places the instant: format_time still writes it on the user's clock.
    formatted, report = await call(
        client, "format_time", {"timestamp": "2026-11-23T09:00:00-08:00", "format": "rfc3339"}, VIENNA
    )
    assert formatted["structuredContent"]["timestamp"] == "2026-11-23T18:00:00+01:00"
    assert report == {"applied": VIENNA}


@pytest.mark.anyio
async def test_a_day_is_the_one_where_the_time_was_given(client: Client) -> None:
    """11pm in Los Angeles is already the next day in Vienna: the date asked about is the Californian one."""
    pacific, _ = await call(client, "date_info", {"date": "2026-11-23T23:00:00-08:00"}, VIENNA)
    named, _ = await call(client, "date_info", {"date": "11pm PST"}, VIENNA)
    assert pacific["structuredContent"]["date"] == "2026-11-23"
    # The tests' now is 2026-11-22T03:11Z: 19:11 on the 21st in Los Angeles, 04:11 on the 22nd in Vienna.
    assert named["structuredContent"]["date"] == "2026-11-21"
    assert named["structuredContent"]["read_as"]["understood"] == "23:00 on 2026-11-21"
