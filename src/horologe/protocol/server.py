"""The MCP server on the official SDK's low-level `Server`: the handlers and the pipeline the settings enable."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import mcp_types as types
from mcp.server.caching import CacheableMethod, CacheHint
from mcp.server.context import ServerMiddleware, ServerRequestContext
from mcp.server.lowlevel.server import Server

from horologe import __version__
from horologe.clock import Clock
from horologe.config import Settings
from horologe.core.zones import ResolvedZone, resolve_zone
from horologe.i18n.messages import SERVER_TITLE
from horologe.localzone import host_zone_name, preferences_path
from horologe.memory import LocalMemories
from horologe.places import gazetteer
from horologe.protocol.context import ContextBuilder
from horologe.protocol.execution import Executor
from horologe.protocol.handlers import BatchDeadline, Handlers
from horologe.protocol.pipeline import ContextStage, LanguageObserver, error_stage
from horologe.protocol.state import StateReader
from horologe.protocol.tracing import tracing_stage
from horologe.tools.registry import selected_tools
from horologe.tools.spec import ToolOptions
from horologe.wire import SUPPORTED_VERSIONS

INSTRUCTIONS: Final = """\
horologe gives exact times: never guess the date, the time or an offset; call a tool.
Timezones: an IANA name ('Europe/Vienna'), a city ('Tokyo', 'München'), a country with one zone ('Japan'), an \
offset ('+05:30'), 'UTC', or 'local'. A tool given none uses the user's zone: the client's context, else the stored \
preference, else {default_zone} ({source}).
Times (timestamp, *_time, *_date, date): ISO 8601 ('2026-03-02T15:00', read in the tool's zone without an offset), \
Unix seconds, RFC 2822, 'now', or words in English, German, French, Spanish or Japanese: '9:00' (today), \
'next Tuesday 4pm', 'Christmas', '3pm New York time'. A result's read_as says how words were read and any other \
reading. Amounts: '90 days', 'PT90M'.
Days, weeks, months keep the wall clock across DST. A wall time a DST change skips or repeats is reported and \
placed by disambiguation: compatible (default: a skipped time moves forward, a repeated one takes the first), \
earlier, later, or reject.
A result leaves out what has nothing to say (no DST report when none applies).
Formats: iso8601 (default), rfc3339, rfc2822, http, unix, unix_ms, human, custom (custom_format: strftime)."""


LIST_TTL_MS: Final = 3_600_000
CACHE_HINTS: Final[Mapping[CacheableMethod, CacheHint]] = {
    method: CacheHint(ttl_ms=LIST_TTL_MS, scope="public")
    for method in ("server/discover", "tools/list", "resources/list", "resources/templates/list", "prompts/list")
}
"""2026-07-28 caching hints: what we list changes only with the settings (a restart), never per caller or token, so
a client may reuse it for an hour and share it across authorization contexts; the entry still varies by the
request's `acceptLanguage`, which SEP-2792 puts in the client's cache key. `resources/read` keeps the SDK's
default (stale at once, private): every resource is rendered from "now"."""


def instructions(default_zone: ResolvedZone, settings: Settings) -> str:
    """The server's instructions, naming the zone a call without one falls back to, and why."""
    if settings.time.default_timezone == "auto":
        source = "this computer's zone" if settings.server.transport == "stdio" else "the server's default"
    elif settings.time.default_timezone == "local":
        source = "this computer's zone"
    else:
        source = "the server's configured default"
    return INSTRUCTIONS.format(default_zone=default_zone.key, source=source)


def build_server(
    settings: Settings,
    clock: Clock,
    *stages: ServerMiddleware[Any],
    on_language: LanguageObserver | None = None,
    batch_deadline: BatchDeadline | None = None,
) -> Server[Any]:
    """An SDK `Server` with horologe's handlers and pipeline; `stages` (e.g. metrics) wrap the pipeline, and
    `on_language` is told each request's answer language (the HTTP edge's observers, as the metrics stage is);
    `batch_deadline` is what the HTTP edge reads of a call's request (when its batch's shared budget ends)."""
    transport = settings.server.transport
    default_zone = default_zone_from(settings)
    handlers = Handlers(
        Executor(settings.execution.budget_seconds),
        ToolOptions(settings.time.supported_formats, settings.time.precision),
        selected_tools(settings.capabilities.toolsets, transport),
        settings.i18n.translate_descriptions,
        default_zone.key,
        batch_deadline,
    )
    caps = settings.capabilities
    registered: dict[str, Any] = {"on_completion": handlers.complete}
    if caps.tools:
        registered |= {"on_list_tools": handlers.list_tools, "on_call_tool": handlers.call_tool}
    if caps.resources:
        registered |= {
            "on_list_resources": handlers.list_resources,
            "on_list_resource_templates": handlers.list_resource_templates,
            "on_read_resource": handlers.read_resource,
        }
    if caps.prompts:
        registered |= {"on_list_prompts": handlers.list_prompts, "on_get_prompt": handlers.get_prompt}
    server: Server[Any] = Server(
        settings.server.name,
        version=__version__,  # always horologe's: `server.version` in a configuration file is not used
        title=SERVER_TITLE,
        description="Time, timezones and DST done right.",
        instructions=instructions(default_zone, settings),
        get_tool_input_schema=handlers.input_schema,
        cache_hints=CACHE_HINTS,
        website_url=settings.server.website_url,
        icons=[types.Icon(src=settings.server.icon_url)] if settings.server.icon_url else None,
        **registered,
    )
    handlers.server_info = server.server_info_stamp
    server.add_request_handler("server/discover", types.RequestParams, discover_handler(server))
    state = StateReader.from_settings(settings) if settings.state.enabled else None
    builder = ContextBuilder(clock, default_zone, settings.i18n.default_language, state, local_memories(settings))
    server.middleware = pipeline([*stages, ContextStage(builder, state, on_language), error_stage])
    return server


def discover_handler(server: Server[Any]) -> Any:
    """`server/discover` as the SDK answers it, but `supportedVersions` lists every revision horologe speaks (the
    SDK's lists only the per-request ones; the handshake revisions are served through `initialize`)."""

    async def discover(ctx: ServerRequestContext[Any, Any], params: types.RequestParams) -> types.DiscoverResult:
        return types.DiscoverResult(
            supported_versions=list(SUPPORTED_VERSIONS),
            capabilities=server.get_capabilities(protocol_version=ctx.protocol_version),
            instructions=server.instructions,
        )

    return discover


def pipeline(stages: list[ServerMiddleware[Any]]) -> list[ServerMiddleware[Any]]:
    """The server's middleware, outermost first: tracing when configured, then `stages`.

    It replaces the SDK's default list (its OpenTelemetry middleware): we own the chain, and our span stage parents
    on `_meta` and costs nothing when tracing is off.
    """
    spans = tracing_stage()
    return [spans, *stages] if spans is not None else stages


def local_memories(settings: Settings) -> LocalMemories | None:
    """What a stdio server keeps itself for a client that keeps no state (None over HTTP, or when turned off)."""
    if settings.server.transport != "stdio" or not settings.state.local_fallback:
        return None
    return LocalMemories.at(settings.state.local_path or preferences_path())


def default_zone_from(settings: Settings) -> ResolvedZone:
    """The configured default zone: 'local' is the host's, 'auto' the host's over stdio and UTC over HTTP."""
    name = settings.time.default_timezone
    if name == "auto":
        name = "local" if settings.server.transport == "stdio" else "UTC"
    if name == "local":  # the only place the host's zone is read; a database key keeps its database meaning
        return resolve_zone(host_zone_name(), source="database")
    return resolve_zone(name, places=gazetteer())
