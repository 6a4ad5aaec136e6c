"""The state codec: signing, verification, rotation, expiry and limits (SEP-1655)."""

from __future__ import annotations

from typing import Any

import pytest

from horologe.state import MAX_ITEMS, TOO_MANY, SigningKeys, StateCodec
from horologe.wire import STATE_KEYS

NOW = 1_800_000_000
KEYS = SigningKeys({"k1": b"a" * 32, "k2": b"b" * 32}, "k1")


@pytest.fixture
def codec() -> StateCodec:
    return StateCodec(KEYS, default_max_age=3600)


def test_a_signed_item_verifies_with_its_value_and_times(codec: StateCodec) -> None:
    envelope = codec.sign("server", "prefs", {"timezone": "Europe/Vienna"}, NOW)
    assert set(envelope) == {"v", "iat", "exp", "kid", "sig"} and envelope["kid"] == "k1"
    item = codec.verify("server", "prefs", envelope, NOW + 10)
    assert not isinstance(item, str)
    assert (item.value, item.issued_at, item.expires_at) == ({"timezone": "Europe/Vienna"}, NOW, NOW + 3600)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda e: e | {"v": {"timezone": "Asia/Tokyo"}}, "bad signature"),
        (lambda e: e | {"exp": e["exp"] + 1000}, "bad signature"),
        (lambda e: e | {"iat": e["iat"] - 1}, "bad signature"),
        (lambda e: e | {"sig": e["sig"][:-2] + "AA"}, "bad signature"),
        (lambda e: e | {"kid": "k9"}, "unknown signing key"),
        (lambda e: e | {"extra": 1}, "malformed"),
        (lambda e: {k: v for k, v in e.items() if k != "sig"}, "malformed"),
        (lambda e: e | {"iat": "yesterday"}, "malformed"),
        (lambda e: e | {"exp": True}, "malformed"),
        (lambda e: e["v"], "malformed"),
        (lambda e: [e], "malformed"),
    ],
)
def test_tampered_and_malformed_envelopes_are_refused_with_a_reason(
    codec: StateCodec, change: Any, reason: str
) -> None:
    envelope = codec.sign("server", "prefs", {"timezone": "Europe/Vienna"}, NOW)
    verdict = codec.verify("server", "prefs", change(envelope), NOW)
    assert isinstance(verdict, str) and verdict.startswith(reason)


def test_an_item_replayed_under_another_scope_or_name_is_refused(codec: StateCodec) -> None:
    envelope = codec.sign("session", "horologe.timer.tea", {"started_ms": 1}, NOW)
    assert isinstance(codec.verify("server", "horologe.timer.tea", envelope, NOW), str)
    assert isinstance(codec.verify("session", "horologe.timer.coffee", envelope, NOW), str)


def test_expired_and_future_items_are_refused(codec: StateCodec) -> None:
    envelope = codec.sign("server", "x", 1, NOW)
    assert codec.verify("server", "x", envelope, NOW + 3600) == "expired"
    assert codec.verify("server", "x", envelope, NOW - 3600) == "issued in the future"


def test_rotation_signs_with_the_active_key_and_still_reads_the_old_one() -> None:
    old = StateCodec(SigningKeys({"k1": b"a" * 32}, "k1"))
    new = StateCodec(SigningKeys({"k1": b"a" * 32, "k2": b"b" * 32}, "k2"))
    assert new.sign("server", "x", 1, NOW)["kid"] == "k2"
    assert not isinstance(new.verify("server", "x", old.sign("server", "x", 1, NOW), NOW), str)
    retired = StateCodec(SigningKeys({"k2": b"b" * 32}, "k2"))
    assert retired.verify("server", "x", old.sign("server", "x", 1, NOW), NOW) == "unknown signing key"


def test_active_key_must_be_configured() -> None:
    with pytest.raises(ValueError):
        SigningKeys({"k1": b"a" * 32}, "k2")


def test_read_accepts_both_spellings_and_reports_what_it_ignores(codec: StateCodec) -> None:
    good = codec.sign("session", "a", 1, NOW)
    meta = {
        STATE_KEYS["session"] + "/": {"a": good, "b": {"v": 2}, "gone": None},
        STATE_KEYS["server"]: "not an object",
        "something/else": {"a": good},
    }
    state = codec.read(meta, NOW)
    assert {name: item.value for name, item in state["session"].items.items()} == {"a": 1}
    assert state["session"].ignored == {"b": "malformed: not a signed envelope"}
    assert state["server"].ignored == {"*": "malformed: state must be an object of name -> value"}


def test_oversized_items_and_items_beyond_twenty_are_ignored(codec: StateCodec) -> None:
    big = codec.sign("server", "big", "x" * 5000, NOW)
    many = {f"i{n:02d}": codec.sign("server", f"i{n:02d}", n, NOW) for n in range(MAX_ITEMS + 3)}
    state = codec.read({STATE_KEYS["server"]: {"big": big, **many}}, NOW)["server"]
    assert state.ignored["big"].startswith("too large")
    assert state.ignored[TOO_MANY] == f"4 items past the first {MAX_ITEMS} in server scope"
    assert len(state.items) == MAX_ITEMS - 1


def test_the_ignored_report_stays_small_however_many_items_come(codec: StateCodec) -> None:
    junk = {f"junk{n}": "x" for n in range(50_000)}
    state = codec.read({STATE_KEYS["server"]: junk}, NOW)["server"]
    assert len(state.ignored) == MAX_ITEMS + 1
    assert state.ignored[TOO_MANY] == f"{50_000 - MAX_ITEMS} items past the first {MAX_ITEMS} in server scope"


def test_read_never_raises_on_junk(codec: StateCodec) -> None:
    junk: tuple[object, ...] = (
        None,
        [],
        "x",
        {STATE_KEYS["session"]: {"a": float("nan")}},
        {STATE_KEYS["session"]: {1: 2}},
    )
    for meta in junk:
        codec.read(meta, NOW)  # type: ignore[arg-type]  # not a mapping on purpose: read must take any junk
