"""The memory tools in today's clients (no SEP-1655 state): two real stdio processes, and an HTTP server."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import StdioServerParameters
from mcp.client import Client

from tests.e2e.conftest import start_http_server

pytestmark = [pytest.mark.e2e, pytest.mark.anyio]
SERVE = [sys.executable, "-m", "horologe"]


def stdio(state_home: Path) -> StdioServerParameters:
    env = {**os.environ, "XDG_STATE_HOME": str(state_home), "TZ": "UTC", "HOROLOGE_TOOLSETS": "default,memory"}
    return StdioServerParameters(command=SERVE[0], args=SERVE[1:], env=env)


async def call(client: Client, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(name, arguments)
    assert not result.is_error, result
    body: dict[str, Any] | None = result.structured_content
    assert body is not None
    return body


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_a_home_zone_set_in_one_process_is_the_next_ones_default(tmp_path: Path, mode: str) -> None:
    async with Client(stdio(tmp_path), mode=mode, cache=None) as client:
        stored = await call(client, "preferences", {"action": "set", "timezone": "Asia/Kolkata"})
        assert (stored["kept"], stored["stored"]) == ("computer", True)
        timer = await call(client, "timer", {"action": "start", "label": "tea", "duration_seconds": 180})
        assert (timer["kept"], timer["stored"], timer["timer"]["kind"]) == ("process", True, "countdown")
        checked = await call(client, "timer", {"action": "check", "label": "tea"})
        assert checked["timer"]["label"] == "tea"
    assert (tmp_path / "horologe" / "preferences.json").is_file()
    async with Client(stdio(tmp_path), mode=mode, cache=None) as client:  # a new process: the desktop restarted
        now = await call(client, "get_current_time", {})
        assert now["timezone"] == "Asia/Kolkata" and now["timestamp"].endswith("+05:30")
        assert (await call(client, "preferences", {}))["preferences"] == {"timezone": "Asia/Kolkata"}
        listed = await call(client, "timer", {"action": "list"})
        assert listed["timers"] == []  # timers lived in the first process only
        cleared = await call(client, "preferences", {"action": "clear"})
        assert cleared["preferences"] == {}
    async with Client(stdio(tmp_path), mode=mode, cache=None) as client:
        assert (await call(client, "get_current_time", {}))["timezone"] == "UTC"


async def test_over_http_memory_is_opt_in_and_says_nothing_persists() -> None:
    server = start_http_server(["--toolsets", "default,memory"])
    try:
        envelope = {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "e2e", "version": "1"},
        }
        body = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {
                "name": "preferences",
                "arguments": {"action": "set", "timezone": "Asia/Tokyo"},
                "_meta": envelope,
            },
        }
        headers = {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "preferences"}
        async with httpx2.AsyncClient(timeout=30) as http:
            answer = (await http.post(f"{server.url}/mcp", json=body, headers=headers)).json()
        result = answer["result"]["structuredContent"]
        assert (result["kept"], result["stored"]) == ("nowhere", False)
        assert "pass the values explicitly" in result["note"]
    finally:
        server.stop()
