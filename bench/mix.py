"""The realistic mix every benchmark sends: the calls a model makes on the work users bring, with real arguments.

- `FULL`: horologe's mix, weighted, on its default surface: get_current_time, convert_timezone (formats, Unix time
  and times in words among them), add_time, calculate_duration, get_timezone_info and resolve_time_expression,
  with realistic zones and timestamps (DST edges among them).
- `PAIRED`: the work the official `mcp-server-time` can do too (get_current_time and convert_time), written once
  per server in that server's own vocabulary, so a ratio compares the same question answered by each.
- Every other call carries a language (`Accept-Language` over HTTP, `_meta` acceptLanguage over stdio); the
  others carry none, so both paths are in every run.

`calls(mix, server, n)` is the deterministic sequence of n calls (tool, arguments, language) a driver cycles.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

Call = tuple[str, dict[str, Any], str | None]
"""(tool, arguments, language or None)."""

LANGUAGES = ("de", "fr", "ja", "es", "de-AT", "zh-Hans")

FULL: list[tuple[int, str, dict[str, Any]]] = [
    (10, "get_current_time", {"timezone": "Europe/Vienna"}),
    (8, "get_current_time", {"timezone": "America/New_York"}),
    (6, "get_current_time", {"timezone": "Asia/Tokyo"}),
    (4, "get_current_time", {"timezone": "Asia/Kolkata", "format": "rfc2822"}),
    (6, "convert_timezone", {"timestamp": "2026-11-25T14:30:00", "from_timezone": "Europe/London",
                             "to_timezone": "America/Los_Angeles"}),
    (5, "convert_timezone", {"timestamp": "2026-03-29T01:30:00", "from_timezone": "Europe/London",
                             "to_timezone": "Asia/Singapore"}),
    (4, "convert_timezone", {"timestamp": "2026-07-14T09:00:00Z", "to_timezone": "Australia/Sydney"}),
    (4, "convert_timezone", {"timestamp": "2026-07-14T09:00:00Z", "to_timezone": "Europe/Paris",
                             "format": "rfc2822"}),
    (3, "convert_timezone", {"timestamp": 1795632325, "to_timezone": "America/Sao_Paulo"}),
    (3, "convert_timezone", {"timestamp": "next Tuesday 4pm", "to_timezone": "Asia/Tokyo"}),
    (4, "add_time", {"timestamp": "2026-01-30T10:00:00", "amount": "P1M", "timezone": "America/Los_Angeles"}),
    (3, "add_time", {"timestamp": "2026-10-24T22:00:00+02:00", "amount": "PT36H", "timezone": "Europe/Berlin"}),
    (4, "calculate_duration", {"start_time": "2026-03-01T09:00:00+01:00", "end_time": "2026-04-15T17:30:00+02:00"}),
    (3, "calculate_duration", {"start_time": "2026-11-25T09:00:00", "end_time": "2026-12-24T18:00:00",
                               "timezone": "America/Chicago"}),
    (4, "get_timezone_info", {"timezone": "Australia/Sydney"}),
    (3, "get_timezone_info", {"timezone": "America/Denver", "timestamp": "2026-03-08T12:00:00Z"}),
    (6, "resolve_time_expression", {"expression": "next Tuesday at 3pm", "timezone": "Europe/Berlin"}),
    (5, "resolve_time_expression", {"expression": "in 2 hours", "timezone": "America/Chicago"}),
    (4, "resolve_time_expression", {"expression": "tomorrow at 9am", "timezone": "Asia/Tokyo"}),
    (3, "resolve_time_expression", {"expression": "end of next month", "timezone": "Europe/Madrid"}),
]  # fmt: skip

# The same questions in each server's words: horologe, the official server, the Go mcp-time.
PAIRED: list[tuple[int, dict[str, tuple[str, dict[str, Any]]]]] = [
    (10, {"horologe": ("get_current_time", {"timezone": "Europe/Vienna"}),
          "official": ("get_current_time", {"timezone": "Europe/Vienna"}),
          "go": ("current_time", {"timezone": "Europe/Vienna"})}),
    (8, {"horologe": ("get_current_time", {"timezone": "America/New_York"}),
         "official": ("get_current_time", {"timezone": "America/New_York"}),
         "go": ("current_time", {"timezone": "America/New_York"})}),
    (6, {"horologe": ("get_current_time", {"timezone": "Asia/Tokyo"}),
         "official": ("get_current_time", {"timezone": "Asia/Tokyo"}),
         "go": ("current_time", {"timezone": "Asia/Tokyo"})}),
    (6, {"horologe": ("convert_timezone", {"timestamp": "2026-11-25T14:30:00", "from_timezone": "Europe/London",
                                           "to_timezone": "America/Los_Angeles"}),
         "official": ("convert_time", {"time": "14:30", "source_timezone": "Europe/London",
                                       "target_timezone": "America/Los_Angeles"}),
         "go": ("convert_timezone", {"time": "2026-11-25T14:30:00", "input_timezone": "Europe/London",
                                     "output_timezone": "America/Los_Angeles"})}),
    (5, {"horologe": ("convert_timezone", {"timestamp": "2026-11-25T09:00:00", "from_timezone": "America/New_York",
                                           "to_timezone": "Asia/Kolkata"}),
         "official": ("convert_time", {"time": "09:00", "source_timezone": "America/New_York",
                                       "target_timezone": "Asia/Kolkata"}),
         "go": ("convert_timezone", {"time": "2026-11-25T09:00:00", "input_timezone": "America/New_York",
                                     "output_timezone": "Asia/Kolkata"})}),
]  # fmt: skip

MIXES = ("paired", "full")
SERVERS = ("horologe", "official", "go")


def weighted(mix: str, server: str) -> list[tuple[int, str, dict[str, Any]]]:
    """The mix's weighted calls in `server`'s vocabulary."""
    if mix == "full":
        if server != "horologe":
            raise ValueError(f"only horologe has the full mix, not {server}")
        return FULL
    return [(weight, *per_server[server]) for weight, per_server in PAIRED]


def calls(mix: str, server: str, n: int, seed: int = 16) -> list[Call]:
    """n calls drawn by weight (the same draw for every server), every other one with a language."""
    entries = weighted(mix, server)
    draw = random.Random(seed).choices(range(len(entries)), weights=[w for w, _, _ in entries], k=n)
    languages = itertools.cycle(LANGUAGES)
    return [(entries[i][1], entries[i][2], next(languages) if k % 2 else None) for k, i in enumerate(draw)]
