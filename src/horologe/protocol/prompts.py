"""The seed's prompt: `time_query_assistant`, a template that turns a time question into precise tool calls."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from horologe.context import RequestContext
from horologe.core.errors import InvalidArgument
from horologe.core.messages import N_
from horologe.core.weekdays import DAY_NAMES
from horologe.tools.present import iso, zone_of

PROMPT_NAME = "time_query_assistant"
MAX_ARGUMENT_LENGTH = 4000
PROMPTS: tuple[dict[str, Any], ...] = (
    {
        "name": PROMPT_NAME,
        "title": "Time query assistant",
        "description": "Helps answer a time-related question precisely: states the current time and zone, and "
        "which horologe tools to call with which arguments.",
        "arguments": [
            {
                "name": "user_query",
                "title": "Question",
                "description": "The user's time-related question.",
                "required": True,
            },
            {
                "name": "current_context",
                "title": "Current context",
                "description": "What is known about the user's time and place, e.g. 'in Vienna, planning a call "
                "with New York'. Defaults to the current time in the timezone below.",
                "required": False,
            },
            {
                "name": "timezone",
                "title": "User's timezone",
                "description": "The user's timezone (IANA name, city or offset). Defaults to the server's zone.",
                "required": False,
            },
        ],
    },
)
ARGUMENT_NAMES = frozenset(argument["name"] for argument in PROMPTS[0]["arguments"])


TOOL_USES: dict[str, str] = {
    "get_current_time": "the time now in a zone",
    "convert_timezone": "a time in another zone; the time may be words such as '9am PST' or 'next Tuesday 4pm'",
    "resolve_time_expression": "what a phrase means: 'next Tuesday', 'the last day of February', 'Easter 2027', "
    "'every weekday at 9:30'",
    "calculate_duration": "how long between two times, or someone's age",
    "format_time": "a time written as RFC 2822, Unix time, readable text or a strftime pattern",
    "add_time": "a given time plus or minus an amount",
    "get_timezone_info": "DST now and the next clock change",
    "list_timezones": "the zones of a region or country",
    "date_info": "the weekday, ISO week and other calendars of a date",
    "business_days": "working days between dates",
    "list_holidays": "a country's public holidays",
}
"""What each tool of the everyday surface answers, for the prompt: only the offered ones are named."""


def get_prompt(
    name: str, arguments: Mapping[str, str] | None, ctx: RequestContext, offered: Iterable[str] = TOOL_USES
) -> dict[str, Any] | None:
    """The prompt's messages for these arguments, or None when no prompt has this name; it names the `offered`
    tools it knows a use for."""
    if name != PROMPT_NAME:
        return None
    args = dict(arguments or {})
    unknown = sorted(set(args) - ARGUMENT_NAMES)
    if unknown:
        raise InvalidArgument(
            N_("Unknown prompt argument(s) {unknown}; use {known}."),
            unknown=", ".join(unknown),
            known=", ".join(sorted(ARGUMENT_NAMES)),
        )
    query = _text(args, "user_query", required=True)
    zone_text = _text(args, "timezone", required=False)
    zone = zone_of(zone_text, ctx) if zone_text else ctx.user_zone()
    local_now = ctx.now.astimezone(zone.tz)
    context = _text(args, "current_context", required=False) or (
        f"It is now {iso(local_now)} ({DAY_NAMES[local_now.weekday()]}) in {zone.key}."
    )
    tools = "; ".join(f"{tool} ({use})" for tool, use in TOOL_USES.items() if tool in set(offered))
    text = (
        "You are answering a question about dates and times. Do not guess the current date, time or any offset: "
        "use the horologe tools.\n\n"
        f"Context: {context}\n"
        f"User's timezone: {zone.key}\n\n"
        f"Tools: {tools}.\n"
        "Zones may be IANA names or cities; times ISO 8601 or words. When a result gives an 'alternative' "
        "reading, or a local time falls into a DST change, say which reading you used.\n\n"
        f"Question: {query}"
    )
    ctx.language.fall_back()  # the prompt is written in English only: `contentLanguage` says so
    return {
        "description": f"Time query assistant for: {query[:80]}",
        "messages": [{"role": "user", "content": {"type": "text", "text": text}}],
    }


def _text(args: Mapping[str, str], key: str, *, required: bool) -> str:
    value = args.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise InvalidArgument(N_("Prompt argument '{key}' is required and must not be empty."), key=key)
        return ""
    if not isinstance(value, str):
        raise InvalidArgument(N_("Prompt argument '{key}' must be a string."), key=key)
    if len(value) > MAX_ARGUMENT_LENGTH:
        raise InvalidArgument(
            N_("Prompt argument '{key}' is longer than {limit} characters; shorten it."),
            key=key,
            limit=MAX_ARGUMENT_LENGTH,
        )
    return value.strip()
