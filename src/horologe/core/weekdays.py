"""The days of the week: one definition for every module, one spelling in every result."""

from __future__ import annotations

from typing import Final

DAY_NAMES: Final = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
"""English weekday names, Monday first (`date.weekday()` indexes them), as every result spells a weekday (the
official time server's `day_of_week` spelling)."""
ARGUMENT_NAMES: Final = tuple(name.lower() for name in DAY_NAMES)
"""The same names as arguments spell them (the schemas' enum; any case and three-letter forms are accepted)."""


def weekday_number(name: str) -> int | None:
    """0 (Monday) to 6 for a weekday's English name in any case, full or its first three letters; else None."""
    lowered = name.strip().lower()
    for number, full in enumerate(ARGUMENT_NAMES):
        if lowered in (full, full[:3]):
            return number
    return None
