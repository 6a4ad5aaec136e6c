"""Real server processes on loopback for end-to-end tests."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pytest


def free_port() -> int:
    """A TCP port that is free on 127.0.0.1 right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class RunningServer:
    """A horologe HTTP process and where it listens."""

    process: subprocess.Popen[bytes]
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> str:
        """Stop with SIGTERM (graceful) and return what it wrote on stderr."""
        self.process.terminate()
        try:
            _, err = self.process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, err = self.process.communicate()
        return err.decode(errors="replace")


def wait_until_healthy(port: int, process: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    """Poll /healthz until it answers 200; fail with the server's stderr if it died."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            err = process.stderr.read().decode() if process.stderr else ""
            raise RuntimeError(f"server exited with {process.returncode}: {err}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            try:
                connection.request("GET", "/healthz")
                if connection.getresponse().status == 200:
                    return
            finally:
                connection.close()
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"server on port {port} did not become healthy in {timeout}s")


def start_http_server(
    extra: Sequence[str] = (), env: dict[str, str] | None = None, port: int | None = None
) -> RunningServer:
    """Start `horologe serve --transport http` on a free loopback port and wait until it is healthy."""
    port = port or free_port()
    command = [sys.executable, "-m", "horologe", "serve", "--transport", "http", "--host", "127.0.0.1"]
    process = subprocess.Popen(
        [*command, "--port", str(port), *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )
    try:
        wait_until_healthy(port, process)
    except Exception:
        process.kill()
        raise
    return RunningServer(process, port)


@pytest.fixture(scope="module")
def http_server() -> Iterator[RunningServer]:
    server = start_http_server(env={"DEFAULT_TIMEZONE": "UTC"})
    yield server
    server.stop()
