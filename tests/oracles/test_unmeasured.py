"""The comparisons here run without coverage's tracer (tests/oracles/conftest.py), in xdist's workers too."""

from __future__ import annotations

import sys


def test_the_comparisons_run_with_no_tracer() -> None:
    # Under `make test` (`--cov`, xdist) this failed while the coverage each worker began at start-up resumed
    # whenever pytest-cov's paused (tests/conftest.py, pytest_configure); without `--cov` there is nothing to trace.
    assert sys.gettrace() is None
