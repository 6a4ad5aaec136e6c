"""The comparisons here run without coverage's tracer (tests/oracles/conftest.py), in xdist's workers too."""

from __future__ import annotations

import sys


def test_the_comparisons_run_with_no_tracer() -> None:
    # Under `make test` (`--cov`, xdist) this failed while the coverages a worker had running before pytest-cov's
    # own (its start-up hook's, and one pytest-cov began reading `-n`) resumed whenever `no_cover` stopped pytest-cov's
    # (tests/conftest.py, pytest_configure); without `--cov` there is nothing to trace.
    assert sys.gettrace() is None
