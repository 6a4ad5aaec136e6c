"""Errors at the protocol edge: domain errors become tool results, bugs become a generic -32603."""

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

logger = logging.getLogger("horologe")


def tool_error(error: TimeError) -> dict[str, Any]:
    """A `tools/call` result that tells the model what went wrong and how to fix it."""
    text = error.message
    if error.suggestions and "Did you mean" not in text:
        text += f" Suggestions: {', '.join(error.suggestions)}."
    return {
        "content": [{"type": "text", "text": text}],
        "structuredContent": {"error": error.to_dict()},
        "isError": True,
    }


def arguments_error(tool: str, exc: ValidationError, accepted: Sequence[str]) -> InvalidArguments:
    """Describe pydantic's complaint about tool arguments in words a model can act on."""
    problems = []
    for item in exc.errors(include_url=False):
        name = ".".join(str(part) for part in item["loc"]) or "arguments"
        if item["type"] == "extra_forbidden":
            problems.append(f"unknown argument {name!r}")
        elif item["type"] == "missing":
            problems.append(f"missing required argument {name!r}")
        else:
            problems.append(f"{name}: {item['msg']} (got {_preview(item.get('input'))})")
    return InvalidArguments(
        f"Invalid arguments for {tool}: {'; '.join(problems)}. Accepted arguments: {', '.join(accepted)}.",
        details={"tool": tool},
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
        raise MCPError(code=exc.code, message=exc.message, data={"error": exc.to_dict()}) from None
    except Exception:
        logger.exception("unexpected error while handling %s", ctx.method)
        raise MCPError(code=INTERNAL_ERROR, message="Internal error") from None


def invalid_params(message: str, **data: object) -> MCPError:
    """A -32602 protocol error (unknown tool, prompt or resource)."""
    return MCPError(code=INVALID_PARAMS, message=message, data=data or None)
