"""Asking the user instead of failing: an ambiguous zone (`IST`, `Springfield`) resolved by elicitation.

When a tool call fails only because a timezone argument names several zones, and the client declared the
`elicitation` capability, the server asks which one was meant, with the candidates as a closed list:
- 2026-07-28: the answer is an `InputRequiredResult` (SEP-2322) whose `inputRequests` hold one
  `elicitation/create` keyed by the argument's name; the client retries the same call with the user's choice in
  `inputResponses`, and the tool runs with it. No `requestState` is needed: the retry carries the arguments.
- 2025-06-18 and later, through `initialize`: an `elicitation/create` request to the client on the same
  connection (stdio, or HTTP with sessions); without a back channel the error stands.
A choice outside the candidates is asked for again (in the handshake era once more, then the error stands); a
declined or cancelled question gives the original error. Over the connection the server waits at most
`ANSWER_SECONDS` for each answer: a client that never answers, or answers with something that is not a response
(the stdio edge hands the SDK an error for it), gets the original error, with its candidates. One argument is
resolved per call: a second ambiguous argument comes back as the tool error it is.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS, is_version_at_least

from horologe.context import RequestContext
from horologe.core.errors import AmbiguousTimezone
from horologe.core.messages import N_, msg
from horologe.protocol.errors import ToolFailure

logger = logging.getLogger("horologe")
Outcome = dict[str, Any] | ToolFailure
Run = Callable[[dict[str, Any]], Awaitable[Outcome]]
QUESTION: Final = N_("{input} can mean several timezones. Which one do you mean?")
ANSWER_SECONDS: Final = 60.0
"""How long the handshake era waits for the user's answer to one question (a person reads and picks)."""
ASKS: Final = 2
"""Questions per call in the handshake era: the first, and once more after a choice outside the list."""


def ambiguous_argument(failure: ToolFailure, arguments: Mapping[str, Any]) -> tuple[str, list[str]] | None:
    """The argument whose zone is ambiguous and its candidates, when that is why the tool failed; else None.

    The error names the text that was ambiguous (`AmbiguousTimezone.input`): the argument holding that text is
    the one to ask about; nothing is resolved again.
    """
    error = failure.error
    if not isinstance(error, AmbiguousTimezone) or error.input is None:
        return None
    candidates = error.details.get("candidates")
    if not isinstance(candidates, list) or not candidates:
        return None
    for name, value in arguments.items():
        if isinstance(value, str) and value.strip() == error.input.strip():
            return name, [str(candidate) for candidate in candidates]
    return None


def declares_elicitation(context: RequestContext) -> bool:
    """Whether the client declared it can ask its user (form elicitation)."""
    return context.capabilities.get("elicitation") is not None


async def resolve_by_asking(
    ctx: ServerRequestContext[Any, Any],
    params: types.CallToolRequestParams,
    context: RequestContext,
    failure: ToolFailure,
    run: Run,
) -> Outcome:
    """The tool's outcome once the user chose among the candidates; the input request (2026-07-28); or `failure`."""
    result = failure
    arguments = dict(params.arguments or {})
    found = ambiguous_argument(failure, arguments)
    if found is None or not declares_elicitation(context):
        return result
    name, candidates = found
    question = context.language.render(msg(QUESTION, input=repr(arguments[name])))
    schema = {
        "type": "object",
        "properties": {name: {"type": "string", "title": name, "enum": candidates}},
        "required": [name],
    }
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        answer = (params.input_responses or {}).get(name)
        return await _answered(answer, name, candidates, arguments, run, result) or {
            "resultType": "input_required",
            "inputRequests": {
                name: {"method": "elicitation/create", "params": {"message": question, "requestedSchema": schema}}
            },
        }
    if not is_version_at_least(ctx.protocol_version, "2025-06-18"):
        return result
    for _ in range(ASKS):
        try:
            with anyio.fail_after(ANSWER_SECONDS):
                answer = await ctx.session.elicit_form(question, schema, related_request_id=ctx.request_id)
        except TimeoutError:
            logger.info("the client did not answer which zone it meant within %g s", ANSWER_SECONDS)
            return result
        except MCPError as exc:  # no back channel (stateless HTTP), a refusal, a malformed answer: the error stands
            logger.info("could not ask the client to choose a zone: %s", type(exc).__name__)
            return result
        done = await _answered(answer, name, candidates, arguments, run, result)
        if done is not None:
            return done
    return result


async def _answered(
    answer: object, name: str, candidates: list[str], arguments: dict[str, Any], run: Run, original: ToolFailure
) -> Outcome | None:
    """The tool run with the user's choice; the original error when they declined; None to ask (again)."""
    if not isinstance(answer, types.ElicitResult):
        return None
    if answer.action != "accept":
        return original
    choice = (answer.content or {}).get(name)
    if not isinstance(choice, str) or choice not in candidates:
        return None
    return await run({**arguments, name: choice})
