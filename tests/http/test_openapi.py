"""/openapi.json: the documented examples validate against it; refusals and the bearer scheme are described."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from horologe.http.openapi import openapi_document
from horologe.tools.registry import selected_tools
from tests.test_documented_calls import curl_bodies

DOCUMENT = openapi_document(tuple(selected_tools(["all"], "http")))


def request_validator() -> Draft202012Validator:
    operation = DOCUMENT["paths"]["/mcp/tools/call"]["post"]
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    # The document as the root, so "#/components/schemas/..." references resolve.
    return Draft202012Validator({**schema, "components": DOCUMENT["components"]})


def documented_examples() -> list[Any]:
    return [body for _, body in curl_bodies()]


def test_the_docs_and_compose_examples_are_found() -> None:
    assert {"name": "get_current_time", "arguments": {}} in documented_examples()


@pytest.mark.parametrize("example", [*documented_examples(), *request_validator().schema["examples"]])
def test_documented_requests_validate(example: Any) -> None:
    errors = list(request_validator().iter_errors(example))
    assert errors == [], [error.message for error in errors]


@pytest.mark.parametrize(
    "request_body",
    [
        {"name": "get_current_time", "arguments": {"timezone": 5}},
        {"name": "get_weather", "arguments": {}},
        {"arguments": {}},
        {"name": "convert_timezone", "arguments": {}},
    ],
)
def test_wrong_requests_do_not(request_body: dict[str, Any]) -> None:
    assert not request_validator().is_valid(request_body)


def test_refusals_and_the_bearer_scheme_are_documented() -> None:
    assert DOCUMENT["components"]["securitySchemes"]["bearer"] == {
        **DOCUMENT["components"]["securitySchemes"]["bearer"],
        "type": "http",
        "scheme": "bearer",
    }
    assert {"bearer": []} in DOCUMENT["security"]
    for path in ("/mcp/tools/call", "/mcp/resources/read", "/mcp/prompts/get", "/mcp/capabilities"):
        (operation,) = DOCUMENT["paths"][path].values()
        assert {"401", "403", "429", "503"} <= set(operation["responses"]), path
    assert "Retry-After" in DOCUMENT["paths"]["/mcp/tools/call"]["post"]["responses"]["429"]["headers"]
    for path in ("/healthz", "/readyz", "/metrics"):  # probes and scrapers never need a token
        assert DOCUMENT["paths"][path]["get"]["security"] == []
