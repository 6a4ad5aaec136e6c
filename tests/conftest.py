"""What every test shares: the fixed now, the transport cells, and the rules a test is held to; the fixtures that
build servers on that clock and connect clients to them in process are in tests/fixtures.py.

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
from datetime import UTC, datetime
from typing import Final

import pytest

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


def pytest_configure(config: pytest.Config) -> None:
    """Where tests run (an xdist worker, or a run without xdist) the shared fixtures are loaded (tests/fixtures.py):
    the xdist controller runs no test, so it starts its workers without importing the SDK and the server.

    Then, in an xdist worker of a `--cov` run, the coverage measurements already running are stopped before pytest-cov
    starts the worker's own (at session start). Two were running: the one the interpreter's start-up hook began (the
    controller's coverage measures its child processes, `patch = ["subprocess"]`, and xdist's workers are its
    children), and one pytest-cov began while reading the worker's command line (`-n`, so it started a controller's).
    Each coverage started pauses the one before and resumes it when it stops, so `no_cover`, which stops pytest-cov's
    worker coverage for a test, resumed the one below: the oracle comparisons ran traced after all (the gap and fold
    readings 22 s instead of 9). The start-up one has measured the modules the fixtures imported, and its data is still
    saved at exit and combined; pytest-cov's worker coverage sets the variable again for the processes tests start.
    Held by tests/oracles/test_unmeasured.py.
    """
    worker = hasattr(config, "workerinput")
    if worker or config.getoption("dist", "no") == "no":
        config.pluginmanager.import_plugin("tests.fixtures")
    if worker and config.pluginmanager.hasplugin("_cov"):
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
