"""The memory tools (`preferences`, `timer`): kept by a client that keeps state, by this computer and process over
stdio when the client keeps none, and nowhere (said plainly) over HTTP without client state."""

from __future__ import annotations

import json
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client
from mcp.client._memory import InMemoryTransport
from mcp_types import RequestParamsMeta

from horologe.client.context import ContextSettings
from horologe.client.store import ClientState, ServerStateDB
from horologe.client.transport import Envelope, EnvelopeTransport
from horologe.config import Settings
from horologe.core.weekdays import DAY_NAMES
from horologe.protocol.server import build_server
from horologe.state import SigningKeys, StateCodec
from horologe.tools.spec import ToolSpec
from horologe.wire import STATE_KEYS
from horologe.wire import STATE_REPORT_META as STATE_REPORT_META_KEY
from tests.calls import first_text, request_meta
from tests.conftest import IN_PROCESS
from tests.stdio_pipe import PipeTransport

pytestmark = pytest.mark.anyio
KEY = "k" * 40
START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class SteppingClock:
    def __init__(self) -> None:
        self.instant = START

    def now(self) -> datetime:
        return self.instant


@pytest.fixture
def clock() -> SteppingClock:
    return SteppingClock()


@pytest.fixture
def keyed(settings: Settings) -> Settings:
    return settings.model_copy(update={"state": settings.state.model_copy(update={"keys": {"k1": KEY}})})


def envelope_for(tmp_path: Path, context: ContextSettings | None = None, lang: str | None = None) -> Envelope:
    state = ClientState("test.example", ServerStateDB(tmp_path / "state.sqlite3"))
    return Envelope(state, context or ContextSettings(enabled=False), lang)


@pytest.fixture(params=["legacy", "2026-07-28"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@asynccontextmanager
async def companion(settings: Settings, clock: SteppingClock, tmp_path: Path, cell: str) -> AsyncIterator[Client]:
    """The companion client (it keeps state) over the in-memory transport or the stdio edge, in one era."""
    server = build_server(settings, clock)
    transport, era = cell.split("/")
    inner = InMemoryTransport(server) if transport == "memory" else PipeTransport(server)
    async with Client(EnvelopeTransport(inner, envelope_for(tmp_path)), mode=era, cache=None) as connected:
        yield connected


@pytest.fixture
async def client(keyed: Settings, clock: SteppingClock, tmp_path: Path) -> AsyncIterator[Client]:
    """The companion client in process, in the newest era: for what the tools do with the state it keeps."""
    async with companion(keyed, clock, tmp_path, IN_PROCESS) as connected:
        yield connected


@pytest.fixture(params=["memory/legacy", "memory/2026-07-28", "stdio/legacy", "stdio/2026-07-28"])
async def wire_client(
    request: pytest.FixtureRequest, keyed: Settings, clock: SteppingClock, tmp_path: Path
) -> AsyncIterator[Client]:
    """The companion client in every cell that keeps state (HTTP keeps it the same way: tests/http)."""
    async with companion(keyed, clock, tmp_path, request.param) as connected:
        yield connected


async def structured(client: Client, name: str, arguments: dict[str, Any], **kw: Any) -> dict[str, Any]:
    result = await client.call_tool(name, arguments, **kw)
    assert not result.is_error, result
    assert result.structured_content is not None
    body: dict[str, Any] = result.structured_content
    return body


def preferences(action: str = "get", **fields: Any) -> dict[str, Any]:
    return {"action": action, **fields}


# --- a client that keeps state (the companion client) ------------------------------------------------------------


async def test_a_home_zone_typed_as_a_city_or_abbreviation_is_kept_as_its_iana_zone(client: Client) -> None:
    stored = await structured(client, "preferences", preferences("set", timezone="Bombay"))
    assert stored["preferences"]["timezone"] == "Asia/Kolkata"
    assert stored["timezone_input"][0]["place"] == "Mumbai, IN"
    stored = await structured(client, "preferences", preferences("set", timezone="EST"))
    assert stored["preferences"]["timezone"] == "America/New_York"


@pytest.mark.wire("state")
async def test_preferences_become_defaults_for_later_calls(wire_client: Client) -> None:
    before = await structured(wire_client, "get_current_time", {})
    assert before["timezone"] == "UTC"
    stored = await structured(
        wire_client, "preferences", preferences("set", timezone="vienna", locale="de-AT", week_start="sunday")
    )
    assert stored["stored"] is True and stored["kept"] == "client" and "note" not in stored
    assert stored["preferences"] == {"timezone": "Europe/Vienna", "locale": "de-AT", "week_start": "sunday"}
    after = await wire_client.call_tool("get_current_time", {})
    assert after.structured_content is not None and after.structured_content["timezone"] == "Europe/Vienna"
    assert after.meta is not None
    assert after.meta["dev.horologe/context"]["preferences"] == {"timezone": "Europe/Vienna", "locale": "de-AT"}
    explicit = await structured(wire_client, "get_current_time", {"timezone": "Asia/Tokyo"})
    assert explicit["timezone"] == "Asia/Tokyo"
    assert (await structured(wire_client, "preferences", preferences()))["preferences"]["locale"] == "de-AT"
    await structured(wire_client, "preferences", preferences("clear", fields=["timezone"]))
    assert (await structured(wire_client, "get_current_time", {}))["timezone"] == "UTC"
    await structured(wire_client, "preferences", preferences("clear"))
    assert (await structured(wire_client, "preferences", preferences()))["preferences"] == {}


async def test_a_stored_week_start_is_applied_by_the_tools(client: Client) -> None:
    await structured(client, "preferences", preferences("set", week_start="sunday"))
    week = await structured(
        client, "resolve_time_expression", {"expression": "this week", "locale": "de-AT", "timezone": "UTC"}
    )
    assert week["week_start"] == "Sunday" and week["day_of_week"] == "Sunday"  # not de-AT's Monday


async def test_a_stored_format_is_applied_by_get_current_time(client: Client) -> None:
    await structured(client, "preferences", preferences("set", format="human"))
    now = await structured(client, "get_current_time", {"timezone": "UTC"})
    assert " at " in str(now["formatted"]) and now["formatted"] != now["timestamp"]
    explicit = await structured(client, "get_current_time", {"timezone": "UTC", "format": "unix"})
    assert isinstance(explicit["formatted"], int)  # the argument wins over the preference
    iso = await structured(client, "get_current_time", {"timezone": "UTC", "format": "iso8601"})
    assert "formatted" not in iso  # ISO 8601: the timestamp says it


MEETING = {"duration": 60, "start_date": "2026-11-23", "end_date": "2026-11-23"}
EARLY = {"start": "06:00", "end": "12:00", "days": ["monday", "tuesday", "wednesday", "thursday", "friday"]}


def hours_by_participant(body: dict[str, Any]) -> dict[str, tuple[str, str, str]]:
    return {entry["participant"]: (entry["start"], entry["end"], entry["source"]) for entry in body["working_hours"]}


async def test_stored_working_hours_are_the_callers_in_find_meeting_time(client: Client) -> None:
    people = [{"timezone": "Europe/Vienna", "name": "me"}, {"timezone": "America/New_York", "name": "ana"}]
    before = await structured(client, "find_meeting_time", {**MEETING, "participants": people})
    assert before["found"] is True  # 09:00-17:00 in both zones overlap 14:00-16:00 UTC
    await structured(client, "preferences", preferences("set", timezone="Europe/Vienna", working_hours=EARLY))
    after = await structured(client, "find_meeting_time", {**MEETING, "participants": people})
    # Vienna 06:00-12:00 is 05:00-11:00 UTC; New York 09:00-17:00 is 14:00-22:00 UTC: no slot for both.
    assert after["found"] is False
    assert hours_by_participant(after) == {
        "me": ("06:00", "12:00", "preference"),  # the first participant in the caller's home zone
        "ana": ("09:00", "17:00", "default"),
    }
    assert after["working_hours"][0]["days"] == list(DAY_NAMES[:5])


async def test_the_marked_caller_gets_the_stored_hours_and_explicit_hours_win(client: Client) -> None:
    await structured(client, "preferences", preferences("set", timezone="Europe/Vienna", working_hours=EARLY))
    marked = [
        {"timezone": "Europe/Vienna", "name": "colleague"},
        {"timezone": "America/New_York", "name": "me", "caller": True},
    ]
    body = await structured(client, "find_meeting_time", {**MEETING, "participants": marked})
    assert hours_by_participant(body) == {
        "colleague": ("09:00", "17:00", "default"),
        "me": ("06:00", "12:00", "preference"),
    }
    explicit = [{"timezone": "Europe/Vienna", "name": "me", "working_hours": {"start": "10:00", "end": "18:00"}}]
    body = await structured(client, "find_meeting_time", {**MEETING, "participants": explicit})
    assert hours_by_participant(body) == {"me": ("10:00", "18:00", "argument")}
    twice = [{"timezone": "UTC", "caller": True}, {"timezone": "Asia/Tokyo", "caller": True}]
    result = await client.call_tool("find_meeting_time", {**MEETING, "participants": twice})
    assert result.is_error and "at most one participant" in str(result.content[0])


async def test_without_a_home_zone_or_a_marked_caller_no_one_gets_the_stored_hours(client: Client) -> None:
    await structured(client, "preferences", preferences("set", working_hours=EARLY))  # the default zone is UTC
    body = await structured(client, "find_meeting_time", {**MEETING, "participants": [{"timezone": "UTC"}]})
    assert [entry["source"] for entry in body["working_hours"]] == ["default"]


async def test_client_context_wins_over_the_stored_preference(
    keyed: Settings, clock: SteppingClock, tmp_path: Path, mode: str
) -> None:
    envelope = envelope_for(tmp_path)
    transport = EnvelopeTransport(InMemoryTransport(build_server(keyed, clock)), envelope)
    async with Client(transport, mode=mode, cache=None) as client:
        await structured(client, "preferences", preferences("set", timezone="Europe/Vienna", working_hours=EARLY))
        envelope.context = ContextSettings(timezone="America/New_York", now=START)
        assert (await structured(client, "get_current_time", {}))["timezone"] == "America/New_York"
        # Travelling: the context's zone is the caller's home zone, so the stored hours go to New York.
        people = [{"timezone": "Europe/Vienna", "name": "office"}, {"timezone": "America/New_York", "name": "me"}]
        body = await structured(client, "find_meeting_time", {**MEETING, "participants": people})
    assert hours_by_participant(body) == {
        "office": ("09:00", "17:00", "default"),
        "me": ("06:00", "12:00", "preference"),
    }


@pytest.mark.parametrize(
    "arguments",
    [
        preferences("set", timezone="Mars/Base"),
        preferences("set", locale="xx-!!"),
        preferences("set"),
        preferences("set", working_hours={"start": "9:5", "end": "17:00"}),
        preferences("get", timezone="UTC"),
        preferences("set", timezone="UTC", fields=["timezone"]),
        preferences("clear", locale="de"),
    ],
)
async def test_invalid_preferences_are_refused_without_storing(client: Client, arguments: dict[str, Any]) -> None:
    result = await client.call_tool("preferences", arguments)
    assert result.is_error, arguments
    assert result.meta is None or STATE_KEYS["server"] not in result.meta


async def test_a_seven_day_week_is_a_valid_working_week_for_preferences_and_meetings(client: Client) -> None:
    every_day = {**EARLY, "days": ["mon", "Tuesday", "wed", "thu", "fri", "sat", "sun"]}
    stored = await structured(client, "preferences", preferences("set", working_hours=every_day))
    assert len(stored["preferences"]["working_hours"]["days"]) == 7
    sunday = {"duration": 60, "start_date": "2026-11-22", "end_date": "2026-11-22"}
    people = [{"timezone": "UTC", "working_hours": every_day}]
    body = await structured(client, "find_meeting_time", {**sunday, "participants": people})
    assert body["found"] is True and body["working_hours"][0]["days"] == list(DAY_NAMES)


async def test_timers_measure_from_their_signed_start_by_the_servers_clock(
    client: Client, clock: SteppingClock
) -> None:
    started = await structured(client, "timer", {"action": "start", "label": "tea", "duration_seconds": 180})
    assert started["timer"]["kind"] == "countdown" and started["kept"] == "client"
    await structured(client, "timer", {"action": "start", "label": "standup"})
    clock.instant = START + timedelta(seconds=90)
    tea = (await structured(client, "timer", {"action": "check", "label": "tea"}))["timer"]
    assert (tea["elapsed_seconds"], tea["remaining_seconds"], tea["finished"]) == (90.0, 90.0, False)
    listed = await structured(client, "timer", {"action": "list"})
    assert [timer["label"] for timer in listed["timers"]] == ["standup", "tea"]
    clock.instant = START + timedelta(seconds=200)
    stopped = (await structured(client, "timer", {"action": "stop", "label": "tea"}))["timer"]
    assert stopped["finished"] is True and stopped["stopped"] is True
    missing = await client.call_tool("timer", {"action": "check", "label": "tea"})
    assert missing.is_error and "standup" in first_text(missing)
    unnamed = await client.call_tool("timer", {"action": "check"})
    assert unnamed.is_error and "label" in first_text(unnamed)


# --- a client that keeps no state -------------------------------------------------------------------------------


async def test_over_stdio_preferences_are_kept_on_this_computer_and_timers_by_the_process(
    keyed: Settings, clock: SteppingClock, mode: str
) -> None:
    async with Client(build_server(keyed, clock), mode=mode, cache=None) as client:
        stored = await structured(client, "preferences", preferences("set", timezone="Asia/Tokyo"))
        assert (stored["stored"], stored["kept"]) == (True, "computer") and "note" not in stored
        assert (await structured(client, "get_current_time", {}))["timezone"] == "Asia/Tokyo"
        timer = await structured(client, "timer", {"action": "start", "label": "x"})
        assert (timer["stored"], timer["kept"]) == (True, "process") and "stops" in timer["note"]
        assert [t["label"] for t in (await structured(client, "timer", {"action": "list"}))["timers"]] == ["x"]
    # Another server process on this computer (a second client, or the next session) reads the same file.
    async with Client(build_server(keyed, clock), mode=mode, cache=None) as client:
        assert (await structured(client, "get_current_time", {}))["timezone"] == "Asia/Tokyo"
        assert (await structured(client, "timer", {"action": "list"}))["timers"] == []
        await structured(client, "preferences", preferences("clear"))
        assert (await structured(client, "get_current_time", {}))["timezone"] == "UTC"


def with_preferences_at(settings: Settings, path: Path) -> Settings:
    return settings.model_copy(update={"state": settings.state.model_copy(update={"local_path": path})})


def unusable_paths(tmp_path: Path) -> dict[str, Path]:
    """Preferences paths that cannot be used, each for its own reason."""
    loop = tmp_path / "loop.json"
    loop.symlink_to(tmp_path / "loop.json")
    (tmp_path / "a-file").write_text("")
    (tmp_path / "a-directory.json").mkdir()
    return {
        "symlink loop": loop,
        "a file where a directory should be": tmp_path / "a-file" / "preferences.json",
        "a directory at the path": tmp_path / "a-directory.json",
    }


@pytest.mark.parametrize("reason", ["symlink loop", "a file where a directory should be", "a directory at the path"])
async def test_an_unusable_preferences_file_only_turns_the_file_store_off(
    keyed: Settings, clock: SteppingClock, tmp_path: Path, reason: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = unusable_paths(tmp_path)[reason]
    server = build_server(with_preferences_at(keyed, path), clock)
    warnings = [record for record in caplog.records if "cannot be used" in record.getMessage()]
    assert len(warnings) == 1 and str(path) in warnings[0].getMessage()  # said once, at start, to the operator
    async with Client(server, mode="legacy", cache=None) as client:  # initialize succeeds
        assert (await structured(client, "get_current_time", {}))["timezone"] == "UTC"
        result = await client.call_tool("preferences", preferences("set", timezone="Asia/Tokyo"))
        body = result.structured_content
        assert body is not None and not result.is_error
        assert (body["stored"], body["kept"]) == (False, "unavailable") and "not kept" in body["note"]
        assert str(tmp_path) not in str(result.model_dump()) and "Errno" not in str(result.model_dump())
        assert (await structured(client, "get_current_time", {}))["timezone"] == "UTC"
    assert len([r for r in caplog.records if "cannot be used" in r.getMessage()]) == 1


async def test_a_symlinked_preferences_file_is_written_through_its_link(
    keyed: Settings, clock: SteppingClock, tmp_path: Path
) -> None:
    target = tmp_path / "dotfiles" / "horologe.json"
    target.parent.mkdir()
    target.write_text("{}")
    link = tmp_path / "preferences.json"
    link.symlink_to(target)
    async with Client(build_server(with_preferences_at(keyed, link), clock), mode="legacy", cache=None) as client:
        stored = await structured(client, "preferences", preferences("set", timezone="Asia/Tokyo"))
    assert stored["kept"] == "computer"
    assert link.is_symlink() and json.loads(target.read_text())["preferences"]["timezone"] == "Asia/Tokyo"


def test_two_writers_of_one_preferences_file_lose_nothing(tmp_path: Path) -> None:
    from horologe.memory import FileMemory

    path = tmp_path / "preferences.json"
    writers = [FileMemory(path), FileMemory(path)]  # two stdio servers on one computer

    def write(memory: FileMemory, prefix: str) -> None:
        for n in range(60):

            def add(current: Any, n: int = n) -> dict[str, int]:
                return {**(current or {}), f"{prefix}{n}": n}

            memory.update("all", add)

    pairs = zip(writers, "ab", strict=True)
    threads = [threading.Thread(target=write, args=(memory, prefix)) for memory, prefix in pairs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(json.loads(path.read_text())["all"]) == 120


async def test_over_http_nothing_persists_without_client_state_and_the_tools_say_so(
    keyed: Settings, clock: SteppingClock, mode: str
) -> None:
    over_http = keyed.model_copy(update={"server": keyed.server.model_copy(update={"transport": "http"})})
    async with Client(build_server(over_http, clock), mode=mode, cache=None) as client:
        result = await client.call_tool("preferences", preferences("set", timezone="Europe/Vienna"))
        body = result.structured_content
        assert body is not None and (body["stored"], body["kept"]) == (False, "nowhere")
        assert "nothing persists" in body["note"]
        assert result.meta is None or STATE_KEYS["server"] not in result.meta
        assert (await structured(client, "get_current_time", {}))["timezone"] == "UTC"
        timer = await structured(client, "timer", {"action": "start", "label": "x"})
        assert (timer["stored"], timer["kept"]) == (False, "nowhere")


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_the_memory_tools_are_offered_only_when_asked_for(transport: str) -> None:
    from horologe.tools.registry import selected_tools

    names = {tool.name for tool in selected_tools(["default"], transport)}
    assert {"preferences", "timer"}.isdisjoint(names) and "get_current_time" in names
    assert {"preferences", "timer"} <= {tool.name for tool in selected_tools(["default", "memory"], transport)}


def bad_state(codec: StateCodec) -> RequestParamsMeta:
    now = int(START.timestamp())
    good = codec.sign("server", "horologe.preferences", {"timezone": "Asia/Tokyo"}, now)  # the client-state name
    return request_meta(
        {
            STATE_KEYS["server"]: {
                "horologe.preferences": good | {"v": {"timezone": "Europe/Paris"}},  # tampered
                "moved": codec.sign("session", "moved", 1, now),  # replayed with another scope
                "old": codec.sign("server", "old", 1, now - 10_000, max_age=60),  # expired
                "big": codec.sign("server", "big", "x" * 5000, now),  # oversized
                "junk": {"v": 1},  # malformed
            }
        }
    )


async def test_bad_state_is_ignored_and_reported(keyed: Settings, clock: SteppingClock, mode: str) -> None:
    codec = StateCodec(SigningKeys({"k1": KEY.encode()}, "k1"))
    async with Client(build_server(keyed, clock), mode=mode, cache=None) as client:
        result = await client.call_tool("get_current_time", {}, meta=bad_state(codec))
        assert result.structured_content is not None and result.structured_content["timezone"] == "UTC"
        assert result.meta is not None
        ignored = result.meta[STATE_REPORT_META_KEY]["ignored"]["server"]
        assert ignored["horologe.preferences"].startswith("bad signature")
        assert ignored["moved"].startswith("bad signature")
        assert ignored["old"] == "expired"
        assert ignored["big"].startswith("too large")
        assert ignored["junk"].startswith("malformed")
        listed = await client.list_tools(meta=bad_state(codec))
        assert listed.meta is not None and "big" in listed.meta[STATE_REPORT_META_KEY]["ignored"]["server"]


async def test_state_signed_with_another_key_is_not_trusted(keyed: Settings, clock: SteppingClock, mode: str) -> None:
    forged = StateCodec(SigningKeys({"k1": b"z" * 40}, "k1"))
    meta = request_meta(
        {
            STATE_KEYS["server"]: {
                "horologe.preferences": forged.sign(
                    "server", "horologe.preferences", {"timezone": "Asia/Tokyo"}, int(START.timestamp())
                )
            }
        }
    )
    async with Client(build_server(keyed, clock), mode=mode, cache=None) as client:
        result = await client.call_tool("get_current_time", {}, meta=meta)
        assert result.structured_content is not None and result.structured_content["timezone"] == "UTC"


def odd_meta() -> RequestParamsMeta:
    meta: dict[str, Any] = {f"vendor{n}.example/key-{n}": {"nested": [n, {"deep": {"x": None}}]} for n in range(90)}
    meta |= {
        "": 1,
        "/": [],
        "a/b/c/d": {"x": 1},
        "ünïcødé/ключ": "значение",
        " spaced key ": True,
        "modelcontextprotocol.io/state/request": {"x": 1},
        "traceparent-ish": "00-xyz",
        "io.modelcontextprotocol/unknown": {"a": [1, 2, {"b": None}]},
        "x" * 300: "long name",
        "null": None,
    }
    assert len(meta) == 100
    return request_meta(meta)


async def test_a_hundred_unknown_meta_keys_are_ignored_on_every_path(
    keyed: Settings, clock: SteppingClock, mode: str
) -> None:
    async with Client(build_server(keyed, clock), mode=mode, cache=None) as client:
        result = await client.call_tool("get_current_time", {"timezone": "Europe/Vienna"}, meta=odd_meta())
        assert not result.is_error and STATE_REPORT_META_KEY not in (result.meta or {})
        assert (await client.list_tools(meta=odd_meta())).tools
        resources = (await client.list_resources(meta=odd_meta())).resources
        assert (await client.read_resource(resources[0].uri, meta=odd_meta())).contents
        assert (await client.list_prompts(meta=odd_meta())).prompts


async def test_no_tool_runs_on_the_event_loop(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    # Tool work never holds the loop, whether it reads or writes (each call runs once, in a worker thread); only a
    # call proven cheap by construction runs there (tests/tools/test_bounded.py), which a place name is not.
    on_the_loop: dict[str, bool] = {}
    call = ToolSpec.call

    def noted(spec: ToolSpec, arguments: Any, context: Any, options: Any) -> dict[str, Any]:
        on_the_loop[spec.name] = threading.current_thread() is threading.main_thread()
        return call(spec, arguments, context, options)

    monkeypatch.setattr(ToolSpec, "call", noted)
    await structured(client, "get_current_time", {"timezone": "Vienna"})
    await structured(client, "preferences", preferences("set", timezone="Europe/Vienna"))
    await structured(client, "timer", {"action": "start", "label": "tea"})
    assert on_the_loop == {"get_current_time": False, "preferences": False, "timer": False}
