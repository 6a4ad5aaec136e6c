"""The HTTP language helpers: raw field-line joining, the mismatch body, header merging."""

from __future__ import annotations

import json

from horologe.transports.http_language import (
    _merged,
    accept_language_header,
    content_language_of,
    meta_accept_language,
    mismatch_body,
)


def test_every_field_line_is_joined_in_order_without_normalizing() -> None:
    scope = {"headers": [(b"accept-language", b"en-US"), (b"host", b"x"), (b"accept-language", b" EN;q=0.900 ")]}
    assert accept_language_header(scope) == "en-US, EN;q=0.900"
    assert accept_language_header({"headers": []}) is None


def test_meta_value_is_raw_and_only_a_string() -> None:
    key = "io.modelcontextprotocol/acceptLanguage"
    assert meta_accept_language({"params": {"_meta": {key: " en "}}}) == " en "
    assert meta_accept_language({"params": {"_meta": {key: 5}}}) is None
    assert meta_accept_language([1]) is None


def test_mismatch_body_echoes_the_id_and_bounds_the_values() -> None:
    body = json.loads(mismatch_body(3, "x" * 10_000, "en"))
    assert body["id"] == 3 and body["error"]["code"] == -32020
    assert len(body["error"]["message"]) < 600


def test_content_language_comes_from_result_or_error_data() -> None:
    key = "io.modelcontextprotocol/contentLanguage"
    assert content_language_of({"result": {"_meta": {key: "de"}}}) == "de"
    assert content_language_of({"error": {"data": {"_meta": {key: "fr"}}}}) == "fr"
    assert content_language_of({"error": {"data": "x"}}) is None


def test_merged_headers_keep_one_line_each_and_extend_vary() -> None:
    headers = [(b"content-language", b"en"), (b"vary", b"Origin")]
    merged = _merged(headers, [(b"vary", b"Accept-Language"), (b"content-language", b"de")])
    assert [v for k, v in merged if k == b"content-language"] == [b"de"]
    assert [v for k, v in merged if k == b"vary"] == [b"Origin, Accept-Language"]
