"""zdump's view of the zones Debian's zic compiles from the tzdata package's own source, once per test session (or
read back from pytest's cache when nothing it depends on changed); the comparisons run without coverage
measurement."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.oracles import comparisons, zic

ZDUMP_KEY = "horologe/oracles/zdump"


@pytest.fixture(scope="session")
def dumps(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[dict[str, list[zic.Period]], dict[str, list[zic.Period]]]:
    """zdump -i of every zone over the oracle window, for both compilations (as shipped, and every SAVE 0).

    zdump's output is kept in pytest's cache with a digest of everything it depends on (the source, the zone names,
    the window, the zic and zdump programs): a run with the same tzdata and the same programs reads zdump's own
    answers back instead of asking it again (41 s of CPU in CI, 110 s on a loaded machine); any change asks again.
    """
    text, names = zic.source(), comparisons.names()
    digest = zic.inputs_digest(text, names, *comparisons.WINDOW)
    cache = getattr(request.config, "cache", None)  # None under `-p no:cacheprovider`
    kept = cache.get(ZDUMP_KEY, {}) if cache is not None else {}
    if kept.get("digest") == digest:
        outputs = kept["outputs"]
    else:
        outputs = zic.dump_texts(text, names, *comparisons.WINDOW, tmp_path_factory.mktemp("zic"))
        if cache is not None:
            cache.set(ZDUMP_KEY, {"digest": digest, "outputs": list(outputs)})
    real, zero = (zic.parse_intervals(output) for output in outputs)
    return real, zero


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The comparisons here run horologe's core hundreds of thousands of times: under coverage's tracer (`make test`)
    that took 5 to 10 times their own time (the gap and fold readings: 300 s instead of 30), and it measures nothing
    the unit tests do not. They run in full, unmeasured (pytest-cov's `no_cover`)."""
    here = Path(__file__).parent
    for item in items:
        if item.path.parent == here:
            item.add_marker(pytest.mark.no_cover)
