"""TEST-ONLY: the conformance suite's "everything" fixtures served through horologe's own HTTP app.

The suite (`@modelcontextprotocol/conformance server --suite all`) calls fixed tool, resource and prompt names
(`test_simple_text`, `test://static-text`, `test_simple_prompt`, ...) that a time server does not have. This module
builds a second low-level SDK `Server` with those fixtures (a port of the SDK's `examples/servers/everything-server`
to the 2.3 low-level API) and mounts it with `create_app(..., server=...)`, so the whole HTTP stack around
/mcp -- Host/Origin guard, body guard, timeout, metrics, access log, session manager setup -- is exercised by every
scenario. Never shipped: it lives under tests/.

Run: `python -m tests.interop.fixture_server --port 18999` (stateful sessions with SSE, loopback only).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, MISSING_REQUIRED_CLIENT_CAPABILITY
from starlette.applications import Starlette

from horologe.config import load_settings
from horologe.http.app import create_app
from horologe.protocol.server import discover_handler

logger = logging.getLogger("horologe.interop.fixture")
Ctx = ServerRequestContext[Any, Any]

IMAGE_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
AUDIO_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="
NO_ARGS: dict[str, Any] = {"type": "object", "properties": {}}


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _image() -> dict[str, Any]:
    return {"type": "image", "data": IMAGE_BASE64, "mimeType": "image/png"}


def _embedded(uri: str, text: str, mime_type: str = "text/plain") -> dict[str, Any]:
    return {"type": "resource", "resource": {"uri": uri, "mimeType": mime_type, "text": text}}


def _string_args(*names: str) -> dict[str, Any]:
    return {"type": "object", "properties": {name: {"type": "string"} for name in names}, "required": list(names)}


TOOLS: list[dict[str, Any]] = [
    {"name": "test_simple_text", "description": "Tests simple text content response", "inputSchema": NO_ARGS},
    {"name": "test_image_content", "description": "Tests image content response", "inputSchema": NO_ARGS},
    {"name": "test_audio_content", "description": "Tests audio content response", "inputSchema": NO_ARGS},
    {"name": "test_embedded_resource", "description": "Tests embedded resource content", "inputSchema": NO_ARGS},
    {"name": "test_multiple_content_types", "description": "Text, image and resource", "inputSchema": NO_ARGS},
    {"name": "test_tool_with_logging", "description": "Emits log messages while running", "inputSchema": NO_ARGS},
    {"name": "test_tool_with_progress", "description": "Reports progress notifications", "inputSchema": NO_ARGS},
    {"name": "test_error_handling", "description": "Always returns an error result", "inputSchema": NO_ARGS},
    {
        "name": "test_sampling",
        "description": "Asks the client for an LLM completion",
        "inputSchema": _string_args("prompt"),
    },
    {"name": "test_elicitation", "description": "Asks the user for input", "inputSchema": _string_args("message")},
    {"name": "test_elicitation_sep1034_defaults", "description": "Elicitation with defaults", "inputSchema": NO_ARGS},
    {"name": "test_elicitation_sep1330_enums", "description": "Elicitation with enum variants", "inputSchema": NO_ARGS},
    {"name": "test_reconnection", "description": "Closes the SSE stream mid-call (SEP-1699)", "inputSchema": NO_ARGS},
    {
        "name": "json_schema_2020_12_tool",
        "description": "Tool with JSON Schema 2020-12 features",
        "inputSchema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {
                "address": {
                    "$anchor": "addressDef",
                    "type": "object",
                    "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
                }
            },
            "properties": {
                "name": {"type": "string"},
                "address": {"$ref": "#/$defs/address"},
                "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                "phone": {"type": "string"},
                "email": {"type": "string"},
            },
            "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
            "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
            "then": {"required": ["phone"]},
            "else": {"required": ["email"]},
            "additionalProperties": False,
        },
    },
    # 2026-07-28 fixtures: Mcp-Param-* headers (SEP-2243), capability checks and logging (SEP-2575), and the
    # multi-round-trip input requests (SEP-2322).
    {
        "name": "test_custom_headers",
        "description": "Echoes a region mirrored in the Mcp-Param-Region header",
        "inputSchema": {
            "type": "object",
            "properties": {"region": {"type": "string", "x-mcp-header": "Region"}},
            "required": ["region"],
        },
    },
    {"name": "test_missing_capability", "description": "Needs the client's sampling", "inputSchema": NO_ARGS},
    {"name": "test_streaming_elicitation", "description": "Asks the user, in-band", "inputSchema": NO_ARGS},
    {"name": "test_logging_tool", "description": "Logs only when the request sets a level", "inputSchema": NO_ARGS},
    *[
        {"name": f"test_input_required_result_{kind}", "description": f"SEP-2322: {kind}", "inputSchema": NO_ARGS}
        for kind in (
            "elicitation",
            "sampling",
            "list_roots",
            "request_state",
            "multiple_inputs",
            "multi_round",
            "tampered_state",
            "capabilities",
        )
    ],
]


def _elicitation(message: str, field: str, kind: str = "string") -> dict[str, Any]:
    schema = {"type": "object", "properties": {field: {"type": kind}}, "required": [field]}
    return {"method": "elicitation/create", "params": {"message": message, "requestedSchema": schema}}


def _sampling(text: str, max_tokens: int) -> dict[str, Any]:
    messages = [{"role": "user", "content": _text(text)}]
    return {"method": "sampling/createMessage", "params": {"messages": messages, "maxTokens": max_tokens}}


ROOTS: dict[str, Any] = {"method": "roots/list", "params": {}}
ROUNDS: dict[str, list[dict[str, dict[str, Any]]]] = {
    # tool -> the input requests of each round; after the last round the call completes
    "test_input_required_result_elicitation": [{"user_name": _elicitation("What is your name?", "name")}],
    "test_input_required_result_sampling": [{"capital_question": _sampling("What is the capital of France?", 100)}],
    "test_input_required_result_list_roots": [{"client_roots": ROOTS}],
    "test_input_required_result_request_state": [{"confirm": _elicitation("Please confirm", "ok", "boolean")}],
    "test_input_required_result_multiple_inputs": [
        {
            "user_name": _elicitation("What is your name?", "name"),
            "greeting": _sampling("Generate a greeting", 50),
            "client_roots": ROOTS,
        }
    ],
    "test_input_required_result_multi_round": [
        {"step1": _elicitation("Step 1: What is your name?", "name")},
        {"step2": _elicitation("Step 2: What is your favorite color?", "color")},
    ],
    "test_input_required_result_tampered_state": [{"confirm": _elicitation("Please confirm", "ok", "boolean")}],
    "test_input_required_result_prompt": [
        {"user_context": _elicitation("What context should the prompt use?", "context")}
    ],
}
WITH_STATE = frozenset(
    {
        "test_input_required_result_request_state",
        "test_input_required_result_multiple_inputs",
        "test_input_required_result_multi_round",
        "test_input_required_result_tampered_state",
    }
)

SEP1034_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "User name", "default": "John Doe"},
        "age": {"type": "integer", "description": "User age", "default": 30},
        "score": {"type": "number", "description": "User score", "default": 95.5},
        "status": {
            "type": "string",
            "description": "User status",
            "enum": ["active", "inactive", "pending"],
            "default": "active",
        },
        "verified": {"type": "boolean", "description": "Verification status", "default": True},
    },
}
SEP1330_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "untitledSingle": {"type": "string", "description": "Simple enum", "enum": ["active", "inactive", "pending"]},
        "titledSingle": {
            "type": "string",
            "description": "Enum with titled options (oneOf)",
            "oneOf": [
                {"const": "low", "title": "Low Priority"},
                {"const": "medium", "title": "Medium Priority"},
                {"const": "high", "title": "High Priority"},
            ],
        },
        "untitledMulti": {
            "type": "array",
            "description": "Multi-select without titles",
            "items": {"type": "string", "enum": ["read", "write", "execute"]},
        },
        "titledMulti": {
            "type": "array",
            "description": "Multi-select with titled options",
            "items": {
                "anyOf": [
                    {"const": "feature", "title": "New Feature"},
                    {"const": "bug", "title": "Bug Fix"},
                    {"const": "docs", "title": "Documentation"},
                ]
            },
        },
        "legacyEnum": {
            "type": "string",
            "description": "Legacy enum with enumNames",
            "enum": ["small", "medium", "large"],
            "enumNames": ["Small Size", "Medium Size", "Large Size"],
        },
    },
    "required": ["untitledSingle", "titledSingle", "untitledMulti", "titledMulti", "legacyEnum"],
}

RESOURCES: list[dict[str, Any]] = [
    {"uri": "test://static-text", "name": "static_text", "mimeType": "text/plain"},
    {"uri": "test://static-binary", "name": "static_binary", "mimeType": "image/png"},
    {"uri": "test://watched-resource", "name": "watched_resource", "mimeType": "text/plain"},
]
TEMPLATES: list[dict[str, Any]] = [
    {"uriTemplate": "test://template/{id}/data", "name": "template_resource", "mimeType": "application/json"}
]
PROMPTS: list[dict[str, Any]] = [
    {"name": "test_simple_prompt", "description": "A simple prompt without arguments"},
    {
        "name": "test_prompt_with_arguments",
        "description": "A prompt with required arguments",
        "arguments": [{"name": "arg1", "required": True}, {"name": "arg2", "required": True}],
    },
    {
        "name": "test_prompt_with_embedded_resource",
        "description": "A prompt that includes an embedded resource",
        "arguments": [{"name": "resourceUri", "required": True}],
    },
    {"name": "test_prompt_with_image", "description": "A prompt that includes image content"},
    {"name": "test_input_required_result_prompt", "description": "Asks the user for context first (SEP-2322)"},
]


class Fixtures:
    """The suite's fixture handlers on the low-level API."""

    def __init__(self) -> None:
        self.subscriptions: set[str] = set()
        self.log_level = "info"

    async def list_tools(self, ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult.model_validate({"tools": TOOLS})

    async def call_tool(self, ctx: Ctx, params: types.CallToolRequestParams) -> Any:
        arguments = params.arguments or {}
        if params.name in ROUNDS or params.name == "test_input_required_result_capabilities":
            return self._rounds(ctx, params.name, params)
        if params.name == "test_missing_capability" and not _declared(ctx, "sampling"):
            data: dict[str, Any] = {"requiredCapabilities": {"sampling": {}}}
            raise MCPError(code=MISSING_REQUIRED_CLIENT_CAPABILITY, message="This tool needs sampling", data=data)
        if params.name == "test_streaming_elicitation":
            return {"resultType": "input_required", "inputRequests": {"answer": _elicitation("Your answer?", "a")}}
        content = await self._run(ctx, params.name, arguments)
        if content is None:
            body = {"content": [_text("This tool intentionally returns an error for testing")], "isError": True}
        else:
            body = {"content": content, "isError": False}
        return types.CallToolResult.model_validate(body)

    def _rounds(self, ctx: Ctx, name: str, params: types.InputResponseRequestParams) -> dict[str, Any]:
        """SEP-2322: ask for the round's inputs until every one came back, then complete (the state, sealed by the
        SDK's RequestStateBoundary, says which round a retry answers)."""
        if name == "test_input_required_result_capabilities":
            wanted = {"greeting": _sampling("Generate a greeting", 50)} if _declared(ctx, "sampling") else {}
            if _declared(ctx, "elicitation"):
                wanted["user_name"] = _elicitation("What is your name?", "name")
            if params.input_responses is None and wanted:
                return {"resultType": "input_required", "inputRequests": wanted}
            return {"resultType": "complete", "content": [_text("capabilities respected")]}
        rounds = ROUNDS[name]
        done = int(params.request_state.removeprefix("round-")) if params.request_state else 0
        answers = params.input_responses or {}
        if params.input_responses is not None and set(rounds[done]) <= set(answers):
            done += 1
        if done < len(rounds):
            body: dict[str, Any] = {"resultType": "input_required", "inputRequests": rounds[done]}
            if name in WITH_STATE:
                body["requestState"] = f"round-{done}"
            return body
        text = "state-ok: " if params.request_state else ""
        text += ", ".join(_summary(answers[key]) for key in sorted(rounds[-1]))
        if name == "test_input_required_result_prompt":
            return {"resultType": "complete", "messages": [{"role": "user", "content": _text(f"Context: {text}")}]}
        return {"resultType": "complete", "content": [_text(f"Hello, {text}!")]}

    async def _run(self, ctx: Ctx, name: str, arguments: dict[str, Any]) -> list[dict[str, Any]] | None:
        session = ctx.session
        if name == "test_custom_headers":
            return [_text(f"region={arguments.get('region')}")]
        if name == "test_missing_capability":
            return [_text("sampling declared")]
        if name == "test_logging_tool":
            if (ctx.meta or {}).get("io.modelcontextprotocol/logLevel") is not None:
                await session.send_log_message("info", "logged as asked", "fixture", related_request_id=ctx.request_id)
            return [_text("logged only when asked")]
        if name == "test_simple_text":
            return [_text("This is a simple text response for testing.")]
        if name == "test_image_content":
            return [_image()]
        if name == "test_audio_content":
            return [{"type": "audio", "data": AUDIO_BASE64, "mimeType": "audio/wav"}]
        if name == "test_embedded_resource":
            return [_embedded("test://embedded-resource", "This is an embedded resource content.")]
        if name == "test_multiple_content_types":
            return [
                _text("Multiple content types test:"),
                _image(),
                _embedded("test://mixed-content-resource", '{"test": "data", "value": 123}', "application/json"),
            ]
        if name == "test_tool_with_logging":
            for message in ("Tool execution started", "Tool processing data", "Tool execution completed"):
                await session.send_log_message("info", message, "fixture", related_request_id=ctx.request_id)
                await asyncio.sleep(0.05)
            return [_text("Tool with logging executed successfully")]
        if name == "test_tool_with_progress":
            for step in (0, 50, 100):
                await session.report_progress(step, 100, f"Completed step {step} of 100")
                await asyncio.sleep(0.05)
            meta: Any = ctx.meta or {}
            return [_text(str(meta.get("progressToken", meta.get("progress_token", 0))))]
        if name == "test_error_handling":
            return None
        if name == "test_sampling":
            sampling = types.SamplingMessage.model_validate(
                {"role": "user", "content": _text(str(arguments.get("prompt", "")))}
            )
            result = await session.create_message([sampling], max_tokens=100, related_request_id=ctx.request_id)
            reply = getattr(result.content, "text", "No response")
            return [_text(f"LLM response: {reply}")]
        if name in ("test_elicitation", "test_elicitation_sep1034_defaults", "test_elicitation_sep1330_enums"):
            return [_text(await self._elicit(ctx, name, arguments))]
        if name == "test_reconnection":
            await session.send_log_message("info", "Before disconnect", "fixture", related_request_id=ctx.request_id)
            if ctx.close_sse_stream is not None:
                await ctx.close_sse_stream()
            await asyncio.sleep(0.2)
            await session.send_log_message("info", "After reconnect", "fixture", related_request_id=ctx.request_id)
            return [_text("Reconnection test completed")]
        if name == "json_schema_2020_12_tool":
            return [_text(json.dumps(arguments))]
        return [_text(f"Unknown tool: {name}")]

    async def _elicit(self, ctx: Ctx, name: str, arguments: dict[str, Any]) -> str:
        if name == "test_elicitation":
            message = str(arguments.get("message", ""))
            schema: dict[str, Any] = {
                "type": "object",
                "properties": {"response": {"type": "string", "description": "User's response"}},
                "required": ["response"],
            }
            prefix = "User response"
        elif name == "test_elicitation_sep1034_defaults":
            message, schema, prefix = "Please provide user information", SEP1034_SCHEMA, "Elicitation result"
        else:
            message, schema, prefix = (
                "Please select values using different enum schema types",
                SEP1330_SCHEMA,
                "Elicitation completed",
            )
        result = await ctx.session.elicit_form(message, schema, related_request_id=ctx.request_id)
        content = json.dumps(result.content or {}) if result.action == "accept" else "{}"
        return f"{prefix}: action={result.action}, content={content}"

    async def list_resources(self, ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        return types.ListResourcesResult.model_validate({"resources": RESOURCES})

    async def list_resource_templates(
        self, ctx: Ctx, params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult.model_validate({"resourceTemplates": TEMPLATES})

    async def read_resource(self, ctx: Ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        if uri == "test://static-text":
            contents = {
                "uri": uri,
                "mimeType": "text/plain",
                "text": "This is the content of the static text resource.",
            }
        elif uri == "test://static-binary":
            contents = {"uri": uri, "mimeType": "image/png", "blob": IMAGE_BASE64}
        elif uri == "test://watched-resource":
            contents = {"uri": uri, "mimeType": "text/plain", "text": "Watched resource content"}
        elif uri.startswith("test://template/") and uri.endswith("/data"):
            item = uri.removeprefix("test://template/").removesuffix("/data")
            text = json.dumps({"id": item, "templateTest": True, "data": f"Data for ID: {item}"})
            contents = {"uri": uri, "mimeType": "application/json", "text": text}
        else:
            # SEP-2164 (2026-07-28): -32602 with the URI in data; earlier revisions suggested -32002.
            raise MCPError(code=INVALID_PARAMS, message=f"Resource not found: {uri}", data={"uri": uri})
        return types.ReadResourceResult.model_validate({"contents": [contents]})

    async def subscribe(self, ctx: Ctx, params: types.SubscribeRequestParams) -> types.EmptyResult:
        self.subscriptions.add(str(params.uri))
        return types.EmptyResult()

    async def unsubscribe(self, ctx: Ctx, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        self.subscriptions.discard(str(params.uri))
        return types.EmptyResult()

    async def list_prompts(self, ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListPromptsResult:
        return types.ListPromptsResult.model_validate({"prompts": PROMPTS})

    async def get_prompt(self, ctx: Ctx, params: types.GetPromptRequestParams) -> Any:
        args = params.arguments or {}
        if params.name in ROUNDS:
            return self._rounds(ctx, params.name, params)
        if params.name == "test_simple_prompt":
            messages = [{"role": "user", "content": _text("This is a simple prompt for testing.")}]
        elif params.name == "test_prompt_with_arguments":
            text = f"Prompt with arguments: arg1='{args.get('arg1')}', arg2='{args.get('arg2')}'"
            messages = [{"role": "user", "content": _text(text)}]
        elif params.name == "test_prompt_with_embedded_resource":
            uri = args.get("resourceUri", "test://example-resource")
            messages = [
                {"role": "user", "content": _embedded(uri, "Embedded resource content for testing.")},
                {"role": "user", "content": _text("Please process the embedded resource above.")},
            ]
        elif params.name == "test_prompt_with_image":
            messages = [
                {"role": "user", "content": _image()},
                {"role": "user", "content": _text("Please analyze the image above.")},
            ]
        else:
            raise MCPError(code=INVALID_PARAMS, message=f"Unknown prompt: {params.name}")
        return types.GetPromptResult.model_validate({"messages": messages})

    async def complete(self, ctx: Ctx, params: types.CompleteRequestParams) -> types.CompleteResult:
        return types.CompleteResult.model_validate({"completion": {"values": [], "total": 0, "hasMore": False}})

    async def set_logging_level(self, ctx: Ctx, params: types.SetLevelRequestParams) -> types.EmptyResult:
        self.log_level = str(params.level)
        return types.EmptyResult()


def _declared(ctx: Ctx, capability: str) -> bool:
    """Whether the client declared a capability (its 2026-07-28 envelope, or its `initialize`)."""
    envelope = (ctx.meta or {}).get("io.modelcontextprotocol/clientCapabilities")
    if isinstance(envelope, dict):
        return capability in envelope
    declared = ctx.session.client_capabilities
    return declared is not None and getattr(declared, capability, None) is not None


def _summary(answer: Any) -> str:
    """One input response in a few words: the elicited content, the sampled text or the roots."""
    dumped = (
        answer.model_dump(mode="json", by_alias=True, exclude_none=True) if hasattr(answer, "model_dump") else answer
    )
    if isinstance(dumped, dict) and "content" in dumped:
        content = dumped["content"]
        if isinstance(content, dict):
            return str(content["text"]) if content.get("type") == "text" else " ".join(map(str, content.values()))
        return str(content)
    if isinstance(dumped, dict) and "roots" in dumped:
        return " ".join(str(root.get("uri")) for root in dumped["roots"])
    return json.dumps(dumped)


def build_fixture_server() -> Server[Any]:
    """A low-level SDK server with the suite's fixtures, for `create_app(settings, server=...)`."""
    fixtures = Fixtures()
    server = Server(
        "mcp-conformance-fixture",
        version="0.0.0",
        on_list_tools=fixtures.list_tools,
        on_call_tool=fixtures.call_tool,
        on_list_resources=fixtures.list_resources,
        on_list_resource_templates=fixtures.list_resource_templates,
        on_read_resource=fixtures.read_resource,
        on_subscribe_resource=fixtures.subscribe,
        on_unsubscribe_resource=fixtures.unsubscribe,
        on_list_prompts=fixtures.list_prompts,
        on_get_prompt=fixtures.get_prompt,
        on_completion=fixtures.complete,
        on_set_logging_level=fixtures.set_logging_level,
    )
    # requestState is sealed and verified at the boundary: a tampered echo is refused before any handler runs.
    boundary = RequestStateBoundary(RequestStateSecurity.ephemeral(), default_audience="mcp-conformance-fixture")
    server.middleware = [boundary]
    # The HTTP stack answers -32022 naming every revision horologe speaks; discover says the same.
    server.add_request_handler("server/discover", types.RequestParams, discover_handler(server))
    return server


def create_fixture_app(port: int) -> Starlette:
    """horologe's HTTP app (stateful sessions + SSE, as the suite's sampling/elicitation scenarios need)."""
    settings = load_settings(
        None,
        # The suite opens a session per scenario from one address: the per-client session rate is off for it.
        {
            "server": {"transport": "http", "host": "127.0.0.1", "port": port},
            "http": {"stateful": True, "new_sessions_per_client": ""},
        },
    )
    return create_app(settings, server=build_fixture_server())


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    # INFO for uvicorn's "Uvicorn running on ..." line, which the tests wait for; no access log.
    uvicorn.run(create_fixture_app(args.port), host="127.0.0.1", port=args.port, log_level="info", access_log=False)


if __name__ == "__main__":
    main()
