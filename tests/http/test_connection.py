"""The header and body deadlines of both uvicorn protocol classes (httptools, and h11 for installs without it),
on a real socket to a uvicorn server running in a thread."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
from starlette.types import Receive, Scope, Send

from horologe.http.connection import DeadlineConfig, H11Deadlines, HttpToolsDeadlines
from tests.e2e.conftest import free_port

HEADER = 0.5
BODY = 0.8
HEAD_BYTES = 8192


async def echo(scope: Scope, receive: Receive, send: Send) -> None:
    """Read the whole body, answer how long it was (or nothing, when the client went away)."""
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return
        size += len(message.get("body", b""))
        if not message.get("more_body", False):
            break
    body = str(size).encode()
    host = dict(scope["headers"]).get(b"host", b"")
    headers = [(b"content-length", str(len(body)).encode()), (b"x-host", host)]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})


@pytest.fixture(scope="module", params=[HttpToolsDeadlines, H11Deadlines], ids=["httptools", "h11"])
def port(request: pytest.FixtureRequest) -> Iterator[int]:
    """A uvicorn server with short deadlines and the protocol class under test, in a thread.

    One server per protocol class serves the module's tests, each on connections of its own (the deadlines are per
    connection): a server per test waited about 0.2 s for uvicorn's shutdown after each, a third of the module's time
    spent asleep.
    """
    chosen = free_port()
    config = DeadlineConfig(
        echo,
        host="127.0.0.1",
        port=chosen,
        http=request.param,
        header_timeout=HEADER,
        body_timeout=BODY,
        max_header_bytes=HEAD_BYTES,
        lifespan="off",
        log_level="warning",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield chosen
    server.should_exit = True
    thread.join(timeout=10)


def converse(port: int, *pieces: bytes, pause: float = 0.0) -> tuple[bytes, float]:
    """Send the pieces (with a pause between them), then read until the server closes; and how long it took."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        started = time.monotonic()
        for index, piece in enumerate(pieces):
            if index:
                time.sleep(pause)
            client.sendall(piece)
        received = b""
        with contextlib.suppress(TimeoutError, ConnectionResetError):
            while chunk := client.recv(65536):
                received += chunk
        return received, time.monotonic() - started


POST = b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n"


@pytest.mark.parametrize(
    ("raw", "seconds"),
    [(b"GET /ec", HEADER), (b"GET /echo HTTP/1.1\r\nHost: x\r\nX-Slow: 1", HEADER), (POST + b"12345", BODY)],
    ids=["request line", "headers", "body"],
)
def test_a_request_that_stops_coming_gets_408_at_its_deadline(port: int, raw: bytes, seconds: float) -> None:
    answer, took = converse(port, raw)
    assert answer.startswith(b"HTTP/1.1 408 Request Timeout\r\n")
    assert b"connection: close\r\n" in answer
    assert f"within {seconds:g} s".encode() in answer
    assert seconds - 0.05 <= took < seconds + 5  # never early; late only by a loaded machine


def test_a_connection_that_sends_nothing_is_closed_without_an_answer(port: int) -> None:
    answer, took = converse(port)
    assert answer == b""
    assert HEADER - 0.05 <= took < HEADER + 5


def test_the_first_request_is_due_from_the_connections_opening(port: int) -> None:
    # The first byte leaves 0.8 deadlines after the opening. The deadline runs from the opening, so the connection
    # ends about one deadline after it: with 408 when the byte arrived first, or without an answer when the deadline
    # fired first (a loaded machine delays the byte or the server's reading of it; the connection then sent nothing
    # in time). Either way it ends before a deadline restarted by that byte could: one deadline after the byte.
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        opened = time.monotonic()
        time.sleep(HEADER * 0.8)
        sent = time.monotonic() - opened
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            client.sendall(b"GET /echo HTTP/1.1\r\n")
        answer = b""
        with contextlib.suppress(TimeoutError, ConnectionResetError):
            while chunk := client.recv(65536):
                answer += chunk
        took = time.monotonic() - opened
    assert answer == b"" or answer.startswith(b"HTTP/1.1 408")
    assert HEADER - 0.05 <= took < sent + HEADER


def test_a_request_sent_in_pieces_within_the_deadlines_is_answered(port: int) -> None:
    # Each piece's departure is measured: the property is that pieces which left within the deadlines (with room to
    # spare) are answered. On a loaded machine a pause can stretch past a deadline; the server then rightly ends the
    # connection (408, or nothing), which is asserted instead of being mistaken for a failure to answer.
    closing = POST.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n")  # read the answer to its end at once
    pieces = [closing[:20], closing[20:] + b"12345", b"67890"]
    left: list[float] = []
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        opened = time.monotonic()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            for index, piece in enumerate(pieces):
                if index:
                    time.sleep(0.1)
                client.sendall(piece)
                left.append(time.monotonic() - opened)
        answer = b""
        with contextlib.suppress(TimeoutError, ConnectionResetError):
            while chunk := client.recv(65536):
                answer += chunk
    in_time = len(left) == len(pieces) and left[1] <= HEADER / 2 and left[2] - left[1] <= BODY / 2
    if in_time:
        assert b"HTTP/1.1 200 OK" in answer and answer.endswith(b"10"), (left, answer[:200])
    else:
        assert answer == b"" or answer.startswith(b"HTTP/1.1 408"), (left, answer[:200])


def test_a_keep_alive_connections_next_request_has_its_own_deadline(port: int) -> None:
    complete = b"GET /echo HTTP/1.1\r\nHost: x\r\n\r\n"
    answer, took = converse(port, complete, b"GET /echo HT", pause=0.3)
    statuses = [part[:3] for part in answer.split(b"HTTP/1.1 ")[1:]]
    assert statuses == [b"200", b"408"]
    assert 0.3 + HEADER - 0.05 <= took < 0.3 + HEADER + 5


@pytest.mark.parametrize("size", [HEAD_BYTES + 100, 1_048_576])
def test_a_head_larger_than_the_limit_gets_431(port: int, size: int) -> None:
    head = b"GET /echo HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * size
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        with contextlib.suppress(ConnectionResetError, BrokenPipeError):
            client.sendall(head)
        received = b""
        with contextlib.suppress(TimeoutError, ConnectionResetError):
            while chunk := client.recv(65536):
                received += chunk
    assert received.startswith(b"HTTP/1.1 431 Request Header Fields Too Large\r\n")
    assert f"larger than {HEAD_BYTES} bytes".encode() in received


@pytest.mark.parametrize("size", [HEAD_BYTES + 100, 131_072])
def test_a_complete_head_larger_than_the_limit_gets_431_too(port: int, size: int) -> None:
    answer, _ = converse(port, b"GET /echo HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * size + b"\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 431 Request Header Fields Too Large\r\n")
    assert b"HTTP/1.1 200" not in answer


def test_an_absolute_form_target_names_the_host_the_allow_list_judges(
    request: pytest.FixtureRequest, port: int
) -> None:
    if "h11" in request.node.callspec.id:
        pytest.skip("h11 keeps the whole target as the path, which no route serves")
    answer, _ = converse(port, b"GET http://evil.example:81/echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200") and b"x-host: evil.example:81\r\n" in answer


def test_a_head_just_under_the_limit_is_served(port: int) -> None:
    head = b"GET /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Pad: "
    answer, _ = converse(port, head + b"a" * (HEAD_BYTES - len(head) - 10) + b"\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200 OK")
