"""Hostile input against real processes: what must not crash, freeze or corrupt a running server (issue 17).

Over stdio: lone surrogates and over-long integers are answered and the process keeps serving; ids that are not
strings or integers get -32600 with id null; a call stuck at its budget does not delay other requests, its
cancellation lets the process end at once, and it ends in a clear error; stdout carries only protocol messages
with the console span exporter on. Over HTTP: /healthz answers while a budget-long call computes; invalid ids
get -32600 with id null.
"""

from __future__ import annotations

import http.client
import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any, Final

import pytest

from tests.e2e.conftest import (
    RunningServer,
    StreamedCall,
    expect_continue,
    read_until_closed,
    split_answer,
    start_http_server,
)
from tests.e2e.processes import PATIENCE, Output, end, spawn

pytestmark = [pytest.mark.e2e]
SERVE: Final = [sys.executable, "-m", "horologe", "serve", "--toolsets", "all", "--tool-budget", "2"]
HEAVY: Final = {"name": "next_occurrences", "arguments": {"rule": "RRULE:FREQ=SECONDLY\nEXRULE:FREQ=SECONDLY"}}
QUICK: Final = {"name": "get_current_time", "arguments": {"timezone": "UTC"}}


class StdioServer:
    """A `horologe serve` process spoken to line by line; every read waits for the line, not on a clock."""

    def __init__(self, env: dict[str, str] | None = None, budget: float = 2) -> None:
        command = [*SERVE[:-1], f"{budget:g}"]
        self.process = spawn(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env={**os.environ, **(env or {})})
        assert self.process.stdout is not None and self.process.stderr is not None
        self.stdout, self.stderr = Output(self.process.stdout), Output(self.process.stderr)
        self.read = 0

    def send(self, message: dict[str, Any] | bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def answer(self) -> dict[str, Any]:
        """The next message the server writes."""
        line = self.stdout.line(self.read)
        assert line is not None, f"the server closed stdout: {self.stderr.text()[-3000:]}"
        self.read += 1
        answer: dict[str, Any] = json.loads(line)
        return answer

    def answer_to(self, request_id: int | str) -> dict[str, Any]:
        """The next message that answers `request_id` (notifications before it are passed over)."""
        while (message := self.answer()).get("id") != request_id:
            assert "id" not in message, f"expected the answer to {request_id!r} first, got {message}"
        return message

    def finish(self) -> tuple[int, bytes, bytes]:
        """Close stdin and wait for the exit; the exit code, the rest of stdout and stderr."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        code = self.process.wait(PATIENCE)
        self.stop()
        rest = "".join(self.stdout.line(index) or "" for index in range(self.read, self.stdout.line_count()))
        return code, rest.encode(), self.stderr.text().encode()

    def stop(self) -> None:
        """End the process whatever state it is in (SIGTERM, then SIGKILL) and read its pipes to the end."""
        end(self.process, self.stdout, self.stderr)


@pytest.fixture
def stdio() -> Iterator[StdioServer]:
    server = StdioServer()
    try:
        yield server
    finally:
        server.stop()


def call(request_id: int | str, params: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


@pytest.mark.parametrize(
    "line",
    [
        b'{"jsonrpc":"2.0","id":"\\ud800","method":"tools/list"}\n',
        b'{"jsonrpc":"2.0","id":1,"method":"tools/\\ud800"}\n',
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get\\udfff","arguments":{}}}\n',
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_current_time","arguments":{},'
        b'"_meta":{"progressToken":"\\ud800"}}}\n',
        b'{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"time_query_assistant",'
        b'"arguments":{"question":"\\ud800"}}}\n',
        b'{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"time://zone/\\ud800"}}\n',
        b'{"jsonrpc":"2.0","id":' + b"9" * 4301 + b',"method":"ping"}\n',
    ],
    ids=["id", "method", "tool-name", "progress-token", "prompt-argument", "resource-uri", "4301-digit-integer"],
)
def test_a_line_that_cannot_be_answered_as_sent_is_refused_and_the_process_keeps_serving(
    stdio: StdioServer, line: bytes
) -> None:
    stdio.send(line)
    refused = stdio.answer()
    assert refused["error"]["code"] in (-32700, -32600)
    assert refused["id"] in (None, 1)
    stdio.send(call(2, QUICK))
    assert stdio.answer()["result"]["isError"] is False
    code, rest, _ = stdio.finish()
    assert code == 0 and rest == b""


@pytest.fixture(scope="module")
def shared_stdio() -> Iterator[StdioServer]:
    """One server for the tests whose requests leave nothing behind: a process started under coverage costs about
    2.5 CPU seconds, most of it importing."""
    server = StdioServer()
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.parametrize("request_id", [1.5, None, True, {}, []], ids=["float", "null", "true", "object", "array"])
def test_an_id_that_is_not_a_string_or_an_integer_gets_invalid_request_with_id_null(
    shared_stdio: StdioServer, request_id: Any
) -> None:
    shared_stdio.send({"jsonrpc": "2.0", "id": request_id, "method": "tools/list"})
    refused = shared_stdio.answer()
    assert refused["id"] is None and refused["error"]["code"] == -32600
    assert "id must be a string or an integer" in refused["error"]["message"]


def with_progress(params: dict[str, Any]) -> dict[str, Any]:
    """Call params asking for progress: the server says when the tool starts, so a test need not guess."""
    return {**params, "_meta": {"progressToken": "began"}}


def test_a_call_at_its_budget_delays_no_other_request_and_ends_in_a_clear_error(stdio: StdioServer) -> None:
    stdio.send(call(0, QUICK))
    stdio.answer()  # started and warm
    started = time.monotonic()
    stdio.send(call("heavy", with_progress(HEAVY)))
    assert stdio.answer()["method"] == "notifications/progress"  # the heavy call computes from here on
    stdio.send(call("quick", QUICK))
    quick = stdio.answer_to("quick")  # an answer to the heavy call first would fail here
    assert quick["result"]["isError"] is False
    heavy = stdio.answer_to("heavy")
    elapsed = time.monotonic() - started
    assert heavy["result"]["isError"] is True
    error = heavy["result"]["_meta"]["dev.horologe/error"]
    assert error["kind"] == "budget_exceeded" and error["code"] == -32602
    assert "Ask for fewer occurrences" in error["message"]
    assert elapsed > 1.9  # stopped at its 2 s budget, not before


def test_a_cancelled_call_gets_no_answer_and_does_not_hold_the_exit() -> None:
    # A budget no run reaches: without the cancellation the call would be answered (and the exit held) a minute on.
    stdio = StdioServer(budget=60)
    try:
        stdio.send(call(0, QUICK))
        stdio.answer()
        stdio.send(call(1, with_progress(HEAVY)))
        assert stdio.answer()["method"] == "notifications/progress"  # computing now
        stdio.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})
        stdio.send(call(2, QUICK))
        assert stdio.answer()["id"] == 2
        code, rest, err = stdio.finish()
    finally:
        stdio.stop()
    assert code == 0 and rest == b""
    assert b"still unanswered" not in err  # the exit did not wait out the drain for the cancelled call


def test_stdout_carries_only_protocol_messages_with_the_console_span_exporter() -> None:
    server = StdioServer(env={"OTEL_TRACES_EXPORTER": "console", "OTEL_SERVICE_NAME": "horologe-test"})
    try:
        server.send(call(1, QUICK))
        code, out, err = server.finish()
    finally:
        server.stop()
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["id"] == 1
    assert b'"name": "tools/call get_current_time"' in err  # the spans went to stderr


@pytest.fixture(scope="module")
def http_server() -> Iterator[RunningServer]:
    server = start_http_server(["--toolsets", "all", "--tool-budget", "2"], env={"DEFAULT_TIMEZONE": "UTC"})
    try:
        yield server
    finally:
        server.stop()


def post(server: RunningServer, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        connection.request("POST", "/mcp", json.dumps(body), headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_healthz_answers_while_a_budget_long_call_computes(http_server: RunningServer) -> None:
    answered = 0
    with StreamedCall(http_server.port, HEAVY) as heavy:
        heavy.wait_until_begun()
        # Health checks one after another until the heavy call's answer starts to arrive (at its 2 s budget); the
        # select also paces them. An event loop blocked by the call would answer none of them before that.
        while not select.select([heavy.socket], [], [], 0.03)[0]:
            connection = http.client.HTTPConnection("127.0.0.1", http_server.port, timeout=PATIENCE)
            connection.request("GET", "/healthz")
            assert connection.getresponse().status == 200
            connection.close()
            answered += 1
        result = heavy.result()
    assert answered >= 5, answered
    assert result["_meta"]["dev.horologe/error"]["kind"] == "budget_exceeded"


@pytest.mark.parametrize("request_id", [1.5, None, True, {}], ids=["float", "null", "true", "object"])
def test_an_invalid_id_over_http_gets_invalid_request_with_id_null(http_server: RunningServer, request_id: Any) -> None:
    status, body = post(http_server, {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": QUICK})
    assert status == 400 and body["id"] is None and body["error"]["code"] == -32600


def test_a_lone_surrogate_over_rest_is_a_400_not_a_500(http_server: RunningServer) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", http_server.port, timeout=30)
    for path, body in [
        ("/mcp/resources/read", b'{"uri":"time://zone/\\ud800"}'),
        ("/mcp/prompts/get", b'{"name":"time_query_assistant","arguments":{"question":"\\ud800"}}'),
    ]:
        connection.request("POST", path, body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        answer = json.loads(response.read())
        assert response.status == 400 and answer["error"]["code"] == -32600, answer
    connection.close()


def test_sigterm_during_a_budget_long_call_answers_it_and_exits_within_the_budget() -> None:
    server = start_http_server(["--toolsets", "all", "--tool-budget", "2"], env={"DEFAULT_TIMEZONE": "UTC"})
    body = json.dumps(call(1, HEAVY)).encode()
    try:
        with expect_continue(
            server.port, "/mcp", body, {"Accept": "application/json, text/event-stream", "Connection": "close"}
        ) as client:
            client.sendall(body)  # the call is in flight: the app asked for its body
            server.process.terminate()
            status, payload = split_answer(read_until_closed(client))
        code = server.process.wait(PATIENCE)
    finally:
        log = server.stop()
    assert status == 200, payload
    assert json.loads(payload)["result"]["_meta"]["dev.horologe/error"]["kind"] == "budget_exceeded"
    assert code in (0, -signal.SIGTERM)
    # It left when the call ended at its budget, not at the end of the 20 s grace period for running requests.
    assert "timeout graceful shutdown exceeded" not in log
