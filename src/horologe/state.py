"""Client-side state (SEP-1655): the server signs what it asks the client to keep, and verifies what comes back.

The server sets state in a result's `_meta` under two keys, one per lifetime, each a dictionary of
name -> JSON value (`null` deletes; top-level merge). The client sends the whole dictionary back in
every request's `params._meta`. The client is not trusted, so every value we set travels in an envelope::

    {"v": <value>, "iat": <issued, unix seconds>, "exp": <expires, unix seconds>, "kid": "<key id>",
     "sig": "<base64url HMAC-SHA256>"}

The MAC covers a version tag, the scope, the item's name, the value, `iat` and `exp`, so an item cannot
be edited, renamed, moved to the other scope or have its expiry extended. Keys rotate through
configuration: new items are signed with the active key, items signed with any configured key verify.
What cannot be used (unsigned, tampered, unknown key, expired, from the future, too large, malformed,
more than `MAX_ITEMS` items) is dropped and reported; nothing here raises on client input.

Replay of an *older* validly signed value (e.g. a timer the user stopped) cannot be prevented without
server storage; `iat` is exposed so a tool can prefer the newest, and `exp` bounds how long a replay works.

The `_meta` keys (and why they are spelled as SEP-1655 spells them) are in `horologe.wire`.
`RequestState` is one request's verified state and the updates its tools make; the protocol edge reads it
from the request and signs the updates into the answer (`horologe.protocol.state`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import math
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import islice
from types import MappingProxyType
from typing import Any, Final, Literal

from horologe.wire import STATE_KEY_SPELLINGS

Scope = Literal["session", "server"]
SCOPES: Final[tuple[Scope, ...]] = ("session", "server")
Capability = Literal["declared", "inferred", "absent", "unknown"]


MAX_ITEM_BYTES: Final = 4096  # name + serialized envelope, the seed's per-item storage minimum
MAX_ITEMS: Final = 20  # per scope, the seed's per-server minimum
TOO_MANY: Final = "(too many items)"
"""The ignored-state report's entry for the items past `MAX_ITEMS`, which are not read."""
MAX_AGE_SECONDS: Final = 34_560_000  # 400 days, the seed's max-age ceiling
CLOCK_SKEW_SECONDS: Final = 300
_MAC_VERSION: Final = "horologe-state/1"
_ENVELOPE_FIELDS: Final = frozenset({"v", "iat", "exp", "kid", "sig"})


def canonical(value: object) -> bytes:
    """The bytes a MAC covers: compact, key-sorted JSON.

    Values we sign avoid floats, so a client that re-serializes numbers (100.0 -> 100) cannot break the MAC.
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()


def item_size(name: str, envelope: object) -> int:
    """The size of one stored item: its name plus its serialized value, in UTF-8 bytes."""
    return len(name.encode()) + len(canonical(envelope))


@dataclass(frozen=True, slots=True)
class SigningKeys:
    """The HMAC keys by id, and the id new items are signed with."""

    keys: Mapping[str, bytes]
    active: str

    def __post_init__(self) -> None:
        if self.active not in self.keys:
            raise ValueError(f"active key id {self.active!r} is not among the configured keys")

    @classmethod
    def random(cls) -> SigningKeys:
        """A fresh per-process key (stdio without configuration; state then lives as long as the process)."""
        kid = "ephemeral-" + secrets.token_hex(4)  # items of an earlier process then read as "unknown signing key"
        return cls({kid: secrets.token_bytes(32)}, kid)


@dataclass(frozen=True, slots=True)
class Item:
    """A verified state item."""

    value: Any
    issued_at: int
    expires_at: int


@dataclass(slots=True)
class ScopeState:
    """One scope's verified items and what was ignored, by name, with the reason."""

    items: dict[str, Item] = field(default_factory=dict)
    ignored: dict[str, str] = field(default_factory=dict)


class StateCodec:
    """Signs and verifies state items with the configured keys."""

    def __init__(self, keys: SigningKeys, default_max_age: int = MAX_AGE_SECONDS) -> None:
        self.keys = keys
        self.default_max_age = max(1, min(default_max_age, MAX_AGE_SECONDS))

    def _mac(self, key: bytes, scope: str, name: str, value: object, iat: int, exp: int) -> bytes:
        message = canonical([_MAC_VERSION, scope, name, value, iat, exp])
        return hmac.new(key, message, hashlib.sha256).digest()

    def sign(self, scope: Scope, name: str, value: object, now: int, max_age: int | None = None) -> dict[str, Any]:
        """The envelope the client stores for `name` in `scope`."""
        age = self.default_max_age if max_age is None else max(1, min(max_age, MAX_AGE_SECONDS))
        exp = now + age
        kid = self.keys.active
        mac = self._mac(self.keys.keys[kid], scope, name, value, now, exp)
        return {"v": value, "iat": now, "exp": exp, "kid": kid, "sig": _b64(mac)}

    def verify(self, scope: Scope, name: str, envelope: object, now: int) -> Item | str:
        """The verified item, or the reason it cannot be used."""
        if not isinstance(envelope, Mapping):
            return "malformed: not a signed envelope"
        if set(envelope) != _ENVELOPE_FIELDS:
            return "malformed: not a signed envelope"
        iat, exp, kid, sig = envelope["iat"], envelope["exp"], envelope["kid"], envelope["sig"]
        if not (_is_int(iat) and _is_int(exp) and isinstance(kid, str) and isinstance(sig, str)):
            return "malformed: bad envelope fields"
        key = self.keys.keys.get(kid)
        if key is None:
            return "unknown signing key"
        try:
            expected = self._mac(key, scope, name, envelope["v"], iat, exp)
        except (TypeError, ValueError):
            return "malformed: value is not plain JSON"
        if not hmac.compare_digest(_b64(expected), sig):
            return "bad signature (tampered, or set for another name or scope)"
        if exp <= now:
            return "expired"
        if iat > now + CLOCK_SKEW_SECONDS:
            return "issued in the future"
        return Item(envelope["v"], iat, exp)

    def read(self, meta: Mapping[str, Any] | None, now: int) -> dict[Scope, ScopeState]:
        """Verify both scopes of a request's `_meta`; unknown keys elsewhere in `_meta` are not looked at."""
        result: dict[Scope, ScopeState] = {scope: ScopeState() for scope in SCOPES}
        if not isinstance(meta, Mapping):
            return result
        for scope in SCOPES:
            state = result[scope]
            for spelling in STATE_KEY_SPELLINGS[scope]:
                if spelling in meta:
                    self._read_scope(scope, meta[spelling], now, state)
        return result

    def _read_scope(self, scope: Scope, raw: object, now: int, state: ScopeState) -> None:
        if raw is None:
            return
        if not isinstance(raw, Mapping):
            state.ignored["*"] = "malformed: state must be an object of name -> value"
            return
        if len(raw) > MAX_ITEMS:  # the report names none of the extra items: it stays as small as the limit
            state.ignored[TOO_MANY] = f"{len(raw) - MAX_ITEMS} items past the first {MAX_ITEMS} in {scope} scope"
        for name, envelope in islice(raw.items(), MAX_ITEMS):
            label = _clip(str(name))
            if envelope is None:
                continue  # a deletion the client should have applied; nothing to use
            try:
                size = item_size(str(name), envelope)
            except (TypeError, ValueError):
                state.ignored[label] = "malformed: value is not plain JSON"
                continue
            if size > MAX_ITEM_BYTES:
                state.ignored[label] = f"too large ({size} bytes; at most {MAX_ITEM_BYTES})"
                continue
            verdict = self.verify(scope, str(name), envelope, now)
            if isinstance(verdict, Item):
                if name not in state.items or verdict.issued_at >= state.items[name].issued_at:
                    state.items[str(name)] = verdict
            else:
                state.ignored[label] = verdict


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and math.isfinite(value)


def _clip(text: str, limit: int = 64) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class StateFull(ValueError):
    """Setting this item would exceed what a client is asked to store."""


@dataclass(slots=True)
class RequestState:
    """The verified state of one request, whether its client keeps state, and the changes its tools make."""

    scopes: Mapping[Scope, ScopeState]  # read only
    capability: Capability
    now: int
    now_ms: int = 0
    updates: dict[Scope, dict[str, Any]] = field(default_factory=lambda: {scope: {} for scope in SCOPES})
    max_age: dict[tuple[Scope, str], int] = field(default_factory=dict)

    @property
    def supported(self) -> bool:
        """Whether the client may keep what we set (declared, shown, or not knowable here)."""
        return self.capability != "absent"

    def items(self, scope: Scope) -> dict[str, Item]:
        """The verified items of a scope, with this request's updates applied."""
        merged = dict(self.scopes[scope].items)
        for name, value in self.updates[scope].items():
            if value is None:
                merged.pop(name, None)
            else:
                merged[name] = Item(value, self.now, self.now + self.max_age.get((scope, name), 0))
        return merged

    def get(self, scope: Scope, name: str) -> Any:
        """A verified value, or None."""
        item = self.items(scope).get(name)
        return item.value if item is not None else None

    def set(self, scope: Scope, name: str, value: Any, max_age: int | None = None) -> None:
        """Ask the client to keep `value` under `name`; raises StateFull beyond the per-scope limits."""
        if name not in self.items(scope) and len(self.items(scope)) >= MAX_ITEMS:
            raise StateFull(f"at most {MAX_ITEMS} items can be kept in {scope} scope")
        self.updates[scope][name] = value
        if max_age is not None:
            self.max_age[(scope, name)] = max_age

    def delete(self, scope: Scope, name: str) -> None:
        """Ask the client to forget `name` (sent as null)."""
        self.updates[scope][name] = None

    def ignored(self) -> dict[str, dict[str, str]]:
        """What was ignored, by scope, with reasons."""
        return {scope: dict(self.scopes[scope].ignored) for scope in SCOPES if self.scopes[scope].ignored}


NO_STATE: Final[Mapping[Scope, ScopeState]] = MappingProxyType({scope: ScopeState() for scope in SCOPES})
"""The reading of a request that carries no state (shared: `RequestState` never changes its `scopes`)."""
