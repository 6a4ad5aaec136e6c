"""The OpenAPI 3.1 description of the plain-HTTP endpoints, generated from the tool catalog."""

from __future__ import annotations

from typing import Any

from horologe import __version__
from horologe.http.routes import CAPABILITIES, HEALTHZ, METRICS, PROMPTS_GET, READYZ, RESOURCES_READ, TOOLS_CALL
from horologe.tools.registry import tool_schemas
from horologe.tools.spec import ToolSpec

JSONRPC_ERROR = {
    "type": "object",
    "required": ["jsonrpc", "id", "error"],
    "properties": {
        "jsonrpc": {"const": "2.0"},
        "id": {"type": ["string", "integer", "null"], "description": "the request's id, null when it was not read"},
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {
                    "type": "integer",
                    "description": "-32000 invalid timezone, -32001 invalid timestamp, -32002 timezone conversion "
                    "error, -32602 invalid parameters, -32600 invalid request, -32700 parse error, -32603 internal, "
                    "429 rate limited",
                },
                "message": {"type": "string"},
                "data": {"type": "object"},
            },
        },
    },
}


OAUTH_ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {"type": "string", "description": "RFC 6750: invalid_token, invalid_request, insufficient_scope, ..."},
        "error_description": {"type": "string"},
    },
}
BEARER = {
    "type": "http",
    "scheme": "bearer",
    "bearerFormat": "JWT",
    "description": "An OAuth 2.1 access token for this server's resource (RFC 9728 metadata at "
    "/.well-known/oauth-protected-resource); required only when the server enables authorization.",
}
_HEADER = {"schema": {"type": "string"}}
# Answers any protected operation may give besides its own; which apply depends on the server's configuration.
REFUSALS: dict[str, Any] = {
    "401": {
        "description": "Authorization is on and the bearer token is missing, malformed or refused",
        "headers": {"WWW-Authenticate": {"description": "Bearer challenge with resource_metadata", **_HEADER}},
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}},
    },
    "403": {
        "description": "The Origin is not allowed, or the token lacks a scope the operation needs",
        "headers": {"WWW-Authenticate": {"description": 'error="insufficient_scope" and the scopes', **_HEADER}},
        "content": {
            "application/json": {
                "schema": {
                    "anyOf": [{"$ref": "#/components/schemas/OAuthError"}, {"$ref": "#/components/schemas/Error"}]
                }
            }
        },
    },
    "429": {
        "description": "Rate limited (JSON-RPC code 429); wait Retry-After seconds",
        "headers": {
            "Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}},
            "RateLimit-Limit": _HEADER,
            "RateLimit-Remaining": _HEADER,
            "RateLimit-Reset": _HEADER,
        },
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    },
    "503": {
        "description": "The token issuer or the shared rate-limit store cannot be reached; retry after Retry-After",
        "headers": {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}},
        "content": {
            "application/json": {
                "schema": {
                    "anyOf": [{"$ref": "#/components/schemas/OAuthError"}, {"$ref": "#/components/schemas/Error"}]
                }
            }
        },
    },
}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict[str, Any]:
    meaning = {400: "Invalid input (JSON-RPC error object)", 404: "Unknown tool, resource or prompt", 413: "Too large"}
    return {
        **{
            str(s): {"description": meaning.get(s, "Error"), **_json({"$ref": "#/components/schemas/Error"})}
            for s in statuses
        },
        **REFUSALS,
    }


def openapi_document(tools: tuple[ToolSpec, ...]) -> dict[str, Any]:
    """The OpenAPI document served at /openapi.json, for the tools this server offers."""
    argument_schemas = {f"{spec.name}_arguments": tool_schemas(spec)[0] for spec in tools}
    result_schemas = {f"{spec.name}_result": tool_schemas(spec)[1] for spec in tools}
    # One request shape per tool, told apart by `name`: the arguments are checked against that tool's schema only
    # (a `oneOf` over the argument schemas alone refuses `{}`, which several tools accept).
    call_schemas = {
        f"{spec.name}_call": {
            "type": "object",
            "required": ["name"],
            "properties": {
                "name": {"const": spec.name},
                "arguments": {"$ref": f"#/components/schemas/{spec.name}_arguments"},
            },
        }
        for spec in tools
    }
    call_request = {
        "oneOf": [{"$ref": f"#/components/schemas/{key}"} for key in call_schemas],
        "discriminator": {
            "propertyName": "name",
            "mapping": {spec.name: f"#/components/schemas/{spec.name}_call" for spec in tools},
        },
        "examples": [
            {"name": "get_current_time", "arguments": {}},
            {
                "name": "convert_timezone",
                "arguments": {"timestamp": "2025-08-17T10:30:00Z", "to_timezone": "Asia/Tokyo"},
            },
        ],
    }
    call_result = {
        "type": "object",
        "required": ["content", "structuredContent", "isError"],
        "properties": {
            "content": {"type": "array", "items": {"type": "object"}},
            # Results of different tools may share a shape: any of them, not exactly one.
            "structuredContent": {"anyOf": [{"$ref": f"#/components/schemas/{key}"} for key in result_schemas]},
            "isError": {"const": False},
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "horologe",
            "version": __version__,
            "description": "Plain-HTTP access to horologe's MCP tools, resources and prompts. MCP clients use "
            "Streamable HTTP at POST /mcp.",
        },
        "paths": {
            TOOLS_CALL.path: {
                "post": {
                    "summary": "Call a tool",
                    "requestBody": {"required": True, **_json(call_request)},
                    "responses": {
                        "200": {"description": "Tool result", **_json(call_result)},
                        **_errors(400, 404, 413),
                    },
                }
            },
            RESOURCES_READ.path: {
                "post": {
                    "summary": "Read a resource",
                    "requestBody": {
                        "required": True,
                        **_json({"type": "object", "required": ["uri"], "properties": {"uri": {"type": "string"}}}),
                    },
                    "responses": {"200": {"description": "Resource contents"}, **_errors(400, 404, 413)},
                }
            },
            PROMPTS_GET.path: {
                "post": {
                    "summary": "Render a prompt",
                    "requestBody": {
                        "required": True,
                        **_json(
                            {
                                "type": "object",
                                "required": ["name"],
                                "properties": {
                                    "name": {"type": "string"},
                                    "arguments": {"type": "object", "additionalProperties": {"type": "string"}},
                                },
                            }
                        ),
                    },
                    "responses": {"200": {"description": "Prompt messages"}, **_errors(400, 404, 413)},
                }
            },
            CAPABILITIES.path: {
                "get": {
                    "summary": "Server info, capabilities, tools, resources and prompts",
                    "responses": {"200": {"description": "Capabilities"}, **REFUSALS},
                }
            },
            HEALTHZ.path: {
                "get": {"summary": "Liveness", "security": [], "responses": {"200": {"description": "Alive"}}}
            },
            READYZ.path: {
                "get": {
                    "summary": "Readiness (tzdata loaded)",
                    "security": [],
                    "responses": {"200": {"description": "Ready"}, "503": {"description": "Not ready"}},
                }
            },
            METRICS.path: {
                "get": {
                    "summary": "Prometheus metrics",
                    "security": [],
                    "responses": {"200": {"description": "Metrics"}},
                }
            },
        },
        "components": {
            "schemas": {
                "Error": JSONRPC_ERROR,
                "OAuthError": OAUTH_ERROR,
                **call_schemas,
                **argument_schemas,
                **result_schemas,
            },
            "securitySchemes": {"bearer": BEARER},
        },
        # Optional (`{}`): a server without authorization takes requests without a token.
        "security": [{"bearer": []}, {}],
    }
