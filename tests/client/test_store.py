"""The client's state store (SEP-1655), language and context detection, and the envelope's checks."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mcp_types import JSONRPCError, JSONRPCRequest, JSONRPCResponse

from horologe.client.context import ContextSettings, accept_language_from_env, normalize_accept_language
from horologe.client.store import (
    MAX_ITEM_BYTES,
    MAX_ITEMS_PER_SCOPE,
    MAX_ITEMS_TOTAL,
    ClientState,
    ServerStateDB,
    http_scope,
    stdio_scope,
)
from horologe.client.transport import Envelope
from horologe.wire import STATE_KEYS

SESSION, SERVER = STATE_KEYS["session"], STATE_KEYS["server"]


@pytest.mark.parametrize(
    ("url", "scope"),
    [
        ("https://Time.Example.com:8443/mcp?x=1", "time.example.com"),
        ("https://time.example.com./other/path", "time.example.com"),
        ("http://localhost:8080/mcp", None),
        ("http://api.localhost/mcp", None),
        ("http://127.0.0.1:9/mcp", None),
        ("http://[::1]:9/mcp", None),
        ("http://10.1.2.3/mcp", None),
    ],
)
def test_http_scope_is_the_host_name_and_never_local_or_ip(url: str, scope: str | None) -> None:
    assert http_scope(url) == scope


def test_local_state_can_be_allowed_for_development() -> None:
    assert http_scope("http://127.0.0.1:9/mcp", allow_local=True) == "127.0.0.1"


def test_stdio_scope_is_the_command_path_with_the_script_or_module() -> None:
    python = stdio_scope([sys.executable, "-m", "horologe", "serve"])
    assert python.startswith("stdio:/") and python.endswith("-m horologe")
    assert stdio_scope([sys.executable, "-m", "other"]) != python


def test_server_state_survives_a_restart_and_is_scoped(tmp_path: Path) -> None:
    db_path = tmp_path / "s.sqlite3"
    first = ClientState("a.example", ServerStateDB(db_path))
    first.absorb({SERVER: {"x": {"v": 1}}, SESSION + "/": {"s": 1}})
    assert first.outgoing() == {SESSION: {"s": 1}, SERVER: {"x": {"v": 1}}}
    again = ClientState("a.example", ServerStateDB(db_path))  # a new client process
    assert again.outgoing() == {SERVER: {"x": {"v": 1}}}  # session state is gone, server state is not
    assert ClientState("b.example", ServerStateDB(db_path)).outgoing() == {}  # another server sees nothing


def test_merge_is_top_level_and_null_deletes(tmp_path: Path) -> None:
    state = ClientState("a.example", ServerStateDB(tmp_path / "s.sqlite3"))
    state.absorb({SERVER: {"a": {"deep": 1}, "b": 2}})
    state.absorb({SERVER: {"a": {"other": 3}}})
    assert state.outgoing()[SERVER] == {"a": {"other": 3}, "b": 2}
    state.absorb({SERVER: {"a": None, "b": None}})
    assert state.outgoing() == {}


def test_no_scope_keeps_nothing(tmp_path: Path) -> None:
    state = ClientState(None, ServerStateDB(tmp_path / "s.sqlite3"))
    state.absorb({SERVER: {"a": 1}, SESSION: {"b": 1}})
    assert state.outgoing() == {}


def test_capacities_meet_the_seed_minimums(tmp_path: Path) -> None:
    db = ServerStateDB(tmp_path / "s.sqlite3")
    state = ClientState("a.example", db)
    fits = "x" * (MAX_ITEM_BYTES - len("big") - 2)  # name + the JSON string with its quotes = 4096 bytes
    state.absorb({SERVER: {"big": fits, "too big": fits + "xx"}, SESSION: {"big": fits}})
    assert set(state.outgoing()[SERVER]) == {"big"} and set(state.outgoing()[SESSION]) == {"big"}
    state.absorb({SERVER: {f"i{n}": n for n in range(MAX_ITEMS_PER_SCOPE + 5)}})
    assert len(db.items("a.example")) == MAX_ITEMS_PER_SCOPE >= 20
    for scope in range(10):
        ClientState(f"s{scope}.example", db).absorb({SERVER: {f"i{n}": n for n in range(40)}})
    assert len(db.listing()) == MAX_ITEMS_TOTAL >= 300
    assert db.clear("s9.example") == 40 and db.clear() == MAX_ITEMS_TOTAL - 40


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"LANG": "de_AT.UTF-8"}, "de-AT"),
        ({"LC_ALL": "fr_FR@euro", "LANG": "de_AT.UTF-8"}, "fr-FR"),
        ({"LANGUAGE": "de_AT:de:en", "LANG": "C.UTF-8"}, "de-AT, de;q=0.9, en;q=0.8"),
        ({"LANG": "C.UTF-8"}, None),
        ({"LANG": "POSIX"}, None),
        ({}, None),
    ],
)
def test_accept_language_from_the_environment(env: dict[str, str], expected: str | None) -> None:
    assert accept_language_from_env(env) == expected


def test_lang_flag_is_normalized_to_rfc_9110() -> None:
    assert normalize_accept_language("de_AT") == "de-AT"
    assert normalize_accept_language("de-AT, en;q=0.5") == "de-AT, en;q=0.5"
    with pytest.raises(ValueError):
        normalize_accept_language("!!")


def envelope(tmp_path: Path) -> Envelope:
    return Envelope(ClientState("a.example", ServerStateDB(tmp_path / "s.sqlite3")), ContextSettings(), "de-AT")


def test_every_request_carries_state_language_and_tools_call_context(tmp_path: Path) -> None:
    env = envelope(tmp_path)
    env.state.absorb({SERVER: {"a": 1}})
    listed = env.outgoing(JSONRPCRequest(jsonrpc="2.0", id=1, method="tools/list"))
    assert listed.params == {"_meta": {SERVER: {"a": 1}, "io.modelcontextprotocol/acceptLanguage": "de-AT"}}
    call = env.outgoing(JSONRPCRequest(jsonrpc="2.0", id=2, method="tools/call", params={"name": "x"}))
    context = call.params["_meta"]["dev.horologe/clientContext"]  # type: ignore[index]
    assert "currentTimestamp" in context
    init = env.outgoing(JSONRPCRequest(jsonrpc="2.0", id=3, method="initialize", params={"capabilities": {}}))
    assert init.params is not None
    assert init.params["capabilities"] == {"state": {}, "extensions": {"dev.horologe/client-state": {}}}


def test_content_language_disagreeing_with_meta_is_malformed(tmp_path: Path) -> None:
    env = envelope(tmp_path)
    env.content_language_headers["7"] = "en"
    meta = {"io.modelcontextprotocol/contentLanguage": "de", SERVER: {"a": 1}}
    verdict = env.incoming(JSONRPCResponse(jsonrpc="2.0", id=7, result={"_meta": meta}))
    assert isinstance(verdict, JSONRPCError) and "Malformed response" in verdict.error.message
    assert env.state.outgoing() == {}  # nothing from a malformed response is kept
    env.content_language_headers["8"] = "de"
    assert isinstance(env.incoming(JSONRPCResponse(jsonrpc="2.0", id=8, result={"_meta": meta})), JSONRPCResponse)
    assert env.state.outgoing() == {SERVER: {"a": 1}}
