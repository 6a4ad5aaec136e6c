"""A line fuzzer for the stdio edge: JSON-RPC shapes and raw bytes, served in process and by a real process.

Whatever a line holds (lone surrogates in any string, huge or fractional ids, unknown methods and tools, deep or
odd params, bytes that are not UTF-8), the edge answers it or, for a notification or a response, stays silent;
every answer is one JSON line; nothing is an internal error; the server keeps serving (a request sent after the
fuzz is answered) and leaves only when its input ends. `python -m tests.test_stdio_fuzz` prints the counts.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
from collections import Counter
from typing import Any, Final

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from horologe.clock import FixedClock
from horologe.config import load_settings
from horologe.protocol.server import build_server
from horologe.stdio import Wire, serve_streams
from horologe.tools.registry import selected_tools
from horologe.wire import INTERNAL_ERROR
from tests.conftest import FIXED_NOW

TOOL_NAMES: Final = [spec.name for spec in selected_tools(["all"], "stdio")]
METHODS: Final = [
    "initialize",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "ping",
    "server/discover",
    "notifications/cancelled",
    "notifications/initialized",
]
SENTINEL: Final = {"jsonrpc": "2.0", "id": "sentinel", "method": "tools/call"}
SENTINEL_PARAMS: Final = {"name": "get_current_time", "arguments": {"timezone": "UTC"}}

surrogates = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
texts = st.one_of(
    st.text(max_size=20),
    st.builds(lambda a, s, b: a + s + b, st.text(max_size=5), surrogates, st.text(max_size=5)),
    st.sampled_from([*TOOL_NAMES, "time://now", "time://zone/Europe/Vienna", "time_query_assistant"]),
)
numbers = st.one_of(
    st.integers(),
    st.integers(min_value=10**40, max_value=10**60),
    st.floats(allow_nan=False, allow_infinity=False),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, texts)
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4), max_leaves=12
)
ids = st.one_of(st.integers(), numbers, texts, st.none(), st.booleans(), st.just({}), st.just([1]))
params = st.one_of(
    values,
    st.fixed_dictionaries(
        {"name": texts, "arguments": st.dictionaries(texts, values, max_size=4)},
        optional={"_meta": st.dictionaries(st.sampled_from(["progressToken", "x", "traceparent"]), values)},
    ),
    st.fixed_dictionaries({"uri": texts}),
    st.fixed_dictionaries({"name": texts, "arguments": st.dictionaries(texts, texts, max_size=3)}),
)
messages = st.fixed_dictionaries(
    {"jsonrpc": st.sampled_from(["2.0", "2.0", "1.0"])},
    optional={"id": ids, "method": st.one_of(st.sampled_from(METHODS), texts), "params": params, "result": values},
)


def json_line(message: Any) -> bytes:
    """One line of JSON (lone surrogates become \\u escapes, as a hostile client would send them)."""
    return json.dumps(message).encode() + b"\n"


lines = st.one_of(
    messages.map(json_line),
    st.binary(max_size=60).map(lambda raw: raw.replace(b"\n", b" ") + b"\n"),
    st.integers(min_value=4301, max_value=6000).map(
        lambda digits: b'{"jsonrpc":"2.0","id":' + b"7" * digits + b',"method":"ping"}\n'
    ),
)


def serve_lines(payload: bytes) -> list[dict[str, Any]]:
    """Serve `payload` (then the sentinel request) through the stdio edge in process; every answer line, parsed."""
    server = build_server(SETTINGS, FixedClock(FIXED_NOW))
    with tempfile.TemporaryFile() as requests, tempfile.TemporaryFile() as answers:
        requests.write(payload + json_line({**SENTINEL, "params": SENTINEL_PARAMS}))
        requests.seek(0)

        async def serve() -> None:
            with anyio.fail_after(30):  # a hang fails the example
                await serve_streams(server, requests.fileno(), Wire(answers.fileno()), drain_timeout=10)

        anyio.run(serve)
        answers.seek(0)
        return [json.loads(line) for line in answers.read().splitlines()]


SETTINGS: Final = load_settings(overrides={"capabilities": {"toolsets": ["all"]}, "state": {"local_fallback": False}})


def check(answers: list[dict[str, Any]]) -> None:
    """The invariants of any run: JSON-RPC answers only, no internal error, and the sentinel answered last-in."""
    for answer in answers:
        assert answer["jsonrpc"] == "2.0" and ("result" in answer) != ("error" in answer), answer
        assert answer.get("error", {}).get("code") != INTERNAL_ERROR, answer
    assert any(answer.get("id") == "sentinel" for answer in answers), answers[-3:]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(lines, min_size=1, max_size=6))
def test_every_line_is_answered_or_ignored_and_the_edge_keeps_serving(fuzzed: list[bytes]) -> None:
    answers = serve_lines(b"".join(fuzzed))
    check(answers)
    for line in fuzzed:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        request_id = message.get("id") if isinstance(message, dict) else None
        if isinstance(message, dict) and "method" in message and type(request_id) in (int, str):
            if isinstance(request_id, str) and any(0xD800 <= ord(ch) <= 0xDFFF for ch in request_id):
                continue  # answered with id null: it cannot be echoed
            assert any(answer.get("id") == request_id for answer in answers), (request_id, answers)


def random_lines(seed: int, count: int) -> list[bytes]:
    """Seeded hostile lines for the real process (hypothesis draws in process; a process run wants one batch)."""
    rng = random.Random(seed)
    made: list[bytes] = []
    for index in range(count):
        choice = rng.randrange(6)
        surrogate = chr(rng.randrange(0xD800, 0xE000))
        if choice == 0:
            made.append(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))).replace(b"\n", b" ") + b"\n")
        elif choice == 1:
            made.append(b'{"jsonrpc":"2.0","id":' + b"9" * rng.randrange(4301, 6000) + b',"method":"ping"}\n')
        elif choice == 2:
            made.append(
                json_line({"jsonrpc": "2.0", "id": rng.choice([1.5, None, True, {}, [], surrogate]), "method": "ping"})
            )
        elif choice == 3:
            where = rng.choice(["name", "uri", "method", "token", "argument"])
            message: dict[str, Any] = {"jsonrpc": "2.0", "id": index, "method": "tools/call"}
            message["params"] = {"name": rng.choice(TOOL_NAMES), "arguments": {"timezone": "UTC"}}
            if where == "name":
                message["params"]["name"] = "get" + surrogate
            elif where == "uri":
                message = {**message, "method": "resources/read", "params": {"uri": "time://zone/" + surrogate}}
            elif where == "method":
                message["method"] = "tools/" + surrogate
            elif where == "token":
                message["params"]["_meta"] = {"progressToken": surrogate}
            else:
                message = {**message, "method": "prompts/get", "params": {"name": "x", "arguments": {"a": surrogate}}}
            made.append(json_line(message))
        elif choice == 4:
            arguments = {"timezone": rng.choice(["UTC", "Pacific/Kiritimati", "x" * 1000]), "junk": "y"}
            made.append(
                json_line(
                    {
                        "jsonrpc": "2.0",
                        "id": index,
                        "method": "tools/call",
                        "params": {"name": rng.choice(TOOL_NAMES), "arguments": arguments},
                    }
                )
            )
        else:
            made.append(json_line({"jsonrpc": "2.0", "id": index, "method": rng.choice(METHODS), "params": {}}))
    return made


def run_process(fuzzed: list[bytes]) -> tuple[list[dict[str, Any]], int]:
    """Pipe the lines and the sentinel to `horologe serve`; its answers and exit code."""
    payload = b"".join(fuzzed) + json_line({**SENTINEL, "params": SENTINEL_PARAMS})
    completed = subprocess.run(
        [sys.executable, "-m", "horologe", "serve", "--toolsets", "all"],
        input=payload,
        capture_output=True,
        timeout=120,
        check=False,
        env={**os.environ, "HOROLOGE_STATE__LOCAL_FALLBACK": "false"},
    )
    return [json.loads(line) for line in completed.stdout.splitlines()], completed.returncode


@pytest.mark.e2e
def test_a_real_process_answers_a_seeded_hostile_batch_and_exits_cleanly_at_end_of_input() -> None:
    fuzzed = random_lines(17, 300)
    answers, code = run_process(fuzzed)
    assert code == 0
    check(answers)
    expected = sum(1 for line in fuzzed if b'"method"' in line or not line.startswith(b"{"))
    assert len(answers) >= expected - sum(1 for line in fuzzed if b"notifications/" in line)


def main() -> None:
    """Print the real-process run's counts."""
    fuzzed = random_lines(17, 1000)
    answers, code = run_process(fuzzed)
    codes = Counter(answer.get("error", {}).get("code", "result") for answer in answers)
    internal = codes.get(INTERNAL_ERROR, 0)
    print(f"lines={len(fuzzed)} answers={len(answers)} exit={code} internal_errors={internal} by_code={dict(codes)}")


if __name__ == "__main__":
    main()
