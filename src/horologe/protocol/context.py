"""The one place a request's `RequestContext` is built, and the SDK context that carries it to the handlers.

`ContextBuilder.build` reads a request's raw `params._meta` once: the language (SEP-2792), the client
context (SEP-1809), the verified client-side state (SEP-1655) and what the client declared, the trace
context (SEP-414); it decides where the memory tools keep things (`horologe.memory`) and reads the stored
preferences from there; the clock gives "now" unless the client sent its own. The pipeline
(`horologe.protocol.pipeline`) hands the result down the SDK's middleware chain inside an `Exchange`, the
SDK's `ServerRequestContext` with one more field, so every handler receives it explicitly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from mcp.server.context import ServerRequestContext
from mcp_types import ClientCapabilities

from horologe.clock import Clock
from horologe.context import RequestContext
from horologe.core.client_context import NO_CONTEXT, read_client_context
from horologe.core.zones import ResolvedZone
from horologe.i18n.cldr import locale_known
from horologe.i18n.language import choose
from horologe.memory import LocalMemories, memories_for
from horologe.places import gazetteer, zone_at
from horologe.protocol.state import StateReader
from horologe.tools.preferences import stored_preferences
from horologe.wire import (
    ACCEPT_LANGUAGE_META,
    CLIENT_CAPABILITIES_META,
    CLIENT_CONTEXT_META,
    TRACE_META_KEYS,
    meta_of,
)

NO_META: Final[Mapping[str, Any]] = MappingProxyType({})


@dataclass(kw_only=True)
class Exchange(ServerRequestContext[Any, Any]):
    """The SDK's per-request context with horologe's `RequestContext`, as the pipeline passes it down."""

    context: RequestContext


def context_of(ctx: ServerRequestContext[Any, Any]) -> RequestContext:
    """The `RequestContext` the pipeline built for this request (handlers only run inside the pipeline)."""
    if not isinstance(ctx, Exchange):
        raise RuntimeError(f"{ctx.method} reached a handler without passing horologe's request pipeline")
    return ctx.context


class ContextBuilder:
    """Builds each request's context from its `_meta`, the clock, the default zone and language, and the state keys."""

    def __init__(
        self,
        clock: Clock,
        default_zone: ResolvedZone,
        default_language: str,
        state: StateReader | None,
        local: LocalMemories | None = None,
    ) -> None:
        self.clock = clock
        self.default_zone = default_zone
        self.default_language = default_language
        self.state = state
        self.local = local

    def build(
        self, params: Mapping[str, Any] | None, declared: ClientCapabilities | None = None, handshake: bool = False
    ) -> RequestContext:
        """The context of one request.

        `declared` is what the client declared for this connection (its `initialize`, or the 2026 envelope as the
        SDK read it) and `handshake` whether this connection had an `initialize`; the raw `_meta` envelope wins.
        """
        meta = meta_of(params) or NO_META
        raw_client = meta.get(CLIENT_CONTEXT_META)
        client = (
            read_client_context(raw_client, locale_known=locale_known, places=gazetteer(), zone_at=zone_at)
            if raw_client is not None
            else NO_CONTEXT
        )
        now = self.clock.now()
        envelope = meta.get(CLIENT_CAPABILITIES_META)
        capabilities = dict(envelope) if isinstance(envelope, Mapping) else _declared(declared)
        state = None
        if self.state is not None:
            state = self.state.read(meta, now, envelope if isinstance(envelope, Mapping) else None, declared, handshake)
        memory = memories_for(state, self.local)
        stored = stored_preferences(memory.preferences)
        return RequestContext(
            now=client.now or now,
            received_at=now,
            default_zone=client.zone or stored.zone or self.default_zone,
            language=choose(meta.get(ACCEPT_LANGUAGE_META), self.default_language),
            locale=client.locale or stored.locale,
            country=client.country,
            client=client,
            state=state,
            memory=memory,
            preferences=stored.values,
            capabilities=capabilities,
            trace={key: meta[key] for key in TRACE_META_KEYS if isinstance(meta.get(key), str)},
        )


def _declared(capabilities: ClientCapabilities | None) -> dict[str, Any]:
    if capabilities is None:
        return {}
    return {name: getattr(capabilities, name) for name in capabilities.model_fields_set}
