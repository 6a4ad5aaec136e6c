"""SEP-1655 at the protocol edge: read a request's state and capability, sign its updates into the answer.

Whether the client keeps state is the `state` client capability. In the initialize era it is declared in
`initialize` (`capabilities.state`, which the edges also record as the SEP-2133 extension the SDK keeps,
see `horologe.wire.normalize_request`); in the 2026-07-28 era it is in each request's
`_meta["io.modelcontextprotocol/clientCapabilities"]`. A request that already carries state shows the client
keeps it. When no handshake is visible (stateless HTTP in the initialize era, where every POST is a fresh
connection) the capability is "unknown": state is still set, and tools say so.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from mcp_types import ClientCapabilities

from horologe.config import Settings
from horologe.state import (
    MAX_ITEM_BYTES,
    NO_STATE,
    SCOPES,
    Capability,
    RequestState,
    SigningKeys,
    StateCodec,
    item_size,
)
from horologe.wire import ANY_STATE_KEY, STATE_EXTENSIONS, STATE_KEYS, STATE_REPORT_META

logger = logging.getLogger("horologe")


def signing_keys(settings: Settings) -> SigningKeys:
    """The configured keys, or a random key of this process (`horologe serve --transport http` makes one key for
    all its workers and says so at start: `horologe.http.serve.with_state_key`)."""
    section = settings.state
    if not section.keys:
        return SigningKeys.random()
    if section.active_key is None and len(section.keys) > 1:
        raise ValueError("state.keys has several keys: name the one to sign with in state.active_key")
    active = section.active_key or next(iter(section.keys))
    return SigningKeys({kid: secret.encode() for kid, secret in section.keys.items()}, active)


class StateReader:
    """Verifies the state a request carries and signs the updates its tools make."""

    def __init__(self, codec: StateCodec) -> None:
        self.codec = codec

    @classmethod
    def from_settings(cls, settings: Settings) -> StateReader:
        """A reader with the configured keys and default lifetime."""
        return cls(StateCodec(signing_keys(settings), settings.state.default_max_age_seconds))

    def read(
        self,
        meta: Mapping[str, Any],
        now: datetime,
        envelope: Mapping[str, Any] | None,
        declared: ClientCapabilities | None,
        handshake: bool,
    ) -> RequestState:
        """The verified state of a request and whether its client keeps state."""
        now_ms = int(now.timestamp() * 1000)
        carries = not ANY_STATE_KEY.isdisjoint(meta)
        # Most requests carry no state: they share one empty reading (RequestState never changes `scopes`).
        scopes = self.codec.read(meta, now_ms // 1000) if carries else NO_STATE
        return RequestState(scopes, capability_of(envelope, declared, handshake, carries), now_ms // 1000, now_ms)

    def sign(self, state: RequestState) -> dict[str, Any]:
        """The `_meta` entries that hand the request's updates to the client, and report what was ignored."""
        additions: dict[str, Any] = {}
        for scope in SCOPES:
            updates = state.updates[scope]
            if not updates:
                continue
            signed: dict[str, Any] = {}
            for name, value in updates.items():
                if value is None:
                    signed[name] = None
                    continue
                envelope = self.codec.sign(scope, name, value, state.now, state.max_age.get((scope, name)))
                if item_size(name, envelope) > MAX_ITEM_BYTES:  # tools check sizes; this is the last guard
                    logger.warning("state item %r is larger than %d bytes; not sent", name, MAX_ITEM_BYTES)
                    continue
                signed[name] = envelope
            additions[STATE_KEYS[scope]] = signed
        ignored = state.ignored()
        if ignored:
            additions[STATE_REPORT_META] = {"ignored": ignored}
        return additions


def _declares_state(capabilities: object) -> bool:
    if isinstance(capabilities, ClientCapabilities):
        return any(key in (capabilities.extensions or {}) for key in STATE_EXTENSIONS)
    if not isinstance(capabilities, Mapping):
        return False
    extensions = capabilities.get("extensions")
    return "state" in capabilities or (
        isinstance(extensions, Mapping) and any(k in extensions for k in STATE_EXTENSIONS)
    )


def capability_of(
    envelope: Mapping[str, Any] | None, declared: ClientCapabilities | None, handshake: bool, carries: bool
) -> Capability:
    """Whether a request's client keeps state: declared, shown by sending state (`carries`), absent, or unknown.

    The 2026 envelope, when present, is the whole answer; otherwise the connection's handshake decides.
    """
    if envelope is not None:
        if _declares_state(envelope):
            return "declared"
        return "inferred" if carries else "absent"
    if handshake and _declares_state(declared):
        return "declared"
    if carries:
        return "inferred"
    return "absent" if handshake else "unknown"
