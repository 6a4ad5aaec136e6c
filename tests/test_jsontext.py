"""Compact JSON text: the fast writer and its fallback agree with the standard library."""

from __future__ import annotations

import json

import pytest

from horologe.jsontext import compact_json


@pytest.mark.parametrize(
    "value",
    [
        {"timestamp": "2026-11-23T14:57:40.054Z", "dst_active": False, "unix": 1795445860, "hours": 5.5, "n": None},
        {"zone": "Europe/Zürich", "text": '東京 "quoted" \\ back\nslash', "list": [1, [2, {"x": []}]]},
        [],
        "plain",
    ],
)
def test_the_text_is_what_json_dumps_writes_compactly(value: object) -> None:
    assert compact_json(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_a_lone_surrogate_falls_back_to_escapes_that_read_back_the_same() -> None:
    value = {"name": json.loads('"\\ud800tool"'), "other": "ü"}
    text = compact_json(value)
    assert json.loads(text) == value
    text.encode()  # writable as UTF-8 (a log line, an HTTP body)
