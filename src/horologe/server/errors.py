"""Errors at the protocol edge: domain errors become tool results, bugs become a generic -32603.

Messages meant for people are rendered here in the request's language (SEP-2792): a core error with a
`template` id is rendered from `ERROR_TEMPLATES` through the catalog; one without stays English and the
answer reports `contentLanguage: en`. `code`, `kind` and `suggestions` are never translated.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS
from pydantic import ValidationError

from horologe.core.errors import InvalidArguments, TimeError
from horologe.i18n import SOURCE_LANGUAGE
from horologe.i18n.translate import N_, current_tag, fall_back, gettext

logger = logging.getLogger("horologe")
ERROR_META_KEY = "dev.horologe/error"

ERROR_TEMPLATES: dict[str, str] = {
    "timezone.unknown": N_("Unknown timezone {input}."),
    "timezone.empty": N_("Timezone is empty."),
    "timestamp.invalid": N_(
        "Could not read {input} as a timestamp. Use ISO 8601 like '2025-08-17T10:30:00Z', Unix seconds like "
        "1755426600, RFC 2822 or an HTTP date."
    ),
    "date.invalid": N_("Could not read {input} as a date. Use an ISO 8601 date like '2025-08-17'."),
    "timestamp.out_of_range": N_("{input} is outside the supported range: years 1 to 9999."),
    "localtime.nonexistent": N_(
        "{wall} does not exist in {zone} (clocks skip it). Nearest readings: {first} or {second}. Pass "
        "disambiguation 'earlier', 'later' or 'compatible' to choose one."
    ),
    "localtime.ambiguous": N_(
        "{wall} happens twice in {zone} (clocks go back): {first} or {second}. Pass disambiguation 'earlier' or "
        "'later' to choose, or give an explicit UTC offset."
    ),
    "format.not_enabled": N_("Format {format} is not enabled on this server. Use one of: {formats}."),
    "format.custom_needs_pattern": N_("The format 'custom' needs custom_format, for example {example}."),
    "arguments.invalid": N_("Invalid arguments for {tool}: {problems}. Accepted arguments: {accepted}."),
    "arguments.unknown": N_("unknown argument {name}"),
    "arguments.missing": N_("missing required argument {name}"),
    "tool.unknown": N_("Unknown tool {name}. Available tools: {tools}."),
    "resource.unknown": N_("Unknown resource {uri}."),
    "prompt.unknown": N_("Unknown prompt {name}. Available: {prompts}."),
}
TIMEZONE_HELP = N_("Use an IANA name such as 'Europe/Vienna', a UTC offset such as '+05:30', or 'UTC'.")
DID_YOU_MEAN = N_("Did you mean {candidates}?")
SUGGESTIONS = N_("Suggestions: {suggestions}.")
INTERNAL_ERROR_MESSAGE = N_("Internal error")


def localized(template: str, english: str, **params: object) -> str:
    """A message in the request's language from its template, or `english` when the request speaks English."""
    if current_tag() == SOURCE_LANGUAGE:
        return english
    return gettext(ERROR_TEMPLATES[template]).format(**params)


def error_message(error: TimeError) -> str:
    """The error's message for people, in the request's language when the error has a template."""
    if current_tag() == SOURCE_LANGUAGE:
        return error.message
    if error.template not in ERROR_TEMPLATES:
        fall_back()
        return error.message
    text = gettext(ERROR_TEMPLATES[error.template]).format(**error.params)
    if error.template.startswith("timezone."):
        if error.params.get("candidates"):
            text += " " + gettext(DID_YOU_MEAN).format(candidates=error.params["candidates"])
        text += " " + gettext(TIMEZONE_HELP)
    return text


def error_dict(error: TimeError) -> dict[str, object]:
    """The structured error with its message in the request's language."""
    body = error.to_dict()
    body["message"] = error_message(error)
    return body


def tool_error(error: TimeError) -> dict[str, Any]:
    """A `tools/call` result that tells the model what went wrong and how to fix it."""
    body = error_dict(error)
    text = str(body["message"])
    if error.suggestions and "Did you mean" not in error.message:
        text += " " + gettext(SUGGESTIONS).format(suggestions=", ".join(error.suggestions))
    return {
        "content": [{"type": "text", "text": text}],
        # Not structuredContent: that must match the tool's outputSchema, and clients (the TypeScript SDK, the
        # Inspector) reject a result whose structured content does not, even on errors.
        "_meta": {ERROR_META_KEY: body},
        "isError": True,
    }


def arguments_error(tool: str, exc: ValidationError, accepted: Sequence[str]) -> InvalidArguments:
    """Describe pydantic's complaint about tool arguments in words a model can act on."""
    problems, localized_problems = [], []
    english_only = False
    for item in exc.errors(include_url=False):
        name = ".".join(str(part) for part in item["loc"]) or "arguments"
        if item["type"] in ("extra_forbidden", "missing"):
            template = "arguments.unknown" if item["type"] == "extra_forbidden" else "arguments.missing"
            problems.append(ERROR_TEMPLATES[template].format(name=repr(name)))
            localized_problems.append(gettext(ERROR_TEMPLATES[template]).format(name=repr(name)))
        else:
            # pydantic's own explanation is English: this message has no translation.
            english_only = True
            problems.append(f"{name}: {item['msg']} (got {_preview(item.get('input'))})")
    params = {"tool": tool, "problems": "; ".join(localized_problems), "accepted": ", ".join(accepted)}
    return InvalidArguments(
        f"Invalid arguments for {tool}: {'; '.join(problems)}. Accepted arguments: {', '.join(accepted)}.",
        details={"tool": tool},
        template=None if english_only else "arguments.invalid",
        params=params,
    )


def _preview(value: object) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


async def internal_errors(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Turn any unexpected exception into -32603 with a generic message; the traceback goes to the log."""
    try:
        return await call_next(ctx)
    except (MCPError, ValidationError):
        raise
    except TimeError as exc:
        body = error_dict(exc)
        raise MCPError(code=exc.code, message=str(body["message"]), data={"error": body}) from None
    except Exception:
        logger.exception("unexpected error while handling %s", ctx.method)
        raise MCPError(code=INTERNAL_ERROR, message=gettext(INTERNAL_ERROR_MESSAGE)) from None


def invalid_params(message: str, **data: object) -> MCPError:
    """A -32602 protocol error (unknown tool, prompt or resource)."""
    return MCPError(code=INVALID_PARAMS, message=message, data=data or None)
