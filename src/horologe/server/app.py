"""The MCP surface on the official SDK's low-level `Server`: tools, resources, prompts and completion."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import Server
from pydantic import ValidationError

from horologe import __version__
from horologe.clock import Clock
from horologe.config import Settings
from horologe.context import RequestContext
from horologe.core.client_context import CLIENT_CONTEXT_META_KEY, NO_CONTEXT, read_client_context
from horologe.core.errors import TimeError
from horologe.core.zones import ResolvedZone, resolve_zone
from horologe.i18n.messages import (
    PROGRESS_DONE,
    PROGRESS_EXPANDED,
    PROGRESS_EXPANDING,
    PROGRESS_SEARCHING,
    SERVER_TITLE,
)
from horologe.i18n.translate import current_tag
from horologe.i18n.translate import gettext as translated
from horologe.jsontext import compact_json
from horologe.server import completion, prompts, resources
from horologe.server.catalog import TOOLS, TOOLS_BY_NAME
from horologe.server.errors import arguments_error, internal_errors, invalid_params, localized, tool_error
from horologe.server.language import LanguageMiddleware, send_progress
from horologe.server.localized import locale_known
from horologe.server.schemas import clean_schema
from horologe.server.state_middleware import StateMiddleware
from horologe.server.state_tools import stored_preferences
from horologe.server.tools import ToolOptions, ToolSpec
from horologe.server.tracing import drop_unused_tracing

# Tools that report progress when asked (SEP-414 progressToken): (starting, finished, result count field).
PROGRESS_MESSAGES: dict[str, tuple[str, str, str]] = {
    "list_timezones": (PROGRESS_SEARCHING, PROGRESS_DONE, "total"),
    "next_occurrences": (PROGRESS_EXPANDING, PROGRESS_EXPANDED, "count"),
}
INSTRUCTIONS = (
    "horologe answers questions about time precisely: the current time anywhere, conversions between zones on any "
    "date, durations, formatting and timezone facts. Never guess the current date or an offset; call a tool. "
    "Local times that fall into a DST change are reported, not silently shifted."
)
TOOL_ANNOTATIONS = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}

Ctx = ServerRequestContext[Any, Any]


@cache
def tool_model(spec: ToolSpec, language: str = "en", descriptions: bool = False) -> types.Tool:
    """The SDK model of a tool in a language, computed once per tool and language."""
    return types.Tool.model_validate(tool_definition(spec, language, descriptions))


@cache
def tool_schemas(spec: ToolSpec) -> tuple[dict[str, Any], dict[str, Any]]:
    """A tool's input and output JSON Schemas, built once: pydantic schema generation is slow (read-only results)."""
    return clean_schema(spec.arguments.model_json_schema()), clean_schema(spec.result.model_json_schema())


def tool_definition(spec: ToolSpec, language: str | None = None, descriptions: bool = False) -> dict[str, Any]:
    """The wire form of a tool; titles in `language` (default: the current request's), names and schemas never."""
    language = language or current_tag()
    title = translated(spec.title, language)
    input_schema, output_schema = tool_schemas(spec)
    return {
        "name": spec.name,
        "title": title,
        "description": translated(spec.description, language) if descriptions else spec.description,
        "inputSchema": input_schema,
        "outputSchema": output_schema,
        "annotations": {"title": title, **TOOL_ANNOTATIONS},
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
        if "title" in out:
            out["title"] = translated(out["title"], language)
        if descriptions and "description" in out:
            out["description"] = translated(out["description"], language)
        if "arguments" in out:
            out["arguments"] = [localize(argument) for argument in out["arguments"]]
        return out

    return [localize(entry) for entry in entries]


class Horologe:
    """Request handlers bound to one process's settings and clock."""

    def __init__(self, settings: Settings, clock: Clock, default_zone: ResolvedZone) -> None:
        self.settings = settings
        self.clock = clock
        self.default_zone = default_zone
        self.options = ToolOptions(settings.time.supported_formats, settings.time.precision)

    def context(self, ctx: Ctx | None = None) -> RequestContext:
        """The per-request context: client context (SEP-1809) from `_meta` over the clock's now and the default zone.

        The client's `currentTimestamp` is now and its `timezone` the default zone; bad fields are ignored and
        reported (see `RequestContext.meta`), never an error.
        """
        return self.context_from_meta(ctx.meta if ctx is not None else None)

    def context_from_meta(self, meta: Mapping[str, Any] | None) -> RequestContext:
        """The per-request context from a request's `_meta` (any transport, REST included)."""
        raw = meta.get(CLIENT_CONTEXT_META_KEY) if isinstance(meta, Mapping) else None
        client = read_client_context(raw, locale_known=locale_known) if raw is not None else NO_CONTEXT
        stored = stored_preferences()  # SEP-1655: explicit argument > client context > stored > server default
        return RequestContext(
            now=client.now or self.clock.now(),
            default_zone=client.zone or stored.zone or self.default_zone,
            locale=client.locale or stored.locale,
            country=client.country,
            client=client,
            preferences=stored.values,
        )

    async def list_tools(self, ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        """All tools with schemas, and titles and annotations in the request's language."""
        language, descriptions = current_tag(), self.settings.i18n.translate_descriptions
        return types.ListToolsResult(tools=[tool_model(spec, language, descriptions) for spec in TOOLS])

    async def call_tool(self, ctx: Ctx, params: types.CallToolRequestParams) -> dict[str, Any]:
        """Run a tool for an MCP request; every result carries the context report in `_meta`."""
        context = self.context(ctx)
        progress = PROGRESS_MESSAGES.get(params.name)
        if progress:
            await send_progress(ctx, 0, 1, translated(progress[0]))
        result = self.run_tool(params.name, params.arguments, context)
        if progress:
            count = result.get("structuredContent", {}).get(progress[2], 0) if not result.get("isError") else 0
            await send_progress(ctx, 1, 1, translated(progress[1]).format(count=count))
        result["_meta"] = {**result.get("_meta", {}), **context.meta()}
        # A wire-shaped dict: the SDK validates it once on the way out, no model round trip here.
        result["resultType"] = "complete"
        return result

    def run_tool(self, name: str, raw_arguments: dict[str, Any] | None, context: RequestContext) -> dict[str, Any]:
        """Run a tool; domain errors and bad arguments come back as `isError` results the model can act on."""
        spec = TOOLS_BY_NAME.get(name)
        if spec is None:
            listed = ", ".join(TOOLS_BY_NAME)
            message = f"Unknown tool {name[:100]!r}. Available tools: {listed}."
            raise invalid_params(
                localized("tool.unknown", message, name=repr(name[:100]), tools=listed), tool=name[:100]
            )
        try:
            arguments = spec.arguments.model_validate(raw_arguments or {})
        except ValidationError as exc:
            return tool_error(arguments_error(spec.name, exc, list(spec.arguments.model_fields)))
        try:
            result = spec.run(arguments, context, self.options)
        except TimeError as exc:
            return tool_error(exc)
        return {
            "content": [{"type": "text", "text": compact_json(result)}],
            "structuredContent": result,
            "isError": False,
        }

    async def list_resources(self, ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        """The static resources."""
        descriptions = self.settings.i18n.translate_descriptions
        entries = localized_entries(resources.STATIC_RESOURCES, current_tag(), descriptions)
        return types.ListResourcesResult.model_validate({"resources": entries})

    async def list_resource_templates(
        self, ctx: Ctx, params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        """The per-zone resource template."""
        entries = localized_entries(resources.TEMPLATES, current_tag(), self.settings.i18n.translate_descriptions)
        return types.ListResourceTemplatesResult.model_validate({"resourceTemplates": entries})

    async def read_resource(self, ctx: Ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        """Read a resource by URI."""
        found = resources.read_resource(params.uri, self.context(ctx))
        if found is None:
            uri = params.uri[:200]
            raise invalid_params(localized("resource.unknown", f"Unknown resource {uri!r}.", uri=repr(uri)), uri=uri)
        mime_type, text = found
        return types.ReadResourceResult.model_validate(
            {"contents": [{"uri": params.uri, "mimeType": mime_type, "text": text}]}
        )

    async def list_prompts(self, ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListPromptsResult:
        """The prompts."""
        entries = localized_entries(prompts.PROMPTS, current_tag(), self.settings.i18n.translate_descriptions)
        return types.ListPromptsResult.model_validate({"prompts": entries})

    async def get_prompt(self, ctx: Ctx, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        """Render a prompt."""
        rendered = prompts.get_prompt(params.name, params.arguments, self.context(ctx))
        if rendered is None:
            name = params.name[:100]
            english = f"Unknown prompt {name!r}. Available: {prompts.PROMPT_NAME}."
            raise invalid_params(localized("prompt.unknown", english, name=repr(name), prompts=prompts.PROMPT_NAME))
        return types.GetPromptResult.model_validate(rendered)

    async def complete(self, ctx: Ctx, params: types.CompleteRequestParams) -> types.CompleteResult:
        """Suggest timezone names for the arguments that take one."""
        ref = params.ref
        target = ref.name if isinstance(ref, types.PromptReference) else ref.uri
        values, total, has_more = completion.complete(ref.type, target, params.argument.name, params.argument.value)
        body: dict[str, Any] = {"values": values, "hasMore": has_more}
        if not has_more:
            body["total"] = total
        return types.CompleteResult.model_validate({"completion": body})


def build_server(settings: Settings, clock: Clock, app: Horologe | None = None) -> Server[Any]:
    """An SDK `Server` with horologe's handlers registered as the settings enable them."""
    app = app or Horologe(settings, clock, default_zone_from(settings))
    caps = settings.capabilities
    handlers: dict[str, Any] = {"on_completion": app.complete}
    if caps.tools:
        handlers |= {"on_list_tools": app.list_tools, "on_call_tool": app.call_tool}
    if caps.resources:
        handlers |= {
            "on_list_resources": app.list_resources,
            "on_list_resource_templates": app.list_resource_templates,
            "on_read_resource": app.read_resource,
        }
    if caps.prompts:
        handlers |= {"on_list_prompts": app.list_prompts, "on_get_prompt": app.get_prompt}
    server: Server[Any] = Server(
        settings.server.name,
        version=settings.server.version or __version__,
        title=SERVER_TITLE,
        description="Time, timezones and DST done right.",
        instructions=INSTRUCTIONS,
        **handlers,
    )
    server.middleware.insert(0, LanguageMiddleware(settings.i18n.default_language))
    server.middleware.append(internal_errors)
    if settings.state.enabled:
        server.middleware.append(StateMiddleware.from_settings(settings, clock))
    drop_unused_tracing(server)
    return server


def default_zone_from(settings: Settings) -> ResolvedZone:
    """The configured default zone; 'local' asks the host (the only place the host zone is read)."""
    name = settings.time.default_timezone
    if name == "local":
        from horologe.localzone import host_zone_name

        name = host_zone_name()
    return resolve_zone(name)
