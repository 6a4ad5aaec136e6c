"""The request pipeline: the stages every request passes, whatever entry point it came through.

Stdio, Streamable HTTP in both eras, the REST endpoints and `horologe call` all run requests through the SDK
server's middleware chain, which `horologe.protocol.server.build_server` sets to, outermost first:

1. `ServerSpans` (only when tracing is configured): one SERVER span per message, parented on `_meta`'s
   trace context (SEP-414).
2. `Metrics.stage` (HTTP only): the operation's count and duration.
3. `ContextStage`: builds the request's `RequestContext` once and passes it down in an `Exchange`; on the way
   out it writes the answer's `_meta`: `contentLanguage` (SEP-2792), signed state updates and the
   ignored-state report (SEP-1655), the server's title in the request's language.
4. `ErrorStage`: turns whatever a handler raised into the JSON-RPC error of the one error table
   (`horologe.protocol.errors`), its message in the request's language; bugs are logged, never described.

Then the SDK validates the params and calls the handler (`horologe.protocol.handlers`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError

from horologe.context import RequestContext
from horologe.i18n import SOURCE_LANGUAGE
from horologe.i18n.language import Language, gettext
from horologe.i18n.messages import SERVER_TITLE
from horologe.protocol.context import ContextBuilder, Exchange
from horologe.protocol.errors import protocol_error
from horologe.protocol.state import StateReader
from horologe.wire import CONTENT_LANGUAGE_META, SERVER_INFO_META

LanguageObserver = Callable[[ServerRequestContext[Any, Any], Language], None]
"""Told the `Language` a request is answered in (an entry point's headers need it; HTTP's `Content-Language`).
The object it is given is the one the answer uses: a fallback to English after an error shows in it."""


class RenderedError(MCPError):
    """A JSON-RPC error whose message the pipeline wrote in the request's language (the SDK's own are English).

    `status` is the HTTP status the error table gives it, for entry points that answer over plain HTTP (REST).
    """

    def __init__(self, code: int, message: str, data: Any = None, *, status: int = 400) -> None:
        super().__init__(code, message, data)
        self.status = status


class ContextStage:
    """Build the request's context once; write the answer's `_meta` from it."""

    def __init__(
        self, builder: ContextBuilder, state: StateReader | None, on_language: LanguageObserver | None = None
    ) -> None:
        self.builder = builder
        self.state = state
        self.on_language = on_language

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.request_id is None:  # notifications carry no answer
            return await call_next(ctx)
        session = ctx.session
        context = self.builder.build(ctx.params, session.client_capabilities, session.client_params is not None)
        if self.on_language is not None:
            self.on_language(ctx, context.language)
        try:
            result = await call_next(Exchange(**vars(ctx), context=context))
        except MCPError as exc:
            if context.language.requested:
                used = context.language.content_language if isinstance(exc, RenderedError) else SOURCE_LANGUAGE
                if not isinstance(exc, RenderedError):
                    context.language.fall_back()
                _annotate_error(exc, used)
            raise
        if isinstance(result, dict):
            self._finish(result, context)
        return result

    def _finish(self, result: dict[str, Any], context: RequestContext) -> None:
        additions: dict[str, Any] = {}
        if self.state is not None and context.state is not None:
            additions |= self.state.sign(context.state)
        if context.language.requested:
            additions[CONTENT_LANGUAGE_META] = context.language.content_language
        _localize_server_title(result, context.language)
        if additions:
            meta = result.get("_meta")
            result["_meta"] = {**(meta if isinstance(meta, dict) else {}), **additions}


async def error_stage(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Answer what a handler raised with the error table's code and a message in the request's language."""
    try:
        return await call_next(ctx)
    except MCPError:
        raise  # the SDK's own answers (method not found, unsupported version, ...)
    except Exception as exc:
        if ctx.request_id is None:
            raise
        language = ctx.context.language if isinstance(ctx, Exchange) else Language()
        error, status = protocol_error(exc, language, ctx.method)
        raise RenderedError(error.error.code, error.error.message, error.error.data, status=status) from None


def _annotate_error(error: MCPError, language: str) -> None:
    """Put `contentLanguage` in `error.data._meta` when `data` is an object or absent; other shapes stay as they are."""
    data = error.error.data
    if data is not None and not isinstance(data, dict):
        return
    body = dict(data or {})
    meta = body.get("_meta")
    body["_meta"] = {**(meta if isinstance(meta, dict) else {}), CONTENT_LANGUAGE_META: language}
    error.error.data = body


def _localize_server_title(result: dict[str, Any], language: Language) -> None:
    """The server's `title` in the request's language: `initialize`, `server/discover` and the 2026 stamp."""
    if language.tag == SOURCE_LANGUAGE:
        return
    title = gettext(SERVER_TITLE, language.tag)
    for holder in (result, result.get("_meta")):
        info = holder.get("serverInfo") if isinstance(holder, dict) else None
        if isinstance(info, dict) and "title" in info:
            holder["serverInfo"] = {**info, "title": title}  # type: ignore[index]
    meta = result.get("_meta")
    stamp = meta.get(SERVER_INFO_META) if isinstance(meta, dict) else None
    if isinstance(meta, dict) and isinstance(stamp, dict) and "title" in stamp:
        meta[SERVER_INFO_META] = {**stamp, "title": title}
