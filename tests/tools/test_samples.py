"""Every tool against the samples table: each tool has samples, each sample's result matches the tool's output
schema, and each tool's first sample crosses every transport cell unchanged."""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from mcp.client import Client
from mcp.server.lowlevel.server import Server

from horologe.config import Settings
from horologe.tools import registry
from tests.calls import call
from tests.conftest import IN_PROCESS
from tests.fixtures import connect
from tests.samples import SAMPLES, sample_calls

pytestmark = pytest.mark.anyio


def test_every_tool_of_the_registry_has_a_sample_and_every_sample_a_tool() -> None:
    tools = [spec.name for spec in registry.TOOLS]
    assert [name for name in tools if not SAMPLES.get(name)] == [], "add real arguments to tests/samples.py"
    assert [name for name in SAMPLES if name not in tools] == []


@pytest.mark.parametrize(("name", "arguments"), sample_calls())
async def test_every_sample_answers_with_text_and_a_result_its_output_schema_accepts(
    client: Client, name: str, arguments: dict[str, Any]
) -> None:
    listed = {tool.name: tool for tool in (await client.list_tools()).tools}
    result = await call(client, name, arguments)
    assert result.get("isError") is not True, result
    schema = listed[name].output_schema
    assert schema is not None
    Draft202012Validator(schema).validate(result["structuredContent"])
    assert result["content"][0]["type"] == "text" and result["content"][0]["text"]
    assert nulls(result["structuredContent"]) == [], "a result leaves out what has nothing to say"


def nulls(tree: Any, path: str = "") -> list[str]:
    """Where a JSON tree holds null."""
    if tree is None:
        return [path or "."]
    if isinstance(tree, dict):
        return [found for key, value in tree.items() for found in nulls(value, f"{path}.{key}")]
    if isinstance(tree, list):
        return [found for index, value in enumerate(tree) for found in nulls(value, f"{path}[{index}]")]
    return []


@pytest.mark.wire("framing")
async def test_every_tools_first_sample_crosses_every_edge_unchanged(
    wire_client: Client, server: Server[Any], settings: Settings
) -> None:
    async with AsyncExitStack() as stack:
        reference = await connect(server, settings, IN_PROCESS, stack)
        for name, samples in SAMPLES.items():
            expected = await call(reference, name, samples[0])
            received = await call(wire_client, name, samples[0])
            assert received["structuredContent"] == expected["structuredContent"], name
            assert received["content"] == expected["content"], name
