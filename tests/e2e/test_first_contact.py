"""What an operator sees first: one JSON shape per log line, the address served once it accepts, one line per
request, warnings only about what matters, a port it cannot have as one line, and a person at a terminal told what
the stdio server waits for."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
from typing import Any

import pytest

from tests.e2e.conftest import RunningServer, check_healthy, free_port, start_http_server
from tests.e2e.processes import Output, spawn
from tests.e2e.test_http_process import send

pytestmark = [pytest.mark.e2e]
MILLISECONDS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


def records_of(stderr: str) -> list[dict[str, Any]]:
    """Every stderr line as JSON, each checked for the one shape all lines share."""
    records = [json.loads(line) for line in stderr.splitlines() if line.strip()]
    for record in records:
        assert list(record)[:4] == ["ts", "level", "logger", "message"], record
        assert MILLISECONDS.fullmatch(record["ts"]), record
    return records


def test_a_plain_loopback_start_warns_of_nothing_and_says_once_where_it_listens() -> None:
    server = start_http_server()
    status, _, _ = send(server, "GET", "/healthz", b"", [("X-Request-Id", "first-1")])
    assert status == 200
    records = records_of(server.stop())
    assert [record for record in records if record["level"] == "WARNING"] == []
    messages = [record["message"] for record in records]
    listening = messages.index(f"listening on http://127.0.0.1:{server.port}/mcp")
    assert messages.count(messages[listening]) == 1 and listening > messages.index("Application startup complete.")
    (state,) = [record for record in records if "state signing key" in record["message"]]
    assert state["level"] == "INFO" and "HOROLOGE_STATE__KEYS" in state["message"]
    (access,) = [record for record in records if record.get("request_id") == "first-1"]
    assert access["logger"] == "horologe.access" and access["message"] == "GET /healthz 200"


def test_with_workers_the_address_is_said_once_a_worker_accepts_and_each_request_is_logged_once() -> None:
    # Two workers: the supervisor (which binds) and the spawned workers (which configure logging themselves).
    server = start_http_server(["--workers", "2", "--cors-origin", "https://app.example"])
    listening = f"listening on http://127.0.0.1:{server.port}/mcp"  # started: the line was said (and waited for)
    for number in range(4):
        assert send(server, "GET", "/healthz", b"", [("X-Request-Id", f"w-{number}")])[0] == 200
    records = records_of(server.stop())
    messages = [record["message"] for record in records]
    assert messages.count(listening) == 1 and not any("Uvicorn running" in message for message in messages)
    started = [index for index, message in enumerate(messages) if message == "Application startup complete."]
    assert len(started) == 2 and messages.index(listening) > min(started)
    for number in range(4):
        assert len([record for record in records if record.get("request_id") == f"w-{number}"]) == 1
    assert not any(record["logger"] == "uvicorn.access" for record in records)
    warning = next(record for record in records if "CORS origin https://app.example" in record["message"])
    assert warning["level"] == "WARNING" and "--allowed-origin https://app.example" in warning["message"]
    assert len([record for record in records if "state signing key" in record["message"]]) == 1


def test_an_allowed_cors_origin_gets_no_warning() -> None:
    origin = "https://app.example"
    server = start_http_server(["--cors-origin", origin, "--allowed-origin", origin])
    stderr = server.stop()
    assert "CORS origin" not in stderr and f"listening on http://127.0.0.1:{server.port}/mcp" in stderr


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_port_in_use_is_one_line_and_a_failed_start_before_anything_claims_to_have_started(workers: str) -> None:
    holder = start_http_server()
    try:
        command = [sys.executable, "-m", "horologe", "serve", "--transport", "http", "--workers", workers]
        done = subprocess.run(
            [*command, "--port", str(holder.port)], capture_output=True, timeout=60, stdin=subprocess.DEVNULL
        )
    finally:
        holder.stop()
    assert done.returncode != 0
    assert done.stderr.decode().splitlines() == [
        f"horologe: cannot listen on 127.0.0.1:{holder.port}: the address is already in use (stop the server "
        "holding it, or choose another port: --port, PORT)"
    ]


def test_port_and_host_as_a_hosting_platform_sets_them() -> None:
    port = free_port()
    env = {**os.environ, "PORT": str(port), "HOST": "127.0.0.1"}
    process = spawn([sys.executable, "-m", "horologe", "serve", "--transport", "http"], env=env)
    assert process.stderr is not None
    server = RunningServer(process, port, Output(process.stderr))
    try:
        server.wait_for_log(f"listening on http://127.0.0.1:{port}/mcp")
        check_healthy(port)
    finally:
        server.stop()


def test_a_person_at_a_terminal_is_told_what_the_stdio_server_waits_for() -> None:
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "horologe"], stdin=terminal, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    os.close(terminal)
    try:
        assert process.stderr is not None
        ready, _, _ = select.select([process.stderr], [], [], 60)
        assert ready, "nothing was said on stderr within 60 s"
        line = process.stderr.readline().decode()
        os.write(controller, b"\x04")  # Ctrl-D: the end of input a person types
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=30)
        os.close(controller)
    assert line.startswith("horologe: serving MCP over stdio, waiting for a client's JSON-RPC messages on stdin")
    assert "horologe call get_current_time" in line and line.count("\n") == 1


def test_nothing_is_said_when_a_client_starts_the_stdio_server() -> None:
    done = subprocess.run([sys.executable, "-m", "horologe"], input=b"", capture_output=True, timeout=60)
    assert done.returncode == 0 and done.stdout == b"" and done.stderr == b""
