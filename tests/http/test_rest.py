"""The seed's REST endpoints, in process: the same pipeline as /mcp, answers in HTTP's own terms."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest

from horologe.wire import (
    ACCEPT_LANGUAGE_META,
    CLIENT_CONTEXT_META,
    CONTENT_LANGUAGE_META,
    CONTEXT_REPORT_META,
    CONVERSION_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    INVALID_TIMESTAMP,
    INVALID_TIMEZONE,
    SERVER_INFO_META,
)

pytestmark = pytest.mark.anyio
MODERN = "2026-07-28"
ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
}
VIENNA_CONTEXT = {"timezone": "Europe/Vienna", "locale": "de-AT"}


async def mcp_call(http: httpx2.AsyncClient, name: str, arguments: dict[str, Any], meta: dict[str, Any]) -> Any:
    """The result of a 2026-07-28 `tools/call` on /mcp."""
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments, "_meta": {**ENVELOPE, **meta}},
    }
    headers = {"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": name}
    response = await http.post("/mcp", json=body, headers={**headers, "Accept": "application/json, text/event-stream"})
    assert response.status_code == 200, response.text
    return response.json()["result"]


async def test_rest_and_mcp_answer_the_same_call_with_the_same_result_and_meta(http: httpx2.AsyncClient) -> None:
    meta = {CLIENT_CONTEXT_META: VIENNA_CONTEXT, ACCEPT_LANGUAGE_META: "de"}
    arguments = {"format": "human"}
    over_mcp = await mcp_call(http, "get_current_time", arguments, meta)
    response = await http.post(
        "/mcp/tools/call", json={"name": "get_current_time", "arguments": arguments, "_meta": meta}
    )
    assert response.status_code == 200
    over_rest = response.json()
    assert over_rest == over_mcp
    assert over_rest["_meta"][CONTENT_LANGUAGE_META] == "de"
    assert over_rest["_meta"][CONTEXT_REPORT_META]["applied"]["timezone"] == "Europe/Vienna"
    assert over_rest["_meta"][SERVER_INFO_META]["name"] == "horologe"
    assert over_rest["structuredContent"]["formatted"].startswith("Sonntag")
    assert response.headers["content-language"] == "de"


async def test_a_top_level_client_context_and_accept_language_become_meta(http: httpx2.AsyncClient) -> None:
    body = {"name": "get_current_time", "arguments": {}, "clientContext": {"timezone": "Asia/Tokyo"}}
    response = await http.post("/mcp/tools/call", json=body, headers={"Accept-Language": "ja"})
    result = response.json()
    assert response.status_code == 200 and result["structuredContent"]["timezone"] == "Asia/Tokyo"
    assert result["_meta"][CONTENT_LANGUAGE_META] == "ja" and response.headers["content-language"] == "ja"
    assert "accept-language" in response.headers["vary"].lower()


async def test_rest_shares_resources_and_prompts_with_mcp(http: httpx2.AsyncClient) -> None:
    formats = await http.post("/mcp/resources/read", json={"uri": "horologe://time_formats"})
    assert formats.status_code == 200 and "RFC 2822" in formats.json()["contents"][0]["text"]
    prompt = await http.post(
        "/mcp/prompts/get", json={"name": "time_query_assistant", "arguments": {"user_query": "hi"}}
    )
    assert prompt.status_code == 200 and prompt.json()["messages"][0]["role"] == "user"


@pytest.mark.parametrize(
    ("arguments", "code"),
    [
        ({"timezone": "Mars/Base"}, INVALID_TIMEZONE),
        ({"timezone": "UTC", "format": "custom", "custom_format": "%Q"}, INVALID_PARAMS),
        ({"timezone": 5}, INVALID_PARAMS),
    ],
)
async def test_a_tool_error_is_a_json_rpc_error_with_400(
    http: httpx2.AsyncClient, arguments: dict[str, Any], code: int
) -> None:
    response = await http.post("/mcp/tools/call", json={"name": "get_current_time", "arguments": arguments})
    body = response.json()
    assert response.status_code == 400 and body["jsonrpc"] == "2.0" and body["error"]["code"] == code
    assert body["error"]["data"]["error"]["message"] == body["error"]["message"]


async def test_timestamp_and_conversion_errors_keep_the_seeds_codes(http: httpx2.AsyncClient) -> None:
    bad = {"name": "convert_timezone", "arguments": {"timestamp": "2026-13-45", "to_timezone": "UTC"}}
    assert (await http.post("/mcp/tools/call", json=bad)).json()["error"]["code"] == INVALID_TIMESTAMP
    gap = {
        "name": "convert_timezone",
        "arguments": {
            "timestamp": "2026-03-29T02:30",
            "from_timezone": "Europe/Vienna",
            "to_timezone": "UTC",
            "disambiguation": "reject",
        },
    }
    assert (await http.post("/mcp/tools/call", json=gap)).json()["error"]["code"] == CONVERSION_ERROR


@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        ("/mcp/tools/call", {"name": "get_weather", "arguments": {}}, 404, INVALID_PARAMS),
        ("/mcp/tools/call", {"arguments": {}}, 400, INVALID_PARAMS),
        ("/mcp/tools/call", {"name": "get_current_time", "arguments": [1]}, 400, INVALID_PARAMS),
        ("/mcp/tools/call", [1, 2], 400, INVALID_REQUEST),
        ("/mcp/resources/read", {"uri": "file:///etc/passwd"}, 404, INVALID_PARAMS),
        ("/mcp/resources/read", {"uri": ""}, 400, INVALID_PARAMS),
        ("/mcp/resources/read", {"uri": "timezone://Mars/Base"}, 400, INVALID_PARAMS),
        ("/mcp/prompts/get", {"name": "nope"}, 404, INVALID_PARAMS),
        ("/mcp/prompts/get", {"name": 3}, 400, INVALID_PARAMS),
        ("/mcp/prompts/get", {"name": "time_query_assistant", "arguments": {"user_query": 3}}, 400, INVALID_PARAMS),
    ],
)
async def test_bad_requests_say_what_is_wrong_with_the_tables_status(
    http: httpx2.AsyncClient, path: str, body: Any, status: int, code: int
) -> None:
    response = await http.post(path, json=body)
    answer = response.json()
    assert (response.status_code, answer["error"]["code"]) == (status, code)
    assert answer["error"]["message"]


async def test_a_body_that_is_not_declared_json_is_415(http: httpx2.AsyncClient) -> None:
    response = await http.post(
        "/mcp/tools/call", content=b'{"name":"get_current_time"}', headers={"Content-Type": "text/plain"}
    )
    assert response.status_code == 415 and "application/json" in response.json()["error"]["message"]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/mcp/tools/call", b'{"name": "\\ud800tool", "arguments": {}}'),  # JSON's escape for a lone surrogate
        ("/mcp/resources/read", b'{"uri": "time://zone/\\udfff"}'),
        ("/mcp/prompts/get", b'{"name": "time_query_assistant", "arguments": {"question": "\\ud800"}}'),
    ],
)
async def test_a_string_utf8_cannot_carry_is_refused_as_invalid_request(
    http: httpx2.AsyncClient, path: str, body: bytes
) -> None:
    response = await http.post(path, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and response.json()["error"]["code"] == -32600
    assert "lone UTF-16 surrogate" in response.json()["error"]["message"]


async def test_capabilities_list_everything_with_titles_in_the_requested_language(http: httpx2.AsyncClient) -> None:
    response = await http.get("/mcp/capabilities", headers={"Accept-Language": "de"})
    capabilities = response.json()
    assert response.status_code == 200 and response.headers["content-language"] == "de"
    assert capabilities["serverInfo"]["name"] == "horologe"
    assert {"tools", "resources", "prompts"} <= set(capabilities["capabilities"])
    titles = {tool["name"]: tool["title"] for tool in capabilities["tools"]}
    assert titles["get_current_time"] == "Aktuelle Uhrzeit"
    assert capabilities["endpoints"]["tools_call"] == "/mcp/tools/call"


async def test_openapi_describes_the_rest_endpoints(http: httpx2.AsyncClient) -> None:
    document = (await http.get("/openapi.json")).json()
    assert document["openapi"].startswith("3.1")
    assert {"/mcp/tools/call", "/mcp/resources/read", "/mcp/prompts/get", "/mcp/capabilities"} <= set(document["paths"])


async def test_a_refusal_behind_the_language_layer_speaks_the_requests_language(http: httpx2.AsyncClient) -> None:
    """REST's shape errors go through the table, rendered once in the language Accept-Language asked for."""
    german = await http.post("/mcp/tools/call", json={"arguments": {}}, headers={"Accept-Language": "de"})
    error = german.json()["error"]
    assert (german.status_code, error["code"]) == (400, INVALID_PARAMS)
    assert error["message"] == 'Der Body muss {"name": "<tool>", "arguments": {...}} sein.'
    assert german.headers["content-language"] == "de"
    english = await http.post("/mcp/tools/call", json={"arguments": {}})
    assert english.json()["error"]["message"] == 'The body must be {"name": "<tool>", "arguments": {...}}.'
    assert "content-language" not in english.headers
    media = await http.post(
        "/mcp/tools/call", content=b"{}", headers={"Content-Type": "text/plain", "Accept-Language": "fr"}
    )
    assert media.status_code == 415 and media.headers["content-language"] == "fr"


async def test_a_refusal_before_the_language_is_known_is_english(http: httpx2.AsyncClient) -> None:
    """The host guard answers before anything of the request is read: no language, no Content-Language."""
    refused = await http.post("/mcp/tools/call", json={}, headers={"Accept-Language": "de", "Host": "evil.example"})
    assert refused.status_code == 421 and "content-language" not in refused.headers
    assert refused.json()["error"]["message"] == "Misdirected request: this Host is not served here."


async def test_a_resource_range_from_the_last_year_is_read_not_a_server_error(http: httpx2.AsyncClient) -> None:
    response = await http.post("/mcp/resources/read", json={"uri": "timezone://Europe/Paris?from=9998"})
    assert response.status_code == 200
    assert '\\"years\\": [9998, 9998]' in response.text
    too_late = await http.post("/mcp/resources/read", json={"uri": "timezone://Europe/Paris?from=9999"})
    assert too_late.status_code == 400
    message = "'from' must be a year between 1 and 9998, not 9999."
    assert too_late.json()["error"] == {
        "code": INVALID_PARAMS,
        "message": message,
        "data": {"error": {"code": INVALID_PARAMS, "kind": "invalid_argument", "message": message, "suggestions": []}},
    }
