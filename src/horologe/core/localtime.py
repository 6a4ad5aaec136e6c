"""Placing a wall-clock time on the timeline: DST gaps and folds detected and resolved explicitly.

The policies follow RFC 5545 and TC39 Temporal:

- ``compatible`` (default): a gap time moves forward by the gap length, a fold time takes the
  first (earlier) occurrence.
- ``earlier`` / ``later``: take the earlier or later of the two candidate instants.
- ``reject``: raise instead of guessing.

All comparisons are made in UTC: stdlib equality ignores ``fold`` within one zone (PEP 495).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Literal, get_args

from horologe.core.errors import AmbiguousLocalTime, InvalidArgument, NonexistentLocalTime
from horologe.core.messages import N_

Disambiguation = Literal["compatible", "earlier", "later", "reject"]
DISAMBIGUATIONS: tuple[str, ...] = get_args(Disambiguation)
LocalStatus = Literal["unique", "gap", "fold"]


@dataclass(frozen=True, slots=True)
class LocalResolution:
    """A wall-clock time resolved in a zone, with what was found about it."""

    instant: datetime
    status: LocalStatus
    candidates: tuple[datetime, ...]
    policy: Disambiguation

    @property
    def dst_gap(self) -> bool:
        """Whether the wall time does not exist (skipped by a forward transition)."""
        return self.status == "gap"

    @property
    def ambiguous(self) -> bool:
        """Whether the wall time exists twice (repeated by a backward transition)."""
        return self.status == "fold"

    def report(self) -> dict[str, object]:
        """The DST facts for a response: flags, candidate instants and the policy applied."""
        body: dict[str, object] = {"dst_gap": self.dst_gap, "ambiguous": self.ambiguous}
        if self.status != "unique":
            body["candidates"] = [c.isoformat() for c in self.candidates]
            body["disambiguation"] = self.policy
        return body


def check_disambiguation(value: str) -> Disambiguation:
    """Validate a disambiguation policy name."""
    if value not in DISAMBIGUATIONS:
        raise InvalidArgument(
            N_("Unknown disambiguation {disambiguation}. Use one of: {known}."),
            disambiguation=repr(value),
            known=", ".join(DISAMBIGUATIONS),
            suggestions=list(DISAMBIGUATIONS),
        )
    return value  # type: ignore[return-value]


def resolve_local(wall: datetime, zone: tzinfo, policy: Disambiguation = "compatible") -> LocalResolution:
    """Place a naive wall-clock time in `zone`, detecting gaps and folds and applying `policy`."""
    if wall.tzinfo is not None:
        raise ValueError("resolve_local takes a naive datetime")
    # The constructor, not wall.replace(tzinfo=…, fold=…): replace takes twice as long, and this runs for every
    # wall time a request reads.
    fields = (wall.year, wall.month, wall.day, wall.hour, wall.minute, wall.second, wall.microsecond)
    first = datetime(*fields, tzinfo=zone)
    second = datetime(*fields, tzinfo=zone, fold=1)
    offset_first, offset_second = first.utcoffset(), second.utcoffset()
    if offset_first == offset_second:
        return LocalResolution(first, "unique", (first,), policy)
    # Both readings differ: either the wall time repeats (fold) or it was skipped (gap).
    # The candidates are both readings as real wall times in `zone` (a gap reading moves out of the gap), the
    # earlier first, ordered by their UTC instants (two times in one zone compare by their wall clocks, PEP 495).
    # A fold time survives that round trip through UTC; a gap time comes back shifted.
    instants = first.astimezone(UTC), second.astimezone(UTC)
    walls = instants[0].astimezone(zone), instants[1].astimezone(zone)
    is_fold = walls[0].replace(tzinfo=None) == wall
    candidates = walls if instants[0] <= instants[1] else (walls[1], walls[0])
    if is_fold:
        return _pick_fold(wall, zone, candidates, policy)
    return _pick_gap(wall, zone, candidates, policy)


def _pick_fold(
    wall: datetime, zone: tzinfo, candidates: tuple[datetime, datetime], policy: Disambiguation
) -> LocalResolution:
    if policy == "reject":
        raise AmbiguousLocalTime(
            N_(
                "{wall} happens twice in {zone} (clocks go back): {first} or {second}. "
                "Pass disambiguation 'earlier' or 'later' to choose, or give an explicit UTC offset."
            ),
            wall=wall.isoformat(),
            zone=_zone_name(zone),
            first=candidates[0].isoformat(),
            second=candidates[1].isoformat(),
            suggestions=["earlier", "later"],
            details={"candidates": [c.isoformat() for c in candidates]},
        )
    chosen = candidates[1] if policy == "later" else candidates[0]
    return LocalResolution(chosen, "fold", candidates, policy)


def _pick_gap(
    wall: datetime, zone: tzinfo, candidates: tuple[datetime, datetime], policy: Disambiguation
) -> LocalResolution:
    if policy == "reject":
        raise NonexistentLocalTime(
            N_(
                "{wall} does not exist in {zone} (clocks skip it). Nearest readings: {first} or {second}. "
                "Pass disambiguation 'earlier', 'later' or 'compatible' to choose one."
            ),
            wall=wall.isoformat(),
            zone=_zone_name(zone),
            first=candidates[0].isoformat(),
            second=candidates[1].isoformat(),
            suggestions=["compatible", "earlier", "later"],
            details={"candidates": [c.isoformat() for c in candidates]},
        )
    chosen = candidates[0] if policy == "earlier" else candidates[1]
    return LocalResolution(chosen, "gap", candidates, policy)


def _zone_name(zone: tzinfo) -> str:
    return str(getattr(zone, "key", None) or zone)
