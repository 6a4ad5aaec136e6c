"""SEP-1655 over stdio with the companion client and its CLI: restarts, scope, keys, and trace context."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from horologe.client.connect import ClientOptions, connect
from horologe.client.context import ContextSettings
from tests.e2e import processes

pytestmark = [pytest.mark.e2e, pytest.mark.anyio]
SERVER = f"{sys.executable} -m horologe serve --toolsets default,memory"
KEYS = {"HOROLOGE_STATE__KEYS": json.dumps({"k1": "stdio-test-secret-0123456789-abcdefghijkl"})}


def options(tmp_path: Path, env: dict[str, str] | None = None, command: str = SERVER) -> ClientOptions:
    return ClientOptions(
        stdio=command,
        mode="legacy",
        state_db=tmp_path / "state.sqlite3",
        context=ContextSettings(enabled=False),
        env={**os.environ, **(env or {})},
    )


async def test_server_state_survives_client_restarts_session_state_does_not(tmp_path: Path) -> None:
    async with connect(options(tmp_path, KEYS)) as (client, _):
        await client.call_tool("preferences", {"action": "set", "timezone": "Europe/Vienna"})
        await client.call_tool("timer", {"action": "start", "label": "tea"})
        assert not (await client.call_tool("timer", {"action": "check", "label": "tea"})).is_error
    async with connect(options(tmp_path, KEYS)) as (client, _):  # a new client and server process
        now = await client.call_tool("get_current_time", {})
        assert now.structured_content is not None and now.structured_content["timezone"] == "Europe/Vienna"
        assert (await client.call_tool("timer", {"action": "check", "label": "tea"})).is_error  # session scope ended


async def test_another_server_never_sees_the_first_ones_state(tmp_path: Path) -> None:
    async with connect(options(tmp_path, KEYS)) as (client, _):
        await client.call_tool("preferences", {"action": "set", "timezone": "Europe/Vienna"})
    other = (
        f"{sys.executable} -m horologe.__main__ serve --toolsets default,memory"  # another command path: another scope
    )
    async with connect(options(tmp_path, KEYS, other)) as (client, envelope):
        prefs = await client.call_tool("preferences", {"action": "get"})
        assert prefs.structured_content is not None and prefs.structured_content["preferences"] == {}
        assert envelope.state.outgoing() == {}


async def test_without_a_configured_key_an_earlier_process_state_is_reported_not_used(tmp_path: Path) -> None:
    async with connect(options(tmp_path)) as (client, _):
        await client.call_tool("preferences", {"action": "set", "timezone": "Europe/Vienna"})
        now = await client.call_tool("get_current_time", {})
        assert now.structured_content is not None and now.structured_content["timezone"] == "Europe/Vienna"
    async with connect(options(tmp_path)) as (client, _):
        now = await client.call_tool("get_current_time", {})
        assert now.structured_content is not None and now.structured_content["timezone"] == "UTC"
        assert now.meta is not None
        assert now.meta["dev.horologe/state"]["ignored"]["server"]["horologe.preferences"] == "unknown signing key"


def test_the_cli_calls_lists_and_clears_state(tmp_path: Path) -> None:
    env = {**os.environ, **KEYS, "HOROLOGE_CLIENT_STATE_DIR": str(tmp_path), "LANG": "de_AT.UTF-8"}
    base = [sys.executable, "-m", "horologe", "client"]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*base, *args], capture_output=True, text=True, env=env, timeout=60, check=False)

    called = run("call", "--stdio", SERVER, "preferences", "action=set", "timezone=Asia/Tokyo", "--json")
    assert called.returncode == 0, called.stderr
    body = json.loads(called.stdout)
    assert body["structuredContent"]["preferences"] == {"timezone": "Asia/Tokyo"}
    assert body["_meta"]["io.modelcontextprotocol/contentLanguage"] == "de"
    now = run("call", "--stdio", SERVER, "get_current_time", "--no-context")
    assert json.loads(now.stdout)["timezone"] == "Asia/Tokyo"
    tools = run("tools", "--stdio", SERVER)
    assert "timer(action, [label], [duration_seconds])" in tools.stdout
    listed = run("state", "list")
    assert "horologe.preferences" in listed.stdout and "-m horologe" in listed.stdout
    assert run("state", "clear").stdout.strip() == "removed 1 item(s)"
    assert run("state", "list").stdout.strip() == "no stored state"


def test_the_server_span_is_a_child_of_the_client_span_and_errors_mark_it() -> None:
    # In a process of its own (tests/e2e/spans_child.py): a tracer provider is set once per process, and in a shared
    # worker it traced every later test there (each server built after it had the span stage).
    pytest.importorskip("opentelemetry.sdk")
    child = processes.run([sys.executable, "-m", "tests.e2e.spans_child"], cwd=Path(__file__).parents[2], timeout=120)
    assert child.returncode == 0, child.stderr
    spans = json.loads(child.stdout)
    assert spans["server_parent_span_id"] is not None and spans["server_parent_span_id"] == spans["client_span_id"]
    assert spans["server_trace_id"] == spans["client_trace_id"]
    assert spans["server_tool_name"] == "get_current_time"
    assert spans["failed"] == {
        "tools/call get_timezone_info": ["ERROR", "tool_error"],
        "resources/read": ["ERROR", "-32602"],
    }
