"""The fixtures every test directory shares: settings, a server at a fixed now, and clients connected to it in process.

A pytest plugin that tests/conftest.py loads where tests run (an xdist worker, or a run without xdist), not in the
xdist controller, which runs none: it imports the SDK, the server and its HTTP edge (about 2 CPU seconds, spent before
any worker started).
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

# croniter runs `file` on the interpreter when imported (platform.architecture): once here, not inside a test.
import croniter  # type: ignore[import-untyped]  # noqa: F401
import httpx2
import pytest
from jsonschema import Draft202012Validator
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
from tests.conftest import BASE_URL, CELLS, FIXED_NOW, IN_PROCESS
from tests.stdio_pipe import PipeTransport


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


_PREFERENCES = itertools.count()


@pytest.fixture(scope="session")
def preferences_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the `settings` of each test keep their local preferences file, each in a directory of its own."""
    return tmp_path_factory.mktemp("preferences")


# A tool budget that no ordinary call reaches even on a loaded machine under coverage: tool work is stopped at its
# budget wherever it loops, so a slow moment would otherwise turn a test of a behaviour into `budget_exceeded`. Tests
# of budgets set their own.
TEST_OVERRIDES: dict[str, dict[str, Any]] = {
    "capabilities": {"toolsets": ["all"]},
    "execution": {"budget_seconds": 60},
    "http": {"request_timeout_seconds": 120},
}
_LOADED: dict[frozenset[tuple[str, str]], Settings] = {}


def loaded_settings() -> Settings:
    """`load_settings(overrides=TEST_OVERRIDES)` in this environment, loaded once per distinct environment.

    Without a config file, settings are read from the environment and the overrides only (reading them with
    pydantic-settings took about 1 ms). `PYTEST_CURRENT_TEST`, which pytest rewrites in every phase of every test and
    settings never read, is left out of the key; a keys file the environment names is read at the first load only.
    """
    environment = frozenset(item for item in os.environ.items() if item[0] != "PYTEST_CURRENT_TEST")
    loaded = _LOADED.get(environment)
    if loaded is None:
        loaded = _LOADED[environment] = load_settings(overrides=TEST_OVERRIDES)
    return loaded


@pytest.fixture
def settings(monkeypatch: pytest.MonkeyPatch, preferences_root: Path) -> Settings:
    """Default settings with every toolset on (the tests cover every tool) and a local preferences file of their own.

    The settings of this environment (`loaded_settings`; they are frozen) with the test's own preferences path. The
    file's directory is made by the server's first write, which few tests make: a `tmp_path` for each test was a
    directory made and removed around nearly every test.
    """
    for name in (
        "DEFAULT_TIMEZONE",
        "HOROLOGE_DEFAULT_TIMEZONE",
        "HOROLOGE_TIME__DEFAULT_TIMEZONE",
        "HOROLOGE_TOOLSETS",
    ):
        monkeypatch.delenv(name, raising=False)
    loaded = loaded_settings()
    path = preferences_root / str(next(_PREFERENCES)) / "preferences.json"
    return loaded.model_copy(update={"state": loaded.state.model_copy(update={"local_path": path})})


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


class SchemaChecks:
    """`Draft202012Validator.check_schema` run once per distinct schema, counting what was asked and what was run.

    The SDK's client checks each tool's output schema against the JSON Schema metaschema in every session, before it
    validates that tool's first result: 5-23 ms a schema with jsonschema, against under 2 ms for the call itself, and
    nearly every test opens a session of its own (a `make test-fast` took 126-128 CPU seconds so, 109-114 with each
    schema checked once). The check is a function of the schema alone, so a schema that passed once passes again; one
    that fails is checked (and fails) every time. Held by tests/test_fixtures.py.
    """

    def __init__(self) -> None:
        self.passed: set[str] = set()
        self.asked = 0
        self.run = 0
        self._check = Draft202012Validator.check_schema

    def check_schema(self, schema: Any) -> None:
        """As jsonschema's (without a format checker, as the SDK calls it), skipped for a schema that already passed."""
        self.asked += 1
        key = json.dumps(schema, sort_keys=True)
        if key in self.passed:
            return
        self.run += 1
        self._check(schema)
        self.passed.add(key)


@pytest.fixture(scope="session", autouse=True)
def schema_checks() -> Iterator[SchemaChecks]:
    """Each output schema checked against the metaschema once per worker instead of once per client session."""
    checks = SchemaChecks()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Draft202012Validator, "check_schema", staticmethod(checks.check_schema))
        yield checks


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
