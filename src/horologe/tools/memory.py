"""What the memory tools say about where they keep things, and whether it will be there next time."""

from __future__ import annotations

from typing import Final

from horologe.context import RequestContext
from horologe.core.messages import N_
from horologe.memory import Memory, Where

NOTES: Final[dict[tuple[Where, str], str]] = {
    ("nowhere", "preferences"): N_(
        "This client keeps no state for this server (SEP-1655 'state' capability), so nothing persists: pass the "
        "values explicitly on each call instead."
    ),
    ("nowhere", "timers"): N_(
        "This client keeps no state for this server (SEP-1655 'state' capability), so no timer persists between calls."
    ),
    ("client_unverified", "preferences"): N_(
        "This connection cannot show whether the client keeps state (SEP-1655); the preferences are only remembered "
        "if it does."
    ),
    ("client_unverified", "timers"): N_(
        "This connection cannot show whether the client keeps state (SEP-1655); the timer is only remembered if it "
        "does."
    ),
    ("process", "timers"): N_("Timers are kept by this server process and end when it stops."),
    ("unavailable", "preferences"): N_(
        "This server cannot use its preferences file on this computer (its log says why), so preferences are not "
        "kept: pass the values explicitly on each call instead."
    ),
}


def note(ctx: RequestContext, memory: Memory, what: str) -> str | None:
    """The sentence (in the request's language) a result carries about where `what` is kept, if any."""
    template = NOTES.get((memory.where, what))
    return ctx.language.gettext(template) if template is not None else None


def kept(memory: Memory) -> bool:
    """Whether what is set will be there on the next call (never promised when it cannot be known)."""
    return memory.where in ("client", "computer", "process")
