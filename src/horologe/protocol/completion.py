"""`completion/complete`: timezone names for the prompt's timezone argument and the zone resource template."""

from __future__ import annotations

from horologe.core.zones import suggest_zones
from horologe.protocol.errors import UnknownPrompt, UnknownResource
from horologe.protocol.prompts import PROMPT_NAME
from horologe.protocol.resources import STATIC_RESOURCES, TEMPLATES, ZONE_TEMPLATE

MAX_VALUES = 100  # the protocol's limit per response
KNOWN_RESOURCES: frozenset[str] = frozenset(
    [entry["uri"] for entry in STATIC_RESOURCES] + [entry["uriTemplate"] for entry in TEMPLATES]
)
ZONE_ARGUMENTS: frozenset[tuple[str, str, str]] = frozenset(
    {("ref/prompt", PROMPT_NAME, "timezone"), ("ref/resource", ZONE_TEMPLATE, "zone")}
)


def complete(ref_type: str, ref_target: str, argument: str, value: str) -> tuple[list[str], int, bool]:
    """Suggestions for an argument: (values, total, has_more); empty for arguments we cannot complete.

    A reference to a prompt or resource this server does not have is an invalid parameter (-32602)."""
    if ref_type == "ref/prompt" and ref_target != PROMPT_NAME:
        raise UnknownPrompt(name=repr(ref_target[:100]), prompts=PROMPT_NAME)
    if ref_type == "ref/resource" and ref_target not in KNOWN_RESOURCES:
        raise UnknownResource(uri=repr(ref_target[:200]), data={"uri": ref_target[:200]})
    if (ref_type, ref_target, argument) not in ZONE_ARGUMENTS:
        return [], 0, False
    matches = suggest_zones(value[:64], limit=MAX_VALUES + 1)
    return matches[:MAX_VALUES], len(matches), len(matches) > MAX_VALUES
