"""The MCP request handlers: tools, resources, prompts and completion, each reading the request's context.

Every handler receives the SDK's context as the pipeline passed it (`Exchange`), takes the `RequestContext`
from it and passes that to tools explicitly. Domain errors inside a tool come back as `isError` results the
model can act on; everything else raised here is answered by the pipeline's error stage.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import mcp_types as types
from mcp.server.context import ServerRequestContext
from pydantic import ValidationError

from horologe.context import RequestContext
from horologe.core.errors import TimeError
from horologe.i18n.messages import PROGRESS_DONE, PROGRESS_EXPANDED, PROGRESS_EXPANDING, PROGRESS_SEARCHING
from horologe.jsontext import compact_json
from horologe.protocol import completion, prompts, resources
from horologe.protocol.context import context_of
from horologe.protocol.errors import (
    ToolNotEnabled,
    UnknownPrompt,
    UnknownResource,
    UnknownTool,
    arguments_error,
    tool_error,
)
from horologe.protocol.listing import localized_entries, tool_model
from horologe.protocol.progress import send_progress
from horologe.tools.registry import TOOLSET_OF, tool_schemas
from horologe.tools.spec import ToolOptions, ToolSpec
from horologe.wire import CONTEXT_REPORT_META

Ctx = ServerRequestContext[Any, Any]

# Tools that report progress when asked (SEP-414 progressToken): (starting, finished, result count field).
PROGRESS_MESSAGES: Final[dict[str, tuple[str, str, str]]] = {
    "list_timezones": (PROGRESS_SEARCHING, PROGRESS_DONE, "total"),
    "next_occurrences": (PROGRESS_EXPANDING, PROGRESS_EXPANDED, "count"),
}


def run_tool(
    offered: Mapping[str, ToolSpec],
    name: str,
    raw_arguments: dict[str, Any] | None,
    context: RequestContext,
    options: ToolOptions,
) -> dict[str, Any]:
    """Run an offered tool; domain errors and bad arguments come back as `isError` results the model can act on."""
    spec = offered.get(name)
    if spec is None:
        clipped, listed = name[:100], ", ".join(offered)
        if name in TOOLSET_OF:
            raise ToolNotEnabled(name=repr(clipped), toolset=TOOLSET_OF[name], tools=listed, data={"tool": clipped})
        raise UnknownTool(name=repr(clipped), tools=listed, data={"tool": clipped})
    try:
        arguments = spec.arguments.model_validate(raw_arguments or {})
    except ValidationError as exc:
        return tool_error(arguments_error(spec.name, exc, list(spec.arguments.model_fields)), context.language)
    try:
        result = spec.call(arguments, context, options)
    except TimeError as exc:
        return tool_error(exc, context.language)
    return {"content": [{"type": "text", "text": compact_json(result)}], "structuredContent": result, "isError": False}


class Handlers:
    """The request handlers of one server: what they offer follows the settings."""

    def __init__(
        self,
        options: ToolOptions,
        tools: tuple[ToolSpec, ...],
        translate_descriptions: bool = False,
        default_zone: str = "UTC",
    ) -> None:
        self.options = options
        self.tools = tools
        self.offered: dict[str, ToolSpec] = {spec.name: spec for spec in tools}
        self.translate_descriptions = translate_descriptions
        self.default_zone = default_zone

    def input_schema(self, name: str) -> dict[str, Any] | None:
        """An offered tool's input schema, the one `tools/list` publishes (the SDK's `get_tool_input_schema`: it
        validates 2026-era `Mcp-Param-*` headers with it instead of running a hidden `tools/list`)."""
        spec = self.offered.get(name)
        return None if spec is None else tool_schemas(spec)[0]

    async def list_tools(self, ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        """The offered tools with schemas, and titles and annotations in the request's language."""
        tag = context_of(ctx).language.tag
        listed = [tool_model(spec, tag, self.translate_descriptions, self.default_zone) for spec in self.tools]
        return types.ListToolsResult(tools=listed)

    async def call_tool(self, ctx: Ctx, params: types.CallToolRequestParams) -> dict[str, Any]:
        """Run a tool for an MCP request; every result carries the context report in `_meta`."""
        context = context_of(ctx)
        language = context.language
        progress = PROGRESS_MESSAGES.get(params.name)
        if progress:
            await send_progress(ctx, language, 0, 1, language.gettext(progress[0]))
        result = run_tool(self.offered, params.name, params.arguments, context, self.options)
        if progress:
            count = result.get("structuredContent", {}).get(progress[2], 0) if not result.get("isError") else 0
            await send_progress(ctx, language, 1, 1, language.gettext(progress[1]).format(count=count))
        result["_meta"] = {**result.get("_meta", {}), CONTEXT_REPORT_META: context.report()}
        # A wire-shaped dict: the SDK validates it once on the way out, no model round trip here.
        result["resultType"] = "complete"
        return result

    async def list_resources(self, ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        """The static resources."""
        entries = localized_entries(resources.STATIC_RESOURCES, self._tag(ctx), self.translate_descriptions)
        return types.ListResourcesResult.model_validate({"resources": entries})

    async def list_resource_templates(
        self, ctx: Ctx, params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        """The per-zone resource template."""
        entries = localized_entries(resources.TEMPLATES, self._tag(ctx), self.translate_descriptions)
        return types.ListResourceTemplatesResult.model_validate({"resourceTemplates": entries})

    async def read_resource(self, ctx: Ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        """Read a resource by URI."""
        found = resources.read_resource(params.uri, context_of(ctx))
        if found is None:
            uri = params.uri[:200]
            raise UnknownResource(uri=repr(uri), data={"uri": uri})
        mime_type, text = found
        return types.ReadResourceResult.model_validate(
            {"contents": [{"uri": params.uri, "mimeType": mime_type, "text": text}]}
        )

    async def list_prompts(self, ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListPromptsResult:
        """The prompts."""
        entries = localized_entries(prompts.PROMPTS, self._tag(ctx), self.translate_descriptions)
        return types.ListPromptsResult.model_validate({"prompts": entries})

    async def get_prompt(self, ctx: Ctx, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        """Render a prompt."""
        rendered = prompts.get_prompt(params.name, params.arguments, context_of(ctx))
        if rendered is None:
            raise UnknownPrompt(name=repr(params.name[:100]), prompts=prompts.PROMPT_NAME)
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

    def _tag(self, ctx: Ctx) -> str:
        return context_of(ctx).language.tag
