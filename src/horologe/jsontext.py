"""Compact JSON text for tool results and log lines, written on every request."""

from __future__ import annotations

import json

from pydantic_core import PydanticSerializationError, to_json


def compact_json(value: object) -> str:
    """Compact JSON with characters as they are, via pydantic-core (about 3 times faster than `json.dumps`).

    A string holding a lone surrogate (JSON's "\\ud800" escape parses to one) cannot be written as UTF-8:
    such a value falls back to `json.dumps` with ASCII escapes, which reads back to the same value.
    """
    try:
        return to_json(value).decode()
    except PydanticSerializationError:
        return json.dumps(value, separators=(",", ":"))
