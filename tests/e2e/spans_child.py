"""Run by tests/e2e/test_state_stdio.py in a process of its own: installs an OpenTelemetry tracer provider (which can
be set once per process and would leave every later test of a shared process traced), calls a tool through the SDK's
client inside a span, then makes a tool error and a refused request, and prints what the spans say as one JSON object:
how the two spans of the first call relate, and the status and error type of the other two."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping

import anyio
from mcp.client import Client
from mcp.shared.exceptions import MCPError
from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind

from horologe.clock import SystemClock
from horologe.config import load_settings
from horologe.protocol.server import build_server


def attributes(span: ReadableSpan) -> Mapping[str, object]:
    assert span.attributes is not None, span
    return span.attributes


async def main() -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    server = build_server(load_settings(), SystemClock())
    async with Client(server, mode="legacy", cache=None) as client:
        with trace.get_tracer("test").start_as_current_span("user action"):
            await client.call_tool("get_current_time", {"timezone": "Europe/Vienna"})
        await client.call_tool("get_timezone_info", {"timezone": "Mars/Olympus"})
        with contextlib.suppress(MCPError):  # the span of the refused read is what is reported
            await client.read_resource("timezone://Nowhere/Else")
    spans = exporter.get_finished_spans()
    server_span = next(s for s in spans if s.name == "tools/call get_current_time" and s.kind == SpanKind.SERVER)
    client_span = next(
        s for s in spans if s.kind == SpanKind.CLIENT and attributes(s).get("mcp.method.name") == "tools/call"
    )
    print(
        json.dumps(
            {
                "server_parent_span_id": server_span.parent.span_id if server_span.parent else None,
                "client_span_id": client_span.context.span_id,
                "server_trace_id": server_span.context.trace_id,
                "client_trace_id": client_span.context.trace_id,
                "server_tool_name": attributes(server_span).get("gen_ai.tool.name"),
                "failed": {
                    span.name: [span.status.status_code.name, attributes(span).get("error.type")]
                    for span in spans
                    if span.kind == SpanKind.SERVER and span.name in ("tools/call get_timezone_info", "resources/read")
                },
            }
        )
    )


if __name__ == "__main__":
    anyio.run(main)
