"""schemathesis over `/openapi.json` against a real uvicorn process (issue 17): generated requests, valid and
invalid, to every documented operation; none may get a 5xx, break the connection or hang.

Bounded in time: `HOROLOGE_FUZZ_EXAMPLES` cases (default 40) per operation and mode, derandomized so a run is
repeatable. Run with `-s` to see the counts (requests per operation and status) at the end.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import Case, GenerationMode
from schemathesis.core.result import Err, Ok
from schemathesis.openapi import from_url

from tests.e2e.conftest import start_http_server

pytestmark = [pytest.mark.e2e]

FUZZ_EXAMPLES = int(os.environ.get("HOROLOGE_FUZZ_EXAMPLES", "40"))


def test_no_generated_request_gets_a_server_error() -> None:
    # No access log: its ~400 lines would fill the stderr pipe this test reads only at the end, and a server blocked
    # on a full stderr stops answering.
    server = start_http_server(env={"DEFAULT_TIMEZONE": "UTC", "HOROLOGE_HTTP__ACCESS_LOG": "false"})
    statuses: Counter[str] = Counter()
    failures: list[str] = []
    try:
        api = from_url(f"{server.url}/openapi.json")
        results = list(api.get_all_operations())
        operations = [result.ok() for result in results if isinstance(result, Ok)]
        assert len(operations) == len(results), [result.err() for result in results if isinstance(result, Err)]
        for operation in operations:
            for mode in GenerationMode:

                @given(case=operation.as_strategy(generation_mode=mode))
                @settings(
                    max_examples=FUZZ_EXAMPLES,
                    deadline=None,
                    derandomize=True,
                    database=None,
                    suppress_health_check=list(HealthCheck),
                )
                def call(case: Case[Any]) -> None:
                    try:
                        response = case.call(timeout=30)
                    except requests.RequestException as exc:  # a reset, a hang past the timeout: a crash to us
                        failures.append(f"{case.operation.label}: {type(exc).__name__}: {case.as_curl_command()}")
                        return
                    statuses[f"{case.operation.label} {response.status_code}"] += 1
                    if response.status_code >= 500:
                        failures.append(f"{case.operation.label}: {response.status_code}: {case.as_curl_command()}")

                try:
                    call()
                except Unsatisfiable:  # nothing can be invalid about it (GET /healthz has no parameters)
                    statuses[f"{operation.label} ({mode.value}: no cases)"] += 0
    finally:
        stderr = server.stop()
    print(f"\nschemathesis: {sum(statuses.values())} requests, {len(failures)} failures")
    for key, count in sorted(statuses.items()):
        print(f"  {count:5d}  {key}")
    assert len(operations) >= 7  # every documented operation was fuzzed
    assert failures == []
    assert "Traceback" not in stderr, stderr
