"""Direct serving (`horologe.http.direct`) answers a stateless JSON-answered POST of either era with the very bytes
the SDK's transport gives it, and leaves every other request to the SDK.

Each request is sent twice to the same running app: once as it is served, once with direct serving declining
everything (so the SDK's transport answers); status, headers (but the request id and length) and the JSON answer
must be equal, and in the 2025 revisions the very bytes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator
from importlib import metadata
from pathlib import Path
from typing import Any, Final

import mcp
import pytest
from mcp.server import _streamable_http_modern, runner
from mcp.server.connection import Connection
from mcp.server.runner import ServerRunner, aclose_shielded
from mcp.shared.inbound import InboundLadderRejection

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


_extra_headers, _extra_body = modern("tools/list")
MODERN_EXTRA = (_extra_headers, _extra_body[:-1] + b', "x": 1}')
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
    ("2026-07-28 an unknown _meta key", *modern("tools/list", {"_meta": {"example.com/unknown": 1}})),
    ("2026-07-28 an unknown params member", *modern("tools/list", {"cursorz": "x"})),
    ("2026-07-28 an unknown top-level member", MODERN_EXTRA[0], MODERN_EXTRA[1]),
    ("an unknown _meta key", legacy_headers(), rpc("tools/list", {"_meta": {"example.com/unknown": 1}})),
    ("an unknown top-level member", legacy_headers(), b'{"jsonrpc":"2.0","id":1,"method":"ping","x":1}'),
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


PINNED: Final = "2.3.0"
"""The release of `mcp` and `mcp-types` direct serving was checked against (pyproject.toml pins it exactly)."""
CHECKED: Final = {
    "server/_streamable_http_modern.py": "952f99a1b5c0d351b73321729892856e71f49546e7c6fefe7a34366f7e0643d6",
    "server/streamable_http.py": "7d7c146f26de348e86afee74aa74ea3f9273b1450ef91a2cedac0dfea9eb0eac",
    "server/streamable_http_manager.py": "7820bb1566550ffe7b6955b7f5474c774aa9ddefc9fe4fdd15f352a7e8563170",
    "server/runner.py": "be55cb42cbca261c2997bb4f54e2ac892fbb5c35935409ef951ac9f73b527b29",
    "server/connection.py": "4df4299703fc1443cd6fb5301f24256567249849c786f5801a0a85b9486f2da4",
    "shared/inbound.py": "eb09c0a06368f01553c54045ecf0b9ca0931717e1ec837a54433913836f91829",
    "shared/jsonrpc_dispatcher.py": "bb2b8a71f2d8b4916d6e3805b523d1a4d1c0a54f6a2ff48c337e3bed0b17e48d",
}
"""SHA-256 of the SDK's code behind both paths: the transports direct serving answers for, and what it calls."""


def test_the_sdk_is_the_release_direct_serving_was_checked_against() -> None:
    """A drift guard: another release (or a patched file) fails here until someone has read its changes against
    `horologe.http.direct`, run this module's corpus on it, and recorded the new digests."""
    assert (metadata.version("mcp"), metadata.version("mcp-types")) == (PINNED, PINNED)
    root = Path(mcp.__file__).parent
    found = {name: hashlib.sha256((root / name).read_bytes()).hexdigest() for name in CHECKED}
    assert found == CHECKED


async def test_the_corpus_tells_an_sdk_that_refuses_an_unknown_meta_key(
    post: RawPost, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The change the earlier corpus missed, simulated: the SDK's own path refusing a request whose `_meta` holds a
    key it does not know (direct serving would still answer it); the corpus's request with such a key shows it."""
    _, headers, body = next(entry for entry in CORPUS if entry[0] == "2026-07-28 an unknown _meta key")
    ladder = _streamable_http_modern.classify_inbound_request  # type: ignore[attr-defined]

    def stricter(payload: Any, headers: Any) -> Any:
        meta = payload.get("params", {}).get("_meta", {})
        if any(not key.startswith("io.modelcontextprotocol/") for key in meta):
            return InboundLadderRejection(code=-32602, message="unknown _meta key")
        return ladder(payload, headers=headers)

    monkeypatch.setattr(_streamable_http_modern, "classify_inbound_request", stricter)
    served, by_sdk = await both_ways(post, headers, body, monkeypatch)
    assert comparable(served) != comparable(by_sdk) and by_sdk.status == 400


async def test_a_new_step_in_serve_one_is_taken_or_told(post: RawPost, monkeypatch: pytest.MonkeyPatch) -> None:
    """The other change the earlier copy of `serve_one` missed, simulated: direct serving calls the SDK's own
    function, so a step added to its body is taken on the 2026-07-28 path as the SDK's takes it; the SDK's 2025
    sessions run the kernel without `serve_one`, so there the corpus's comparison tells the two apart."""

    async def stepped(
        server: Any, dctx: Any, method: str, params: Any, *, connection: Connection, lifespan_state: Any
    ) -> dict[str, Any]:
        # Its globals are `serve_one`'s own (the runner module's) once its code is swapped in.
        kernel = ServerRunner(server, connection, lifespan_state)
        try:
            result = await kernel.on_request(dctx, method, params)
            return {**result, "_meta": {**result.get("_meta", {}), "example.com/step": True}}
        finally:
            await aclose_shielded(connection)

    monkeypatch.setattr(runner.serve_one, "__code__", stepped.__code__)
    served, by_sdk = await both_ways(post, *modern("tools/list"), monkeypatch)
    assert json.loads(served.body)["result"]["_meta"]["example.com/step"] is True
    assert comparable(served) == comparable(by_sdk)
    served, by_sdk = await both_ways(post, legacy_headers(), rpc("tools/list"), monkeypatch)
    assert comparable(served) != comparable(by_sdk)
