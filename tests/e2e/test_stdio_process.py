"""`horologe serve --transport stdio` as a real subprocess: the SDK's stdio client in both eras, and raw bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from mcp import StdioServerParameters
from mcp.client import Client

from horologe.tools import registry as catalog
from tests.e2e.processes import PATIENCE, Output, end, spawn

pytestmark = [pytest.mark.e2e]
SERVE = [sys.executable, "-m", "horologe", "serve", "--transport", "stdio", "--toolsets", "all"]
ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
}


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_sdk_stdio_client_lists_and_calls_tools(mode: str) -> None:
    params = StdioServerParameters(command=SERVE[0], args=SERVE[1:], env={"DEFAULT_TIMEZONE": "Europe/Vienna"})
    async with Client(params, mode=mode, cache=None) as client:
        tools = await client.list_tools()
        assert len(tools.tools) == len(catalog.TOOLS)  # SERVE offers every toolset
        result = await client.call_tool("get_current_time", {})
        assert result.structured_content is not None
        assert result.structured_content["timezone"] == "Europe/Vienna"
        converted = await client.call_tool(
            "convert_timezone", {"timestamp": "2025-08-17T10:30:00Z", "to_timezone": "America/New_York"}
        )
        assert converted.structured_content is not None
        assert converted.structured_content["converted"]["timestamp"] == "2025-08-17T06:30:00-04:00"


SEED_LINE = b'{"jsonrpc":"2.0","method":"tools/call","params":{"name":"get_current_time","arguments":{}},"id":1}\n'


@pytest.mark.parametrize("arguments", [[], ["--transport=stdio"], ["serve"]], ids=["bare", "seed-flag", "serve"])
@pytest.mark.parametrize(
    ("tz", "zone", "offsets"), [("UTC", "UTC", ("Z",)), ("Europe/Vienna", "Europe/Vienna", ("+01:00", "+02:00"))]
)
def test_the_seeds_stdio_example_works_byte_for_byte_in_the_hosts_zone(
    arguments: list[str], tz: str, zone: str, offsets: tuple[str, ...]
) -> None:
    command = [sys.executable, "-m", "horologe", *arguments]
    env = {**os.environ, "TZ": tz}
    completed = subprocess.run(command, input=SEED_LINE, capture_output=True, timeout=60, check=False, env=env)
    assert completed.returncode == 0, completed.stderr.decode()
    [answer] = [json.loads(line) for line in completed.stdout.splitlines()]
    assert answer["id"] == 1 and answer["result"]["isError"] is False
    body = answer["result"]["structuredContent"]
    assert body["timezone"] == zone and body["timestamp"].endswith(offsets)


def test_a_connection_that_starts_bare_stays_served_and_keeps_explicit_envelopes() -> None:
    bare = request(1, "tools/call", {"name": "get_current_time", "arguments": {"timezone": "Asia/Tokyo"}})
    listed = request(2, "tools/list")
    enveloped = request(3, "tools/call", {"name": "get_current_time", "arguments": {}, "_meta": ENVELOPE})
    handshake = request(4, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {}})
    messages, _ = run_raw([bare, listed, enveloped, handshake])
    by_id = {message["id"]: message for message in messages}
    assert by_id[1]["result"]["structuredContent"]["timezone"] == "Asia/Tokyo"
    assert len(by_id[2]["result"]["tools"]) == len(catalog.TOOLS)  # SERVE offers every toolset
    assert by_id[3]["result"]["isError"] is False
    assert by_id[4]["error"]["code"] == -32022  # the connection already speaks 2026-07-28


def run_raw(lines: list[bytes]) -> tuple[list[dict[str, Any]], str]:
    """Send raw lines to a fresh server, close stdin, and return every stdout line parsed as JSON."""
    completed = subprocess.run(SERVE, input=b"".join(lines), capture_output=True, timeout=60, check=False)
    assert completed.returncode == 0, completed.stderr.decode()
    messages = [json.loads(line) for line in completed.stdout.splitlines()]  # every stdout line is JSON
    return messages, completed.stderr.decode()


def request(request_id: int, method: str, params: dict[str, Any] | None = None) -> bytes:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        body["params"] = params
    return json.dumps(body).encode() + b"\n"


def test_bad_lines_get_clear_errors_and_the_server_keeps_serving() -> None:
    call = {"name": "get_current_time", "arguments": {}, "_meta": ENVELOPE}
    messages, _ = run_raw(
        [
            b"\xff\xfe not utf-8\n",
            b"this is not json\n",
            b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n',
            b'{"jsonrpc":"2.0","id":2}\n',
            b"x" * (5 * 1024 * 1024) + b"\n",
            request(3, "tools/call", call),
        ]
    )
    codes = [m["error"]["code"] for m in messages if "error" in m]
    assert codes == [-32700, -32700, -32600, -32600, -32600]
    answered = [m for m in messages if m.get("id") == 3]
    assert answered and answered[0]["result"]["structuredContent"]["timezone"] == "UTC"


def test_handshake_then_call_over_raw_stdio() -> None:
    initialize = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
    messages, _ = run_raw(
        [
            request(1, "initialize", initialize),
            b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
            request(2, "ping"),
            request(3, "tools/call", {"name": "format_time", "arguments": {"timestamp": 0, "format": "http"}}),
            request(4, "tools/call", {"name": "format_time", "arguments": {"timestamp": "soon", "format": "http"}}),
            request(5, "no/such/method"),
        ]
    )
    by_id = {m["id"]: m for m in messages}
    assert by_id[1]["result"]["protocolVersion"] == "2025-11-25"
    assert by_id[1]["result"]["serverInfo"]["name"] == "horologe"
    assert by_id[2]["result"] == {}
    assert by_id[3]["result"]["structuredContent"]["formatted"] == "Thu, 01 Jan 1970 00:00:00 GMT"
    assert by_id[4]["result"]["isError"] is True  # 'soon' is no timestamp, nor a phrase the grammar reads
    assert by_id[4]["result"]["_meta"]["dev.horologe/error"]["code"] == -32602
    assert by_id[5]["error"]["code"] == -32601


def test_invalid_configuration_fails_at_start_naming_the_key(tmp_path: Any) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"time": {"default_timezone": "Mars/Base"}}))
    completed = subprocess.run([*SERVE, "--config", str(config)], capture_output=True, timeout=60, check=False)
    assert completed.returncode == 2
    assert b"time.default_timezone" in completed.stderr
    assert completed.stdout == b""


def test_stdin_from_dev_null_exits_at_once() -> None:
    with open(os.devnull, "rb") as empty:
        completed = subprocess.run(SERVE, stdin=empty, capture_output=True, timeout=60, check=False)
    assert completed.returncode == 0 and completed.stdout == b""


def test_requests_from_a_regular_file_are_answered(tmp_path: Any) -> None:
    requests = tmp_path / "requests.jsonl"
    call = {"name": "format_time", "arguments": {"timestamp": 0, "format": "unix_ms"}, "_meta": ENVELOPE}
    requests.write_bytes(request(1, "tools/call", call) + b"not json\n")
    with requests.open("rb") as source:
        completed = subprocess.run(SERVE, stdin=source, capture_output=True, timeout=60, check=False)
    answers = [json.loads(line) for line in completed.stdout.splitlines()]
    assert completed.returncode == 0
    assert answers[0]["error"]["code"] == -32700
    assert answers[1]["result"]["structuredContent"]["formatted"] == 0


def test_a_client_that_closes_stdout_ends_the_server_quietly() -> None:
    process = spawn(SERVE, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdout is not None and process.stdin is not None and process.stderr is not None
    errors = Output(process.stderr)
    try:
        process.stdout.close()
        process.stdin.write(b"not json\n" * 3)
        process.stdin.close()
        code = process.wait(PATIENCE)
    finally:
        end(process, errors)
    assert code == 0
    assert "Traceback" not in errors.text()
