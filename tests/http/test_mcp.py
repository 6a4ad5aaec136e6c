"""/mcp in the 2026-07-28 era, in process: what the SDK's own steps cost and count."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx2
import pytest
from pydantic import BaseModel, Field

from horologe.clock import FixedClock
from horologe.config import Settings, load_settings
from horologe.http.app import create_app
from horologe.protocol.execution import Executor
from horologe.protocol.handlers import Handlers, declares_mcp_headers
from horologe.protocol.server import build_server
from horologe.tools.schemas import Arguments
from horologe.tools.spec import ToolOptions, ToolSpec
from horologe.tools.time import TOOLS
from tests.asgi import running
from tests.conftest import BASE_URL, FIXED_NOW
from tests.http.test_rest import ENVELOPE, MODERN, mcp_call

pytestmark = pytest.mark.anyio


@pytest.fixture
async def counted(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[httpx2.AsyncClient, list[str]]]:
    """The app with its tools/list handler counting each run, and the counter."""
    runs: list[str] = []
    listing = Handlers.list_tools

    async def counting(self: Handlers, ctx: Any, params: Any) -> Any:
        runs.append("tools/list")
        return await listing(self, ctx, params)

    monkeypatch.setattr(Handlers, "list_tools", counting)
    app = create_app(settings, FixedClock(FIXED_NOW))
    async with running(app), httpx2.AsyncClient(transport=httpx2.ASGITransport(app), base_url=BASE_URL) as client:
        client.headers["host"] = "127.0.0.1"
        yield client, runs


async def test_a_call_with_arguments_never_runs_a_hidden_tools_list(
    counted: tuple[httpx2.AsyncClient, list[str]],
) -> None:
    http, runs = counted
    result = await mcp_call(http, "get_current_time", {"timezone": "Europe/Vienna"}, {})
    assert result["structuredContent"]["timezone"] == "Europe/Vienna"
    await mcp_call(http, "convert_timezone", {"timestamp": "2026-03-29T02:30", "to_timezone": "UTC"}, {})
    assert runs == []
    metrics = (await http.get("/metrics")).text
    assert 'mcp_method_name="tools/list"' not in metrics
    assert 'mcp_method_name="tools/call"' in metrics


async def test_the_schema_lookup_is_what_tools_list_publishes(counted: tuple[httpx2.AsyncClient, list[str]]) -> None:
    http, runs = counted
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": ENVELOPE}}
    headers = {"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/list", "Accept": "application/json"}
    listed = (await http.post("/mcp", json=body, headers=headers)).json()["result"]["tools"]
    assert runs == ["tools/list"]
    server = build_server(load_settings(overrides={"capabilities": {"toolsets": ["all"]}}), FixedClock(FIXED_NOW))
    lookup = server.get_tool_input_schema
    assert lookup is not None
    # None says "nothing to validate": no schema of ours designates an Mcp-Param header, so the SDK walks none.
    assert {tool["name"]: tool["inputSchema"] if "x-mcp-header" in json.dumps(tool["inputSchema"]) else None
            for tool in listed} == {tool["name"]: lookup(tool["name"]) for tool in listed}  # fmt: skip
    core_only = build_server(load_settings(overrides={"capabilities": {"toolsets": ["core"]}}), FixedClock(FIXED_NOW))
    assert core_only.get_tool_input_schema is not None
    assert core_only.get_tool_input_schema("find_meeting_time") is None  # not offered: dispatch refuses it
    assert core_only.get_tool_input_schema("get_weather") is None


class RegionArguments(Arguments):
    """A tool argument designated as an Mcp-Param header."""

    region: str = Field(json_schema_extra={"x-mcp-header": "Region"})


class Nothing(BaseModel):
    """An empty result."""


def test_a_tool_that_declares_a_header_gets_its_schema_checked() -> None:
    def run(arguments: Any, context: Any, options: ToolOptions) -> dict[str, Any]:
        return {}

    routed = ToolSpec("routed", "Routed", "A tool routed on its region.", RegionArguments, Nothing, run)
    plain = next(spec for spec in TOOLS if spec.name == "get_current_time")
    handlers = Handlers(Executor(5.0), ToolOptions(("iso8601",), "milliseconds"), (routed, plain))
    assert declares_mcp_headers(routed) and not declares_mcp_headers(plain)
    schema = handlers.input_schema("routed")
    assert schema is not None and schema["properties"]["region"]["x-mcp-header"] == "Region"
    assert handlers.input_schema("get_current_time") is None
