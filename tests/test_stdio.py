"""The stdio edge: line splitting and the answers to malformed lines."""

from __future__ import annotations

import json
import tempfile

import anyio
import mcp_types as types
import pytest

from horologe.clock import FixedClock
from horologe.config import load_settings
from horologe.protocol.server import build_server
from horologe.stdio import LineSplitter, Wire, decode_message, serve_streams
from horologe.wire import INVALID_REQUEST, PARSE_ERROR, PROTOCOL_VERSION_META
from tests.conftest import FIXED_NOW


def error_of(line: bytes) -> dict[str, object]:
    decoded = decode_message(line)
    assert isinstance(decoded, bytes), decoded
    body = json.loads(decoded)
    assert body["jsonrpc"] == "2.0"
    error: dict[str, object] = body["error"]
    error["id"] = body["id"]
    return error


def test_a_request_line_becomes_a_jsonrpc_request() -> None:
    decoded = decode_message(b'{"jsonrpc":"2.0","id":1,"method":"ping"}')
    assert isinstance(decoded, types.JSONRPCRequest)
    assert decoded.method == "ping"


def test_blank_lines_are_ignored() -> None:
    assert decode_message(b"   \r") is None


def test_invalid_utf8_is_a_parse_error() -> None:
    error = error_of(b'{"jsonrpc":"2.0","id":1,"method":"\xff\xfe"}')
    assert error["code"] == PARSE_ERROR and error["id"] is None
    assert "UTF-8" in str(error["message"])


@pytest.mark.parametrize("line", [b"not json", b'{"jsonrpc": "2.0",', b"[" * 100_000])
def test_non_json_is_a_parse_error(line: bytes) -> None:
    assert error_of(line)["code"] == PARSE_ERROR


def test_a_batch_is_refused_as_invalid_request_outside_2025_03_26() -> None:
    error = error_of(b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]')
    assert error["code"] == INVALID_REQUEST
    assert "2025-03-26" in str(error["message"])


@pytest.mark.parametrize("line", [b"42", b'"text"', b"null"])
def test_a_non_object_is_invalid_request(line: bytes) -> None:
    assert error_of(line)["code"] == INVALID_REQUEST


def test_a_malformed_request_keeps_its_id() -> None:
    error = error_of(b'{"jsonrpc":"1.0","id":7,"method":"ping"}')
    assert error["code"] == INVALID_REQUEST and error["id"] == 7


def test_splitter_joins_chunks_into_lines() -> None:
    splitter = LineSplitter(limit=100)
    assert splitter.feed(b'{"a":') == []
    assert splitter.feed(b'1}\n{"b":2}\n{"c"') == [b'{"a":1}', b'{"b":2}']
    assert splitter.finish() == [b'{"c"']


def test_splitter_reports_an_overlong_line_once_and_recovers() -> None:
    splitter = LineSplitter(limit=10)
    assert splitter.feed(b"x" * 8) == []
    assert splitter.feed(b"x" * 8) == []
    assert splitter.feed(b"x" * 50) == []
    assert splitter.feed(b"xx\nok\n") == [None, b"ok"]
    assert splitter.feed(b"y" * 20 + b"\n") == [None]
    assert splitter.finish() == []


def test_a_bare_first_request_gets_the_default_envelope_and_so_do_later_ones() -> None:
    from horologe.stdio import Envelopes
    from horologe.wire import CLIENT_CAPABILITIES_META

    envelopes = Envelopes()
    first: dict[str, object] = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    envelopes.complete(first)
    meta = first["params"]["_meta"]  # type: ignore[index]
    assert meta[PROTOCOL_VERSION_META] == "2026-07-28" and meta[CLIENT_CAPABILITIES_META] == {}
    later = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "x", "_meta": {"progressToken": 3}}}
    envelopes.complete(later)
    assert later["params"]["_meta"]["progressToken"] == 3  # type: ignore[index]
    assert PROTOCOL_VERSION_META in later["params"]["_meta"]  # type: ignore[index]
    notification = {"jsonrpc": "2.0", "method": "notifications/cancelled"}
    envelopes.complete(notification)
    assert "params" not in notification


@pytest.mark.parametrize(
    "first",
    [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}},
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "ping",
            "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "x"}},
        },
    ],
)
def test_a_connection_that_opens_with_a_handshake_or_an_envelope_is_left_alone(first: dict[str, object]) -> None:
    from horologe.stdio import Envelopes

    envelopes = Envelopes()
    envelopes.complete(first)
    later: dict[str, object] = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    envelopes.complete(later)
    assert "params" not in later


@pytest.mark.parametrize(
    ("line", "request_id"),
    [
        (b'{"jsonrpc":"2.0","id":"a\\ud800","method":"ping"}', None),
        (b'{"jsonrpc":"2.0","id":3,"method":"\\udc00"}', 3),
        (b'{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"t","arguments":{"\\ud800":1}}}', "x"),
        (b'{"jsonrpc":"2.0","id":4,"method":"ping","params":{"_meta":{"progressToken":"\\udfff"}}}', 4),
    ],
)
def test_a_lone_surrogate_anywhere_is_invalid_request_with_the_id_when_it_can_be_read(
    line: bytes, request_id: object
) -> None:
    error = error_of(line)
    assert error["code"] == INVALID_REQUEST and error["id"] == request_id
    assert "lone UTF-16 surrogate" in str(error["message"])
    json.dumps(error).encode()  # the answer itself is encodable


def test_a_surrogate_pair_is_text_and_passes() -> None:
    decoded = decode_message(b'{"jsonrpc":"2.0","id":"\\ud83d\\udd70","method":"ping"}')
    assert isinstance(decoded, types.JSONRPCRequest) and decoded.id == "\U0001f570"


def test_an_integer_longer_than_pythons_limit_is_a_parse_error() -> None:
    error = error_of(b'{"jsonrpc":"2.0","id":' + b"1" * 4301 + b',"method":"ping"}')
    assert error["code"] == PARSE_ERROR and error["id"] is None
    assert "a number has too many digits" in str(error["message"])


@pytest.mark.parametrize("request_id", ["1.5", "null", "true", "{}", "[]"])
def test_an_id_that_is_not_a_string_or_integer_is_invalid_request_with_id_null(request_id: str) -> None:
    error = error_of(b'{"jsonrpc":"2.0","id":' + request_id.encode() + b',"method":"tools/list"}')
    assert error["code"] == INVALID_REQUEST and error["id"] is None
    assert f"the id must be a string or an integer (got {request_id})" in str(error["message"])


def test_a_notification_and_a_response_without_an_id_pass() -> None:
    assert isinstance(
        decode_message(b'{"jsonrpc":"2.0","method":"notifications/initialized"}'), types.JSONRPCNotification
    )
    assert isinstance(
        decode_message(b'{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}}'), types.JSONRPCError
    )


def test_a_method_beside_a_result_is_an_invalid_request_answered_with_its_id() -> None:
    # Read as a response it would be dropped, and its sender would wait forever (found by the stdio fuzzer).
    line = b'{"jsonrpc": "2.0", "method": "initialize", "params": [], "id": 0, "result": {}}'
    answer = decode_message(line)
    assert isinstance(answer, bytes)
    error = json.loads(answer)
    assert (error["id"], error["error"]["code"]) == (0, -32600) and "not both" in error["error"]["message"]


def served(payload: bytes) -> list[bytes]:
    """The answer lines of horologe's stdio edge (in process) to exactly these input bytes."""
    server = build_server(load_settings(), FixedClock(FIXED_NOW))
    with tempfile.TemporaryFile() as requests, tempfile.TemporaryFile() as answers:
        requests.write(payload)
        requests.seek(0)

        async def serve() -> None:
            with anyio.fail_after(30):
                await serve_streams(server, requests.fileno(), Wire(answers.fileno()), drain_timeout=10)

        anyio.run(serve)
        answers.seek(0)
        return answers.read().splitlines()


INITIALIZE_2025_11_25 = (
    b'{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
    b'"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n'
)


def test_a_ping_before_initialize_is_answered_and_a_legacy_handshake_still_follows() -> None:
    lines = served(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n' + INITIALIZE_2025_11_25)
    assert lines[0] == b'{"jsonrpc":"2.0","id":1,"result":{}}'
    handshake = json.loads(lines[1])
    assert handshake["id"] == 2 and handshake["result"]["protocolVersion"] == "2025-11-25"


def test_a_ping_before_a_bare_request_leaves_the_connection_to_the_request() -> None:
    call = b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_current_time","arguments":{}}}\n'
    lines = served(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n' + call)
    assert lines[0] == b'{"jsonrpc":"2.0","id":1,"result":{}}'
    assert "result" in json.loads(lines[1]) and json.loads(lines[1])["result"]["isError"] is False


INVALID_MEMBERS = b'[{"jsonrpc":"2.0","id":7,"method":5},{"jsonrpc":"2.0","id":8,"method":"ping"}]'
INVALID_MEMBER_ANSWER = (
    b'{"jsonrpc": "2.0", "id": 7, "error": {"code": -32600, "message": "Invalid Request: expected a JSON-RPC 2.0 '
    b'request, notification or response ({\\"jsonrpc\\": \\"2.0\\", \\"id\\": 1, \\"method\\": \\"...\\", '
    b'\\"params\\": {...}})."}}'
)


def test_an_invalid_batch_member_is_an_invalid_request_with_its_id() -> None:
    """The same bytes as over HTTP (tests/http/test_fidelity.py): both edges split batches with `wire.batch_members`."""
    initialize = INITIALIZE_2025_11_25.replace(b"2025-11-25", b"2025-03-26")
    lines = served(initialize + INVALID_MEMBERS + b"\n")
    assert lines[1].startswith(b"[" + INVALID_MEMBER_ANSWER + b", ")
    assert json.loads(lines[1])[1] == {"jsonrpc": "2.0", "id": 8, "result": {}}
