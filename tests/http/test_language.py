"""The HTTP language helpers: raw field-line joining, the mismatch body, header merging."""

from __future__ import annotations

import json

from horologe.http.errors import http_answer
from horologe.http.language import _merged, accept_language_header, mismatch
from horologe.http.request import read_facts


def test_every_field_line_is_joined_in_order_without_normalizing() -> None:
    scope = {"headers": [(b"accept-language", b"en-US"), (b"host", b"x"), (b"accept-language", b" EN;q=0.900 ")]}
    assert accept_language_header(scope) == "en-US, EN;q=0.900"
    assert accept_language_header({"headers": []}) is None


def test_meta_value_is_raw_and_only_a_string() -> None:
    key = "io.modelcontextprotocol/acceptLanguage"
    assert read_facts({"params": {"_meta": {key: " en "}}}).accept_language == " en "
    assert read_facts({"params": {"_meta": {key: 5}}}).accept_language is None
    assert read_facts([1]).accept_language is None


def test_mismatch_answer_echoes_the_id_and_bounds_the_values() -> None:
    status, raw = http_answer(mismatch("x" * 10_000, "en"), 3)
    body = json.loads(raw)
    assert status == 400 and body["id"] == 3 and body["error"]["code"] == -32020
    assert len(body["error"]["message"]) < 600
    assert body["error"]["data"] == {
        "mismatch": {"header": "Accept-Language", "body": "params._meta.io.modelcontextprotocol/acceptLanguage"}
    }


def test_merged_headers_keep_one_line_each_and_extend_vary() -> None:
    headers = [(b"content-language", b"en"), (b"vary", b"Origin")]
    merged = _merged(headers, [(b"vary", b"Accept-Language"), (b"content-language", b"de")])
    assert [v for k, v in merged if k == b"content-language"] == [b"de"]
    assert [v for k, v in merged if k == b"vary"] == [b"Origin, Accept-Language"]
