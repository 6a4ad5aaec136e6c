"""RFC 9110 `Accept-Language` grammar and weighted RFC 4647 matching (SEP-2792).

A port of the matcher in the SEP's TypeScript reference implementation (typescript-sdk PR #2158,
`packages/core-internal/src/shared/i18n.ts`), so both pass the same vectors:

- the value must be non-empty and carry no surrounding whitespace; members are comma separated, each
  `range[;q=value]` with at most one parameter, `q` case-insensitive and at most three decimals;
- the quality of an available tag comes from the most specific range that basic-filters it
  (`*` counts as least specific; on a tie `q=0` wins, then the higher weight, then the earlier range);
- RFC 4647 §3.4 lookup truncation (`de-AT-x-foo` -> `de-AT` -> `de`) is a fallback for positive
  ranges only, used when the direct match is just `*`; it never broadens a `q=0` exclusion;
- the winner has the highest weight, then the earliest range, then is the default, then comes first.

Nothing here normalizes a value for the HTTP agreement check: that compares raw strings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

MAX_VALUE_LENGTH = 8192
"""Longer preferences are treated as malformed (absent): no real client sends 8 kB of language ranges."""

_RANGE = re.compile(r"(?:\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)\Z")
_QUALITY = re.compile(r"(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)\Z")
_WEIGHT = re.compile(r"[qQ]=(.*)\Z", re.DOTALL)
_OWS = " \t"


@dataclass(frozen=True, slots=True)
class WeightedRange:
    """One member of an Accept-Language value: the range, its weight and its position in the value."""

    range: str
    quality: float
    position: int


@dataclass(frozen=True, slots=True)
class _Resolved:
    quality: float
    position: int
    specificity: int


@lru_cache(maxsize=256)
def parse_accept_language(value: str) -> tuple[WeightedRange, ...] | None:
    """The ranges of a valid value, by weight (highest first) then position; None when malformed."""
    if not value or len(value) > MAX_VALUE_LENGTH or value.strip(_OWS) != value:
        return None
    ranges: list[WeightedRange] = []
    for position, raw_member in enumerate(value.split(",")):
        member = raw_member.strip(_OWS)
        if not member:
            return None
        segments = member.split(";")
        if len(segments) > 2:
            return None
        language_range = segments[0].strip(_OWS)
        if not _RANGE.match(language_range) or not language_range.isascii():
            return None
        quality = 1.0
        if len(segments) == 2:
            weight = _WEIGHT.match(segments[1].strip(_OWS))
            if weight is None or not _QUALITY.match(weight.group(1)) or not weight.group(1).isascii():
                return None
            quality = float(weight.group(1))
        ranges.append(WeightedRange(language_range, quality, position))
    ranges.sort(key=lambda item: (-item.quality, item.position))
    return tuple(ranges)


def is_valid_accept_language(value: object) -> bool:
    """Whether a value is a string in RFC 9110 `Accept-Language` field-value syntax."""
    return isinstance(value, str) and parse_accept_language(value) is not None


def _basic_match(language_range: str, tag: str) -> bool:
    if language_range == "*":
        return True
    wanted, offered = language_range.lower(), tag.lower()
    return offered == wanted or offered.startswith(wanted + "-")


def _truncate(language_range: str) -> str | None:
    separator = language_range.rfind("-")
    if separator == -1:
        return None
    truncated = language_range[:separator]
    trailing = truncated.rfind("-")
    if len(truncated[trailing + 1 :]) == 1:  # drop a dangling singleton such as the 'x' of 'x-foo'
        truncated = "" if trailing < 0 else truncated[:trailing]
    return truncated or None


def _specificity(language_range: str) -> int:
    return 0 if language_range == "*" else language_range.count("-") + 1


def _lookup_specificity(language_range: str, tag: str) -> int | None:
    if language_range == "*":
        return 0
    candidate: str | None = language_range
    while candidate is not None:
        if _basic_match(candidate, tag):
            return _specificity(candidate)
        candidate = _truncate(candidate)
    return None


def _preferred(current: _Resolved | None, candidate: _Resolved) -> _Resolved:
    if current is None or candidate.specificity > current.specificity:
        return candidate
    if candidate.specificity < current.specificity:
        return current
    if (candidate.quality == 0) != (current.quality == 0):
        return candidate if candidate.quality == 0 else current
    if candidate.quality != current.quality:
        return candidate if candidate.quality > current.quality else current
    return candidate if candidate.position < current.position else current


def _quality_of(tag: str, ranges: Sequence[WeightedRange]) -> _Resolved | None:
    direct: _Resolved | None = None
    for item in ranges:
        if _basic_match(item.range, tag):
            direct = _preferred(direct, _Resolved(item.quality, item.position, _specificity(item.range)))
    fallback: _Resolved | None = None
    for item in ranges:
        if item.quality == 0 or item.range == "*":
            continue
        specificity = _lookup_specificity(item.range, tag)
        if specificity is not None:
            fallback = _preferred(fallback, _Resolved(item.quality, item.position, specificity))
    if direct is None or (direct.specificity == 0 and fallback is not None and fallback.specificity > 0):
        return fallback or direct
    return direct


def negotiate_language(accept_language: str | None, available: Sequence[str], default: str) -> str:
    """The available tag (as spelled in `available`) the preference selects; `default` if absent, bad or unmatched."""
    if accept_language is None:
        return default
    ranges = parse_accept_language(accept_language)
    if ranges is None:
        return default
    return _negotiate(ranges, tuple(available), default)


@lru_cache(maxsize=512)
def _negotiate(ranges: tuple[WeightedRange, ...], available: tuple[str, ...], default: str) -> str:
    lowered_default = default.lower()
    candidates = []
    for available_position, tag in enumerate(available):
        resolved = _quality_of(tag, ranges)
        if resolved is not None and resolved.quality > 0:
            is_default = tag.lower() == lowered_default
            candidates.append((-resolved.quality, resolved.position, not is_default, available_position, tag))
    return min(candidates)[-1] if candidates else default
