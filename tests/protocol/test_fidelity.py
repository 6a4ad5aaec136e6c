"""Protocol fidelity in both eras, over the stdio edge with exact request lines (issue 19)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp.server.lowlevel.server import Server
from pydantic import ValidationError

from horologe import __version__
from horologe.clock import FixedClock
from horologe.config import ServerSection, Settings
from horologe.protocol.server import build_server
from horologe.wire import ACCEPT_LANGUAGE_META, CONTENT_LANGUAGE_META
from tests.conftest import FIXED_NOW
from tests.stdio_pipe import exchange_lines

pytestmark = pytest.mark.anyio
MODERN = "2026-07-28"
ERAS = ["2025-11-25", MODERN]


def line(request_id: int, method: str, params: dict[str, Any] | None = None, era: str = MODERN) -> bytes:
    """One request line; a 2026-07-28 one carries the envelope (and any `_meta` given in params)."""
    params = dict(params or {})
    if era == MODERN:
        params["_meta"] = {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
            **params.get("_meta", {}),
        }
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}).encode()


def opening(era: str) -> list[bytes]:
    """The lines that open a connection in an era (the handshake, or nothing)."""
    if era == MODERN:
        return []
    init = {"protocolVersion": era, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    return [line(0, "initialize", init, era), json.dumps(initialized).encode()]


async def answers(server: Server[Any], era: str, *requests: bytes) -> dict[int, dict[str, Any]]:
    """The answers to `requests` in `era`, by request id."""
    got = await exchange_lines(server, [*opening(era), *requests])
    return {answer["id"]: answer for answer in got if answer.get("id") not in (None, 0)}


def german(params: dict[str, Any]) -> dict[str, Any]:
    return {**params, "_meta": {ACCEPT_LANGUAGE_META: "de"}}


@pytest.mark.parametrize("era", ERAS)
async def test_content_language_names_the_language_resources_and_prompts_were_written_in(
    server: Server[Any], era: str
) -> None:
    got = await answers(
        server,
        era,
        line(1, "resources/read", german({"uri": "horologe://time_formats"}), era),
        line(2, "prompts/get", german({"name": "time_query_assistant", "arguments": {"user_query": "Zeit?"}}), era),
        line(3, "resources/list", german({}), era),
    )
    assert got[1]["result"]["contents"][0]["text"].startswith("# Time formats")
    assert got[1]["result"]["_meta"][CONTENT_LANGUAGE_META] == "en"
    assert got[2]["result"]["messages"][0]["content"]["text"].startswith("You are answering")
    assert got[2]["result"]["_meta"][CONTENT_LANGUAGE_META] == "en"
    # Lists are translated: there the negotiated language is the one used.
    assert got[3]["result"]["_meta"][CONTENT_LANGUAGE_META] == "de"


ALL_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", MODERN]


async def test_discover_and_the_unsupported_version_error_list_every_version_spoken(server: Server[Any]) -> None:
    unknown = json.loads(line(2, "tools/list"))
    unknown["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = "2099-01-01"
    got = await answers(server, MODERN, line(1, "server/discover"), json.dumps(unknown).encode())
    assert got[1]["result"]["supportedVersions"] == ALL_VERSIONS
    assert got[2]["error"]["code"] == -32022
    assert got[2]["error"]["data"] == {"supported": ALL_VERSIONS, "requested": "2099-01-01"}


@pytest.mark.parametrize("era", ERAS)
async def test_missing_resources_and_bad_prompt_arguments_are_invalid_params(server: Server[Any], era: str) -> None:
    got = await answers(
        server,
        era,
        line(1, "resources/read", {"uri": "timezone://Mars/Olympus"}, era),
        line(2, "resources/read", {"uri": "file:///etc/passwd"}, era),
        line(
            3,
            "prompts/get",
            {"name": "time_query_assistant", "arguments": {"user_query": "?", "timezone": "Nope"}},
            era,
        ),
        line(4, "prompts/get", {"name": "time_query_assistant", "arguments": {"colour": "red"}}, era),
    )
    for request_id in (1, 2, 3, 4):
        assert got[request_id]["error"]["code"] == -32602, got[request_id]
    assert "Mars/Olympus" in got[1]["error"]["message"]
    assert got[1]["error"]["data"]["error"]["kind"] == "invalid_timezone"  # the domain's own kind and code
    assert got[3]["error"]["data"]["error"]["code"] == -32000


@pytest.mark.parametrize("era", ERAS)
async def test_cursors_we_never_gave_out_and_completion_of_unknown_references_are_invalid_params(
    server: Server[Any], era: str
) -> None:
    methods = ["tools/list", "resources/list", "resources/templates/list", "prompts/list"]
    argument = {"name": "timezone", "value": "Vie"}
    got = await answers(
        server,
        era,
        *[line(index, method, {"cursor": "bm9wZQ"}, era) for index, method in enumerate(methods, start=1)],
        line(
            5,
            "completion/complete",
            {"ref": {"type": "ref/prompt", "name": "no_such_prompt"}, "argument": argument},
            era,
        ),
        line(
            6, "completion/complete", {"ref": {"type": "ref/resource", "uri": "nope://{x}"}, "argument": argument}, era
        ),
        line(
            7,
            "completion/complete",
            {"ref": {"type": "ref/prompt", "name": "time_query_assistant"}, "argument": argument},
            era,
        ),
        line(8, "tools/list", {}, era),
    )
    for request_id in range(1, 7):
        assert got[request_id]["error"]["code"] == -32602, got[request_id]
    assert "cursor" in got[1]["error"]["message"] and got[1]["error"]["data"]["cursor"] == "bm9wZQ"
    assert "no_such_prompt" in got[5]["error"]["message"]
    assert "Europe/Vienna" in got[7]["result"]["completion"]["values"]
    assert "nextCursor" not in got[8]["result"]


@pytest.mark.parametrize(
    "carrier",
    [
        {"_meta": {"dev.horologe/clientContext": {"timezone": "Asia/Tokyo"}}},
        {"_meta": {"io.modelcontextprotocol/clientContext": {"timezone": "Asia/Tokyo"}}},  # what clients sent before
    ],
)
async def test_the_client_context_is_read_under_our_prefix_and_the_old_reserved_one(
    server: Server[Any], carrier: dict[str, Any]
) -> None:
    params = {"name": "get_current_time", "arguments": {}, **carrier}
    got = await answers(server, MODERN, line(1, "tools/call", params))
    assert got[1]["result"]["structuredContent"]["timezone"] == "Asia/Tokyo"


async def test_a_top_level_context_gives_way_to_one_in_meta_under_either_spelling(server: Server[Any]) -> None:
    request = json.loads(line(1, "tools/call", {"name": "get_current_time", "arguments": {}}))
    request["params"]["_meta"]["io.modelcontextprotocol/clientContext"] = {"timezone": "Asia/Tokyo"}
    request["clientContext"] = {"timezone": "America/Lima"}
    got = await answers(server, MODERN, json.dumps(request).encode())
    assert got[1]["result"]["structuredContent"]["timezone"] == "Asia/Tokyo"


@pytest.mark.parametrize("extension", ["dev.horologe/client-state", "io.modelcontextprotocol/state"])
async def test_the_state_extension_is_declared_under_our_prefix_or_the_old_one(
    server: Server[Any], extension: str
) -> None:
    params = {
        "name": "preferences",
        "arguments": {"action": "set", "timezone": "Europe/Vienna"},
        "_meta": {"io.modelcontextprotocol/clientCapabilities": {"extensions": {extension: {}}}},
    }
    got = await answers(server, MODERN, line(1, "tools/call", params))
    meta = got[1]["result"]["_meta"]
    assert "modelcontextprotocol.io/state/server" in meta or "modelcontextprotocol.io/state/session" in meta, meta


def opened_for(version: str) -> bytes:
    init = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    return line(0, "initialize", init, version)


async def test_a_2025_03_26_connection_receives_batches_and_answers_each_as_one_array(server: Server[Any]) -> None:
    initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    batch = [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_current_time", "arguments": {}}},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 77}},
        {"jsonrpc": "2.0", "id": 2, "method": "prompts/get", "params": {"name": "nope"}},
        "junk",
        {"jsonrpc": "2.0", "id": 3, "method": "initialize", "params": {}},
    ]
    only_notifications = [{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 78}}]
    got = await exchange_lines(
        server,
        [
            opened_for("2025-03-26"),
            json.dumps(initialized).encode(),
            json.dumps(batch).encode(),
            json.dumps(only_notifications).encode(),
            b"[]",
            line(4, "tools/list", era="2025-03-26"),
        ],
    )
    assert got[0]["id"] == 0 and got[0]["result"]["protocolVersion"] == "2025-03-26"
    arrays = [answer for answer in got if isinstance(answer, list)]
    assert len(arrays) == 1  # one line answers the whole batch; the notifications-only batch gets none
    replies = {reply["id"]: reply for reply in arrays[0]}
    assert set(replies) == {1, 2, 3, None}
    assert replies[1]["result"]["structuredContent"]["timezone"] == "UTC"
    assert replies[2]["error"]["code"] == -32602
    assert replies[3]["error"]["code"] == replies[None]["error"]["code"] == -32600
    singles = {answer["id"]: answer for answer in got if isinstance(answer, dict)}
    assert set(singles) == {0, None, 4}  # the handshake, the empty batch's error, tools/list
    assert singles[None]["error"]["code"] == -32600 and "tools" in singles[4]["result"]


async def test_a_2025_06_18_connection_refuses_batches(server: Server[Any]) -> None:
    batch = [{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}]
    got = await exchange_lines(server, [opened_for("2025-06-18"), json.dumps(batch).encode()])
    refusal = next(answer for answer in got if answer["id"] is None)
    assert refusal["error"]["code"] == -32600 and "2025-03-26" in refusal["error"]["message"]


async def test_lists_say_they_may_be_reused_and_resources_say_they_may_not(server: Server[Any]) -> None:
    lists = ["server/discover", "tools/list", "resources/list", "resources/templates/list", "prompts/list"]
    got = await answers(
        server,
        MODERN,
        *[line(index, method) for index, method in enumerate(lists, start=1)],
        line(9, "resources/read", {"uri": "horologe://time_formats"}),
    )
    for index in range(1, len(lists) + 1):
        assert (got[index]["result"]["ttlMs"], got[index]["result"]["cacheScope"]) == (3_600_000, "public"), index
    assert (got[9]["result"]["ttlMs"], got[9]["result"]["cacheScope"]) == (0, "private")  # rendered from "now"
    legacy = await answers(server, "2025-11-25", line(1, "tools/list", era="2025-11-25"))
    assert "ttlMs" not in legacy[1]["result"]


@pytest.mark.parametrize("era", ERAS)
async def test_completion_of_the_year_range_reads_the_arguments_already_given(server: Server[Any], era: str) -> None:
    ref = {"type": "ref/resource", "uri": "timezone://{zone}{?from,to}"}

    def ask(request_id: int, name: str, value: str, given: dict[str, str] | None) -> bytes:
        params: dict[str, Any] = {"ref": ref, "argument": {"name": name, "value": value}}
        if given is not None:
            params["context"] = {"arguments": given}
        return line(request_id, "completion/complete", params, era)

    got = await answers(
        server,
        era,
        ask(1, "to", "20", {"zone": "Europe/Vienna", "from": "1990"}),
        ask(2, "from", "", {"to": "2030"}),
        ask(3, "to", "", None),
    )
    first = got[1]["result"]["completion"]
    assert first["values"][0] == "2000" and first["values"][-1] == "2039"  # 1990 + 49 at most
    second = got[2]["result"]["completion"]["values"]
    assert (second[0], second[-1], len(second)) == ("1981", "2030", 50)
    third = got[3]["result"]["completion"]["values"]
    assert third[0] == "2026"  # from this year on (the fixed clock's), when no 'from' was given


@pytest.mark.parametrize(("era", "linked"), [(MODERN, True), ("2025-06-18", True), ("2025-03-26", False)])
async def test_timezone_info_links_the_zone_resource_where_the_revision_has_links(
    server: Server[Any], era: str, linked: bool
) -> None:
    call = {"name": "get_timezone_info", "arguments": {"timezone": "Vienna"}}
    read = {"uri": "timezone://Europe/Vienna"}
    got = await answers(server, era, line(1, "tools/call", call, era), line(2, "resources/read", read, era))
    links = [item for item in got[1]["result"]["content"] if item["type"] == "resource_link"]
    assert links == (
        [
            {
                "type": "resource_link",
                "uri": "timezone://Europe/Vienna",
                "name": "Europe/Vienna",
                "mimeType": "application/json",
            }
        ]
        if linked
        else []
    )
    assert '"timezone": "Europe/Vienna"' in got[2]["result"]["contents"][0]["text"]  # the link resolves


async def test_a_configured_website_and_icon_identify_the_server(settings: Settings) -> None:
    site, icon = "https://time.example.com/", "https://time.example.com/icon.png"
    configured = settings.model_copy(
        update={"server": settings.server.model_copy(update={"website_url": site, "icon_url": icon})}
    )
    got = await answers(build_server(configured, FixedClock(FIXED_NOW)), MODERN, line(1, "server/discover"))
    info = got[1]["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]
    assert info["websiteUrl"] == site and info["icons"] == [{"src": icon}]
    plain = await answers(build_server(settings, FixedClock(FIXED_NOW)), MODERN, line(1, "server/discover"))
    assert "icons" not in plain[1]["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]


def test_website_and_icon_must_be_web_addresses() -> None:
    with pytest.raises(ValidationError):
        ServerSection(icon_url="javascript:alert(1)")
    with pytest.raises(ValidationError):
        ServerSection(website_url="ftp://x")


HOLIDAY_LANGUAGES = [
    # (negotiated, arguments, the language the names are in = contentLanguage, one name)
    ("de", {"country": "AT", "year": 2025}, "de", "Neujahr"),
    ("de", {"country": "AT", "year": 2025, "language": "en"}, "en-US", "New Year's Day"),  # the argument decided
    ("en", {"country": "AT", "year": 2025, "language": "de"}, "de", "Neujahr"),
    ("de", {"country": "CM", "year": 2025}, "en", "New Year's Day"),  # the package has Cameroon's names in English
    ("ja", {"country": "US", "year": 2025}, "en-US", "New Year's Day"),  # no Japanese names for the US
    ("fr", {"country": "US", "year": 2025, "language": "th"}, "th", "วันขึ้นปีใหม่"),
]


@pytest.mark.parametrize("era", ERAS)
async def test_holiday_names_are_labelled_with_the_language_they_are_in(server: Server[Any], era: str) -> None:
    requests = [
        line(
            index,
            "tools/call",
            {"name": "list_holidays", "arguments": arguments, "_meta": {ACCEPT_LANGUAGE_META: tag}},
            era,
        )
        for index, (tag, arguments, _, _) in enumerate(HOLIDAY_LANGUAGES, start=1)
    ]
    got = await answers(server, era, *requests)
    for index, (_, _, used, name) in enumerate(HOLIDAY_LANGUAGES, start=1):
        result = got[index]["result"]
        assert result["structuredContent"]["holidays"][0]["names"] == [name], index
        assert result["_meta"][CONTENT_LANGUAGE_META] == used, index


async def test_server_info_names_horologes_own_version_whatever_the_configuration_file_says(settings: Settings) -> None:
    seed = settings.model_copy(update={"server": settings.server.model_copy(update={"version": "1.0.0"})})
    discovered = await answers(build_server(seed, FixedClock(FIXED_NOW)), MODERN, line(1, "server/discover"))
    assert discovered[1]["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["version"] == __version__
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    (initialized,) = await exchange_lines(build_server(seed, FixedClock(FIXED_NOW)), [line(1, "initialize", init, "")])
    assert initialized["result"]["serverInfo"]["version"] == __version__
