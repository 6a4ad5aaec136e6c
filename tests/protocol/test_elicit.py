"""An ambiguous zone resolved by asking the user (elicitation), in both eras (issue 19)."""

from __future__ import annotations

import json
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.client import Client
from mcp.client.session import ClientRequestContext
from mcp.server.lowlevel.server import Server

from horologe.protocol import elicit
from horologe.stdio import decode_message
from horologe.wire import ACCEPT_LANGUAGE_META, CONTENT_LANGUAGE_META
from tests.protocol.test_fidelity import MODERN, answers, line
from tests.stdio_pipe import PipeTransport

pytestmark = pytest.mark.anyio
ASKING: dict[str, Any] = {"io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}}


def call(request_id: int, responses: dict[str, Any] | None = None, meta: dict[str, Any] | None = None) -> bytes:
    params: dict[str, Any] = {"name": "get_current_time", "arguments": {"timezone": "IST"}, "_meta": meta or ASKING}
    if responses is not None:
        params["inputResponses"] = responses
    return line(1, "tools/call", params)


def accept(zone: str) -> dict[str, Any]:
    return {"timezone": {"action": "accept", "content": {"timezone": zone}}}


async def test_2026_asks_which_zone_and_the_retry_with_the_choice_answers(server: Server[Any]) -> None:
    asked = (await answers(server, MODERN, call(1, meta={**ASKING, ACCEPT_LANGUAGE_META: "de"})))[1]["result"]
    assert asked["resultType"] == "input_required"
    request = asked["inputRequests"]["timezone"]
    assert request["method"] == "elicitation/create"
    assert "IST" in request["params"]["message"] and "Zeitzone" in request["params"]["message"]  # in German
    options = request["params"]["requestedSchema"]["properties"]["timezone"]["enum"]
    assert "Asia/Kolkata" in options and len(options) > 1
    assert asked["_meta"][CONTENT_LANGUAGE_META] == "de"
    answered = (await answers(server, MODERN, call(1, accept("Asia/Kolkata"))))[1]["result"]
    assert answered["resultType"] == "complete" and answered["isError"] is False
    assert answered["structuredContent"]["timezone"] == "Asia/Kolkata"


async def test_2026_a_choice_outside_the_list_is_asked_again_and_a_refusal_keeps_the_error(server: Server[Any]) -> None:
    again = (await answers(server, MODERN, call(1, accept("Europe/Vienna"))))[1]["result"]
    assert again["resultType"] == "input_required"
    declined = {"timezone": {"action": "decline"}}
    refused = (await answers(server, MODERN, call(1, declined)))[1]["result"]
    assert refused["isError"] is True and refused["_meta"]["dev.horologe/error"]["kind"] == "ambiguous_timezone"


async def test_a_client_that_cannot_ask_gets_the_error(server: Server[Any]) -> None:
    plain: dict[str, Any] = {"io.modelcontextprotocol/clientCapabilities": {}}
    result = (await answers(server, MODERN, call(1, meta=plain)))[1]["result"]
    assert result["isError"] is True and result["resultType"] == "complete"
    assert "Asia/Kolkata" in json.dumps(result["_meta"]["dev.horologe/error"]["suggestions"])


@pytest.mark.parametrize("transport", ["memory", "stdio"])
async def test_the_handshake_era_asks_over_the_connection(server: Server[Any], transport: str) -> None:
    asked: list[types.ElicitRequestParams] = []

    async def choose(context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params)
        return types.ElicitResult(action="accept", content={"timezone": "Asia/Jerusalem"})

    target: Any = server if transport == "memory" else PipeTransport(server)
    async with Client(target, mode="legacy", cache=None, elicitation_callback=choose) as client:
        result = await client.call_tool("get_current_time", {"timezone": "IST"})
    assert len(asked) == 1 and "IST" in asked[0].message
    assert result.is_error is False and result.structured_content is not None
    assert result.structured_content["timezone"] == "Asia/Jerusalem"


async def test_the_handshake_era_waits_for_an_answer_only_so_long(
    server: Server[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(elicit, "ANSWER_SECONDS", 0.2)
    never = anyio.Event()

    async def silent(context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
        await never.wait()  # a user (or a client) that never answers
        raise AssertionError("unreachable")

    with anyio.fail_after(30):  # a hang guard: the bound above, not this one, ends the call
        async with Client(server, mode="legacy", cache=None, elicitation_callback=silent) as client:
            result = await client.call_tool("get_current_time", {"timezone": "IST"})
            never.set()
    assert result.is_error is True and result.meta is not None
    assert result.meta["dev.horologe/error"]["kind"] == "ambiguous_timezone"


@pytest.mark.parametrize(("choices", "zone"), [(["Europe/Vienna", "Asia/Kolkata"], "Asia/Kolkata"), (["x", "y"], None)])
async def test_the_handshake_era_asks_once_more_after_a_choice_outside_the_list(
    server: Server[Any], choices: list[str], zone: str | None
) -> None:
    asked: list[str] = []

    async def choose(context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"timezone": choices[len(asked) - 1]})

    async with Client(server, mode="legacy", cache=None, elicitation_callback=choose) as client:
        result = await client.call_tool("get_current_time", {"timezone": "IST"})
    assert len(asked) == 2
    if zone is None:
        assert result.is_error is True
    else:
        assert result.structured_content is not None and result.structured_content["timezone"] == zone


@pytest.mark.parametrize("answer", [{"result": "yes"}, {"result": None}, {"error": "no"}, {"result": [1]}])
def test_a_malformed_answer_on_stdio_ends_the_request_it_answers(answer: dict[str, Any]) -> None:
    decoded = decode_message(json.dumps({"jsonrpc": "2.0", "id": 7, **answer}).encode())
    assert isinstance(decoded, types.JSONRPCError) and decoded.id == 7
    assert "malformed" in decoded.error.message
