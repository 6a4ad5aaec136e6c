"""The OpenTelemetry SDK, installed from the standard OTEL_* variables when present (server and client alike)."""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

from opentelemetry import trace

logger = logging.getLogger("horologe")
EXPORT_VARIABLES = ("OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")


def install_sdk_from_environment() -> bool:
    """Install the OpenTelemetry SDK's tracer provider when OTEL_* asks for export and the SDK is importable."""
    if not isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider):
        return True
    if not any(os.environ.get(name) for name in EXPORT_VARIABLES) or os.environ.get("OTEL_SDK_DISABLED") == "true":
        return False
    try:
        from opentelemetry.sdk.trace import TracerProvider  # type: ignore[import-not-found,unused-ignore]
        from opentelemetry.sdk.trace.export import (  # type: ignore[import-not-found,unused-ignore]
            BatchSpanProcessor,
            ConsoleSpanExporter,
        )
    except ImportError:
        logger.warning("OTEL_* export is configured but opentelemetry-sdk is not installed; no spans are exported")
        return False
    chosen = os.environ.get("OTEL_TRACES_EXPORTER", "otlp").strip().lower()
    if chosen == "none":
        return False
    # stdout belongs to the protocol over stdio (and is restored before exit flushes the last spans): the console
    # exporter writes to stderr, like our logs.
    exporter: Any = ConsoleSpanExporter(out=sys.stderr)
    if chosen == "otlp":
        try:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import (  # type: ignore[import-not-found,unused-ignore]
                OTLPSpanExporter,
            )

            exporter = OTLPSpanExporter()
        except ImportError:
            logger.warning("OTEL_TRACES_EXPORTER=otlp needs opentelemetry-exporter-otlp-proto-http; using console")
    provider = TracerProvider()
    provider.add_span_processor(BatchSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    return True
