"""The zones compiled by Debian's zic from the tzdata package's own source, once per test session; the comparisons
run without coverage measurement."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.oracles import comparisons, zic


@pytest.fixture(scope="session")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(as shipped, every SAVE 0), compiled into a temporary directory: never the system's zoneinfo."""
    root = tmp_path_factory.mktemp("zic")
    text = zic.source()
    return zic.compile_source(text, root / "real"), zic.compile_source(zic.zero_saves(text), root / "zero")


@pytest.fixture(scope="session")
def dumps(compiled: tuple[Path, Path]) -> tuple[dict[str, list[zic.Period]], dict[str, list[zic.Period]]]:
    """zdump -i of every zone over the oracle window, for both compilations."""
    return zic.dump_both(compiled, comparisons.names(), *comparisons.WINDOW)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The comparisons here run horologe's core hundreds of thousands of times: under coverage's tracer (`make test`)
    that took 5 to 10 times their own time (the gap and fold readings: 300 s instead of 30), and it measures nothing
    the unit tests do not. They run in full, unmeasured (pytest-cov's `no_cover`)."""
    here = Path(__file__).parent
    for item in items:
        if item.path.parent == here:
            item.add_marker(pytest.mark.no_cover)
