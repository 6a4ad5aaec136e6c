"""SEP-1655 on the wire: verify the state a request carries, hand it to the handler, sign what the handler sets.

A `ServerMiddleware` `(ctx, call_next)`. For every request (never a notification) it verifies both scopes of
`params._meta` into a context variable (`current_state()`), runs the handler, then adds the signed updates
and a report of ignored items to the result's `_meta`. Unknown `_meta` keys are never looked at.

Whether the client keeps state is the `state` client capability: in the initialize era it is
`capabilities.state` of the `initialize` request (the SDK's typed `client_params` drops unknown capability
fields, so the raw params are recorded here, per connection); in the 2026-07-28 era it is in each
request's `_meta["io.modelcontextprotocol/clientCapabilities"]`. A request that already carries state
shows the client keeps it. When the handshake is not visible (stateless HTTP in the initialize era,
where every POST is a fresh connection) the capability is "unknown": state is still set, and tools say so.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Literal

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from pydantic import BaseModel

from horologe.clock import Clock
from horologe.config import Settings
from horologe.state import (
    ANY_STATE_KEY,
    MAX_ITEM_BYTES,
    MAX_ITEMS,
    SCOPES,
    STATE_KEYS,
    STATE_REPORT_META_KEY,
    Item,
    Scope,
    ScopeState,
    SigningKeys,
    StateCodec,
    item_size,
)

logger = logging.getLogger("horologe")

Capability = Literal["declared", "inferred", "absent", "unknown"]
CLIENT_CAPABILITIES_META_KEY: Final = "io.modelcontextprotocol/clientCapabilities"
STATE_EXTENSION: Final = "io.modelcontextprotocol/state"
_CONNECTION_KEY: Final = "horologe.state_capability"


class StateFull(ValueError):
    """Setting this item would exceed what a client is asked to store."""


@dataclass(slots=True)
class RequestState:
    """The verified state of one request and the changes its handler makes."""

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

_current: ContextVar[RequestState | None] = ContextVar("horologe_request_state", default=None)


def current_state() -> RequestState | None:
    """The state of the request being handled; None outside the middleware (REST, in-process calls)."""
    return _current.get()


def signing_keys(settings: Settings) -> SigningKeys:
    """The configured keys, or a random per-process key (with a warning on HTTP, where replicas must share one)."""
    section = settings.state
    if not section.keys:
        if settings.server.transport == "http":
            logger.warning(
                "no state signing key is configured (HOROLOGE_STATE__KEYS): client-side state is signed with a "
                "random key of this process, so other replicas and workers cannot read it; configure a shared key"
            )
        return SigningKeys.random()
    if section.active_key is None and len(section.keys) > 1:
        raise ValueError("state.keys has several keys: name the one to sign with in state.active_key")
    active = section.active_key or next(iter(section.keys))
    return SigningKeys({kid: secret.encode() for kid, secret in section.keys.items()}, active)


class StateMiddleware:
    """Verify request state into `current_state()`; sign the handler's updates into the result `_meta`."""

    def __init__(self, codec: StateCodec, clock: Clock) -> None:
        self.codec = codec
        self.clock = clock

    @classmethod
    def from_settings(cls, settings: Settings, clock: Clock) -> StateMiddleware:
        return cls(StateCodec(signing_keys(settings), settings.state.default_max_age_seconds), clock)

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.request_id is None:  # notifications carry no state and get none
            return await call_next(ctx)
        raw_meta = _raw_meta(ctx)
        if ctx.method == "initialize":
            _remember_initialize_capability(ctx)
            return await call_next(ctx)
        now_ms = int(self.clock.now().timestamp() * 1000)
        now = now_ms // 1000
        carries = raw_meta is not None and not ANY_STATE_KEY.isdisjoint(raw_meta)
        # Most requests carry no state: they share one empty reading (RequestState never changes `scopes`).
        scopes = self.codec.read(raw_meta, now) if carries else NO_STATE
        state = RequestState(scopes, capability_of(ctx, raw_meta, carries), now, now_ms)
        token = _current.set(state)
        try:
            result = await call_next(ctx)
        finally:
            _current.reset(token)
        return self.attach(result, state)

    def attach(self, result: HandlerResult, state: RequestState) -> HandlerResult:
        """The result with signed updates and the ignored-state report added to its `_meta`."""
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
            additions[STATE_REPORT_META_KEY] = {"ignored": ignored}
        if not additions or result is None:
            return result
        body = (
            result.model_dump(by_alias=True, mode="json", exclude_none=True)
            if isinstance(result, BaseModel)
            else result
        )
        meta = body.get("_meta")
        body["_meta"] = {**(meta if isinstance(meta, Mapping) else {}), **additions}
        return body


def _raw_meta(ctx: ServerRequestContext[Any, Any]) -> Mapping[str, Any] | None:
    params = ctx.params
    meta = params.get("_meta") if isinstance(params, Mapping) else None
    if isinstance(meta, Mapping):
        return meta
    return ctx.meta if isinstance(ctx.meta, Mapping) else None


def _declares_state(capabilities: object) -> bool:
    if not isinstance(capabilities, Mapping):
        return False
    extensions = capabilities.get("extensions")
    return "state" in capabilities or (isinstance(extensions, Mapping) and STATE_EXTENSION in extensions)


def _connection_state(ctx: ServerRequestContext[Any, Any]) -> dict[str, Any] | None:
    # The SDK exposes the per-connection scratch dict on `Connection.state`, but a low-level handler's
    # ServerSession keeps its Connection private; read it defensively.
    connection = getattr(ctx.session, "_connection", None)
    scratch = getattr(connection, "state", None)
    return scratch if isinstance(scratch, dict) else None


def _remember_initialize_capability(ctx: ServerRequestContext[Any, Any]) -> None:
    scratch = _connection_state(ctx)
    params = ctx.params if isinstance(ctx.params, Mapping) else {}
    if scratch is not None:
        scratch[_CONNECTION_KEY] = _declares_state(params.get("capabilities"))


def capability_of(ctx: ServerRequestContext[Any, Any], meta: Mapping[str, Any] | None, carries: bool) -> Capability:
    """Whether this request's client keeps state: declared, shown by sending state (`carries`), absent, or unknown."""
    envelope = meta.get(CLIENT_CAPABILITIES_META_KEY) if meta is not None else None
    if _declares_state(envelope):
        return "declared"
    handshake = None
    if not isinstance(envelope, Mapping):  # the 2026 envelope, when present, is the whole answer
        scratch = _connection_state(ctx)
        handshake = scratch.get(_CONNECTION_KEY) if scratch is not None else None
    if handshake:
        return "declared"
    if carries:
        return "inferred"
    if isinstance(envelope, Mapping) or handshake is False:
        return "absent"
    return "unknown"
