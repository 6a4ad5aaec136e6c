"""The wire form of what the server lists (tools, resources, templates, prompts), titled in a request's language.

Names and schemas never change with the language; titles do, and descriptions too when the server is configured
to translate them. Each form is computed once per item and language.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import mcp_types as types

from horologe.i18n.language import gettext
from horologe.protocol.errors import InvalidCursor
from horologe.tools.registry import tool_schemas
from horologe.tools.spec import ToolSpec


def one_page(params: types.PaginatedRequestParams | None) -> None:
    """Refuse a cursor (-32602): every list fits in one page, so no cursor was ever given out."""
    cursor = params.cursor if params is not None else None
    if cursor is not None:
        raise InvalidCursor(cursor=repr(cursor[:40]), data={"cursor": cursor[:40]})


@cache
def tool_entry(
    spec: ToolSpec, language: str = "en", descriptions: bool = False, default_zone: str = "UTC"
) -> dict[str, Any]:
    """A tool as `tools/list` sends it in a language (checked against the SDK's model), computed once per tool,
    language and default zone.

    Handlers answer with these dicts, not with models: the SDK dumped a result model on every `tools/list` (about
    0.5 ms for the 16 tools) before it validates and dumps the result again for the wire, which it does to a dict too.
    """
    return types.Tool.model_validate(tool_definition(spec, language, descriptions, default_zone)).model_dump(
        by_alias=True, mode="json", exclude_none=True
    )


def tool_definition(
    spec: ToolSpec, language: str = "en", descriptions: bool = False, default_zone: str = "UTC"
) -> dict[str, Any]:
    """The wire form of a tool: its title (and, when configured, description) in `language`; a description names
    the server's default zone where it says `{default_zone}`."""
    title = gettext(spec.title, language)
    input_schema, output_schema = tool_schemas(spec)
    description = gettext(spec.description, language) if descriptions else spec.description
    return {
        "name": spec.name,
        "title": title,
        "description": description.replace("{default_zone}", default_zone),
        "inputSchema": input_schema,
        "outputSchema": output_schema,
        "annotations": {
            "title": title,
            "readOnlyHint": spec.read_only,
            "destructiveHint": spec.destructive,
            "idempotentHint": spec.idempotent,
            "openWorldHint": False,  # every answer comes from this server's own data
        },
    }


_LOCALIZED_ENTRIES: dict[tuple[int, str, bool], list[dict[str, Any]]] = {}


def localized_entries(entries: tuple[dict[str, Any], ...], language: str, descriptions: bool) -> list[dict[str, Any]]:
    """Resources, templates or prompts with their (and their arguments') titles in `language`, computed once."""
    key = (id(entries), language, descriptions)
    found = _LOCALIZED_ENTRIES.get(key)
    if found is None:
        found = _LOCALIZED_ENTRIES[key] = _localize_entries(entries, language, descriptions)
    return found


def _localize_entries(entries: tuple[dict[str, Any], ...], language: str, descriptions: bool) -> list[dict[str, Any]]:
    def localize(entry: dict[str, Any]) -> dict[str, Any]:
        out = dict(entry)
        title, description = out.get("title"), out.get("description")
        if title is not None:
            out["title"] = gettext(title, language)
        if descriptions and description is not None:
            out["description"] = gettext(description, language)
        if "arguments" in out:
            out["arguments"] = [localize(argument) for argument in out["arguments"]]
        return out

    return [localize(entry) for entry in entries]
