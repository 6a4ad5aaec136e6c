"""Real server processes on loopback for end-to-end tests."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import pytest

from tests.e2e.processes import PATIENCE, Output, end, spawn


def users_shell() -> dict[str, str]:
    """This process's environment without what `make test` or `uv run` pass down (a person's shell has neither)."""
    skip = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "VIRTUAL_ENV", "UV_PROJECT_ENVIRONMENT")
    return {name: value for name, value in os.environ.items() if name not in skip}


def free_port() -> int:
    """A TCP port that is free on 127.0.0.1 right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class RunningServer:
    """A horologe HTTP process (the leader of its own process group), where it listens, and its log (stderr)."""

    process: subprocess.Popen[bytes]
    port: int
    log: Output

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_for_log(self, text: str, start: int = 0) -> str:
        """The first log line (from line `start` on) containing `text`, as soon as the server writes it."""
        return self.log.wait_for(text, start=start)

    def stop(self) -> str:
        """Stop with SIGTERM (graceful; SIGKILL to its process group if it overstays) and return its whole stderr.
        Safe to call again, and on a server that has exited already."""
        end(self.process, self.log)
        return self.log.text()


def check_healthy(port: int) -> None:
    """GET /healthz once and require 200. A connection the kernel queued waits for the server to take it."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE)
    try:
        connection.request("GET", "/healthz")
        status = connection.getresponse().status
    finally:
        connection.close()
    assert status == 200, f"/healthz on port {port} answered {status}"


def wait_until_healthy(port: int, process: subprocess.Popen[bytes], timeout: float = PATIENCE) -> None:
    """Poll /healthz until it answers 200, for a process whose log is not read (a server that says nothing when it
    is ready); fail with its stderr as soon as it dies. Between attempts it waits on the process, not on a clock."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=max(1.0, deadline - time.monotonic()))
            try:
                connection.request("GET", "/healthz")
                if connection.getresponse().status == 200:
                    return
            finally:
                connection.close()
        except OSError:  # refused: not listening yet
            pass
        try:
            process.wait(0.05)  # returns at once if the process dies meanwhile
        except subprocess.TimeoutExpired:
            continue
        err = process.stderr.read().decode(errors="replace") if process.stderr else ""
        raise RuntimeError(f"server exited with {process.returncode}: {err}")
    raise RuntimeError(f"server on port {port} did not become healthy in {timeout}s")


def wait_until_listening(port: int, process: subprocess.Popen[bytes], timeout: float = PATIENCE) -> None:
    """Poll the port until a connection is accepted; fail as soon as the process dies. With --workers the
    supervisor binds the socket (and says so) and a worker starts listening on it later, saying nothing."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=PATIENCE).close()
            return
        except ConnectionRefusedError:
            if time.monotonic() > deadline:
                raise
        try:
            process.wait(0.05)  # returns at once if the process dies meanwhile
        except subprocess.TimeoutExpired:
            continue
        raise RuntimeError(f"server exited with {process.returncode} before listening on port {port}")


def start_http_server(
    extra: Sequence[str] = (), env: dict[str, str] | None = None, port: int | None = None
) -> RunningServer:
    """Start `horologe serve --transport http` on loopback (on `port`, or on a free port the server picks itself:
    `--port 0`, read back from its "listening on" line, so no other process can take it meanwhile); return once it
    has said that it listens, accepts connections and answered /healthz. A server that fails to start is ended,
    its log in the error."""
    command = [sys.executable, "-m", "horologe", "serve", "--transport", "http", "--host", "127.0.0.1"]
    process = spawn([*command, "--port", str(port or 0), *extra], env={**os.environ, **(env or {})})
    assert process.stderr is not None
    server = RunningServer(process, port or 0, Output(process.stderr))
    try:
        line = server.wait_for_log("listening on http://127.0.0.1:")  # once bound (or the output ends)
        server.port = int(line.split("listening on http://127.0.0.1:", 1)[1].split("/", 1)[0])
        wait_until_listening(server.port, process)  # at once for one process; with --workers, once a worker listens
        check_healthy(server.port)
    except BaseException as error:
        log = server.stop()
        raise RuntimeError(f"the server did not start: {error}\n{log[-4000:]}") from error
    return server


def expect_continue(port: int, path: str, body: bytes, headers: dict[str, str] | None = None) -> socket.socket:
    """Send a POST's head with `Expect: 100-continue` on a new connection and return it once the server has
    answered 100 Continue: uvicorn does that when the app first asks for the body, so the request is in the app
    and in flight from then on. The caller sends the body (in as many pieces as it likes) and reads the answer."""
    fields = {"Host": "127.0.0.1", "Content-Type": "application/json", **(headers or {})}
    fields |= {"Content-Length": str(len(body)), "Expect": "100-continue"}
    head = "POST " + path + " HTTP/1.1\r\n" + "".join(f"{name}: {value}\r\n" for name, value in fields.items())
    client = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
    try:
        client.sendall(head.encode() + b"\r\n")
        interim = b""
        while not interim.endswith(b"\r\n\r\n"):  # byte by byte: nothing after the interim answer is taken
            byte = client.recv(1)
            assert byte, f"the server closed the connection after {interim!r}"
            interim += byte
        assert interim.startswith(b"HTTP/1.1 100 "), interim
    except BaseException:
        client.close()
        raise
    return client


def read_until_closed(client: socket.socket) -> bytes:
    """Everything the server sends on a connection until it closes it."""
    received = b""
    while chunk := client.recv(65536):
        received += chunk
    return received


def split_answer(raw: bytes) -> tuple[int, bytes]:
    """The status code and body of a raw HTTP/1.1 answer (not chunked)."""
    head, _, body = raw.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


class StreamedCall:
    """A `tools/call` on /mcp (2025-11-25, with a progress token) on its own connection, read event by event as the
    server streams them (SSE): its first progress event says the call has begun, so a test waits for that instead of
    sleeping. Use it in a `with` block (the connection is closed at its end)."""

    def __init__(self, port: int, params: dict[str, Any]) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE)
        call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {**params, "_meta": {"progressToken": 1}}}
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2025-11-25",
        }
        self.connection.request("POST", "/mcp", json.dumps(call), headers)
        self.response = self.connection.getresponse()
        assert self.response.status == 200 and self.response.getheader("content-type", "").startswith(
            "text/event-stream"
        ), (self.response.status, self.response.read())

    def __enter__(self) -> StreamedCall:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.connection.close()

    @property
    def socket(self) -> socket.socket:
        """The connection's socket: readable once the server writes more of the stream."""
        assert self.connection.sock is not None
        return self.connection.sock

    def next_message(self) -> dict[str, Any]:
        """The next JSON-RPC message of the stream, as soon as the server sends it."""
        while line := self.response.readline():
            if line.startswith(b"data:") and line[5:].strip():
                message: dict[str, Any] = json.loads(line[5:])
                return message
        raise AssertionError("the stream ended before another message")

    def wait_until_begun(self) -> None:
        """Wait for the progress event the server sends as it starts the tool."""
        assert self.next_message()["method"] == "notifications/progress"

    def result(self) -> dict[str, Any]:
        """The call's result (after any further progress events)."""
        while "id" not in (message := self.next_message()):
            pass
        result: dict[str, Any] = message["result"]
        return result


@pytest.fixture(scope="module")
def http_server() -> Iterator[RunningServer]:
    # Every toolset: these tests are about the transport, and some need a tool that reports progress.
    server = start_http_server(["--toolsets", "all"], env={"DEFAULT_TIMEZONE": "UTC"})
    try:
        yield server
    finally:
        server.stop()
