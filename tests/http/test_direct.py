"""Direct serving (`horologe.http.direct`) answers a stateless JSON-answered POST of either era with the very bytes
the SDK's transport gives it, and leaves every other request to the SDK.

Each request is sent twice to the same running app: once as it is served, once with direct serving declining
everything (so the SDK's transport answers); status, headers (but the request id and length) and the JSON answer
must be equal, and in the 2025 revisions the very bytes.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from mcp.server import runner
from mcp.server.connection import Connection

from horologe.config import Settings
from horologe.http.direct import DirectServing
from tests.http.conftest import BASE_HEADERS, RawAnswer, RawPost, raw_poster
from tests.samples import sample_calls

pytestmark = pytest.mark.anyio

Headers = list[tuple[bytes, bytes]]
LEGACY_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")


def legacy_headers(version: str | None = "2025-11-25", *extra: tuple[bytes, bytes]) -> Headers:
    version_header = [] if version is None else [(b"mcp-protocol-version", version.encode())]
    return [*BASE_HEADERS, *version_header, *extra]


ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
}


def modern(method: str, params: dict[str, Any] | None = None, *extra: tuple[bytes, bytes]) -> tuple[Headers, bytes]:
    """A 2026-07-28 request: the envelope in `_meta`, the routing headers its body implies, and `extra` headers."""
    params = dict(params or {})
    params["_meta"] = {**ENVELOPE, **params.get("_meta", {})}
    routing = [(b"mcp-protocol-version", b"2026-07-28"), (b"mcp-method", method.encode())]
    named = params.get("uri" if method == "resources/read" else "name")
    if isinstance(named, str):  # tools/call, resources/read, prompts/get carry Mcp-Name
        routing.append((b"mcp-name", named.encode()))
    return [*BASE_HEADERS, *routing, *extra], rpc(method, params)


def rpc(method: str, params: Any = None, request_id: Any = 1) -> bytes:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message).encode()


CORPUS: list[tuple[str, Headers, bytes]] = [
    *(
        (f"{name} {arguments}", legacy_headers(), rpc("tools/call", {"name": name, "arguments": arguments}))
        for name, arguments in sample_calls()
    ),
    *(
        (f"get_current_time at {version}", legacy_headers(version), rpc("tools/call", {"name": "get_current_time"}))
        for version in (*LEGACY_VERSIONS, None)
    ),
    (
        "German by header",
        legacy_headers("2025-11-25", (b"accept-language", b"de-AT")),
        rpc("tools/call", {"name": "format_time", "arguments": {"timestamp": 0, "format": "human"}}),
    ),
    (
        "French by _meta, string id",
        legacy_headers(),
        rpc(
            "tools/call",
            {
                "name": "get_current_time",
                "arguments": {"timezone": "Europe/Paris", "format": "human"},
                "_meta": {"io.modelcontextprotocol/acceptLanguage": "fr"},
            },
            request_id="abc",
        ),
    ),
    ("unknown zone", legacy_headers(), rpc("tools/call", {"name": "get_current_time", "arguments": {"timezone": "X"}})),
    ("unknown tool", legacy_headers(), rpc("tools/call", {"name": "no_such_tool", "arguments": {}})),
    (
        "bad argument type",
        legacy_headers(),
        rpc("tools/call", {"name": "get_current_time", "arguments": {"format": 3}}),
    ),
    ("no params", legacy_headers(), rpc("tools/call")),
    ("tools/list", legacy_headers(), rpc("tools/list")),
    ("tools/list in German", legacy_headers("2025-06-18", (b"accept-language", b"de")), rpc("tools/list")),
    ("resources/list", legacy_headers(), rpc("resources/list")),
    ("resources/templates/list", legacy_headers(), rpc("resources/templates/list")),
    ("resources/read", legacy_headers(), rpc("resources/read", {"uri": "time://zones"})),
    ("unknown resource", legacy_headers(), rpc("resources/read", {"uri": "time://nothing"})),
    ("prompts/list", legacy_headers(), rpc("prompts/list")),
    ("ping", legacy_headers(), rpc("ping")),
    ("unknown method", legacy_headers(), rpc("no/such/method")),
    ("a method 2026-07-28 only", legacy_headers(), rpc("server/discover")),
    ("a batch", legacy_headers("2025-03-26"), b"[" + rpc("ping") + b"," + rpc("tools/list", None, 2) + b"]"),
    (
        "completion",
        legacy_headers(),
        rpc(
            "completion/complete",
            {
                "ref": {"type": "ref/resource", "uri": "time://zones/{region}"},
                "argument": {"name": "region", "value": "Eu"},
            },
        ),
    ),
]


CORPUS += [
    *(
        (f"2026-07-28 {name} {arguments}", *modern("tools/call", {"name": name, "arguments": arguments}))
        for name, arguments in sample_calls()
    ),
    (
        "2026-07-28 in German",
        *modern(
            "tools/call", {"name": "get_current_time", "arguments": {"format": "human"}}, (b"accept-language", b"de-AT")
        ),
    ),
    ("2026-07-28 unknown zone", *modern("tools/call", {"name": "get_current_time", "arguments": {"timezone": "X"}})),
    ("2026-07-28 unknown tool", *modern("tools/call", {"name": "no_such_tool", "arguments": {}})),
    ("2026-07-28 bad argument", *modern("tools/call", {"name": "get_current_time", "arguments": {"format": 3}})),
    ("2026-07-28 tools/list", *modern("tools/list")),
    ("2026-07-28 server/discover", *modern("server/discover")),
    ("2026-07-28 resources/read", *modern("resources/read", {"uri": "time://zones"})),
    ("2026-07-28 unknown resource", *modern("resources/read", {"uri": "time://nothing"})),
    ("2026-07-28 prompts/list", *modern("prompts/list")),
    ("2026-07-28 unknown method", *modern("no/such/method")),
    ("2026-07-28 ping (a 2025 method)", *modern("ping")),
]


@pytest.fixture
async def post(settings: Settings) -> AsyncIterator[RawPost]:
    async with raw_poster(settings) as poster:
        yield poster


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What direct serving answered (one entry per request it served, each of a batch's members)."""
    served: list[str] = []
    answer = DirectServing.answer

    async def counted(self: DirectServing, *args: Any) -> None:
        served.append("served")
        await answer(self, *args)

    monkeypatch.setattr(DirectServing, "answer", counted)
    return served


async def both_ways(post: RawPost, headers: Headers, body: bytes, monkeypatch: pytest.MonkeyPatch) -> list[RawAnswer]:
    served = await post(headers, body)
    with monkeypatch.context() as sdk_only:
        sdk_only.setattr(DirectServing, "takes", lambda self, scope, facts: None)
        by_sdk = await post(headers, body)
    return [served, by_sdk]


def comparable(answer: RawAnswer) -> tuple[int, list[tuple[bytes, bytes]], Any]:
    """Status, headers and the JSON answer (the 2026-07-28 SDK path escapes non-ASCII text, direct serving writes
    UTF-8 as the 2025 path does: the same JSON, so the length may differ)."""
    varying = (b"x-request-id", b"content-length")
    headers = sorted((key.lower(), value) for key, value in answer.headers if key.lower() not in varying)
    return answer.status, headers, json.loads(answer.body)


@pytest.mark.parametrize(("label", "headers", "body"), CORPUS, ids=[label for label, _, _ in CORPUS])
async def test_a_request_served_directly_is_answered_as_the_sdk_answers_it(
    post: RawPost, label: str, headers: Headers, body: bytes, monkeypatch: pytest.MonkeyPatch, taken: list[str]
) -> None:
    served, by_sdk = await both_ways(post, headers, body, monkeypatch)
    assert len(taken) == (2 if body.startswith(b"[") else 1), "not served directly (a batch: each of its two members)"
    assert comparable(served) == comparable(by_sdk)
    if b"2026-07-28" not in label.encode():
        assert served.body == by_sdk.body


DECLINED: list[tuple[str, Headers, bytes]] = [
    (
        "initialize",
        legacy_headers(None),
        rpc(
            "initialize",
            {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
        ),
    ),
    ("a notification", legacy_headers(), b'{"jsonrpc":"2.0","method":"notifications/initialized"}'),
    ("a response", legacy_headers(), b'{"jsonrpc":"2.0","id":7,"result":{}}'),
    (
        "progress asked for",
        legacy_headers(),
        rpc("tools/call", {"name": "get_current_time", "_meta": {"progressToken": "p"}}),
    ),
    (
        "2026-07-28",
        [*BASE_HEADERS, (b"mcp-protocol-version", b"2026-07-28")],
        rpc(
            "tools/list",
            {
                "_meta": {
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                    "io.modelcontextprotocol/clientCapabilities": {},
                }
            },
        ),
    ),
    (
        "text content type",
        [(b"host", b"127.0.0.1"), (b"content-type", b"text/plain"), (b"accept", b"application/json")],
        rpc("ping"),
    ),
    (
        "no JSON in Accept",
        [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"), (b"accept", b"text/event-stream")],
        rpc("ping"),
    ),
    ("an id JSON-RPC does not allow", legacy_headers(), rpc("ping", None, [1])),
    ("params not an object", legacy_headers(), rpc("tools/call", "now")),
    (
        "2026-07-28 no client capabilities",
        [*BASE_HEADERS, (b"mcp-protocol-version", b"2026-07-28"), (b"mcp-method", b"tools/list")],
        rpc("tools/list", {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}),
    ),
    (
        "2026-07-28 Mcp-Name disagreeing",
        [
            *BASE_HEADERS,
            (b"mcp-protocol-version", b"2026-07-28"),
            (b"mcp-method", b"tools/call"),
            (b"mcp-name", b"format_time"),
        ],
        rpc("tools/call", {"name": "get_current_time", "_meta": ENVELOPE}),
    ),
    ("no jsonrpc member", legacy_headers(), b'{"id":1,"method":"ping"}'),
]


@pytest.mark.parametrize(("label", "headers", "body"), DECLINED, ids=[label for label, _, _ in DECLINED])
async def test_everything_else_is_the_sdks_to_answer(
    post: RawPost, label: str, headers: Headers, body: bytes, taken: list[str]
) -> None:
    served = await post(headers, body)
    assert taken == []
    assert served.status in (200, 202, 400, 406)


async def test_a_connection_something_registered_with_is_closed_as_the_sdk_closes_it(
    post: RawPost, monkeypatch: pytest.MonkeyPatch
) -> None:
    closed: list[str] = []
    shielded = runner.aclose_shielded

    async def noted_close(connection: Connection) -> None:
        closed.append("shielded")
        await shielded(connection)

    monkeypatch.setattr("horologe.http.direct.aclose_shielded", noted_close)
    headers, body = modern("tools/call", {"name": "get_current_time", "arguments": {}})
    assert (await post(headers, body)).status == 200
    assert closed == []  # nothing registered: nothing to close

    envelope = Connection.from_envelope

    def registering(*args: Any, **kwargs: Any) -> Connection:
        connection = envelope(*args, **kwargs)

        async def note() -> None:
            closed.append("callback")

        connection.exit_stack.push_async_callback(note)
        return connection

    monkeypatch.setattr(Connection, "from_envelope", registering)
    assert (await post(headers, body)).status == 200
    assert closed == ["shielded", "callback"]
