"""The HTTP edge against hostile clients, over real sockets to a real uvicorn process (issue 17, findings 5-7, 11).

Slow clients are cut off by the header and body deadlines, connections and buffered bodies are capped, SIGTERM
answers the connections already waiting, and a wrong method gets 405 with Allow.
"""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import threading
import time
from collections.abc import Iterator

import pytest

from tests.e2e.conftest import RunningServer, start_http_server

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
    yield server
    server.stop()


def exchange(port: int, raw: bytes, wait: float = 15.0) -> tuple[bytes, float]:
    """Send raw bytes on a new connection; everything the server sends until it closes, and how long that took."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as client:
        started = time.monotonic()
        client.sendall(raw)
        return read_until_closed(client), time.monotonic() - started


def read_until_closed(client: socket.socket) -> bytes:
    """Read until the server closes the connection (or the socket's timeout passes)."""
    received = b""
    with contextlib.suppress(TimeoutError, ConnectionResetError):
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
    assert "did not arrive within 1 s" in str(body["error"])
    assert HEADER_SECONDS - 0.1 <= took < HEADER_SECONDS + 3
    assert healthy(edge.port)


def test_a_head_that_drips_is_not_given_more_time_by_each_byte(edge: RunningServer) -> None:
    with socket.create_connection(("127.0.0.1", edge.port), timeout=15) as client:
        started = time.monotonic()
        for byte in b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n":
            try:
                client.sendall(bytes([byte]))
            except OSError:
                break
            time.sleep(0.1)
        answer = read_until_closed(client)
    assert answer.startswith(b"HTTP/1.1 408")
    assert time.monotonic() - started < HEADER_SECONDS + 3


def test_a_body_that_stops_coming_gets_408_at_the_body_deadline(edge: RunningServer) -> None:
    head = b"POST /mcp/tools/call HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    answer, took = exchange(edge.port, head + b'Content-Length: 100\r\n\r\n{"name": "get_cur')
    status, _ = status_and_body(answer)
    assert status == 408
    assert BODY_SECONDS - 0.1 <= took < BODY_SECONDS + 3
    assert healthy(edge.port)


def test_a_connection_that_sends_nothing_is_closed_silently(edge: RunningServer) -> None:
    answer, took = exchange(edge.port, b"")
    assert answer == b""
    assert took < HEADER_SECONDS + 3


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
        time.sleep(HEADER_SECONDS / 2)
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
    idle = [socket.create_connection(("127.0.0.1", edge.port), timeout=15) for _ in range(30)]
    try:
        time.sleep(0.2)
        answer, _ = exchange(edge.port, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        status, body = status_and_body(answer)
        assert status == 503
        assert header_of(answer, "retry-after") == "1"
        assert body["error"] == {
            "code": 503,
            "message": "The server is receiving too many requests at once; retry after 1 s.",
        }
    finally:
        for connection in idle:
            connection.close()
    time.sleep(0.3)
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


HEAVY_RULE = "FREQ=DAILY;BYMONTHDAY=29;BYMONTH=2;BYDAY=MO"  # each occurrence is decades away: seconds of CPU


def test_sigterm_during_a_heavy_call_answers_every_connection_already_waiting() -> None:
    server = start_http_server(extra=["--toolsets", "all"], env={"DEFAULT_TIMEZONE": "UTC"})
    call = json.dumps(
        {
            "name": "next_occurrences",
            "arguments": {"rule": HEAVY_RULE, "count": 60, "start_time": "2026-01-01T00:00:00Z"},
        }
    ).encode()
    heavy_request = (
        "POST /mcp/tools/call HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Connection: close\r\nContent-Length: {len(call)}\r\n\r\n"
    ).encode() + call
    answers: dict[int, bytes] = {}

    def ask(index: int, raw: bytes) -> None:
        with socket.create_connection(("127.0.0.1", server.port), timeout=60) as client:
            client.sendall(raw)
            answers[index] = read_until_closed(client)

    try:
        heavy = threading.Thread(target=ask, args=(-1, heavy_request))
        heavy.start()
        time.sleep(0.3)  # the call has begun
        waiting = [
            threading.Thread(target=ask, args=(i, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
            for i in range(40)
        ]
        for thread in waiting:
            thread.start()
        time.sleep(0.3)  # every connection is made (queued by the kernel while the loop is busy)
        server.process.send_signal(signal.SIGTERM)
        for thread in [heavy, *waiting]:
            thread.join(timeout=90)
        exit_code = server.process.wait(timeout=60)
    finally:
        if server.process.poll() is None:
            server.process.kill()
        server.stop()
    statuses = [answers.get(i, b"").split(b"\r\n", 1)[0] for i in range(40)]
    assert statuses == [b"HTTP/1.1 200 OK"] * 40
    assert answers[-1].startswith(b"HTTP/1.1 200")
    assert exit_code == -signal.SIGTERM  # uvicorn raises the signal again once it has shut down gracefully
