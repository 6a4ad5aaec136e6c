"""The HTTP edge against hostile clients, over real sockets to a real uvicorn process (issue 17, findings 5-7, 11).

Slow clients are cut off by the header and body deadlines, connections and buffered bodies are capped, SIGTERM
answers the connections already waiting, and a wrong method gets 405 with Allow.
"""

from __future__ import annotations

import contextlib
import json
import select
import signal
import socket
import threading
import time
from collections.abc import Iterator
from typing import Final

import pytest

from tests.e2e.conftest import RunningServer, expect_continue, start_http_server
from tests.e2e.processes import PATIENCE

pytestmark = [pytest.mark.e2e]

HEADER_SECONDS = 1.0
BODY_SECONDS = 2.0


@pytest.fixture(scope="module")
def edge() -> Iterator[RunningServer]:
    """A server with short deadlines, few connections and a small budget for bodies."""
    server = start_http_server(
        env={
            "DEFAULT_TIMEZONE": "UTC",
            "HOROLOGE_HTTP__HEADER_TIMEOUT_SECONDS": str(HEADER_SECONDS),
            "HOROLOGE_HTTP__BODY_TIMEOUT_SECONDS": str(BODY_SECONDS),
            "HOROLOGE_HTTP__MAX_BUFFERED_BODY_BYTES": str(2 * 1_048_576),
            "HOROLOGE_HTTP__MAX_CONNECTIONS": "30",
        }
    )
    try:
        yield server
    finally:
        server.stop()


def exchange(port: int, raw: bytes, wait: float = 15.0) -> tuple[bytes, float]:
    """Send raw bytes on a new connection; everything the server sends until it closes, and how long that took.
    `wait` bounds each read: a server that answers a 1-2 s deadline that much later has missed it (TimeoutError)."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as client:
        started = time.monotonic()
        client.sendall(raw)
        return read_until_closed(client), time.monotonic() - started


def read_until_closed(client: socket.socket) -> bytes:
    """Read until the server closes the connection (a reset counts as closing; the socket's timeout fails)."""
    received = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := client.recv(65536):
            received += chunk
    return received


def status_and_body(raw: bytes) -> tuple[int, dict[str, object]]:
    """The status code and JSON body of a raw HTTP/1.1 answer."""
    head, _, body = raw.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), json.loads(body)


def header_of(raw: bytes, name: str) -> str | None:
    """A header's value in a raw HTTP/1.1 answer."""
    for line in raw.partition(b"\r\n\r\n")[0].split(b"\r\n")[1:]:
        key, _, value = line.decode("latin-1").partition(":")
        if key.strip().lower() == name:
            return value.strip()
    return None


def healthy(port: int) -> bool:
    """Whether /healthz answers 200 right now."""
    answer, _ = exchange(port, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    return answer.startswith(b"HTTP/1.1 200")


@pytest.mark.parametrize(
    "raw",
    [
        b"GET /heal",
        b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: dri",
    ],
    ids=["partial request line", "partial headers"],
)
def test_a_request_head_that_stops_coming_gets_408_at_the_header_deadline(edge: RunningServer, raw: bytes) -> None:
    answer, took = exchange(edge.port, raw)
    status, body = status_and_body(answer)
    assert status == 408
    assert header_of(answer, "connection") == "close"
    assert "did not arrive within 1 s" in str(body["error"])  # this deadline, not another
    assert took >= HEADER_SECONDS - 0.1  # not before it
    assert healthy(edge.port)


def test_a_head_that_drips_is_not_given_more_time_by_each_byte(edge: RunningServer) -> None:
    # A head that would take 25 s to drip in, at a slow client's pace of a byte per 0.1 s.
    drip = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Drip: " + b"a" * 200
    sent = 0
    with socket.create_connection(("127.0.0.1", edge.port), timeout=15) as client:
        for byte in drip:
            # The client's pace, not a wait for the server: the drip stops as soon as the server answers.
            answered, _, _ = select.select([client], [], [], 0.1)
            if answered:
                break
            try:
                client.sendall(bytes([byte]))
            except OSError:
                break
            sent += 1
        answer = read_until_closed(client)
    assert answer.startswith(b"HTTP/1.1 408")
    assert sent < len(drip)  # cut off mid-drip: the bytes that kept coming did not move the deadline


def test_a_body_that_stops_coming_gets_408_at_the_body_deadline(edge: RunningServer) -> None:
    head = b"POST /mcp/tools/call HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    answer, took = exchange(edge.port, head + b'Content-Length: 100\r\n\r\n{"name": "get_cur')
    status, _ = status_and_body(answer)
    assert status == 408
    assert took >= BODY_SECONDS - 0.1
    assert healthy(edge.port)


def test_a_connection_that_sends_nothing_is_closed_silently(edge: RunningServer) -> None:
    answer, took = exchange(edge.port, b"")
    assert answer == b""  # closed by the server (a read that timed out would have raised)
    assert took >= HEADER_SECONDS - 0.1


def test_a_head_that_grows_past_the_limit_gets_431_before_it_costs_memory(edge: RunningServer) -> None:
    with socket.create_connection(("127.0.0.1", edge.port), timeout=15) as client:
        client.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        with contextlib.suppress(ConnectionResetError, BrokenPipeError):
            for _ in range(100):  # 10 MB of headers, if nothing stopped them
                client.sendall((b"X-Pad: " + b"a" * 100 + b"\r\n") * 1000)
        answer = read_until_closed(client)
    status, body = status_and_body(answer)
    assert status == 431
    assert body["error"] == {"code": -32600, "message": "Request line and headers larger than 65536 bytes."}
    assert healthy(edge.port)


def test_a_complete_request_in_two_pieces_is_answered(edge: RunningServer) -> None:
    body = json.dumps({"name": "get_current_time", "arguments": {"timezone": "UTC"}}).encode()
    head = (
        "POST /mcp/tools/call HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Connection: close\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", edge.port), timeout=15) as client:
        client.sendall(head)
        time.sleep(HEADER_SECONDS / 2)  # the client's pace (a pause between the pieces), not a wait for the server
        client.sendall(body)
        answer = read_until_closed(client)
    assert answer.startswith(b"HTTP/1.1 200")


def test_bodies_beyond_the_buffer_budget_get_503_and_the_server_serves_on(edge: RunningServer) -> None:
    head = (
        "POST /mcp/tools/call HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {1_000_000}\r\n\r\n"
    ).encode()
    holders = [socket.create_connection(("127.0.0.1", edge.port), timeout=15) for _ in range(5)]
    try:
        for holder in holders:
            holder.sendall(head + b" " * 1000)
        answers = [read_until_closed(holder) for holder in holders]
    finally:
        for holder in holders:
            holder.close()
    statuses = sorted(status_and_body(answer)[0] for answer in answers)
    assert statuses == [408, 408, 503, 503, 503]  # two bodies of 1 MB fit in 2 MiB; their senders time out
    busy = next(answer for answer in answers if answer.startswith(b"HTTP/1.1 503"))
    assert header_of(busy, "retry-after") == "1"
    assert "too many requests at once" in str(status_and_body(busy)[1]["error"])
    assert healthy(edge.port)


def test_connections_beyond_the_cap_get_503(edge: RunningServer) -> None:
    # The server takes connections in the order they came: it has taken these 30 before it reads the request below.
    idle = [socket.create_connection(("127.0.0.1", edge.port), timeout=15) for _ in range(30)]
    try:
        answer, _ = exchange(edge.port, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        status, body = status_and_body(answer)
        assert status == 503
        assert header_of(answer, "retry-after") == "1"
        assert body["error"] == {
            "code": 503,
            "message": "The server is receiving too many requests at once; retry after 1 s.",
        }
        for connection in idle:
            connection.shutdown(socket.SHUT_WR)
        for connection in idle:
            assert read_until_closed(connection) == b""  # the server saw the end and let the connection go
    finally:
        for connection in idle:
            connection.close()
    assert healthy(edge.port)


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [("POST", "/mcp/capabilities", "GET, HEAD"), ("GET", "/mcp/tools/call", "POST"), ("PUT", "/healthz", "GET, HEAD")],
)
def test_a_wrong_method_gets_405_with_allow(edge: RunningServer, method: str, path: str, allowed: str) -> None:
    raw = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    answer, _ = exchange(edge.port, raw.encode())
    status, body = status_and_body(answer)
    assert status == 405
    assert header_of(answer, "allow") == allowed
    assert body["error"] == {"code": -32600, "message": f"Method {method} is not allowed on {path}; use {allowed}."}


NEVER: Final = "RRULE:FREQ=SECONDLY\nEXRULE:FREQ=SECONDLY"  # no occurrence ever: the call computes to its budget


def test_sigterm_during_a_heavy_call_answers_every_connection_already_waiting() -> None:
    server = start_http_server(extra=["--toolsets", "all", "--tool-budget", "2"], env={"DEFAULT_TIMEZONE": "UTC"})
    params = {"name": "next_occurrences", "arguments": {"rule": NEVER}}
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}).encode()
    answers: dict[int, bytes] = {}
    sent = [threading.Event() for _ in range(40)]

    def ask(index: int) -> None:
        with socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE) as client:
            client.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            sent[index].set()
            answers[index] = read_until_closed(client)

    waiting = [threading.Thread(target=ask, args=(index,)) for index in range(40)]
    try:
        with expect_continue(
            server.port, "/mcp", body, {"Accept": "application/json, text/event-stream", "Connection": "close"}
        ) as heavy:
            heavy.sendall(body)  # the call is in flight: the app asked for its body, and computes for 2 s
            for thread in waiting:
                thread.start()
            for event in sent:
                assert event.wait(PATIENCE)  # every request is out (waiting in the kernel or already read)
            server.process.send_signal(signal.SIGTERM)
            heavy_answer = read_until_closed(heavy)
        for thread in waiting:
            thread.join(PATIENCE)
        exit_code = server.process.wait(PATIENCE)
    finally:
        server.stop()
    statuses = [answers.get(i, b"").split(b"\r\n", 1)[0] for i in range(40)]
    assert statuses == [b"HTTP/1.1 200 OK"] * 40
    assert heavy_answer.startswith(b"HTTP/1.1 200 ")
    result = json.loads(heavy_answer.partition(b"\r\n\r\n")[2])["result"]
    assert result["_meta"]["dev.horologe/error"]["kind"] == "budget_exceeded"  # answered at its budget
    assert exit_code == -signal.SIGTERM  # uvicorn raises the signal again once it has shut down gracefully
