"""Cancellation against a real process (issue 35): a call nobody waits for stops computing, and gets no answer.

A rule that never matches computes until its budget (a minute here) unless something stops it, so the server's
CPU time (from /proc) says whether it still computes: measured over a window while the call runs, then over the
same window after the client cancelled. A 2026-07-28 client cancels by going away; a 2025 client by
`notifications/cancelled`, which over stateless HTTP counts only from the client that sent the call, as the rate
limits see it (behind a trusted proxy: the forwarded address).
"""

from __future__ import annotations

import http.client
import json
import socket
import sys
import time
from collections.abc import Iterator
from typing import Any, Final

import pytest

from tests.e2e.conftest import RunningServer, start_http_server
from tests.e2e.processes import PATIENCE
from tests.e2e.test_hostile_budgets import NEVER, cpu_seconds, wait_until_idle
from tests.e2e.test_hostile_process import call

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the process's CPU time from /proc"),
]
WINDOW: Final = 2.0
"""How long the server's CPU time is measured, while the call runs and after it was cancelled."""
SETTLE: Final = 0.5
"""Left to the server between the cancellation and the second window (a stop takes milliseconds)."""
ENVELOPE: Final = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "hostile", "version": "1"},
}


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    running = start_http_server(
        ["--toolsets", "all", "--tool-budget", "60"],
        env={
            "DEFAULT_TIMEZONE": "UTC",
            "HOROLOGE_HTTP__REQUEST_TIMEOUT_SECONDS": "120",
            "HOROLOGE_RATE_LIMIT__TRUSTED_PROXIES": '["127.0.0.1"]',  # X-Forwarded-For names the client
        },
    )
    try:
        yield running
    finally:
        running.stop()


def send_post(port: int, body: dict[str, Any], headers: dict[str, str]) -> socket.socket:
    """A POST /mcp sent on a connection of its own, not waited for."""
    data = json.dumps(body).encode()
    fields = {
        "Host": "127.0.0.1",
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "Content-Length": str(len(data)),
        **headers,
    }
    head = "POST /mcp HTTP/1.1\r\n" + "".join(f"{name}: {value}\r\n" for name, value in fields.items()) + "\r\n"
    client = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
    client.sendall(head.encode() + data)
    return client


def computing(pid: int, since: float) -> None:
    """Until the process has used a quarter CPU second more than `since` (the call is under way), at most 60 s."""
    ends = time.monotonic() + 60
    while cpu_seconds(pid) - since < 0.25:
        assert time.monotonic() < ends, "the call never started computing"
        time.sleep(0.05)


def window(pid: int) -> float:
    """The CPU seconds the process uses in the next `WINDOW` seconds."""
    before = cpu_seconds(pid)
    time.sleep(WINDOW)
    return cpu_seconds(pid) - before


def cancel(server: RunningServer, request_id: int, client: str) -> int:
    """A 2025 `notifications/cancelled` for `request_id` from `client`; its status."""
    notification = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": request_id}}
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=PATIENCE)
    try:
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2025-11-25",
            "X-Forwarded-For": client,
        }
        connection.request("POST", "/mcp", json.dumps(notification), headers)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def test_a_2026_07_28_client_that_goes_away_stops_its_call(server: RunningServer) -> None:
    pid = server.process.pid
    wait_until_idle(pid)
    headers = {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "next_occurrences"}
    body = call(1, {**NEVER, "_meta": ENVELOPE})
    client = send_post(server.port, body, headers)
    try:
        computing(pid, cpu_seconds(pid))
        during = window(pid)
    finally:
        client.close()  # the cancellation
    time.sleep(SETTLE)
    after = window(pid)
    report = f"{during:.2f} CPU s in {WINDOW:g} s while the call ran, {after:.2f} after its client left"
    assert during > 0.2 and after < during / 4, report


def test_a_2025_call_cancelled_by_its_client_stops_and_is_not_answered(server: RunningServer) -> None:
    pid = server.process.pid
    wait_until_idle(pid)
    headers = {"MCP-Protocol-Version": "2025-11-25", "X-Forwarded-For": "203.0.113.7"}
    client = send_post(server.port, call(7, NEVER), headers)
    with client:
        computing(pid, cpu_seconds(pid))
        assert cancel(server, 7, "198.51.100.1") == 202  # another client behind the same proxy: not its call
        during = window(pid)
        assert cancel(server, 7, "203.0.113.7") == 202
        answer = client.recv(65536)
        while not answer.endswith(b"\r\n0\r\n\r\n"):  # the chunked answer's end
            chunk = client.recv(65536)
            assert chunk, answer
            answer += chunk
        time.sleep(SETTLE)
        after = window(pid)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 ") and b"\r\ncontent-type: text/event-stream\r\n" in head
    assert body == b"0\r\n\r\n"  # an event stream with no event: no answer to the cancelled call
    report = f"{during:.2f} CPU s in {WINDOW:g} s while the call ran, {after:.2f} after it was cancelled"
    assert during > 0.2 and after < during / 4, report
