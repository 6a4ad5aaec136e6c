"""The MCP request handlers: tools, resources, prompts and completion, each reading the request's context.

Every handler receives the SDK's context as the pipeline passed it (`Exchange`), takes the `RequestContext`
from it and passes that to tools explicitly. Domain errors inside a tool come back as `isError` results the
model can act on; everything else raised here is answered by the pipeline's error stage.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, Final

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from horologe.context import RequestContext
from horologe.core.errors import OutOfRange, OutOfTime, TimeError
from horologe.core.messages import N_, msg
from horologe.i18n.messages import PROGRESS_DONE, PROGRESS_EXPANDED, PROGRESS_EXPANDING, PROGRESS_SEARCHING
from horologe.jsontext import compact_json
from horologe.protocol import completion, elicit, prompts, resources
from horologe.protocol.context import context_of
from horologe.protocol.errors import (
    DID_YOU_MEAN,
    ToolFailure,
    ToolNotEnabled,
    UnknownPrompt,
    UnknownResource,
    UnknownTool,
    arguments_error,
    tool_error,
)
from horologe.protocol.execution import Executor
from horologe.protocol.listing import localized_entries, one_page, tool_entry
from horologe.protocol.progress import send_progress
from horologe.tools.registry import TOOLSET_OF, tool_schemas
from horologe.tools.spec import ToolOptions, ToolSpec
from horologe.wire import CONTEXT_REPORT_META, SERVER_INFO_META

Ctx = ServerRequestContext[Any, Any]
BatchDeadline = Callable[[Ctx], float | None]
"""When the shared tool budget of the batch a request belongs to ends (monotonic clock; the HTTP edge's)."""
_OFF_CALENDAR: Final = re.compile(r"out of range|magnitude|too large")

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
) -> dict[str, Any] | ToolFailure:
    """Run an offered tool: its result, or (domain errors, bad arguments) a `ToolFailure` that becomes an
    `isError` result the model can act on when the answer is rendered."""
    spec = offered.get(name)
    if spec is None:
        clipped, listed = name[:100], ", ".join(offered)
        if name in TOOLSET_OF:
            raise ToolNotEnabled(name=repr(clipped), toolset=TOOLSET_OF[name], tools=listed, data={"tool": clipped})
        known = [*offered, *(tool for tool in TOOLSET_OF if tool not in offered)]
        close = difflib.get_close_matches(clipped, known, n=3, cutoff=0.6)
        also = (msg(DID_YOU_MEAN, candidates=", ".join(close)),) if close else ()
        raise UnknownTool(name=repr(clipped), tools=listed, data={"tool": clipped}, also=also)
    try:
        arguments = spec.arguments.model_validate(raw_arguments or {})
    except ValidationError as exc:
        return ToolFailure(arguments_error(spec.name, exc, list(spec.arguments.model_fields)))
    try:
        result = spec.call(arguments, context, options)
    except TimeError as exc:
        return ToolFailure(exc)
    except (OverflowError, ValueError) as exc:
        # Valid input whose result falls off the calendar (9999-12-31 in a zone east of UTC, a huge duration):
        # `datetime` says so with these two, wherever in a tool it happens.
        if not isinstance(exc, OverflowError) and not _OFF_CALENDAR.search(str(exc)):
            raise
        error = OutOfRange(
            N_(
                "The result would leave years 1-9999, the dates this server can give. Use a date further from "
                "those limits or a smaller amount."
            ),
            details={"years": [1, 9999]},
        )
        return ToolFailure(error)
    return {"content": [{"type": "text", "text": compact_json(result)}], "structuredContent": result, "isError": False}


@cache
def declares_mcp_headers(spec: ToolSpec) -> bool:
    """Whether a tool's published input schema designates any argument as an `Mcp-Param-*` header."""
    return '"x-mcp-header":' in compact_json(tool_schemas(spec)[0])


class Handlers:
    """The request handlers of one server: what they offer follows the settings."""

    def __init__(
        self,
        executor: Executor,
        options: ToolOptions,
        tools: tuple[ToolSpec, ...],
        translate_descriptions: bool = False,
        default_zone: str = "UTC",
        batch_deadline: BatchDeadline | None = None,
    ) -> None:
        self.executor = executor
        self.batch_deadline = batch_deadline
        self.options = options
        self.tools = tools
        self.offered: dict[str, ToolSpec] = {spec.name: spec for spec in tools}
        self.translate_descriptions = translate_descriptions
        self.default_zone = default_zone
        self.server_info: dict[str, Any] | None = None
        """The server's identity as the SDK stamps it on 2026-07-28 results (`build_server` sets it once): a tool
        result carries it from the start, so the SDK does not deep-copy it into every answer."""

    def input_schema(self, name: str) -> dict[str, Any] | None:
        """The SDK's `get_tool_input_schema`: the input schema `tools/list` publishes for an offered tool that
        declares `Mcp-Param-*` headers (`x-mcp-header`), else None, which the SDK reads as nothing to validate.

        Either way the SDK runs no hidden `tools/list` for a 2026-era call; skipping its walk of a schema that
        declares no header saves about a tenth of such a call's CPU.
        """
        spec = self.offered.get(name)
        return None if spec is None or not declares_mcp_headers(spec) else tool_schemas(spec)[0]

    async def list_tools(self, ctx: Ctx, params: types.PaginatedRequestParams | None) -> dict[str, Any]:
        """The offered tools with schemas, and titles and annotations in the request's language."""
        one_page(params)
        tag = context_of(ctx).language.tag
        tools = [tool_entry(spec, tag, self.translate_descriptions, self.default_zone) for spec in self.tools]
        return {"tools": tools, "resultType": "complete"}  # a legacy answer drops resultType (the SDK's sieve)

    async def call_tool(self, ctx: Ctx, params: types.CallToolRequestParams) -> dict[str, Any]:
        """Run a tool for an MCP request; a result carries the context report in `_meta` when there is one."""
        context = context_of(ctx)
        language = context.language
        progress = PROGRESS_MESSAGES.get(params.name)
        if progress:
            await send_progress(ctx, language, 0, 1, language.gettext(progress[0]))

        spec = self.offered.get(params.name)

        async def execute(arguments: dict[str, Any] | None) -> dict[str, Any] | ToolFailure:
            try:
                return await self.executor.run(
                    lambda budgeted: run_tool(self.offered, params.name, arguments, budgeted, self.options),
                    context,
                    ends=self.batch_deadline(ctx) if self.batch_deadline else None,
                    on_loop=spec is not None and spec.bounded is not None and spec.bounded(arguments or {}, context),
                )
            except OutOfTime as exc:  # the worker did not reach its own check in time
                return ToolFailure(exc)

        outcome = await execute(params.arguments)
        if isinstance(outcome, ToolFailure) and elicit.declares_elicitation(context):
            outcome = await elicit.resolve_by_asking(ctx, params, context, outcome, execute)
        result = tool_error(outcome.error, language) if isinstance(outcome, ToolFailure) else outcome
        if progress:
            count = result.get("structuredContent", {}).get(progress[2], 0) if not result.get("isError") else 0
            await send_progress(ctx, language, 1, 1, language.gettext(progress[1]).format(count=count))
        resources.link_zone(result, params.name, ctx.protocol_version)
        report = context.report()
        if report:  # said only when some client context or stored preference was applied or ignored
            result["_meta"] = {**result.get("_meta", {}), CONTEXT_REPORT_META: report}
        if self.server_info is not None and ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            result["_meta"] = {**result.get("_meta", {}), SERVER_INFO_META: self.server_info}
        # A wire-shaped dict: the SDK validates it once on the way out, no model round trip here.
        result.setdefault("resultType", "complete")  # or "input_required", when the user is asked (elicit)
        return result

    async def list_resources(self, ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        """The static resources."""
        one_page(params)
        entries = localized_entries(resources.STATIC_RESOURCES, self._tag(ctx), self.translate_descriptions)
        return types.ListResourcesResult.model_validate({"resources": entries})

    async def list_resource_templates(
        self, ctx: Ctx, params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        """The per-zone resource template."""
        one_page(params)
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
        one_page(params)
        entries = localized_entries(prompts.PROMPTS, self._tag(ctx), self.translate_descriptions)
        return types.ListPromptsResult.model_validate({"prompts": entries})

    async def get_prompt(self, ctx: Ctx, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        """Render a prompt."""
        rendered = prompts.get_prompt(params.name, params.arguments, context_of(ctx), self.offered)
        if rendered is None:
            raise UnknownPrompt(name=repr(params.name[:100]), prompts=prompts.PROMPT_NAME)
        return types.GetPromptResult.model_validate(rendered)

    async def complete(self, ctx: Ctx, params: types.CompleteRequestParams) -> types.CompleteResult:
        """Suggest timezone names for the arguments that take one."""
        ref = params.ref
        target = ref.name if isinstance(ref, types.PromptReference) else ref.uri
        known = params.context.arguments if params.context is not None else None
        now = context_of(ctx).now
        values, total, has_more = completion.complete(
            ref.type, target, params.argument.name, params.argument.value, known, now.year
        )
        body: dict[str, Any] = {"values": values, "hasMore": has_more}
        if not has_more:
            body["total"] = total
        return types.CompleteResult.model_validate({"completion": body})

    def _tag(self, ctx: Ctx) -> str:
        return context_of(ctx).language.tag
