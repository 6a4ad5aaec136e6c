"""Real clients from npm against horologe: the MCP Inspector CLI (v2) and the TypeScript SDK client, stdio and HTTP.

stdio: the client spawns `python -m horologe serve` itself. HTTP: horologe runs as `serve --transport http`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.processes import PATIENCE, run
from tests.interop.conftest import ROOT, NodeTools, RunningServer

pytestmark = [pytest.mark.interop, pytest.mark.e2e]
SERVE_STDIO = [sys.executable, "-m", "horologe", "serve", "--toolsets", "all"]
TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
LANGUAGE_META = "io.modelcontextprotocol/acceptLanguage"
CONTENT_LANGUAGE_META = "io.modelcontextprotocol/contentLanguage"
# One valid call per tool (Inspector `--tool-arg key=value`; values that parse as JSON are sent as JSON).
TOOL_ARGS: dict[str, dict[str, str]] = {
    "get_current_time": {"timezone": "Europe/Vienna"},
    "convert_timezone": {"timestamp": "2026-03-29T00:30:00Z", "from_timezone": "UTC", "to_timezone": "Europe/Vienna"},
    "calculate_duration": {"start_time": "2026-01-01T00:00:00Z", "end_time": "2026-01-02T12:00:00Z"},
    "format_time": {"timestamp": "2026-01-01T00:00:00Z", "format": "rfc2822"},
    "get_timezone_info": {"timezone": "Europe/Vienna"},
    "list_timezones": {"query": "Vienna"},
    "add_time": {"timestamp": "2026-01-31T10:00:00Z", "amount": "P1M"},
    "business_days": {"country": "AT", "start_date": "2026-12-21", "end_date": "2026-12-31"},
    "list_holidays": {"country": "AT", "year": "2026"},
    "date_info": {"date": "2026-02-28"},
    "next_occurrences": {"rule": "0 9 * * MON-FRI", "start_time": "2026-01-05T00:00:00Z", "count": "3"},
    "timezone_history": {"timezone": "Europe/Vienna", "limit": "3"},
    "find_meeting_time": {
        "participants": '[{"timezone": "Europe/Vienna"}, {"timezone": "America/New_York"}]',
        "duration": "30",
        "start_date": "2026-12-01",
        "limit": "1",
    },
    "resolve_time_expression": {"expression": "next monday", "reference_time": "2026-11-22T12:00:00Z"},
}
CORE_TOOLS = set(TOOL_ARGS)
# The memory tools: calls that succeed without anything kept by an earlier call (one-shot CLI calls).
TOOL_ARGS |= {
    "preferences": {"action": "set", "timezone": "Europe/Vienna"},
    "timer": {"action": "start", "label": "interop", "duration_seconds": "60"},
}


def inspector(tools: NodeTools, home: Path, target: Sequence[str], *options: str, exit_code: int = 0) -> Any:
    """Run `inspector --cli TARGET OPTIONS` and return the JSON it printed (it exits 5 on an isError result)."""
    # The CLI's 15 s connect timeout (spawn, initialize) is tight for a Python server on a loaded CI machine.
    command = [str(tools.bin("inspector")), "--cli", *target, "--connect-timeout", "90000", *options]
    done = run(command, env=tools.env(home), cwd=ROOT, timeout=PATIENCE)
    assert done.returncode == exit_code, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return json.loads(done.stdout)


def call_options(name: str) -> list[str]:
    options = ["--method", "tools/call", "--tool-name", name]
    for key, value in TOOL_ARGS.get(name, {}).items():
        options += ["--tool-arg", f"{key}={value}"]
    return options


def check_every_tool(tools: NodeTools, home: Path, target: Sequence[str], *extra: str) -> None:
    listed = inspector(tools, home, target, "--method", "tools/list", *extra)
    names = [tool["name"] for tool in listed["tools"]]
    assert set(names) >= CORE_TOOLS, sorted(CORE_TOOLS - set(names))
    for tool in listed["tools"]:
        assert tool["inputSchema"]["type"] == "object" and tool.get("description")
    callable_names = [name for name in names if name in TOOL_ARGS]
    with ThreadPoolExecutor(max_workers=4) as pool:
        calls = pool.map(lambda name: inspector(tools, home, target, *call_options(name), *extra), callable_names)
        results = dict(zip(callable_names, calls, strict=True))
    for name, result in results.items():
        assert isinstance(result.get("content"), list) and result["content"], (name, result)
        assert result.get("isError") is False, (name, result)
        assert isinstance(result.get("structuredContent"), dict), (name, result)
    assert results["get_current_time"]["structuredContent"]["timezone"] == "Europe/Vienna"
    converted = results["convert_timezone"]["structuredContent"]["converted"]
    assert converted["timestamp"] == "2026-03-29T01:30:00+01:00"


def test_inspector_cli_over_stdio_lists_and_calls_every_tool(node_tools: NodeTools, node_home: Path) -> None:
    check_every_tool(node_tools, node_home, SERVE_STDIO)


def test_inspector_cli_over_http_lists_and_calls_every_tool(
    node_tools: NodeTools, node_home: Path, horologe_http: RunningServer
) -> None:
    check_every_tool(node_tools, node_home, [horologe_http.mcp_url, "--transport", "http"])


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_inspector_cli_sends_language_and_trace_meta(
    transport: str, node_tools: NodeTools, node_home: Path, horologe_http: RunningServer
) -> None:
    target = SERVE_STDIO if transport == "stdio" else [horologe_http.mcp_url, "--transport", "http"]
    # Over HTTP the header must agree exactly with _meta (SEP-2792); Node's fetch would otherwise send "*".
    headers = ["--header", "Accept-Language: de"] if transport == "http" else []
    result = inspector(
        node_tools,
        node_home,
        target,
        *call_options("get_current_time"),
        "--metadata",
        f"traceparent={TRACEPARENT}",
        "--tool-metadata",
        f"{LANGUAGE_META}=de",
        *headers,
    )
    assert result["isError"] is False
    assert result["_meta"][CONTENT_LANGUAGE_META] in ("de", "en")


def test_inspector_cli_shows_a_domain_error(node_tools: NodeTools, node_home: Path) -> None:
    result = inspector(
        node_tools, node_home, SERVE_STDIO, "--method", "tools/call", "--tool-name", "get_current_time",
        "--tool-arg", "timezone=Mars/Base", exit_code=5,
    )  # fmt: skip
    assert result["isError"] is True
    assert "Mars/Base" in result["content"][0]["text"]
    assert result["_meta"]["dev.horologe/error"]["code"] == -32000


def ts_client(tools: NodeTools, home: Path, *arguments: str) -> dict[str, Any]:
    script = Path(__file__).with_name("ts_client.mjs")
    command = [str(tools.node), str(script), *arguments]
    env = {**tools.env(home), "HOROLOGE_NODE_MODULES": str(tools.modules)}
    done = run(command, env=env, cwd=ROOT, timeout=PATIENCE)
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1]) if done.stdout.strip() else {}
    assert done.returncode == 0 and "error" not in report, f"{done.stdout[-3000:]}\n{done.stderr[-2000:]}"
    return report


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_typescript_sdk_client(
    transport: str, node_tools: NodeTools, node_home: Path, horologe_http: RunningServer
) -> None:
    target = SERVE_STDIO if transport == "stdio" else [horologe_http.mcp_url]
    report = ts_client(node_tools, node_home, transport, *target)
    assert report["transport"] == transport
    assert report["sdkVersion"] == "1.32.2"
    assert report["serverInfo"]["name"] == "horologe"
    assert {"tools", "resources", "prompts", "completions"} <= set(report["capabilities"])
    assert set(report["tools"]) >= CORE_TOOLS
    now = report["getCurrentTime"]
    assert now["isError"] is False
    assert now["structuredContent"]["timezone"] == "Europe/Vienna"
    assert json.loads(now["text"]) == now["structuredContent"]
    converted = report["convertTimezone"]
    assert converted["isError"] is False
    assert converted["structuredContent"]["converted"]["timestamp"] == "2026-03-29T01:30:00+01:00"
    assert converted["structuredContent"]["original"]["timestamp"] == "2026-03-29T00:30:00Z"
    # The language preference (de-AT, de;q=0.9, en;q=0.5) and trace keys reached the server and were honoured,
    # never rejected: the answer says which language it used.
    for result in (now, converted):
        assert result["meta"][CONTENT_LANGUAGE_META] == "de"
