"""The only place that reads the system clock; everything else receives `now` as an argument."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    """A source of the current instant."""

    def now(self) -> datetime:
        """The current instant, timezone-aware."""
        ...


class SystemClock:
    """The host's clock, in UTC."""

    def now(self) -> datetime:
        """The current instant from the system clock, in UTC."""
        return datetime.now(UTC)


class FixedClock:
    """A clock stopped at one instant (tests, reproducible runs)."""

    def __init__(self, instant: datetime) -> None:
        if instant.tzinfo is None:
            raise ValueError("FixedClock needs a timezone-aware instant")
        self._instant = instant

    def now(self) -> datetime:
        """The fixed instant."""
        return self._instant
