"""SEP-2792 over Streamable HTTP on a real server: exact header agreement, Content-Language, caching, REST."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp.client import Client

from horologe.wire import ACCEPT_LANGUAGE_META, CONTENT_LANGUAGE_META
from tests.calls import request_meta
from tests.e2e.conftest import RunningServer
from tests.e2e.test_http_process import ENVELOPE, JSON_HEADERS, MODERN, send

pytestmark = [pytest.mark.e2e]
LEGACY = "2025-11-25"


def body(method: str, params: dict[str, Any], language: str | None, era: str, request_id: int = 7) -> dict[str, Any]:
    meta: dict[str, Any] = dict(ENVELOPE) if era == MODERN else {}
    if language is not None:
        meta[ACCEPT_LANGUAGE_META] = language
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": {**params, "_meta": meta}}


def headers(era: str, method: str, name: str | None, accept_language: list[str]) -> list[tuple[str, str]]:
    out = [*JSON_HEADERS, ("MCP-Protocol-Version", era)]
    if era == MODERN:
        out += [("Mcp-Method", method)] + ([("Mcp-Name", name)] if name else [])
    return out + [("Accept-Language", value) for value in accept_language]


def post(
    server: RunningServer, era: str, method: str, params: dict[str, Any], meta: str | None, lines: list[str]
) -> tuple[int, Any, dict[str, Any]]:
    name = params.get("name")
    status, response, raw = send(
        server, "POST", "/mcp", body(method, params, meta, era), headers(era, method, name, lines)
    )
    return status, response, json.loads(raw)


ERAS = pytest.mark.parametrize("era", [LEGACY, MODERN])


@ERAS
@pytest.mark.parametrize(
    ("meta", "lines"),
    [
        ("en-US", ["en-us"]),
        ("en-US,en;q=0.9", ["en-US, en;q=0.9"]),
        ("en;q=0.9", ["en;q=0.900"]),
        ("en-US,en", ["en-US, en"]),
        ("fr, en;q=0.5", ["en;q=0.5, fr"]),
        ("en-US,en;q=0.9", ["en-US", "en;q=0.9"]),  # two lines combine with ", "
        ("de", ["fr"]),
        ("not valid;;", ["also not valid"]),  # agreement before grammar
    ],
)
def test_a_header_that_disagrees_with_meta_is_400_header_mismatch(
    http_server: RunningServer, era: str, meta: str, lines: list[str]
) -> None:
    status, response, answer = post(http_server, era, "tools/list", {}, meta, lines)
    assert status == 400
    assert response.getheader("Content-Type") == "application/json"
    assert answer["id"] == 7 and answer["error"]["code"] == -32020
    assert "Accept-Language" in answer["error"]["message"]


@ERAS
@pytest.mark.parametrize(
    ("meta", "lines", "language"),
    [
        ("de-AT, en;q=0.5", ["de-AT, en;q=0.5"], "de"),
        ("en", ["  en "], "en"),  # surrounding whitespace is not part of the field value
        ("en-US, en;q=0.9", ["en-US", "en;q=0.9"], "en"),  # two field lines combined in order
        ("ja", [], "ja"),  # a stripped header is tolerated
    ],
)
def test_agreeing_or_missing_headers_are_served_and_mirrored(
    http_server: RunningServer, era: str, meta: str, lines: list[str], language: str
) -> None:
    status, response, answer = post(http_server, era, "tools/list", {}, meta, lines)
    assert status == 200, answer
    assert answer["result"]["_meta"][CONTENT_LANGUAGE_META] == language
    assert [v for k, v in response.getheaders() if k.lower() == "content-language"] == [language]
    assert "Accept-Language" in (response.getheader("Vary") or "")
    assert (response.getheader("Cache-Control") == "private") == (not lines)


@ERAS
def test_an_agreed_malformed_value_is_no_preference(http_server: RunningServer, era: str) -> None:
    status, response, answer = post(http_server, era, "tools/list", {}, "en;q=2", ["en;q=2"])
    assert status == 200
    assert CONTENT_LANGUAGE_META not in answer["result"].get("_meta", {})
    assert response.getheader("Content-Language") is None
    assert {t["name"]: t["title"] for t in answer["result"]["tools"]}["get_current_time"] == "Current time"


@ERAS
def test_a_bare_header_creates_no_preference(http_server: RunningServer, era: str) -> None:
    status, response, answer = post(http_server, era, "tools/list", {}, None, ["de"])
    assert status == 200
    assert {t["name"]: t["title"] for t in answer["result"]["tools"]}["get_current_time"] == "Current time"
    assert response.getheader("Content-Language") is None and response.getheader("Vary") is None


@ERAS
def test_localized_errors_mirror_error_data_meta(http_server: RunningServer, era: str) -> None:
    params = {"name": "no_such_tool", "arguments": {}}
    status, response, answer = post(http_server, era, "tools/call", params, "fr", ["fr"])
    assert status == (400 if era == MODERN else 200)  # the 2026 era maps -32602 to HTTP 400
    assert answer["error"]["message"].startswith("Outil inconnu")
    assert answer["error"]["data"]["_meta"] == {CONTENT_LANGUAGE_META: "fr"}
    assert response.getheader("Content-Language") == "fr"


@ERAS
def test_tool_error_results_are_localized_over_http(http_server: RunningServer, era: str) -> None:
    params = {"name": "get_current_time", "arguments": {"timezone": "Mars/Olympus"}}
    status, response, answer = post(http_server, era, "tools/call", params, "es", ["es"])
    assert status == 200 and answer["result"]["isError"] is True
    error = answer["result"]["_meta"]["dev.horologe/error"]
    assert error["message"].startswith("Lugar o zona horaria desconocidos: 'Mars/Olympus'.")
    assert (error["code"], error["kind"]) == (-32000, "invalid_timezone")
    assert response.getheader("Content-Language") == "es"


@ERAS
@pytest.mark.parametrize(
    "value",
    ["en-US;q=0.5, " * 800 + "fr", ", ".join(["xyz"] * 999 + ["de"]), "déutsch", "de\x01"],
    ids=["10kB", "1000-ranges", "non-ascii", "control"],
)
def test_bad_input_in_meta_never_breaks_the_request(http_server: RunningServer, era: str, value: str) -> None:
    status, _, answer = post(http_server, era, "tools/list", {}, value, [])
    assert status == 200, answer
    reported = answer["result"].get("_meta", {}).get(CONTENT_LANGUAGE_META)
    assert reported in (None, "de")


def test_an_sse_response_carries_the_language_per_message_only(http_server: RunningServer) -> None:
    payload = body("tools/call", {"name": "list_timezones", "arguments": {"region": "Europe"}}, "de", MODERN)
    payload["params"]["_meta"]["progressToken"] = "p1"
    status, response, raw = send(
        http_server, "POST", "/mcp", payload, headers(MODERN, "tools/call", "list_timezones", ["de"])
    )
    assert status == 200 and response.getheader("Content-Type", "").startswith("text/event-stream")
    assert response.getheader("Content-Language") is None
    events = [
        json.loads(line[5:]) for line in raw.decode().splitlines() if line.startswith("data:") and line[5:].strip()
    ]
    progress = [e for e in events if e.get("method") == "notifications/progress"]
    assert progress and all(e["params"]["_meta"][CONTENT_LANGUAGE_META] == "de" for e in progress)
    assert progress[0]["params"]["message"] == "Zeitzonendatenbank wird durchsucht"
    assert events[-1]["result"]["_meta"][CONTENT_LANGUAGE_META] == "de"


def test_rest_endpoints_use_accept_language_the_usual_way(http_server: RunningServer) -> None:
    call = {"name": "get_current_time", "arguments": {"timezone": "Nowhere/Land"}}
    lines = [("Content-Type", "application/json"), ("Accept-Language", "ja, en;q=0.5")]
    status, response, raw = send(http_server, "POST", "/mcp/tools/call", call, lines)
    assert status == 400
    assert json.loads(raw)["error"]["message"].startswith("不明な場所またはタイムゾーンです")
    assert response.getheader("Content-Language") == "ja"
    status, response, raw = send(http_server, "GET", "/mcp/capabilities", None, [("Accept-Language", "de")])
    assert status == 200 and response.getheader("Content-Language") == "de"
    assert {t["name"]: t["title"] for t in json.loads(raw)["tools"]}["list_timezones"] == "Zeitzonen auflisten"
    status, response, _ = send(http_server, "GET", "/mcp/capabilities", None, [])
    assert response.getheader("Content-Language") is None


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", MODERN])
async def test_sdk_http_client_switches_languages(http_server: RunningServer, mode: str) -> None:
    # The SDK client sends no Accept-Language mirror: `_meta` alone decides (a stripped header is tolerated).
    async with Client(f"{http_server.url}/mcp", mode=mode, cache=None) as client:
        seen = []
        for value in ("de", "zh-CN", None):
            listed = await client.list_tools(meta=request_meta({ACCEPT_LANGUAGE_META: value}) if value else None)
            seen.append(
                (
                    {t.name: t.title for t in listed.tools}["get_current_time"],
                    (listed.meta or {}).get(CONTENT_LANGUAGE_META),
                )
            )
        assert seen == [("Aktuelle Uhrzeit", "de"), ("当前时间", "zh-Hans"), ("Current time", None)]


def test_localized_lists_are_never_shared_across_languages(http_server: RunningServer) -> None:
    """§1.7 item 9: a localized tools/list varies by Accept-Language and two preferences get two different
    representations from the same URL. Its caching hints (an hour, public: the list never varies per caller) hold
    per language only: SEP-2792 puts the exact `acceptLanguage` in the client's cache key."""
    answers = {}
    for language in ("de", "fr"):
        status, response, answer = post(http_server, MODERN, "tools/list", {}, language, [language])
        assert status == 200
        assert "Accept-Language" in (response.getheader("Vary") or "")
        assert response.getheader("Content-Language") == language
        result = answer["result"]
        assert result["cacheScope"] == "public" and result["ttlMs"] == 3_600_000
        answers[language] = {tool["name"]: tool["title"] for tool in result["tools"]}
    assert answers["de"].keys() == answers["fr"].keys()
    assert answers["de"]["get_current_time"] != answers["fr"]["get_current_time"]
    # The stripped-header case: _meta without the header must not be cacheable by a shared cache.
    _, stripped, _ = post(http_server, MODERN, "tools/list", {}, "de", [])
    assert stripped.getheader("Cache-Control") == "private"
