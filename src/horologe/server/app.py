"""The MCP surface on the official SDK's low-level `Server`: tools, resources, prompts and completion."""

from __future__ import annotations

import json
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
from horologe.server import completion, prompts, resources
from horologe.server.catalog import TOOLS, TOOLS_BY_NAME
from horologe.server.errors import arguments_error, internal_errors, invalid_params, tool_error
from horologe.server.localized import locale_known
from horologe.server.schemas import clean_schema
from horologe.server.tools import ToolOptions, ToolSpec
from horologe.server.tracing import drop_unused_tracing

INSTRUCTIONS = (
    "horologe answers questions about time precisely: the current time anywhere, conversions between zones on any "
    "date, durations, formatting and timezone facts. Never guess the current date or an offset; call a tool. "
    "Local times that fall into a DST change are reported, not silently shifted."
)
TOOL_ANNOTATIONS = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}

Ctx = ServerRequestContext[Any, Any]


@cache
def tool_model(spec: ToolSpec) -> types.Tool:
    """The SDK model of a tool, computed once."""
    return types.Tool.model_validate(tool_definition(spec))


def tool_definition(spec: ToolSpec) -> dict[str, Any]:
    """The wire form of a tool."""
    return {
        "name": spec.name,
        "title": spec.title,
        "description": spec.description,
        "inputSchema": clean_schema(spec.arguments.model_json_schema()),
        "outputSchema": clean_schema(spec.result.model_json_schema()),
        "annotations": {"title": spec.title, **TOOL_ANNOTATIONS},
    }


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
        return RequestContext(
            now=client.now or self.clock.now(),
            default_zone=client.zone or self.default_zone,
            locale=client.locale,
            country=client.country,
            client=client,
        )

    async def list_tools(self, ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        """All tools with schemas, titles and annotations."""
        return types.ListToolsResult(tools=[tool_model(spec) for spec in TOOLS])

    async def call_tool(self, ctx: Ctx, params: types.CallToolRequestParams) -> dict[str, Any]:
        """Run a tool for an MCP request; every result carries the context report in `_meta`."""
        context = self.context(ctx)
        result = self.run_tool(params.name, params.arguments, context)
        result["_meta"] = {**result.get("_meta", {}), **context.meta()}
        # A wire-shaped dict: the SDK validates it once on the way out, no model round trip here.
        result["resultType"] = "complete"
        return result

    def run_tool(self, name: str, raw_arguments: dict[str, Any] | None, context: RequestContext) -> dict[str, Any]:
        """Run a tool; domain errors and bad arguments come back as `isError` results the model can act on."""
        spec = TOOLS_BY_NAME.get(name)
        if spec is None:
            raise invalid_params(
                f"Unknown tool {name[:100]!r}. Available tools: {', '.join(TOOLS_BY_NAME)}.", tool=name[:100]
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
            "content": [{"type": "text", "text": json.dumps(result, ensure_ascii=False)}],
            "structuredContent": result,
            "isError": False,
        }

    async def list_resources(self, ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        """The static resources."""
        return types.ListResourcesResult.model_validate({"resources": resources.STATIC_RESOURCES})

    async def list_resource_templates(
        self, ctx: Ctx, params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        """The per-zone resource template."""
        return types.ListResourceTemplatesResult.model_validate({"resourceTemplates": resources.TEMPLATES})

    async def read_resource(self, ctx: Ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        """Read a resource by URI."""
        found = resources.read_resource(params.uri, self.context(ctx))
        if found is None:
            raise invalid_params(f"Unknown resource {params.uri[:200]!r}.", uri=params.uri[:200])
        mime_type, text = found
        return types.ReadResourceResult.model_validate(
            {"contents": [{"uri": params.uri, "mimeType": mime_type, "text": text}]}
        )

    async def list_prompts(self, ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListPromptsResult:
        """The prompts."""
        return types.ListPromptsResult.model_validate({"prompts": prompts.PROMPTS})

    async def get_prompt(self, ctx: Ctx, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        """Render a prompt."""
        rendered = prompts.get_prompt(params.name, params.arguments, self.context(ctx))
        if rendered is None:
            raise invalid_params(f"Unknown prompt {params.name[:100]!r}. Available: {prompts.PROMPT_NAME}.")
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
        title="horologe",
        description="Time, timezones and DST done right.",
        instructions=INSTRUCTIONS,
        **handlers,
    )
    server.middleware.append(internal_errors)
    drop_unused_tracing(server)
    return server


def default_zone_from(settings: Settings) -> ResolvedZone:
    """The configured default zone; 'local' asks the host (the only place the host zone is read)."""
    name = settings.time.default_timezone
    if name == "local":
        from horologe.localzone import host_zone_name

        name = host_zone_name()
    return resolve_zone(name)
