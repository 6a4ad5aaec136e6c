"""A 2025-03-26 batch is one request: one timeout, one tool budget and one answer size for all its messages."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from horologe.config import Settings
from horologe.http import batch
from tests.http.conftest import BASE_HEADERS, RawAnswer, raw_poster

pytestmark = pytest.mark.anyio
HEADERS = [*BASE_HEADERS, (b"mcp-protocol-version", b"2025-03-26")]


def calls(count: int, name: str = "business_days", **arguments: Any) -> list[dict[str, Any]]:
    """`count` tools/call requests, ids 1..count."""
    params = {"name": name, "arguments": arguments}
    return [{"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": params} for n in range(1, count + 1)]


LONG_RANGES = {"country": "US", "start_date": "1800-01-01", "end_date": "1999-12-31"}


def tuned(settings: Settings, budget: float = 5.0, timeout: float = 30.0) -> Settings:
    execution = settings.execution.model_copy(update={"budget_seconds": budget})
    http = settings.http.model_copy(update={"request_timeout_seconds": timeout})
    return settings.model_copy(update={"execution": execution, "http": http})


async def post(settings: Settings, messages: list[dict[str, Any]]) -> tuple[RawAnswer, list[dict[str, Any]]]:
    """The batch's answer, on a server that has answered one such call already (libraries loaded, caches warm)."""
    async with raw_poster(settings) as raw:
        await raw(HEADERS, json.dumps(messages[:1]).encode())
        answer = await raw(HEADERS, json.dumps(messages).encode())
    assert answer.status == 200, answer.body
    replies = answer.json()
    assert [reply["id"] for reply in replies] == [message["id"] for message in messages]  # one answer each
    return answer, replies


def kind(reply: dict[str, Any]) -> str:
    """What a member's answer is: 'ok', a tool error's kind, or a JSON-RPC error's message."""
    if "error" in reply:
        return str(reply["error"]["message"])
    result = reply["result"]
    return str(result["_meta"]["dev.horologe/error"]["kind"]) if result.get("isError") else "ok"


async def test_the_calls_of_a_batch_share_one_budget(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "MAX_ANSWER_BYTES", 10**9)  # the budget, not the answer's size, ends this batch
    # A quick call first (answered however loaded the machine), then more long ones than any machine runs in 1 s.
    quick = calls(1, name="get_current_time", timezone="UTC")
    long = [{**message, "id": message["id"] + 1} for message in calls(99, **LONG_RANGES)]
    started = time.monotonic()
    _, replies = await post(tuned(settings, budget=1.0), quick + long)
    kinds = [kind(reply) for reply in replies]
    assert "ok" in kinds and kinds[-1] == "budget_exceeded", kinds
    first_over = kinds.index("budget_exceeded")
    assert set(kinds[first_over:]) == {"budget_exceeded"}  # once spent, spent for the rest
    assert time.monotonic() - started < 1.0 + 60  # a hang guard; bench/bounds.py measures the cost


async def test_a_batch_has_one_timeout(settings: Settings) -> None:
    _, replies = await post(tuned(settings, timeout=0.3), calls(60, **LONG_RANGES))
    kinds = [kind(reply) for reply in replies]
    timed_out = [n for n, k in enumerate(kinds) if "too long" in k]
    assert timed_out and timed_out == list(range(timed_out[0], len(kinds))), kinds
    assert {reply["error"]["code"] for reply in replies[timed_out[0] :]} == {-32603}


async def test_a_batch_answer_stops_at_its_size_limit_with_an_error_per_message(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch, "MAX_ANSWER_BYTES", 8000)
    answer, replies = await post(settings, calls(30, name="get_current_time", timezone="Europe/Vienna"))
    kinds = [kind(reply) for reply in replies]
    assert kinds[0] == "ok" and len(answer.body) < 8000 + 30 * 300
    stopped = kinds.index(next(k for k in kinds if k != "ok"))
    assert all("smaller batch" in k for k in kinds[stopped:]), kinds
    assert {reply["error"]["code"] for reply in replies[stopped:]} == {-32600}
