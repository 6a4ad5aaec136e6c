"""Tracing costs nothing unless it is configured: the SDK's span middleware runs only when spans can go somewhere."""

from __future__ import annotations

import os
from typing import Any

from mcp.server._otel import OpenTelemetryMiddleware
from mcp.server.lowlevel.server import Server
from opentelemetry import trace

EXPORT_VARIABLES = ("OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")


def tracing_configured() -> bool:
    """Whether an OpenTelemetry tracer provider is installed or export is configured through OTEL_* variables."""
    if not isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider):
        return True
    return any(os.environ.get(name) for name in EXPORT_VARIABLES)


def drop_unused_tracing(server: Server[Any]) -> None:
    """Remove the SDK's OpenTelemetry middleware when nothing would receive its spans (it costs ~5% per request)."""
    if not tracing_configured():
        server.middleware = [m for m in server.middleware if not isinstance(m, OpenTelemetryMiddleware)]
