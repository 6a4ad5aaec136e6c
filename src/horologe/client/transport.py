"""A `Transport` wrapper that speaks the client half of SEP-1655, SEP-1809 and SEP-2792 on every message.

The SDK's `Client` has no request middleware (sdk-notes §A7); it accepts any `Transport`, so this wrapper
sits under it and rewrites each outgoing `JSONRPCRequest` and reads each incoming `JSONRPCResponse`:

- state: the `state` capability is declared (in `initialize` and in the 2026-07-28 per-request
  `clientCapabilities`, both as SEP-1655's `state` and as the SEP-2133 extension), the stored state goes into
  every request's `_meta`, never into a notification, and the state a result sets is kept (`ClientState`);
- context: `_meta["dev.horologe/clientContext"]` on every `tools/call`, with this call's time;
- language: `_meta["io.modelcontextprotocol/acceptLanguage"]` on every request, and on HTTP exactly one
  `Accept-Language` field with the same value; a response whose `Content-Language` header disagrees with
  its `_meta` contentLanguage is malformed and reaches the caller as an error.

Trace context (SEP-414) is injected by the SDK's dispatcher itself when an OpenTelemetry SDK is configured.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Final

from mcp.client import Transport
from mcp.shared.message import ClientMessageMetadata, SessionMessage
from mcp_types import ErrorData, JSONRPCError, JSONRPCRequest, JSONRPCResponse

from horologe.client.context import ContextSettings
from horologe.client.store import ClientState
from horologe.wire import (
    ACCEPT_LANGUAGE_META,
    CLIENT_CAPABILITIES_META,
    CLIENT_CONTEXT_META,
    CONTENT_LANGUAGE_META,
    STATE_EXTENSION,
)

MALFORMED_RESPONSE: Final = -32603


def declare_state(capabilities: object) -> dict[str, Any]:
    """Capabilities that declare client-side state: as SEP-1655 spells it (`state`) and as the SEP-2133 extension."""
    declared = dict(capabilities) if isinstance(capabilities, dict) else {}
    declared.setdefault("state", {})
    extensions = declared.get("extensions")
    declared["extensions"] = {**(extensions if isinstance(extensions, dict) else {}), STATE_EXTENSION: {}}
    return declared


@dataclass
class Envelope:
    """What the wrapper adds to requests, and what it learned from responses."""

    state: ClientState
    context: ContextSettings = field(default_factory=ContextSettings)
    accept_language: str | None = None
    # Filled by the HTTP client's response hook: request id -> Content-Language header of its response.
    content_language_headers: dict[str, str] = field(default_factory=dict)
    malformed: list[str] = field(default_factory=list)
    last_result_meta: dict[str, Any] = field(default_factory=dict)

    def outgoing(self, request: JSONRPCRequest) -> JSONRPCRequest:
        """The request with capability, state, language and (on tools/call) context added."""
        params: dict[str, Any] = dict(request.params or {})
        meta: dict[str, Any] = dict(params.get("_meta") or {})
        if request.method == "initialize":
            params["capabilities"] = declare_state(params.get("capabilities"))
        envelope_caps = meta.get(CLIENT_CAPABILITIES_META)
        if isinstance(envelope_caps, dict):
            meta[CLIENT_CAPABILITIES_META] = declare_state(envelope_caps)
        meta.update(self.state.outgoing())
        if self.accept_language:
            meta[ACCEPT_LANGUAGE_META] = self.accept_language
        if request.method == "tools/call" and self.context.enabled:
            meta.setdefault(CLIENT_CONTEXT_META, self.context.build())
        if meta:
            params["_meta"] = meta
        return JSONRPCRequest(jsonrpc="2.0", id=request.id, method=request.method, params=params)

    def incoming(self, response: JSONRPCResponse) -> JSONRPCResponse | JSONRPCError:
        """Keep the state a result sets; turn a language disagreement into an error."""
        meta = response.result.get("_meta")
        meta = meta if isinstance(meta, dict) else {}
        self.last_result_meta = meta
        header = self.content_language_headers.pop(str(response.id), None)
        declared = meta.get(CONTENT_LANGUAGE_META)
        if header is not None and declared is not None and header != declared:
            problem = f"Content-Language {header!r} disagrees with _meta contentLanguage {declared!r}"
            self.malformed.append(problem)
            error = ErrorData(code=MALFORMED_RESPONSE, message=f"Malformed response: {problem}")
            return JSONRPCError(jsonrpc="2.0", id=response.id, error=error)
        self.state.absorb(meta)
        return response


class _Read:
    def __init__(self, inner: Any, envelope: Envelope) -> None:
        self._inner = inner
        self._envelope = envelope

    def __getattr__(self, name: str) -> Any:  # e.g. `last_context`, read by the SDK when present
        return getattr(self._inner, name)

    async def receive(self) -> Any:
        item = await self._inner.receive()
        if isinstance(item, SessionMessage) and isinstance(item.message, JSONRPCResponse):
            return SessionMessage(self._envelope.incoming(item.message), item.metadata)
        return item

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> _Read:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except Exception as exc:
            if type(exc).__name__ in ("EndOfStream", "ClosedResourceError"):
                raise StopAsyncIteration from None
            raise

    async def __aenter__(self) -> _Read:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


class _Write:
    def __init__(self, inner: Any, envelope: Envelope) -> None:
        self._inner = inner
        self._envelope = envelope

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def send(self, item: SessionMessage, /) -> None:
        if isinstance(item.message, JSONRPCRequest):
            message = self._envelope.outgoing(item.message)
            metadata = item.metadata
            if self._envelope.accept_language:
                # SEP-2792: exactly one Accept-Language field line, equal to the _meta value (HTTP only).
                base = metadata if isinstance(metadata, ClientMessageMetadata) else ClientMessageMetadata()
                headers = {k: v for k, v in (base.headers or {}).items() if k.lower() != "accept-language"}
                headers["Accept-Language"] = self._envelope.accept_language
                metadata = ClientMessageMetadata(base.resumption_token, base.on_resumption_token_update, headers)
            item = SessionMessage(message, metadata)
        await self._inner.send(item)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _Write:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


class EnvelopeTransport:
    """Wraps a `Transport` (stdio, Streamable HTTP, in-memory) so every message carries the envelope."""

    def __init__(self, inner: Transport, envelope: Envelope) -> None:
        self.inner = inner
        self.envelope = envelope

    async def __aenter__(self) -> tuple[Any, Any]:
        read, write = await self.inner.__aenter__()
        return _Read(read, self.envelope), _Write(write, self.envelope)

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> bool | None:
        return await self.inner.__aexit__(exc_type, exc, tb)


def content_language_hook(envelope: Envelope) -> Callable[[Any], Any]:
    """An httpx response hook recording each JSON-RPC response's Content-Language by request id."""

    async def hook(response: Any) -> None:
        value = response.headers.get("content-language")
        if value is None:
            return
        try:
            body = json.loads(response.request.content or b"null")
        except (ValueError, AttributeError):
            return
        if isinstance(body, dict) and "id" in body:
            envelope.content_language_headers[str(body["id"])] = value

    return hook
