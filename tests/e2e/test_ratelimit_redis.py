"""Rate limits shared through a real redis-server by two horologe processes; Redis dies and returns mid-test."""

from __future__ import annotations

import http.client
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest

from tests.e2e.conftest import RunningServer, free_port, start_http_server

REDIS = shutil.which("redis-server") or "/usr/sbin/redis-server"
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        shutil.which("redis-server") is None, reason="redis-server is not installed (.ci/run installs it)"
    ),
]
CALL = b'{"name": "get_current_time", "arguments": {"timezone": "UTC"}}'


class Redis:
    """A throwaway redis-server on a loopback port, which tests may kill and start again on the same port."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [REDIS, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def redis() -> Iterator[Redis]:
    server = Redis()
    server.start()
    yield server
    server.kill()


def call(server: RunningServer) -> tuple[int, float]:
    """POST /mcp/tools/call; the status and how long it took (every wait bounded by a 5 s socket timeout)."""
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    try:
        connection.request("POST", "/mcp/tools/call", CALL, {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        return response.status, time.monotonic() - started
    finally:
        connection.close()


def limited_env(redis: Redis, fail_mode: str) -> dict[str, str]:
    return {
        "HOROLOGE_RATE_LIMIT__ENABLED": "true",
        "HOROLOGE_RATE_LIMIT__STORAGE_URI": f"redis://127.0.0.1:{redis.port}/0",
        "HOROLOGE_RATE_LIMIT__DEFAULT": "6/hour",
        "HOROLOGE_RATE_LIMIT__FAIL_MODE": fail_mode,
        "HOROLOGE_RATE_LIMIT__RETRY_SECONDS": "0.5",
        "HOROLOGE_HTTP__ACCESS_LOG": "false",
    }


def test_two_processes_share_a_limit_and_survive_redis_dying_and_returning(redis: Redis) -> None:
    fail_open = start_http_server(env=limited_env(redis, "open"))
    fail_closed = start_http_server(env=limited_env(redis, "closed"))
    try:
        shared = [call(server)[0] for server in (fail_open, fail_closed) * 3]
        over = [call(fail_open)[0], call(fail_closed)[0]]
        assert shared == [200] * 6 and over == [429, 429]

        redis.kill()
        down = [call(fail_open), call(fail_closed), call(fail_open), call(fail_closed)]
        assert [status for status, _ in down] == [200, 503, 200, 503]
        assert max(seconds for _, seconds in down) < 2

        redis.start()  # a fresh, empty Redis on the same port
        deadline = time.monotonic() + 10
        while call(fail_closed)[0] != 200:
            assert time.monotonic() < deadline, "fail-closed server did not recover"
            time.sleep(0.1)
        statuses = [call(server)[0] for server in (fail_open, fail_closed) * 4]
        assert 429 in statuses and statuses.count(200) == 5  # 1 + 5 = the 6 per hour, counted in Redis again
    finally:
        open_log, closed_log = fail_open.stop(), fail_closed.stop()
    assert "rate-limit store unreachable" in open_log and "reachable again" in open_log
    assert open_log.count("rate-limit store unreachable") <= 2  # one warning per outage, not one per request
    assert "rate-limit store unreachable" in closed_log
