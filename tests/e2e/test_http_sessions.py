"""`--stateful` session limits over a real uvicorn process (issue 17, finding 6): the table's cap, the idle
timeout and the per-client rate of new sessions are settings, and each refusal is a clear answer."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator

import pytest

from tests.e2e.conftest import RunningServer, start_http_server

pytestmark = [pytest.mark.e2e]

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "flood", "version": "1"}},
}
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


def request(
    server: RunningServer, method: str, body: object = None, session: str | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One request to /mcp; its status, headers (lower-case names) and body."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    headers = {**HEADERS, **({"Mcp-Session-Id": session} if session else {})}
    connection.request(method, "/mcp", body=json.dumps(body).encode() if body is not None else None, headers=headers)
    response = connection.getresponse()
    raw = response.read()
    connection.close()
    return response.status, {name.lower(): value for name, value in response.getheaders()}, raw


def open_session(server: RunningServer) -> tuple[int, dict[str, str], bytes]:
    """Send an initialize without a session id (the request that opens a session)."""
    return request(server, "POST", INITIALIZE)


@pytest.fixture
def small_table() -> Iterator[RunningServer]:
    """Three sessions at most, idle after two seconds, any number of new sessions per client (a server per test:
    no test inherits the sessions of another)."""
    server = start_http_server(
        extra=["--stateful"],
        env={
            "HOROLOGE_HTTP__MAX_SESSIONS": "3",
            "HOROLOGE_HTTP__SESSION_IDLE_SECONDS": "2",
            "HOROLOGE_HTTP__NEW_SESSIONS_PER_CLIENT": "",
            "HOROLOGE_LOG_LEVEL": "DEBUG",  # the SDK says when it closes an idle session at DEBUG level only
        },
    )
    try:
        yield server
    finally:
        server.stop()


def test_a_full_session_table_answers_503_with_retry_after_and_frees_on_delete(small_table: RunningServer) -> None:
    sessions = []
    for _ in range(3):
        status, headers, _ = open_session(small_table)
        assert status == 200
        sessions.append(headers["mcp-session-id"])
    status, headers, body = open_session(small_table)
    assert status == 503
    assert headers["retry-after"] == "2"
    error = json.loads(body)["error"]
    assert error["code"] == 503
    assert error["message"].startswith("All 3 sessions of this server are in use; retry after 2 s")
    assert request(small_table, "DELETE", session=sessions[0])[0] == 200
    assert open_session(small_table)[0] == 200


def test_idle_sessions_are_closed_after_the_idle_timeout(small_table: RunningServer) -> None:
    opened = [open_session(small_table) for _ in range(3)]
    assert [status for status, _, _ in opened] == [200, 200, 200]
    sessions = [headers["mcp-session-id"] for _, headers, _ in opened]
    for session in sessions:  # the session manager logs each session it closes for idleness
        small_table.wait_for_log(f"Session {session} idle timeout")
    assert [open_session(small_table)[0] for _ in range(3)] == [200, 200, 200]  # the table has room again
    assert request(small_table, "POST", {"jsonrpc": "2.0", "id": 2, "method": "ping"}, sessions[0])[0] == 404


def test_one_client_cannot_open_sessions_faster_than_its_rate() -> None:
    server = start_http_server(extra=["--stateful", "--new-sessions-per-client", "2/minute"])
    try:
        statuses = [open_session(server)[0] for _ in range(2)]
        status, headers, body = open_session(server)
        session = request(server, "POST", INITIALIZE)  # still refused: the window has not ended
    finally:
        server.stop()
    assert statuses == [200, 200]
    assert status == 429 and session[0] == 429
    assert int(headers["retry-after"]) >= 1
    error = json.loads(body)["error"]
    assert error["code"] == 429
    assert error["message"].startswith("Too many new sessions from this client")


def open_as(server: RunningServer, client: str) -> int:
    """Open a session with `X-Forwarded-For: client`; the status of the answer."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connection.request("POST", "/mcp", json.dumps(INITIALIZE), {**HEADERS, "X-Forwarded-For": client})
    status = connection.getresponse().status
    connection.close()
    return status


def test_x_forwarded_for_names_no_client_unless_its_proxy_is_trusted() -> None:
    # uvicorn believes X-Forwarded-For from any loopback peer by default; horologe believes it only from
    # `rate_limit.trusted_proxies` (none here), for the rate limits and for the access log alike.
    server = start_http_server(extra=["--stateful", "--max-sessions", "20", "--new-sessions-per-client", "2/minute"])

    try:
        statuses = [open_as(server, f"198.51.100.{n}") for n in range(1, 5)]
        logged = server.wait_for_log('"path":"/mcp"')
    finally:
        server.stop()
    assert statuses == [200, 200, 429, 429]  # one client, 127.0.0.1, whatever it says it forwards
    assert '"client":"127.0.0.1"' in logged


def test_one_client_flooding_sessions_leaves_room_for_the_others() -> None:
    server = start_http_server(
        extra=["--stateful", "--max-sessions", "20", "--new-sessions-per-client", "5/minute"],
        env={"HOROLOGE_RATE_LIMIT__TRUSTED_PROXIES": '["127.0.0.1"]'},  # X-Forwarded-For names the client
    )

    try:
        flood = [open_as(server, "203.0.113.7") for _ in range(60)]
        others = [open_as(server, f"198.51.100.{n}") for n in range(1, 4)]
    finally:
        server.stop()
    assert flood.count(200) == 5 and flood.count(429) == 55
    assert others == [200, 200, 200]


def open_stream(
    server: RunningServer, session: str, last_event_id: str | None = None
) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    """A GET stream of `session`, once its head and priming event have arrived (the connection stays open)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    headers = {"Accept": "text/event-stream", "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    connection.request("GET", "/mcp", headers=headers)
    response = connection.getresponse()
    assert response.readline() == b"retry: 3000\n" and response.readline() == b"\n"  # 2025-06-18: a bare retry
    return connection, response


def test_a_second_get_and_a_resuming_get_on_a_session_are_streams_never_409() -> None:
    server = start_http_server(extra=["--stateful"])
    try:
        status, headers, _ = open_session(server)
        session = headers["mcp-session-id"]
        streams = [open_stream(server, session), open_stream(server, session), open_stream(server, session, "17")]
        heads = [(s.status, s.getheader("content-type"), s.getheader("mcp-session-id")) for _, s in streams]
        assert request(server, "POST", {"jsonrpc": "2.0", "id": 2, "method": "ping"}, session)[0] == 200
        for connection, stream in streams:
            stream.close()
            connection.close()
    finally:
        server.stop()
    assert status == 200
    assert heads == [(200, "text/event-stream", session)] * 3
