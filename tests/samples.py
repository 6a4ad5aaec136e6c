"""Real arguments for every tool in the registry: the one table the output-schema, edge-sweep and transport tests use.

Each tool's first sample is its base call: the edge sweep moves one argument at a time away from it, and the
transport test sends it in every cell. `tests/tools/test_samples.py` fails for a tool of the registry that has no
sample here (and for a sample of a tool the registry does not have).
"""

from __future__ import annotations

from typing import Any, Final

SAMPLES: Final[dict[str, list[dict[str, Any]]]] = {
    "get_current_time": [
        {},
        {"timezone": "Europe/Vienna", "format": "human"},
        {"timezone": "Asia/Kathmandu", "format": "custom", "custom_format": "%H:%M %Z"},
        {"timezone": "Vienna"},
    ],
    "convert_timezone": [
        {"timestamp": "2025-08-17T10:30:00Z", "from_timezone": "UTC", "to_timezone": "America/New_York"},
        {"timestamp": "2026-03-08 02:30", "from_timezone": "America/New_York", "to_timezone": "UTC"},
        {"timestamp": "2026-11-01T01:30:00", "from_timezone": "America/New_York", "to_timezone": "Tokyo"},
        {"timestamp": "next Tuesday 4pm", "to_timezone": "Asia/Kolkata", "format": "human"},
        {"timestamp": "9am PST", "to_timezone": "Europe/London"},
    ],
    "calculate_duration": [
        {"start_time": "2025-08-17T10:30:00Z", "end_time": "2025-08-17T11:30:00Z", "units": "hours"},
        {"start_time": "2026-01-01", "end_time": "2026-02-02T03:00:00Z"},
        {"start_time": "now", "end_time": "Christmas", "units": "days", "timezone": "Europe/Vienna"},
        {"start_time": "2026-03-29T02:30", "end_time": "2026-03-28T01:00", "timezone": "Europe/Vienna"},
    ],
    "format_time": [
        {"timestamp": 1723890600, "format": "rfc2822", "timezone": "Europe/Vienna"},
        {"timestamp": "2026-11-22T03:11:30Z", "format": "human", "timezone": "Asia/Tokyo"},
    ],
    "get_timezone_info": [
        {"timezone": "Europe/Vienna"},
        {"timezone": "Asia/Kolkata", "timestamp": "2026-06-01T00:00:00Z"},
    ],
    "list_timezones": [
        {"region": "Europe", "limit": 5},
        {"country": "AU"},
        {"query": "new", "include_aliases": True},
    ],
    "resolve_time_expression": [
        {"expression": "tomorrow", "timezone": "Europe/Vienna"},
        {"expression": "next Tuesday", "timezone": "America/New_York"},
        {"expression": "letzte Woche", "locale": "de-AT"},
        {"expression": "every second Tuesday at 10:00", "count": 3},
        {"expression": "Easter 2027", "timezone": "Europe/Vienna"},
        {"expression": "tomorrow at 2:30", "timezone": "Europe/Vienna", "reference_time": "2026-03-28T12:00"},
    ],
    "add_time": [
        {"timestamp": "2026-01-31T10:00", "amount": "P1M", "timezone": "Europe/Vienna"},
        {"timestamp": "2026-03-28T02:30", "amount": "P1D", "timezone": "Europe/Vienna"},
        {"timestamp": "now", "amount": "90 days"},
        {"timestamp": "2026-03-28T12:00", "amount": "P1D", "timezone": "Europe/Vienna"},
    ],
    "business_days": [
        {"country": "US", "start_date": "2025-01-01", "end_date": "2026-01-01"},
        {"country": "AT", "count": 3},
    ],
    "list_holidays": [
        {"country": "DE", "year": 2026},
        {"country": "AT"},
    ],
    "date_info": [
        {},
        {"date": "2025-09-23T23:30:00Z", "timezone": "Asia/Tokyo", "locale": "en_US"},
        {"date": "next Friday"},
    ],
    "next_occurrences": [
        {"rule": "FREQ=DAILY;BYHOUR=2;BYMINUTE=30", "timezone": "America/New_York", "count": 3},
        {"rule": "0 9 * * 1-5", "timezone": "Europe/Vienna", "count": 2},
    ],
    "timezone_history": [
        {"timezone": "Europe/Vienna", "start_time": "2020-01-01", "end_time": "2022-01-01"},
    ],
    "find_meeting_time": [
        {"participants": [{"timezone": "Europe/Vienna"}], "duration": 30, "start_date": "2026-11-23"},
        {
            "participants": [{"timezone": "Europe/Vienna"}, {"timezone": "Asia/Tokyo", "name": "Aiko"}],
            "duration": "PT1H",
            "start_date": "2026-11-23",
            "end_date": "2026-11-24",
        },
    ],
    "preferences": [
        {"action": "set", "timezone": "Europe/Vienna"},
        {},
        {"action": "clear"},
    ],
    "timer": [
        {"action": "list"},
        {"action": "start", "label": "tea", "duration_seconds": 180},
    ],
}


_ZONES_APART: Final = [
    "Pacific/Kiritimati",
    "Pacific/Pago_Pago",
    "Asia/Kathmandu",
    "America/St_Johns",
    "Australia/Eucla",
]
HEAVIEST: Final[list[tuple[str, dict[str, Any]]]] = [
    ("convert_timezone", {"timestamp": ("a " * 100)[:200], "to_timezone": "UTC"}),
    ("resolve_time_expression", {"expression": ("月曜日の午前九時から" * 20)[:200], "locale": "ja"}),
    ("business_days", {"country": "US", "start_date": "1827-01-01", "end_date": "2026-12-31"}),
    ("business_days", {"country": "DE", "start_date": "1827-01-01", "count": 50_000}),
    ("next_occurrences", {"rule": "FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO;BYHOUR=23", "count": 1000}),
    ("next_occurrences", {"rule": "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30"}),
    (
        "find_meeting_time",
        {
            "participants": [{"timezone": zone} for zone in _ZONES_APART * 10],
            "duration": 5,
            "start_date": "2026-03-01",
            "end_date": "2026-03-31",
            "step_minutes": 5,
            "limit": 50,
        },
    ),
    ("date_info", {"date": "0001-01-01"}),
    ("list_holidays", {"country": "SA", "year": 9999}),
    (
        "timezone_history",
        {"timezone": "America/Anchorage", "start_time": "1827-01-01", "end_time": "2026-12-31", "limit": 1000},
    ),
]
"""The heaviest read-only calls within the argument limits (the loop-lag bench sends them; tests hold that each long
loop in them stops at its budget)."""


def sample_calls() -> list[tuple[str, dict[str, Any]]]:
    """Every sample as (tool name, arguments), in the table's order."""
    return [(name, arguments) for name, samples in SAMPLES.items() for arguments in samples]
