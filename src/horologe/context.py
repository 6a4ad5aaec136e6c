"""The context of one request: everything a tool may know about "now", "where", "in which language" and "for whom".

Built once per request by the protocol pipeline (`horologe.protocol.context`) from the request's `_meta`, the
clock and the settings, then handed to handlers and tools explicitly; nothing is read from ambient state.
Default zone precedence: explicit argument > client context (SEP-1809) > stored preference (SEP-1655) >
server default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from horologe.core.budget import Budget
from horologe.core.client_context import NO_CONTEXT, ClientContext
from horologe.core.zones import ResolvedZone
from horologe.i18n.language import Language
from horologe.memory import NOWHERE, Memories
from horologe.state import RequestState


@dataclass(frozen=True, slots=True)
class RequestContext:
    """What one request runs with.

    `now` and `default_zone` already reflect the client context and stored preferences; `received_at` is the
    server's own clock when the request arrived (what timers measure from, whatever the client says now is).
    `language` is the negotiated language and records what the answer actually used. `state` is the verified
    client-side state with the updates tools make (None when the server keeps no client-side state);
    `capabilities` what the client declared (handshake or 2026 envelope); `trace` the W3C trace context the
    request carried in `_meta`.
    `memory` is where the preference and timer tools keep what they remember (`horologe.memory`).
    `budget` is how much computation the call may spend (`horologe.core.budget`; the executor arms it per call).
    `zone_readings` is what the tools read typed zones as (a result's `timezone_input`).
    """

    now: datetime
    default_zone: ResolvedZone
    received_at: datetime | None = None
    language: Language = field(default_factory=Language)
    locale: str | None = None
    country: str | None = None
    client: ClientContext = NO_CONTEXT
    state: RequestState | None = None
    memory: Memories = NOWHERE
    preferences: Mapping[str, Any] = field(default_factory=dict)
    capabilities: Mapping[str, Any] = field(default_factory=dict)
    trace: Mapping[str, str] = field(default_factory=dict)
    budget: Budget = field(default_factory=Budget)
    zone_readings: list[dict[str, object]] = field(default_factory=list)
    """How this request's typed zones were read, when not by a zone's own name (`tools.present.zone_of` records)."""
    fell_back: list[ResolvedZone] = field(default_factory=list)
    """The user's zone each time a tool fell back on it (`user_zone`): the report names a zone only when used."""

    @property
    def clock(self) -> datetime:
        """The server clock's reading for this request (`now` when built without one, e.g. in tests)."""
        return self.received_at or self.now

    def zone_or_default(self, explicit: ResolvedZone | None) -> ResolvedZone:
        """The explicit zone when given, else the default (explicit argument > client context > preference > server)."""
        return explicit if explicit is not None else self.user_zone()

    def user_zone(self, *, used: bool = True) -> ResolvedZone:
        """The user's zone, for a call that names none: tools read it here (never `default_zone` itself), so the
        context report can tell whether the client's or the stored zone decided anything. `used=False` lends it to a
        reading that may yet name its own zone ('9am PST'): the reader asks again once the user's zone decided."""
        if used:
            self.fell_back.append(self.default_zone)
        return self.default_zone

    @property
    def formatting_locale(self) -> str | None:
        """The locale for 'human' formats: the client's locale (SEP-1809), else the request's language (SEP-2792).

        The client context's locale is the more specific formatting choice and wins; English needs no locale.
        """
        return self.locale or self.language.locale

    def report(self) -> dict[str, Any]:
        """What client context and stored preferences were applied, ignored and why (a tool result's `_meta`); only
        the parts that say something, so {} when nothing was sent or stored."""
        client = self.client.report()
        zone_used = bool(self.fell_back)
        if not zone_used:
            client = _without_zone(client)
        report = {name: part for name, part in client.items() if part}
        stored = {
            name: self.preferences[name]
            for name in ("timezone", "locale")
            if name in self.preferences and name not in self.client.applied and (name != "timezone" or zone_used)
        }
        if stored:
            report["preferences"] = stored
        return report


ZONE_NOT_USED = "not used: the call named its zone (or needed none)"


def _without_zone(report: dict[str, Any]) -> dict[str, Any]:
    """A client-context report without the zone it applied, for a call that never fell back on the user's zone
    (an explicit argument overrode it): the client's `timezone` field is said to be unused, and the zone found from
    `userLocation` is left out."""
    applied = dict(report["applied"])
    ignored = dict(report["ignored"])
    if applied.pop("timezone", None) is not None:
        ignored["timezone"] = ZONE_NOT_USED
    location = applied.get("userLocation")
    if isinstance(location, dict) and "timezone" in location:
        applied["userLocation"] = {key: value for key, value in location.items() if key != "timezone"}
    return {**report, "applied": applied, "ignored": ignored}
