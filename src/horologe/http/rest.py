"""The seed's plain-HTTP endpoints: JSON bodies in, JSON answers out, through the same pipeline as /mcp.

`POST /mcp/tools/call {"name", "arguments", "_meta"?, "clientContext"?}`, `/mcp/resources/read {"uri"}` and
`/mcp/prompts/get {"name", "arguments"}` become the MCP request they name and run through the server's pipeline
(`horologe.protocol.dispatch`): the same context, language, state, errors and metrics as a 2026-07-28 request on
/mcp, and the same result `_meta`. The body's `_meta` may carry what an MCP client would send; a top-level
`clientContext` (SEP-1809) and the `Accept-Language` header become `_meta` entries unless `_meta` has them.

Answers: the MCP result as JSON (200); a tool's `isError` result as a JSON-RPC error with HTTP 400; any other error
as a JSON-RPC error with the status of the error table (`horologe.protocol.errors`), e.g. 404 for an unknown tool.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from mcp.server.lowlevel.server import Server
from mcp.shared.exceptions import MCPError
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from horologe.core.messages import N_, msg
from horologe.http.asgi import header
from horologe.http.language import accept_language_header
from horologe.http.request import facts_of
from horologe.i18n.language import choose
from horologe.jsontext import compact_json
from horologe.protocol import prompts, resources
from horologe.protocol.dispatch import dispatch
from horologe.protocol.errors import (
    InvalidRequest,
    MethodNotAllowed,
    RequestError,
    UnsupportedMediaType,
    answer_for,
    status_of_code,
)
from horologe.protocol.listing import tool_definition
from horologe.protocol.pipeline import LANGUAGE_SCOPE_KEY, RenderedError
from horologe.tools.spec import ToolSpec
from horologe.wire import (
    ACCEPT_LANGUAGE_META,
    CLIENT_CONTEXT_KEYS,
    CLIENT_CONTEXT_META,
    ERROR_META,
    INVALID_PARAMS,
    TOP_LEVEL_CLIENT_CONTEXT,
    error_response,
)

Params = dict[str, Any]
Shape = Callable[[dict[str, Any]], Params | str]
"""A REST body as the MCP request's params, or what is wrong with its shape."""

ENDPOINTS = {
    "mcp": "/mcp",
    "tools_call": "/mcp/tools/call",
    "resources_read": "/mcp/resources/read",
    "prompts_get": "/mcp/prompts/get",
    "openapi": "/openapi.json",
}


def json_answer(body: object, status: int = 200) -> Response:
    """A JSON answer that any string can be written in (a lone surrogate a client sent comes back escaped)."""
    return Response(compact_json(body).encode(), status_code=status, media_type="application/json")


def _answer(status: int, code: int, message: str, data: Any = None) -> Response:
    return json_answer(error_response(code, message, data=data), status)


def _tool_call(payload: dict[str, Any]) -> Params | str:
    name, arguments = payload.get("name"), payload.get("arguments", {})
    if not isinstance(name, str) or not isinstance(arguments, dict | None):
        return 'Body must be {"name": "<tool>", "arguments": {...}}.'
    return {"name": name, "arguments": arguments or {}}


def _resource_read(payload: dict[str, Any]) -> Params | str:
    uri = payload.get("uri")
    return {"uri": uri} if isinstance(uri, str) and uri else 'Body must be {"uri": "horologe://timezone_database"}.'


def _prompt_get(payload: dict[str, Any]) -> Params | str:
    name, arguments = payload.get("name"), payload.get("arguments", {})
    if not isinstance(name, str) or not isinstance(arguments, dict | None):
        return 'Body must be {"name": "time_query_assistant", "arguments": {...}}.'
    if not all(isinstance(value, str) for value in (arguments or {}).values()):
        return "Prompt arguments must be strings."
    return {"name": name, "arguments": arguments or {}}


SHAPES: dict[str, Shape] = {"tools/call": _tool_call, "resources/read": _resource_read, "prompts/get": _prompt_get}


def request_meta(request: Request, payload: dict[str, Any]) -> dict[str, Any]:
    """The `_meta` a REST body stands for: its own `_meta`, then `clientContext` and `Accept-Language`."""
    given = payload.get("_meta")
    meta: dict[str, Any] = dict(given) if isinstance(given, dict) else {}
    if TOP_LEVEL_CLIENT_CONTEXT in payload and not any(key in meta for key in CLIENT_CONTEXT_KEYS):
        meta[CLIENT_CONTEXT_META] = payload[TOP_LEVEL_CLIENT_CONTEXT]
    language = accept_language_header(request.scope)
    if language is not None:
        meta.setdefault(ACCEPT_LANGUAGE_META, language)
    return meta


def rest_routes(server: Server[Any], tools: tuple[ToolSpec, ...], middleware: Sequence[Middleware] = ()) -> list[Route]:
    """POST /mcp/tools/call, /mcp/resources/read, /mcp/prompts/get and GET /mcp/capabilities (listing `tools`),
    each behind `middleware`."""

    def endpoint(method: str) -> Callable[[Request], Awaitable[Response]]:
        shape = SHAPES[method]

        async def serve(request: Request) -> Response:
            if (header(request.scope, b"content-type") or "").split(";")[0].strip().lower() != "application/json":
                return _refused(UnsupportedMediaType())
            facts = facts_of(request.scope)
            payload = facts.payload if facts is not None else None
            if not isinstance(payload, dict):
                return _refused(InvalidRequest(reason=msg(N_("the body must be a JSON object."))))
            params = shape(payload)
            if isinstance(params, str):
                return _answer(400, INVALID_PARAMS, params)
            try:
                result = await dispatch(
                    server, method, {**params, "_meta": request_meta(request, payload)}, kind="rest", request=request
                )
            except MCPError as exc:
                status = exc.status if isinstance(exc, RenderedError) else status_of_code(exc.error.code)
                return _answer(status, exc.error.code, exc.error.message, exc.error.data)
            if method == "tools/call" and result.get("isError"):
                error = result["_meta"][ERROR_META]
                return _answer(400, int(error["code"]), str(error["message"]), {"error": error})
            return json_answer(result)

        return serve

    async def capabilities(request: Request) -> Response:
        # Tool titles follow Accept-Language, as on tools/list; the language headers layer names it.
        language = choose(accept_language_header(request.scope))
        request.scope.setdefault("state", {})[LANGUAGE_SCOPE_KEY] = language
        return json_answer(
            {
                "serverInfo": server.server_info.model_dump(by_alias=True, exclude_none=True, mode="json"),
                "protocolVersions": list(HANDSHAKE_PROTOCOL_VERSIONS) + list(MODERN_PROTOCOL_VERSIONS),
                "capabilities": server.get_capabilities().model_dump(by_alias=True, exclude_none=True, mode="json"),
                "tools": [tool_definition(spec, language.tag) for spec in tools],
                "resources": list(resources.STATIC_RESOURCES),
                "resourceTemplates": list(resources.TEMPLATES),
                "prompts": list(prompts.PROMPTS),
                "endpoints": ENDPOINTS,
            }
        )

    return [
        Route("/mcp/tools/call", endpoint("tools/call"), methods=["POST"], middleware=middleware),
        Route("/mcp/resources/read", endpoint("resources/read"), methods=["POST"], middleware=middleware),
        Route("/mcp/prompts/get", endpoint("prompts/get"), methods=["POST"], middleware=middleware),
        Route("/mcp/capabilities", capabilities, methods=["GET"], middleware=middleware),
    ]


async def method_not_allowed(request: Request, exc: Exception) -> Response:
    """405 for a verb a route does not serve (Starlette's routing raises it): a JSON-RPC error and `Allow`."""
    given = (exc.headers or {}).get("Allow", "") if isinstance(exc, HTTPException) else ""
    methods = {method.strip() for method in given.split(",") if method.strip()}
    matched = request.scope.get("route")
    if isinstance(matched, Route):  # one path may have a route per method group (GET /mcp, POST /mcp): all count
        methods |= {
            m for r in request.app.routes if isinstance(r, Route) and r.path == matched.path for m in r.methods or ()
        }
    allowed = ", ".join(sorted(methods))
    error = MethodNotAllowed(method=request.method, path=request.url.path, allowed=allowed or "another method")
    response = _refused(error)
    if allowed:
        response.headers["Allow"] = allowed
    return response


def _refused(error: RequestError) -> Response:
    return _answer(answer_for(error).status, answer_for(error).code, str(error))
