"""`completion/complete`: timezone names for the prompt's timezone argument and the zone resource template, and
the template's years, which read the arguments the client already filled in (`context.arguments`)."""

from __future__ import annotations

from collections.abc import Mapping

from horologe.core.zones import suggest_zones
from horologe.protocol.errors import UnknownPrompt, UnknownResource
from horologe.protocol.prompts import PROMPT_NAME
from horologe.protocol.resources import MAX_YEARS, STATIC_RESOURCES, TEMPLATES, ZONE_TEMPLATE

MAX_VALUES = 100  # the protocol's limit per response
KNOWN_RESOURCES: frozenset[str] = frozenset(
    [entry["uri"] for entry in STATIC_RESOURCES] + [entry["uriTemplate"] for entry in TEMPLATES]
)
ZONE_ARGUMENTS: frozenset[tuple[str, str, str]] = frozenset(
    {("ref/prompt", PROMPT_NAME, "timezone"), ("ref/resource", ZONE_TEMPLATE, "zone")}
)


def complete(
    ref_type: str,
    ref_target: str,
    argument: str,
    value: str,
    known: Mapping[str, str] | None = None,
    this_year: int = 2026,
) -> tuple[list[str], int, bool]:
    """Suggestions for an argument: (values, total, has_more); empty for arguments we cannot complete.

    `known` is what the client already filled in (`context.arguments`): the zone template's year range reads it,
    so `to` is offered from the given `from` on (and `from` up to the given `to`) within the allowed span.
    A reference to a prompt or resource this server does not have is an invalid parameter (-32602)."""
    if ref_type == "ref/prompt" and ref_target != PROMPT_NAME:
        raise UnknownPrompt(name=repr(ref_target[:100]), prompts=PROMPT_NAME)
    if ref_type == "ref/resource" and ref_target not in KNOWN_RESOURCES:
        raise UnknownResource(uri=repr(ref_target[:200]), data={"uri": ref_target[:200]})
    if ref_type == "ref/resource" and ref_target == ZONE_TEMPLATE and argument in ("from", "to"):
        return _years(argument, value, known or {}, this_year)
    if (ref_type, ref_target, argument) not in ZONE_ARGUMENTS:
        return [], 0, False
    matches = suggest_zones(value[:64], limit=MAX_VALUES + 1)
    return matches[:MAX_VALUES], len(matches), len(matches) > MAX_VALUES


def _years(argument: str, value: str, known: Mapping[str, str], this_year: int) -> tuple[list[str], int, bool]:
    """Years for the zone template's `from` or `to`, kept within MAX_YEARS of the other bound when it is given."""
    other = _year(known.get("to" if argument == "from" else "from"))
    if argument == "to":
        first = other if other is not None else this_year
        years = range(first, min(first + MAX_YEARS, 9999))
    else:
        last = other if other is not None else this_year + 1
        years = range(max(last - MAX_YEARS + 1, 1), last + 1)
    values = [str(year) for year in years if str(year).startswith(value.strip())]
    return values[:MAX_VALUES], len(values), len(values) > MAX_VALUES


def _year(text: object) -> int | None:
    return int(text) if isinstance(text, str) and text.isdigit() and 1 <= int(text) <= 9998 else None
