"""Shared fixtures: a fixed clock, servers built on it, and clients connected to them in process.

Behaviour is tested once, where it is decided: `client` is the SDK's in-memory transport in the newest era, for
everything a transport cannot change (what a tool answers, how a context or a language is applied). The six
transport cells (the in-memory SDK transport, horologe's stdio edge over a pipe pair and horologe's whole ASGI app,
each in the `initialize` era and in the 2026-07-28 era) run only what can differ by transport or era: a test that
takes `wire_client` names its requirement with `@pytest.mark.wire(...)`, one of `WIRE_REQUIREMENTS`, the way the
SDK's interaction suite chooses its cells per requirement. Nothing listens on a socket and nothing starts a process.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import zoneinfo
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

# croniter runs `file` on the interpreter when imported (platform.architecture): once here, not inside a test.
import croniter  # type: ignore[import-untyped]  # noqa: F401
import httpx2
import pytest
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.server.lowlevel.server import Server

from horologe.clock import FixedClock
from horologe.config import Settings, load_settings
from horologe.core.holiday_names import country_code
from horologe.core.relative_grammar import compile_tables
from horologe.heap import settle_after_startup
from horologe.holiday_index import holiday_index
from horologe.http.app import create_app, http_server
from horologe.places import gazetteer
from tests.asgi import running
from tests.stdio_pipe import PipeTransport

# Zones come from the tzdata package only, as in the server process (see horologe.cli.main).
zoneinfo.reset_tzpath(to=())
# The host's zone is UTC for the tests and every process they start, whatever the machine's (tests of the host
# zone set TZ themselves): over stdio the default zone is the host's.
os.environ["TZ"] = "UTC"
# A stdio server keeps the preferences of a client without state in the user's state directory: never the real
# one during tests.
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="horologe-tests-state-")

# A Sunday, in standard time in Europe and North America.
FIXED_NOW = datetime(2026, 11, 22, 3, 11, 30, 123456, tzinfo=UTC)
BASE_URL = "http://127.0.0.1:8080"
TRANSPORTS = ["memory", "stdio", "asgi"]
ERAS = ["legacy", "2026-07-28"]
CELLS = [f"{transport}/{era}" for transport in TRANSPORTS for era in ERAS]
IN_PROCESS = "memory/2026-07-28"
# What can differ by transport or era, and so runs in every cell (`@pytest.mark.wire(requirement)`).
WIRE_REQUIREMENTS = {
    "framing": "how each edge carries requests, results and their content",
    "meta": "request and result `_meta` carried through each edge, in each era's envelope",
    "errors": "protocol errors and tool errors as each edge sends them",
    "language": "the language preference and `contentLanguage` through each edge (HTTP mirrors them in headers)",
    "state": "client-side state and its report through each edge",
    "progress": "notifications sent during a call",
    "cancellation": "a call the client abandons",
}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Settings:
    """Default settings with every toolset on (the tests cover every tool) and a fresh local preferences file."""
    for name in (
        "DEFAULT_TIMEZONE",
        "HOROLOGE_DEFAULT_TIMEZONE",
        "HOROLOGE_TIME__DEFAULT_TIMEZONE",
        "HOROLOGE_TOOLSETS",
    ):
        monkeypatch.delenv(name, raising=False)
    # A tool budget that no ordinary call reaches even on a loaded machine under coverage: tool work is stopped at
    # its budget wherever it loops, so a slow moment would otherwise turn a test of a behaviour into
    # `budget_exceeded`. Tests of budgets set their own.
    overrides: dict[str, dict[str, Any]] = {
        "capabilities": {"toolsets": ["all"]},
        "state": {"local_path": str(tmp_path / "preferences.json")},
        "execution": {"budget_seconds": 60},
        "http": {"request_timeout_seconds": 120},
    }
    return load_settings(overrides=overrides)


@pytest.fixture(scope="session", autouse=True)
def warmed() -> None:
    """Compile every language's grammar and load the holiday data once per worker, before the first test; then
    settle the heap as a server does after start-up.

    The first phrase of a language compiles its tables: a fraction of a CPU second, but many wall seconds on a heavily
    loaded machine under coverage, spent from that call's tool budget, so the first unlucky test saw
    `budget_exceeded` instead of the behaviour it checks. What the first use costs is measured by benchmarks
    (bench/at_rest.py), not asserted by tests; a server compiles a language's tables on its first phrase.
    """
    compile_tables()
    holiday_index()
    country_code("Deutschland", gazetteer())
    # As a serving process does once start-up is over: the modules, tables and test items loaded so far (a few
    # hundred thousand long-lived objects) leave the cyclic collector's view, which walked them at each full
    # collection (the collections of a `make test-fast` took 5.6 CPU seconds before, 4.4 after).
    settle_after_startup()


def horologe_server(settings: Settings) -> Server[Any]:
    """horologe's server at the fixed now, as the HTTP edge builds it, so one server serves every cell."""
    return http_server(settings, FixedClock(FIXED_NOW))


@pytest.fixture
def server(settings: Settings) -> Server[Any]:
    return horologe_server(settings)


async def connect(server: Server[Any], settings: Settings, cell: str, stack: AsyncExitStack) -> Client:
    """A client connected to `server` over one transport cell ('memory/legacy', 'asgi/2026-07-28', ...)."""
    transport, era = cell.split("/")
    if transport == "memory":
        return await stack.enter_async_context(Client(server, mode=era, cache=None))
    if transport == "stdio":
        return await stack.enter_async_context(Client(PipeTransport(server), mode=era, cache=None))
    app = create_app(settings, server=server)
    await stack.enter_async_context(running(app))
    http = await stack.enter_async_context(
        httpx2.AsyncClient(transport=httpx2.ASGITransport(app), base_url=BASE_URL, headers={"host": "127.0.0.1"})
    )
    inner = streamable_http_client(f"{BASE_URL}/mcp", http_client=http)
    return await stack.enter_async_context(Client(inner, mode=era, cache=None))


def pytest_configure(config: pytest.Config) -> None:
    """In an xdist worker of a `--cov` run, the coverage measurements already running are stopped before pytest-cov
    starts the worker's own (at session start).

    Two were running: the one the interpreter's start-up hook began (the controller's coverage measures its child
    processes, `patch = ["subprocess"]`, and xdist's workers are its children), and one pytest-cov began while reading
    the worker's command line (`-n`, so it started a controller's). Each coverage started pauses the one before and
    resumes it when it stops, so `no_cover`, which stops pytest-cov's worker coverage for a test, resumed the one
    below: the oracle comparisons ran traced after all (the gap and fold readings 22 s instead of 9). The start-up
    one's data (the modules imported so far) is still saved at exit and combined; pytest-cov's worker coverage sets
    the variable again for the processes tests start. Held by tests/oracles/test_unmeasured.py.
    """
    if hasattr(config, "workerinput") and config.pluginmanager.hasplugin("_cov"):
        import coverage  # only a `--cov` run's workers pay for the import

        while (running := coverage.Coverage.current()) is not None:
            running.stop()


PROCESS_SUITES = ("tests/e2e/", "tests/interop/")


SPAWNERS: Final = (
    (subprocess.Popen, "_execute_child"),
    *((os, name) for name in ("fork", "forkpty", "posix_spawn", "posix_spawnp")),
)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> object:
    """A test that is not marked `e2e` runs in this process, its fixtures of every scope included: starting a child
    process fails it, so `make test-fast` (`-m "not e2e"`) never starts one."""
    if item.get_closest_marker("e2e") is not None:
        return (yield)

    def refuse(*args: object, **kwargs: object) -> None:
        pytest.fail(f"{item.nodeid} starts a process: mark it @pytest.mark.e2e, or keep it in process")

    saved = [(owner, name, getattr(owner, name)) for owner, name in SPAWNERS]
    for owner, name, _ in saved:
        setattr(owner, name, refuse)
    try:
        return (yield)
    finally:
        for owner, name, original in saved:
            setattr(owner, name, original)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test of the process suites is marked `e2e`; a test runs in the transport cells exactly when it names
    the requirement that needs them."""
    for item in items:
        if item.nodeid.startswith(PROCESS_SUITES) and item.get_closest_marker("e2e") is None:
            raise pytest.UsageError(f"{item.nodeid}: every test in {' and '.join(PROCESS_SUITES)} is marked e2e")
        cells = "wire_client" in getattr(item, "fixturenames", ()) or "cell" in getattr(
            getattr(item, "callspec", None), "params", {}
        )
        marker = item.get_closest_marker("wire")
        if cells and (marker is None or not marker.args or marker.args[0] not in WIRE_REQUIREMENTS):
            raise pytest.UsageError(
                f"{item.nodeid}: name what differs by transport: @pytest.mark.wire({sorted(WIRE_REQUIREMENTS)})"
            )
        if marker is not None and not cells:
            raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.wire on a test that runs in one cell only")


@pytest.fixture
async def client(server: Server[Any], settings: Settings) -> AsyncIterator[Client]:
    """The SDK's in-memory client in the newest era: for behaviour no transport or era can change."""
    async with AsyncExitStack() as stack:
        yield await connect(server, settings, IN_PROCESS, stack)


@pytest.fixture(params=CELLS)
async def wire_client(request: pytest.FixtureRequest, server: Server[Any], settings: Settings) -> AsyncIterator[Client]:
    """A client in each of the six transport cells, for a test marked with the requirement that needs them."""
    async with AsyncExitStack() as stack:
        yield await connect(server, settings, request.param, stack)
