"""SEP-2792 on the MCP surface: negotiate each request's language and report it on every answer.

`LanguageMiddleware` is the outermost of our SDK middlewares. For every request it reads the raw
`params._meta["io.modelcontextprotocol/acceptLanguage"]`, negotiates against the languages we ship (a
malformed, absent or unmatched preference gives the default language, never an error) and makes the choice
current for that request only. When the request carried a valid preference, the answer says which
language was used: `result._meta[contentLanguage]`, or `error.data._meta[contentLanguage]` when the error's
`data` is an object (or absent: we create the object). Both eras and every transport pass through here.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS
from pydantic import ValidationError

from horologe.i18n import CONTENT_LANGUAGE_META, DEFAULT_LANGUAGE
from horologe.i18n.messages import SERVER_TITLE
from horologe.i18n.translate import N_, LanguageChoice, choose_from_meta, current, gettext, using

SERVER_INFO_META = "io.modelcontextprotocol/serverInfo"
INVALID_REQUEST_PARAMETERS = N_("Invalid request parameters")


class LanguageMiddleware:
    """SDK `ServerMiddleware`: the request's language in, `contentLanguage` out."""

    def __init__(self, default_language: str = DEFAULT_LANGUAGE) -> None:
        self.default_language = default_language

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.request_id is None:  # notifications carry no answer
            return await call_next(ctx)
        with using(choose_from_meta(ctx.params, self.default_language)) as choice:
            try:
                result = await call_next(ctx)
            except MCPError as exc:
                if choice.requested:
                    annotate_error(exc, choice)
                raise
            except ValidationError:
                # The SDK would answer -32602 with `data: ""`, which cannot carry `_meta`: answer it ourselves.
                if not choice.requested:
                    raise
                error = MCPError(code=INVALID_PARAMS, message=gettext(INVALID_REQUEST_PARAMETERS))
                annotate_error(error, choice)
                raise error from None
            if isinstance(result, dict):
                localize_server_title(result, choice)
                if choice.requested:
                    meta = result.get("_meta")
                    result["_meta"] = {
                        **(meta if isinstance(meta, dict) else {}),
                        CONTENT_LANGUAGE_META: choice.content_language,
                    }
            return result


def annotate_error(error: MCPError, choice: LanguageChoice) -> None:
    """Put `contentLanguage` in `error.data._meta` when `data` is an object or absent; other shapes stay as they are.

    Messages we wrote follow the choice; the SDK's own messages ("Method not found") are English.
    """
    data = error.error.data
    if data is not None and not isinstance(data, dict):
        return
    language = choice.content_language if _is_ours(error) else "en"
    body = dict(data or {})
    meta = body.get("_meta")
    body["_meta"] = {**(meta if isinstance(meta, dict) else {}), CONTENT_LANGUAGE_META: language}
    error.error.data = body


def _is_ours(error: MCPError) -> bool:
    # The SDK's own messages are English; everything else that reaches here was written by us in the request's
    # language (or has already recorded its English fallback on the choice).
    return error.error.message not in _SDK_MESSAGES


_SDK_MESSAGES = frozenset({"Method not found", "Invalid request parameters", "Handler returned an invalid result"})


def localize_server_title(result: dict[str, Any], choice: LanguageChoice) -> None:
    """The server's `title` in the request's language: `initialize`, `server/discover` and the 2026 stamp."""
    title = gettext(SERVER_TITLE, choice.tag)
    if title == SERVER_TITLE and choice.tag == "en":
        return
    for holder in (result, result.get("_meta")):
        info = holder.get("serverInfo") if isinstance(holder, dict) else None
        if isinstance(info, dict) and "title" in info:
            holder["serverInfo"] = {**info, "title": title}  # type: ignore[index]
    meta = result.get("_meta")
    stamp = meta.get(SERVER_INFO_META) if isinstance(meta, dict) else None
    if isinstance(meta, dict) and isinstance(stamp, dict) and "title" in stamp:
        meta[SERVER_INFO_META] = {**stamp, "title": title}


async def send_progress(
    ctx: ServerRequestContext[Any, Any], progress: float, total: float | None, message: str
) -> None:
    """A `notifications/progress` for the request's token, with its message in the request's language.

    The notification reports the language of its message in `params._meta` when the request asked for one.
    Nothing is sent when the caller did not ask for progress.
    """
    meta = ctx.params.get("_meta") if isinstance(ctx.params, dict) else None
    token = meta.get("progressToken") if isinstance(meta, dict) else None
    if not isinstance(token, str | int) or isinstance(token, bool) or ctx.request_id is None:
        # No token on the wire (the SDK's in-process client passes its callback beside the message):
        # the SDK's own reporting, which has no `_meta` to carry the language.
        await ctx.session.report_progress(progress, total, message)
        return
    params: dict[str, Any] = {"progressToken": token, "progress": progress, "message": message}
    if total is not None:
        params["total"] = total
    choice = current()
    if choice is not None and choice.requested:
        params["_meta"] = {CONTENT_LANGUAGE_META: choice.tag}
    notification = types.ProgressNotification(params=types.ProgressNotificationParams.model_validate(params))
    await ctx.session.send_notification(notification, related_request_id=ctx.request_id)
