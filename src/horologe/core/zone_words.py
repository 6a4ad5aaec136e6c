"""The names people give their country's clocks: "Pacific", "Eastern time", "Central Standard Time".

They mean a clock of their own country: "Eastern" is New York's in the United States, Toronto's in Canada and
Sydney's in Australia. The country is the caller's when it has a clock of that name, else the United States, where
the words are most often meant. The standard and daylight forms name the same clock all year, as abbreviations do
(`horologe.core.zones`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

DEFAULT_COUNTRY: Final = "US"
CLOCKS: Final[Mapping[str, Mapping[str, str]]] = MappingProxyType(
    {
        "pacific": {"US": "America/Los_Angeles", "CA": "America/Vancouver", "MX": "America/Mazatlan"},
        "mountain": {"US": "America/Denver", "CA": "America/Edmonton"},
        "central": {
            "US": "America/Chicago",
            "CA": "America/Winnipeg",
            "MX": "America/Mexico_City",
            "AU": "Australia/Adelaide",
        },
        "eastern": {"US": "America/New_York", "CA": "America/Toronto", "AU": "Australia/Sydney"},
    }
)
"""Each clock's zone by country: the most populous zone keeping that clock (Mexico's Pacific zone is Mazatlán's UTC-7,
Tijuana keeping the US clock; every clock has the United States')."""
_PHRASE: Final = re.compile(r"(\w+)(?:\s+(?:standard|daylight))?(?:\s+time)?", re.IGNORECASE)


def clock_named(text: str, country: str | None) -> tuple[str, str] | None:
    """The zone of a clock named in words ('Pacific', 'eastern time') and how to say it ('Pacific Time, US'): in
    `country` when it has a clock so named, else in the United States; None for other text."""
    match = _PHRASE.fullmatch(" ".join(text.split()))
    if match is None:
        return None
    zones = CLOCKS.get(match.group(1).casefold())
    if zones is None:
        return None
    code = country if country is not None and country in zones else DEFAULT_COUNTRY
    return zones[code], f"{match.group(1).title()} Time, {code}"
