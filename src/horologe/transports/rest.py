"""The seed's plain-HTTP endpoints: the same handlers as MCP, JSON in and out, domain errors as JSON-RPC errors."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from mcp.server.lowlevel.server import Server
from mcp.shared.exceptions import MCPError
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from horologe.context import RequestContext
from horologe.core.client_context import CLIENT_CONTEXT_META_KEY, TOP_LEVEL_MEMBER
from horologe.core.errors import TimeError
from horologe.server import prompts, resources
from horologe.server.app import Horologe, tool_definition
from horologe.server.catalog import TOOLS
from horologe.server.errors import ERROR_META_KEY
from horologe.transports.http_guard import PAYLOAD_KEY
from horologe.transports.http_observe import Metrics

logger = logging.getLogger("horologe.http")
Handler = Callable[[Request], Awaitable[Response]]
TOOL_NAMES = frozenset(spec.name for spec in TOOLS)


def error_response(status: int, code: int, message: str, data: Any = None) -> JSONResponse:
    """A JSON-RPC error object with an HTTP status."""
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return JSONResponse({"jsonrpc": "2.0", "id": None, "error": error}, status_code=status)


def domain_error(error: dict[str, Any]) -> JSONResponse:
    """A tool's structured error as a JSON-RPC error with HTTP 400."""
    return error_response(400, int(error["code"]), str(error["message"]), {"error": error})


def _run(route: str, handler: Callable[[dict[str, Any]], Response], payload: dict[str, Any]) -> Response:
    try:
        return handler(payload)
    except MCPError as exc:
        return error_response(404, exc.error.code, exc.error.message)
    except TimeError as exc:
        return domain_error(exc.to_dict())
    except Exception:
        logger.exception("unexpected error on %s", route)
        return error_response(500, -32603, "Internal error")


def rest_routes(app: Horologe, server: Server[Any], metrics: Metrics) -> list[Route]:
    """POST /mcp/tools/call, /mcp/resources/read, /mcp/prompts/get and GET /mcp/capabilities."""

    def body_of(request: Request) -> dict[str, Any] | JSONResponse:
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            return error_response(415, -32600, "Send the body as JSON with 'Content-Type: application/json'.")
        payload = request.scope.get("state", {}).get(PAYLOAD_KEY)
        if not isinstance(payload, dict):
            return error_response(400, -32600, "The body must be a JSON object.")
        return payload

    def guarded(route: str, handler: Callable[[dict[str, Any]], Response]) -> Handler:
        async def endpoint(request: Request) -> Response:
            payload = body_of(request)
            if isinstance(payload, Response):
                return payload
            started = time.perf_counter()
            response = _run(route, handler, payload)
            name = payload.get("name") if route == "tools/call" else None
            tool = name if isinstance(name, str) and name in TOOL_NAMES else ""
            outcome = "ok" if response.status_code < 400 else "tool_error" if response.status_code == 400 else "error"
            metrics.record(route, tool, outcome, time.perf_counter() - started)
            return response

        return endpoint

    def request_context(payload: dict[str, Any]) -> RequestContext:
        """Client context from the body: SEP-1809's `clientContext` member or a `_meta` object, as on /mcp."""
        given = payload.get("_meta")
        meta: dict[str, Any] = given if isinstance(given, dict) else {}
        if TOP_LEVEL_MEMBER in payload:
            meta = {CLIENT_CONTEXT_META_KEY: payload[TOP_LEVEL_MEMBER], **meta}
        return app.context_from_meta(meta)

    def call_tool(payload: dict[str, Any]) -> Response:
        name, arguments = payload.get("name"), payload.get("arguments", {})
        if not isinstance(name, str) or not isinstance(arguments, dict | None):
            return error_response(400, -32602, 'Body must be {"name": "<tool>", "arguments": {...}}.')
        result = app.run_tool(name, arguments, request_context(payload))
        if result.get("isError"):
            return domain_error(result["_meta"][ERROR_META_KEY])
        return JSONResponse(result)

    def read_resource(payload: dict[str, Any]) -> Response:
        uri = payload.get("uri")
        if not isinstance(uri, str) or not uri:
            return error_response(400, -32602, 'Body must be {"uri": "horologe://timezone_database"}.')
        found = resources.read_resource(uri, request_context(payload))
        if found is None:
            return error_response(404, -32602, f"Unknown resource {uri[:200]!r}.")
        mime_type, text = found
        return JSONResponse({"contents": [{"uri": uri, "mimeType": mime_type, "text": text}]})

    def get_prompt(payload: dict[str, Any]) -> Response:
        name, arguments = payload.get("name"), payload.get("arguments", {})
        if not isinstance(name, str) or not isinstance(arguments, dict | None):
            return error_response(400, -32602, 'Body must be {"name": "time_query_assistant", "arguments": {...}}.')
        if not all(isinstance(value, str) for value in (arguments or {}).values()):
            return error_response(400, -32602, "Prompt arguments must be strings.")
        rendered = prompts.get_prompt(name, arguments, request_context(payload))
        if rendered is None:
            return error_response(404, -32602, f"Unknown prompt {name[:100]!r}.")
        return JSONResponse(rendered)

    async def capabilities(request: Request) -> Response:
        return JSONResponse(
            {
                "serverInfo": server.server_info.model_dump(by_alias=True, exclude_none=True, mode="json"),
                "protocolVersions": list(HANDSHAKE_PROTOCOL_VERSIONS) + list(MODERN_PROTOCOL_VERSIONS),
                "capabilities": server.get_capabilities().model_dump(by_alias=True, exclude_none=True, mode="json"),
                "tools": [tool_definition(spec) for spec in TOOLS],
                "resources": list(resources.STATIC_RESOURCES),
                "resourceTemplates": list(resources.TEMPLATES),
                "prompts": list(prompts.PROMPTS),
                "endpoints": {
                    "mcp": "/mcp",
                    "tools_call": "/mcp/tools/call",
                    "resources_read": "/mcp/resources/read",
                    "prompts_get": "/mcp/prompts/get",
                    "openapi": "/openapi.json",
                },
            }
        )

    return [
        Route("/mcp/tools/call", guarded("tools/call", call_tool), methods=["POST"]),
        Route("/mcp/resources/read", guarded("resources/read", read_resource), methods=["POST"]),
        Route("/mcp/prompts/get", guarded("prompts/get", get_prompt), methods=["POST"]),
        Route("/mcp/capabilities", capabilities, methods=["GET"]),
    ]
