"""The seed's prompt: `time_query_assistant`, a template that turns a time question into precise tool calls."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from horologe.context import RequestContext
from horologe.core.errors import InvalidArgument
from horologe.core.messages import N_
from horologe.tools.present import DAY_NAMES, iso, zone_of

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


def get_prompt(name: str, arguments: Mapping[str, str] | None, ctx: RequestContext) -> dict[str, Any] | None:
    """The prompt's messages for these arguments, or None when no prompt has this name."""
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
    zone = zone_of(zone_text, ctx) if zone_text else ctx.default_zone
    local_now = ctx.now.astimezone(zone.tz)
    context = _text(args, "current_context", required=False) or (
        f"It is now {iso(local_now)} ({DAY_NAMES[local_now.weekday()]}) in {zone.key}."
    )
    text = (
        "You are answering a question about dates and times. Do not guess the current date, time or any offset: "
        "use the horologe tools.\n\n"
        f"Context: {context}\n"
        f"User's timezone: {zone.key}\n\n"
        "Tools: get_current_time (now in a zone), convert_timezone (any date, reports DST gaps and repeated "
        "times), calculate_duration (time between two timestamps), format_time (ISO 8601, RFC 2822, Unix, "
        "custom), get_timezone_info (offsets and next DST change), list_timezones (find a zone by region, "
        "country or city).\n"
        "Use IANA names such as 'America/New_York' and ISO 8601 timestamps in tool arguments. If a local time "
        "falls into a DST change, say which reading you used.\n\n"
        f"Question: {query}"
    )
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
