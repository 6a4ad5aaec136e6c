"""The per-request context: everything a handler needs to know about "now" and "where"."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from horologe.core.client_context import CONTEXT_REPORT_META_KEY, NO_CONTEXT, ClientContext
from horologe.core.zones import ResolvedZone


@dataclass(frozen=True, slots=True)
class RequestContext:
    """What one request runs with: the instant it treats as now, its default zone, and the client's context.

    `now` and `default_zone` already reflect the client context (SEP-1809): its `currentTimestamp` is now,
    its `timezone` the default zone. `locale` and `country` come only from the client context.
    """

    now: datetime
    default_zone: ResolvedZone
    locale: str | None = None
    country: str | None = None
    client: ClientContext = NO_CONTEXT
    # Verified stored preferences (SEP-1655 state): defaults below the client context, above the server's.
    preferences: Mapping[str, Any] = field(default_factory=dict)

    def zone_or_default(self, explicit: ResolvedZone | None) -> ResolvedZone:
        """The explicit zone when given, else the default (explicit argument > client context > server)."""
        return explicit if explicit is not None else self.default_zone

    def meta(self) -> dict[str, Any]:
        """The result `_meta` entries describing the context used: what was applied, ignored and why."""
        report = self.client.report()
        stored = {
            name: self.preferences[name]
            for name in ("timezone", "locale")
            if name in self.preferences and name not in self.client.applied
        }
        if stored:
            report["preferences"] = stored
        return {CONTEXT_REPORT_META_KEY: report}
