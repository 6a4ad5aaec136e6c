"""SEP-2792: negotiation, localized text, contentLanguage; what travels in `_meta` in every transport cell."""

from __future__ import annotations

from typing import Any

import pytest
from mcp.client import Client
from mcp.shared.exceptions import MCPError
from mcp_types import RequestParamsMeta

from horologe.protocol.listing import tool_definition
from horologe.tools import registry as catalog
from horologe.wire import ACCEPT_LANGUAGE_META, CONTENT_LANGUAGE_META
from tests.calls import first_text, request_meta

pytestmark = pytest.mark.anyio


def prefer(value: str) -> RequestParamsMeta:
    return request_meta({ACCEPT_LANGUAGE_META: value})


def language_of(result: Any) -> str | None:
    meta = result.meta or {}
    value = meta.get(CONTENT_LANGUAGE_META)
    return value if isinstance(value, str) else None


async def titles(client: Client, value: str | None) -> tuple[dict[str, str], str | None]:
    listed = await client.list_tools(meta=prefer(value) if value is not None else None)
    return {tool.name: tool.title or "" for tool in listed.tools}, language_of(listed)


@pytest.mark.parametrize(
    ("value", "language", "title"),
    [
        ("de-AT, en;q=0.5", "de", "Aktuelle Uhrzeit"),
        ("fr-CA", "fr", "Heure actuelle"),
        ("es-419;q=0.9, de;q=0.8", "es", "Hora actual"),
        ("ja", "ja", "現在時刻"),
        ("zh-CN", "zh-Hans", "当前时间"),
        ("en-GB", "en", "Current time"),
        ("pt-BR", "en", "Current time"),  # unmatched: the default, reported, no error
        ("de;q=0, *;q=0.5", "en", "Current time"),  # wildcard, exclusion
    ],
)
async def test_tools_list_titles_follow_the_preference_and_report_it(
    client: Client, value: str, language: str, title: str
) -> None:
    listed = await client.list_tools(meta=prefer(value))
    tools = {tool.name: tool for tool in listed.tools}
    assert language_of(listed) == language
    assert set(tools) == {spec.name for spec in catalog.TOOLS}  # names never translated
    assert tools["get_current_time"].title == title
    assert tools["get_current_time"].annotations is not None
    assert tools["get_current_time"].annotations.title == title
    english = {spec.name: tool_definition(spec, default_zone="UTC")["description"] for spec in catalog.TOOLS}
    assert all(tool.description == english[name] for name, tool in tools.items())  # descriptions stay English
    assert "timezone" in tools["get_current_time"].input_schema["properties"]  # schema keys stable


@pytest.mark.parametrize("value", ["", " en", "en;q=2", "en,,fr", "de\x00", "日本語", "x" * 10_000])
async def test_a_malformed_preference_is_absent_and_never_an_error(client: Client, value: str) -> None:
    names, language = await titles(client, value)
    assert language is None
    assert names["get_current_time"] == "Current time"


@pytest.mark.wire("language")
async def test_switching_languages_on_one_connection_keeps_nothing(wire_client: Client) -> None:
    first, first_language = await titles(wire_client, "de")
    second, second_language = await titles(wire_client, "fr")
    third, third_language = await titles(wire_client, None)
    assert (first_language, second_language, third_language) == ("de", "fr", None)
    assert first["list_timezones"] == "Zeitzonen auflisten"
    assert second["list_timezones"] == "Lister les fuseaux horaires"
    assert third["list_timezones"] == "List timezones"


async def test_resources_templates_and_prompts_have_localized_titles(client: Client) -> None:
    resources = await client.list_resources(meta=prefer("de"))
    assert {r.name: r.title for r in resources.resources}["timezone_database"] == "Zeitzonendatenbank"
    assert language_of(resources) == "de"
    templates = await client.list_resource_templates(meta=prefer("ja"))
    assert templates.resource_templates[0].title == "タイムゾーンの詳細"
    assert templates.resource_templates[0].uri_template == "timezone://{zone}{?from,to}"
    prompts = await client.list_prompts(meta=prefer("es"))
    prompt = prompts.prompts[0]
    assert (prompt.name, prompt.title) == ("time_query_assistant", "Asistente para preguntas sobre la hora")
    assert next((a.name, a.title) for a in prompt.arguments or []) == ("user_query", "Pregunta")


@pytest.mark.wire("language")
async def test_tool_results_report_the_language_and_keep_machine_values(wire_client: Client) -> None:
    result = await wire_client.call_tool(
        "calculate_duration",
        {"start_time": "2026-01-01T00:00:00Z", "end_time": "2026-02-02T03:00:00Z"},
        meta=prefer("de"),
    )
    assert language_of(result) == "de"
    body = result.structured_content
    assert body is not None
    assert body["duration"]["human_readable"] == "1 Monat, 1 Tag und 3 Stunden"  # its three largest units
    assert body["start"] == "2026-01-01T00:00:00Z" and body["duration"]["total_seconds"] == 2775600
    plain = await wire_client.call_tool(
        "calculate_duration", {"start_time": "2026-01-01T00:00:00Z", "end_time": "2026-02-02T03:00:00Z"}
    )
    assert language_of(plain) is None
    assert plain.structured_content is not None
    assert plain.structured_content["duration"]["human_readable"] == "1 month, 1 day, and 3 hours"


async def test_the_human_format_follows_the_language_and_the_client_locale_wins(client: Client) -> None:
    arguments = {"timezone": "Europe/Vienna", "format": "human"}
    german = await client.call_tool("get_current_time", arguments, meta=prefer("de"))
    assert german.structured_content is not None
    assert german.structured_content["formatted"].startswith("Sonntag, 22. November 2026")
    assert german.structured_content["day_of_week"] == "Sunday"  # a stable value, not prose
    context = {"io.modelcontextprotocol/clientContext": {"locale": "fr-FR"}}  # SEP-1809 formatting locale
    french = await client.call_tool("get_current_time", arguments, meta=request_meta({**prefer("de"), **context}))
    assert french.structured_content is not None
    assert french.structured_content["formatted"].startswith("dimanche 22 novembre 2026")


async def test_tool_errors_are_localized_with_stable_codes_and_kinds(client: Client) -> None:
    result = await client.call_tool("get_current_time", {"timezone": "Europ/Vienna"}, meta=prefer("fr"))
    assert result.is_error is True
    assert language_of(result) == "fr"
    error = (result.meta or {}).get("dev.horologe/error", {})
    assert error["code"] == -32000 and error["kind"] == "invalid_timezone"
    assert error["message"].startswith("Lieu ou fuseau horaire inconnu : 'Europ/Vienna'.")
    assert "Europe/Vienna" in error["suggestions"]
    assert first_text(result).startswith("Lieu ou fuseau horaire inconnu")


async def test_an_error_without_a_template_stays_english_and_says_so(client: Client) -> None:
    result = await client.call_tool("get_current_time", {"timezone": "Europe/Vienna" * 30}, meta=prefer("de"))
    assert result.is_error is True
    assert language_of(result) == "en"  # pydantic's explanation is English, so the whole message is
    text = first_text(result)
    assert text.startswith("Invalid arguments for get_current_time: timezone: String should have at most")


async def test_dst_errors_are_localized(client: Client) -> None:
    arguments = {
        "timestamp": "2026-03-29 02:30",
        "from_timezone": "Europe/Vienna",
        "to_timezone": "UTC",
        "disambiguation": "reject",
    }
    result = await client.call_tool("convert_timezone", arguments, meta=prefer("ja"))
    assert result.is_error is True and language_of(result) == "ja"
    text = first_text(result)
    assert "Europe/Vienna に存在しません" in text and "'compatible'" in text


@pytest.mark.wire("language")
async def test_protocol_errors_carry_the_language_in_error_data_meta(wire_client: Client) -> None:
    with pytest.raises(MCPError) as raised:
        await wire_client.call_tool("no_such_tool", {}, meta=prefer("es"))
    assert raised.value.error.code == -32602
    assert raised.value.error.message.startswith("Herramienta desconocida 'no_such_tool'.")
    assert raised.value.error.data["_meta"] == {CONTENT_LANGUAGE_META: "es"}
    assert raised.value.error.data["tool"] == "no_such_tool"
    with pytest.raises(MCPError) as plain:
        await wire_client.call_tool("no_such_tool", {})
    assert plain.value.error.message.startswith("Unknown tool")
    assert "_meta" not in (plain.value.error.data or {})


async def test_argument_errors_are_localized(client: Client) -> None:
    result = await client.call_tool("get_current_time", {"zone": "UTC"}, meta=prefer("zh-Hans"))
    assert result.is_error is True and language_of(result) == "zh-Hans"
    text = first_text(result)
    assert text.startswith("get_current_time 的参数无效\uff1a未知的参数 'zone'")


async def test_calendar_sentences_are_localized(client: Client) -> None:
    arguments = {"timestamp": "2026-01-31T10:00:00Z", "amount": "P1M", "timezone": "UTC"}
    result = await client.call_tool("add_time", arguments, meta=prefer("de"))
    assert result.structured_content is not None
    assert "Kalendereinheiten behalten die Uhrzeit bei" in str(result.structured_content)


@pytest.mark.wire("progress")
async def test_progress_messages_are_localized(wire_client: Client) -> None:
    messages: list[str | None] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        messages.append(message)

    await wire_client.call_tool(
        "list_timezones", {"region": "Europe"}, progress_callback=on_progress, meta=prefer("fr")
    )
    assert messages[0] == "Recherche dans la base des fuseaux horaires"
    assert messages[-1] is not None and messages[-1].endswith("fuseaux horaires correspondants trouvés")
