"""The per-request context: everything a handler needs to know about "now" and "where"."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from horologe.core.zones import ResolvedZone


@dataclass(frozen=True, slots=True)
class RequestContext:
    """What one request runs with: the instant it treats as now and its default zone."""

    now: datetime
    default_zone: ResolvedZone

    def zone_or_default(self, explicit: ResolvedZone | None) -> ResolvedZone:
        """The explicit zone when given, else the default (explicit argument > default)."""
        return explicit if explicit is not None else self.default_zone
