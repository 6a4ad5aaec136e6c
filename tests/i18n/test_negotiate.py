"""The RFC 9110 grammar and the weighted RFC 4647 matcher, on the SEP-2792 reference implementation's vectors."""

from __future__ import annotations

import pytest

from horologe.i18n import LANGUAGES
from horologe.i18n.negotiate import is_valid_accept_language, negotiate_language, parse_accept_language

VALID = ["en", "fr-CA, fr;q=0.9, en;q=0.5", "zh-Hant-TW", "*;q=0.2", "de;q=0", "EN-us, *;Q=0.100"]
INVALID = [
    "",
    " en",
    "en ",
    "en;q=1.001",
    "en;q=.5",
    "en;q=2",
    "en;q=0.1234",
    "en;level=1",
    "en,,fr",
    "toolongprimarytag",
]


@pytest.mark.parametrize("value", VALID)
def test_valid_values(value: str) -> None:
    assert is_valid_accept_language(value)


@pytest.mark.parametrize("value", INVALID)
def test_invalid_values(value: str) -> None:
    assert not is_valid_accept_language(value)


@pytest.mark.parametrize(
    "value", ["en\x00", "en\r\nX-Evil: 1", "de\x7f", "日本語", "ja-日本", "en;q=\uff10.\uff15", None, 5, ["en"]]
)
def test_control_characters_non_ascii_and_non_strings_are_malformed(value: object) -> None:
    assert not is_valid_accept_language(value)


@pytest.mark.parametrize(
    ("value", "available", "expected"),
    [
        ("fr;q=0.4, de;q=0.9", ["en", "fr", "de"], "de"),
        ("fr;q=0.8, de;q=0.8", ["en", "fr", "de"], "fr"),
        ("FR-ca", ["en", "fr", "de"], "fr"),
        ("zh-hant", ["en", "zh-Hant-TW"], "zh-Hant-TW"),
        ("fr;q=0, *;q=0.5", ["fr", "de"], "de"),
        ("en, en-GB;q=0", ["en-GB", "en-US"], "en-US"),
        ("fr;q=0, fr-CA;q=1", ["fr-CA", "de"], "fr-CA"),
        ("*;q=1, en;q=0.5", ["en", "de"], "de"),
        ("*;q=0, en;q=0.5", ["de", "en"], "en"),
        (None, ["en", "fr", "de"], "en"),
        ("en;q=9", ["en", "fr", "de"], "en"),
        ("ja", ["en", "fr", "de"], "en"),
    ],
)
def test_reference_negotiation_vectors(value: str | None, available: list[str], expected: str) -> None:
    assert negotiate_language(value, available, "en") == expected


def test_an_exclusion_of_every_match_falls_back_to_the_default() -> None:
    assert negotiate_language("fr, fr;q=0", ["fr", "de"], "de") == "de"
    assert negotiate_language("fr, fr;q=0", ["fr", "de"], "en") == "en"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("de-AT, en;q=0.5", "de"),
        ("zh-CN", "zh-Hans"),
        ("zh-Hans-CN", "zh-Hans"),
        ("ZH-HANS", "zh-Hans"),
        ("ja-JP, en;q=0.1", "ja"),
        ("es-419", "es"),
        ("pt-BR", "en"),
        ("*", "en"),
        ("*;q=0.5, en;q=0", "de"),
        ("en;q=0, de;q=0, fr;q=0, es;q=0, ja;q=0, zh;q=0", "en"),
    ],
)
def test_our_languages(value: str, expected: str) -> None:
    assert negotiate_language(value, LANGUAGES, "en") == expected


def test_a_thousand_ranges_are_valid_and_negotiated_quickly() -> None:
    value = ", ".join("xyz" for _ in range(999)) + ", fr;q=0.6"
    assert len(parse_accept_language(value) or ()) == 1000
    assert negotiate_language(value, LANGUAGES, "en") == "fr"


def test_oversized_values_count_as_absent() -> None:
    value = "en-US;q=0.5, " * 800 + "fr"
    assert len(value) > 10_000
    assert not is_valid_accept_language(value)
    assert negotiate_language(value, LANGUAGES, "en") == "en"


def test_ranges_sort_by_weight_then_position() -> None:
    ranges = parse_accept_language("a;q=0.5, b, c;q=0.5, d;q=1.000")
    assert ranges is not None
    assert [item.range for item in ranges] == ["b", "d", "a", "c"]
