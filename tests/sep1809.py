"""The clientContext objects of SEP-1809's three examples, verbatim from the proposal."""

from __future__ import annotations

from typing import Any

EXAMPLE_1: dict[str, Any] = {"timezone": "Europe/Vienna", "locale": "de-AT"}
EXAMPLE_2: dict[str, Any] = {"currentTimestamp": "2025-11-12T14:23:00+01:00"}
EXAMPLE_3: dict[str, Any] = {
    "timezone": "America/Los_Angeles",
    "currentTimestamp": "2025-11-12T06:23:00-08:00",
    "locale": "en-US",
    "userLocation": {
        "city": "Los Angeles",
        "region": "California",
        "country": "US",
        "coordinates": {"latitude": 34.0522, "longitude": -118.2437},
    },
}
