"""Rate limits shared through a real redis-server by two horologe processes; Redis dies and returns mid-test."""

from __future__ import annotations

import contextlib
import http.client
import shutil
import subprocess
import time
from collections.abc import Iterator

import pytest

from tests.e2e.conftest import RunningServer, free_port, start_http_server
from tests.e2e.processes import PATIENCE, Output, end, spawn

REDIS = shutil.which("redis-server") or "/usr/sbin/redis-server"
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        shutil.which("redis-server") is None, reason="redis-server is not installed (.ci/run installs it)"
    ),
]
CALL = b'{"name": "get_current_time", "arguments": {"timezone": "UTC"}}'
RETRY_SECONDS = 0.5


class Redis:
    """A throwaway redis-server on a loopback port, which tests may kill and start again on the same port."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.log: Output | None = None

    def start(self) -> None:
        command = [REDIS, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.process = spawn(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        assert self.process.stdout is not None
        self.log = Output(self.process.stdout)
        try:
            self.log.wait_for("Ready to accept connections")
        except BaseException:
            self.kill()
            raise

    def kill(self) -> None:
        """SIGKILL: Redis dies the way a crashed store does (no shutdown of its own)."""
        if self.process is not None and self.log is not None:
            self.process.kill()
            end(self.process, self.log)
            self.process = self.log = None


@pytest.fixture
def redis() -> Iterator[Redis]:
    server = Redis()
    server.start()
    try:
        yield server
    finally:
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
        "HOROLOGE_RATE_LIMIT__RETRY_SECONDS": str(RETRY_SECONDS),
        # A loaded machine may take longer than the default 0.25 s to answer a count from a live Redis, which
        # this test would read as an outage; a dead Redis refuses the connection at once whatever the timeout.
        "HOROLOGE_RATE_LIMIT__STORAGE_TIMEOUT_SECONDS": "5",
        "HOROLOGE_HTTP__ACCESS_LOG": "false",
    }


def test_two_processes_share_a_limit_and_survive_redis_dying_and_returning(redis: Redis) -> None:
    with contextlib.ExitStack() as stopping:
        fail_open = start_http_server(env=limited_env(redis, "open"))
        stopping.callback(fail_open.stop)
        fail_closed = start_http_server(env=limited_env(redis, "closed"))
        stopping.callback(fail_closed.stop)

        shared = [call(server)[0] for server in (fail_open, fail_closed) * 3]
        over = [call(fail_open)[0], call(fail_closed)[0]]
        assert shared == [200] * 6 and over == [429, 429]

        redis.kill()
        down = [call(fail_open), call(fail_closed), call(fail_open), call(fail_closed)]
        assert [status for status, _ in down] == [200, 503, 200, 503]
        assert max(seconds for _, seconds in down) < 2

        redis.start()  # a fresh, empty Redis on the same port
        # The fail-closed server tries the store again on the first request after each pause (RETRY_SECONDS):
        # its recovery is driven by requests, so the test asks again at that pace until it is let through.
        deadline = time.monotonic() + PATIENCE
        while call(fail_closed)[0] != 200:
            assert time.monotonic() < deadline, "fail-closed server did not recover"
            time.sleep(RETRY_SECONDS)
        fail_closed.wait_for_log("rate-limit store reachable again")
        statuses = [call(server)[0] for server in (fail_open, fail_closed) * 4]
        assert 429 in statuses and statuses.count(200) == 5  # 1 + 5 = the 6 per hour, counted in Redis again
    open_log, closed_log = fail_open.log.text(), fail_closed.log.text()
    assert "rate-limit store unreachable" in open_log and "reachable again" in open_log
    assert open_log.count("rate-limit store unreachable") <= 2  # one warning per outage, not one per request
    assert "rate-limit store unreachable" in closed_log
