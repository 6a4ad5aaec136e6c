"""`horologe serve --transport http` as a real uvicorn process: SDK clients in both eras and every error path."""

from __future__ import annotations

import http.client
import json
import shutil
import signal
import subprocess
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp.client import Client

from tests.e2e.conftest import RunningServer, expect_continue, read_until_closed, split_answer, start_http_server
from tests.e2e.processes import PATIENCE, wait_for_exit

pytestmark = [pytest.mark.e2e]
MODERN = "2026-07-28"
ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
}
JSON_HEADERS = [("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream")]


def send(
    server: RunningServer,
    method: str,
    path: str,
    body: bytes | dict[str, Any] | list[Any] | None = None,
    headers: list[tuple[str, str]] | None = None,
) -> tuple[int, http.client.HTTPResponse, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    raw = json.dumps(body).encode() if isinstance(body, dict | list) else body
    connection.putrequest(method, path, skip_host="Host" in dict(headers or []))
    for name, value in headers if headers is not None else JSON_HEADERS:
        connection.putheader(name, value)
    if raw is not None:
        connection.putheader("Content-Length", str(len(raw)))
    connection.endheaders(raw)
    response = connection.getresponse()
    raw_response = response.read()
    connection.close()
    return response.status, response, raw_response


def modern_call(name: str, arguments: dict[str, Any], request_id: int = 1) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments, "_meta": ENVELOPE},
    }


def modern_headers(method: str, name: str | None = None, version: str = MODERN) -> list[tuple[str, str]]:
    headers = [*JSON_HEADERS, ("MCP-Protocol-Version", version), ("Mcp-Method", method)]
    return headers + ([("Mcp-Name", name)] if name else [])


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", MODERN])
async def test_sdk_http_client_lists_and_calls_tools(http_server: RunningServer, mode: str) -> None:
    async with Client(f"{http_server.url}/mcp", mode=mode, cache=None) as client:
        assert client.protocol_version == (MODERN if mode == MODERN else "2025-11-25")
        tools = await client.list_tools()
        assert len(tools.tools) >= 6
        now = await client.call_tool("get_current_time", {"timezone": "Asia/Kathmandu"})
        assert now.structured_content is not None and now.structured_content["timestamp"].endswith("+05:45")
        converted = await client.call_tool(
            "convert_timezone",
            {"timestamp": "2026-11-01T01:30:00", "from_timezone": "America/New_York", "to_timezone": "UTC"},
        )
        assert converted.structured_content is not None
        assert converted.structured_content["original"]["dst"]["ambiguous"] is True
        resource = await client.read_resource("timezone://Asia/Tokyo")
        contents = resource.contents[0]
        assert isinstance(contents, types.TextResourceContents) and "Asia/Tokyo" in contents.text


def test_the_seed_curl_example_works_verbatim(http_server: RunningServer) -> None:
    curl = shutil.which("curl")
    assert curl, "curl is needed for this test (.ci/run installs it)"
    seed = (
        f"curl -X POST {http_server.url}/mcp/tools/call "
        '-H "Content-Type: application/json" '
        """-d '{"name":"get_current_time","arguments":{}}'"""
    )
    completed = subprocess.run(["bash", "-c", seed], capture_output=True, timeout=30, check=True)
    body = json.loads(completed.stdout)
    assert body["isError"] is False
    assert body["structuredContent"]["timezone"] == "UTC"
    assert body["structuredContent"]["timestamp"].endswith("Z")


def test_health_readiness_and_metrics(http_server: RunningServer) -> None:
    assert send(http_server, "GET", "/healthz", headers=[])[0] == 200
    status, _, raw = send(http_server, "GET", "/readyz", headers=[])
    assert status == 200 and json.loads(raw)["tzdata_version"]
    send(
        http_server,
        "POST",
        "/mcp",
        modern_call("get_current_time", {}),
        modern_headers("tools/call", "get_current_time"),
    )
    status, response, raw = send(http_server, "GET", "/metrics", headers=[])
    text = raw.decode()
    assert status == 200 and response.getheader("content-type", "").startswith("text/plain")
    assert 'mcp_server_operations_total{mcp_method_name="tools/call",outcome="ok",tool="get_current_time"}' in text
    assert "mcp_server_operation_duration_seconds_bucket" in text and 'le="0.01"' in text
    assert "horologe_http_requests_in_flight" in text


# --- error paths on /mcp ------------------------------------------------------------------------------------


def test_missing_content_type_is_refused(http_server: RunningServer) -> None:
    body = json.dumps(modern_call("get_current_time", {})).encode()
    headers = [
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", MODERN),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", "get_current_time"),
    ]
    status, _, _ = send(http_server, "POST", "/mcp", body, headers)
    assert status in (400, 415)


def test_wrong_content_type_is_refused(http_server: RunningServer) -> None:
    headers = [("Content-Type", "text/plain"), *modern_headers("tools/call", "get_current_time")[1:]]
    status, _, _ = send(http_server, "POST", "/mcp", json.dumps(modern_call("get_current_time", {})).encode(), headers)
    assert status in (400, 415)


def test_bad_json_is_a_parse_error(http_server: RunningServer) -> None:
    status, _, raw = send(http_server, "POST", "/mcp", b'{"jsonrpc": "2.0", "id": 1,', modern_headers("tools/call"))
    assert status == 400 and json.loads(raw)["error"]["code"] == -32700


@pytest.mark.parametrize(
    "body",
    [
        b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": "\xff\xfe"}}',  # not UTF-8
        '{"jsonrpc": "2.0", "id": 1, "method": "ping"}'.encode("utf-16"),  # JSON over HTTP is UTF-8
    ],
)
def test_a_body_that_is_not_utf8_is_a_parse_error(http_server: RunningServer, body: bytes) -> None:
    status, _, raw = send(http_server, "POST", "/mcp", body, modern_headers("ping"))
    assert status == 400 and json.loads(raw)["error"]["code"] == -32700


def test_a_body_with_non_ascii_text_is_read_as_utf8(http_server: RunningServer) -> None:
    call = modern_call(
        "convert_timezone", {"timestamp": "2026-03-08T01:30:00", "from_timezone": "UTC", "to_timezone": "Zürich"}
    )
    body = json.dumps(call, ensure_ascii=False).encode()
    status, _, raw = send(http_server, "POST", "/mcp", body, modern_headers("tools/call", "convert_timezone"))
    assert status == 200  # a mis-decoded "ZÃ¼rich" would not resolve
    assert json.loads(raw)["result"]["structuredContent"]["converted"]["timezone"] == "Europe/Zurich"


def test_oversized_body_is_413(http_server: RunningServer) -> None:
    call = modern_call("get_current_time", {"timezone": "x" * (2 * 1024 * 1024)})
    status, _, _ = send(http_server, "POST", "/mcp", call, modern_headers("tools/call", "get_current_time"))
    assert status == 413


def test_deeply_nested_json_is_refused(http_server: RunningServer) -> None:
    deep: Any = "x"
    for _ in range(100):
        deep = {"a": deep}
    status, _, raw = send(
        http_server,
        "POST",
        "/mcp",
        modern_call("get_current_time", {"x": deep}),
        modern_headers("tools/call", "get_current_time"),
    )
    assert status == 400 and json.loads(raw)["error"]["code"] == -32600


def test_batch_arrays_are_refused(http_server: RunningServer) -> None:
    batch = [modern_call("get_current_time", {}, 1), modern_call("get_current_time", {}, 2)]
    status, _, _ = send(http_server, "POST", "/mcp", batch, modern_headers("tools/call", "get_current_time"))
    assert status == 400


def test_unknown_method_on_2026_is_404_and_method_not_found(http_server: RunningServer) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "time/travel", "params": {"_meta": ENVELOPE}}
    status, _, raw = send(http_server, "POST", "/mcp", body, modern_headers("time/travel"))
    assert status == 404 and json.loads(raw)["error"]["code"] == -32601


def test_header_body_mismatch_is_32020(http_server: RunningServer) -> None:
    status, _, raw = send(
        http_server, "POST", "/mcp", modern_call("get_current_time", {}), modern_headers("tools/call", "format_time")
    )
    assert status == 400 and json.loads(raw)["error"]["code"] == -32020


def test_unsupported_protocol_version_is_32022(http_server: RunningServer) -> None:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/list",
        "params": {"_meta": {**ENVELOPE, "io.modelcontextprotocol/protocolVersion": "2099-01-01"}},
    }
    status, _, raw = send(http_server, "POST", "/mcp", body, modern_headers("tools/list", version="2099-01-01"))
    error = json.loads(raw)["error"]
    assert status == 400 and error["code"] == -32022 and MODERN in error["data"]["supported"]


def test_hostile_origin_is_403(http_server: RunningServer) -> None:
    headers = [*modern_headers("tools/call", "get_current_time"), ("Origin", "http://evil.example")]
    status, _, _ = send(http_server, "POST", "/mcp", modern_call("get_current_time", {}), headers)
    assert status == 403


def test_hostile_host_is_refused(http_server: RunningServer) -> None:
    headers = [("Host", "evil.example"), *modern_headers("tools/call", "get_current_time")]
    status, _, _ = send(http_server, "POST", "/mcp", modern_call("get_current_time", {}), headers)
    assert status in (403, 421)


def test_local_origin_is_accepted(http_server: RunningServer) -> None:
    headers = [*modern_headers("tools/call", "get_current_time"), ("Origin", f"http://localhost:{http_server.port}")]
    status, _, _ = send(http_server, "POST", "/mcp", modern_call("get_current_time", {}), headers)
    assert status == 200


@pytest.mark.parametrize("verb", ["GET", "DELETE"])
def test_get_and_delete_on_the_2026_era_are_405(http_server: RunningServer, verb: str) -> None:
    status, _, _ = send(
        http_server, verb, "/mcp", None, [("Accept", "text/event-stream"), ("MCP-Protocol-Version", MODERN)]
    )
    assert status == 405


def test_a_legacy_request_with_a_progress_token_gets_an_sse_stream(http_server: RunningServer) -> None:
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": "list_timezones",
            "arguments": {"region": "Europe", "limit": 3},
            "_meta": {"progressToken": "p1"},
        },
    }
    status, response, raw = send(
        http_server, "POST", "/mcp", call, [*JSON_HEADERS, ("MCP-Protocol-Version", "2025-11-25")]
    )
    assert status == 200 and response.getheader("content-type", "").startswith("text/event-stream")
    events = [
        json.loads(line[5:]) for line in raw.decode().splitlines() if line.startswith("data:") and line[5:].strip()
    ]
    assert events[-1]["id"] == 1 and len(events[-1]["result"]["structuredContent"]["timezones"]) == 3


def test_a_modern_request_with_a_progress_token_is_answered_on_the_streaming_path(http_server: RunningServer) -> None:
    # The 2026 path commits to SSE when the first notification is sent and answers JSON when none is.
    call = modern_call("list_timezones", {"region": "Europe", "limit": 3})
    call["params"]["_meta"]["progressToken"] = "p1"
    status, response, raw = send(http_server, "POST", "/mcp", call, modern_headers("tools/call", "list_timezones"))
    content_type = response.getheader("content-type", "")
    assert status == 200
    if content_type.startswith("text/event-stream"):
        raw = next(line[5:] for line in reversed(raw.decode().splitlines()) if line.startswith("data:")).encode()
    assert len(json.loads(raw)["result"]["structuredContent"]["timezones"]) == 3


def test_json_is_the_default_response(http_server: RunningServer) -> None:
    status, response, raw = send(
        http_server,
        "POST",
        "/mcp",
        modern_call("get_current_time", {}),
        modern_headers("tools/call", "get_current_time"),
    )
    assert status == 200 and response.getheader("content-type") == "application/json"
    assert json.loads(raw)["result"]["structuredContent"]["timezone"] == "UTC"


def test_legacy_stateless_call_without_initialize_is_served(http_server: RunningServer) -> None:
    body = {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "get_current_time", "arguments": {}}}
    status, _, raw = send(http_server, "POST", "/mcp", body, [*JSON_HEADERS, ("MCP-Protocol-Version", "2025-11-25")])
    assert status == 200 and json.loads(raw)["result"]["isError"] is False


def test_errors_never_carry_stack_traces(http_server: RunningServer) -> None:
    for body in (b"\xff\xfe", b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"nope"}'):
        _, _, raw = send(http_server, "POST", "/mcp", body, modern_headers("tools/call"))
        assert b"Traceback" not in raw and b'File "' not in raw


def test_public_bind_without_an_allow_list_fails_at_start() -> None:
    import sys

    completed = subprocess.run(
        [sys.executable, "-m", "horologe", "serve", "--transport", "http", "--host", "0.0.0.0", "--port", "1"],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 2
    assert b"--allowed-host" in completed.stderr


def test_stateful_sessions_with_sse_work_with_the_sdk_client() -> None:
    server = start_http_server(["--stateful"])
    try:
        import anyio

        async def session() -> None:
            async with Client(f"{server.url}/mcp", mode="legacy", cache=None) as client:
                result = await client.call_tool("get_current_time", {"timezone": "Europe/Vienna"})
                assert result.structured_content is not None
                assert result.structured_content["timezone"] == "Europe/Vienna"

        anyio.run(session)
    finally:
        server.stop()


def test_access_log_is_json_lines_with_request_id_and_no_secrets() -> None:
    server = start_http_server()
    try:
        headers = [
            *modern_headers("tools/call", "get_current_time"),
            ("Authorization", "Bearer secret-token-123"),
            ("X-Request-Id", "abc-123"),
        ]
        call = modern_call("get_current_time", {})
        status, response, _ = send(server, "POST", "/mcp?token=secret-query", call, headers)
    finally:
        stderr = server.stop()
    assert status == 200 and response.getheader("x-request-id") == "abc-123"
    lines = [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]
    entry = next(line for line in lines if line.get("request_id") == "abc-123")
    assert entry["status"] == 200 and entry["path"] == "/mcp" and entry["duration_ms"] >= 0
    assert "secret" not in stderr


def test_a_name_that_utf8_cannot_carry_is_refused_and_still_gets_its_log_line() -> None:
    server = start_http_server()
    try:
        body = b'{"name": "\\ud800tool", "arguments": {}}'  # JSON's escape for a lone surrogate
        headers = [("Content-Type", "application/json"), ("X-Request-Id", "odd-1")]
        status, _, raw = send(server, "POST", "/mcp/tools/call", body, headers)
    finally:
        stderr = server.stop()
    assert status == 400 and json.loads(raw)["error"]["code"] == -32600  # no answer could carry the name back
    lines = [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]
    entry = next(line for line in lines if line.get("request_id") == "odd-1")
    assert entry["status"] == 400


def test_sigterm_lets_an_in_flight_request_finish() -> None:
    server = start_http_server()
    # A call whose answer does not depend on the machine's speed: this test is about the shutdown, not the tool.
    body = json.dumps({"name": "get_current_time", "arguments": {"timezone": "Asia/Kathmandu"}}).encode()
    try:
        # The head and a piece of the body go out, then SIGTERM, then the rest: the request is in flight throughout.
        with expect_continue(server.port, "/mcp/tools/call", body, {"Connection": "close"}) as client:
            client.sendall(body[:10])
            server.process.terminate()
            # The drain has begun (the listening socket is closed) and waits for this connection.
            server.wait_for_log("Waiting for connections to close")
            assert server.process.poll() is None, "the server left while a request was in flight"
            client.sendall(body[10:])
            status, payload = split_answer(read_until_closed(client))
        assert status == 200, payload
        assert json.loads(payload)["structuredContent"]["timestamp"].endswith("+05:45")
        # uvicorn re-raises the signal after its graceful shutdown, so the exit status is "terminated by SIGTERM".
        assert server.process.wait(PATIENCE) in (0, -signal.SIGTERM)
    finally:
        server.stop()


def test_metrics_labels_stay_bounded_whatever_names_clients_send(http_server: RunningServer) -> None:
    for index in range(3):
        send(
            http_server,
            "POST",
            "/mcp",
            modern_call(f"no_such_tool_{index}", {}),
            modern_headers("tools/call", f"no_such_tool_{index}"),
        )
    _, _, raw = send(http_server, "GET", "/metrics", headers=[])
    text = raw.decode()
    assert "no_such_tool" not in text
    assert 'tool="unknown"' in text


# --- several workers -----------------------------------------------------------------------------------------


def descendants(pid: int) -> list[int]:
    """Every process below `pid` (uvicorn's workers and multiprocessing's helpers)."""
    found: list[int] = []
    pending = [pid]
    while pending:
        current = pending.pop()
        for task in Path(f"/proc/{current}/task").glob("*"):
            children = [int(child) for child in (task / "children").read_text().split()]
            found.extend(children)
            pending.extend(children)
    return found


def test_two_workers_serve_one_port_count_together_and_stop_on_sigterm() -> None:
    server = start_http_server(["--workers", "2"], env={"DEFAULT_TIMEZONE": "UTC"})
    try:
        family = descendants(server.process.pid)
        workers = [pid for pid in family if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text()]
        headers = modern_headers("tools/call", "get_current_time")
        statuses = [send(server, "POST", "/mcp", modern_call("get_current_time", {}, n), headers)[0] for n in range(20)]
        _, _, raw = send(server, "GET", "/metrics", headers=[])
        server.process.terminate()  # SIGTERM to the supervisor only, as a process manager sends it
        server.process.wait(PATIENCE)  # it leaves once it has stopped its workers
        survivors = wait_for_exit(family)  # and its helpers end with it (the wait is on each exit, no clock)
    finally:
        server.stop()  # whatever is left of the process group is killed here, after the checks above
    assert len(workers) == 2
    assert statuses == [200] * 20
    # Multiprocess metrics: /metrics answers from one worker but counts what both served.
    line = 'mcp_server_operations_total{mcp_method_name="tools/call",outcome="ok",tool="get_current_time"} 20.0'
    assert line in raw.decode()
    assert survivors == []  # SIGTERM took the workers down too
