"""Run the HTTP app under uvicorn: one process, or a lean supervisor with `--workers N` worker processes.

Kept apart from `transports.http` so that the supervisor of several workers never imports the app (the SDK,
the tools, Starlette): it only checks the bind, then uvicorn spawns workers that build the app themselves.
"""

from __future__ import annotations

import os
import sys
import tempfile
from typing import Any

from horologe.config import Settings
from horologe.transports.http_guard import AccessPolicy, is_loopback

SETTINGS_ENV = "HOROLOGE_INTERNAL_SETTINGS_JSON"


def serve_http(settings: Settings) -> None:
    """Run uvicorn (uvloop and httptools when installed) with graceful shutdown on SIGTERM."""
    import uvicorn

    http = settings.http
    AccessPolicy.for_bind(settings.server.host, http.allowed_hosts, http.allowed_origins)  # fail before forking
    if not settings.auth.enabled and not is_loopback(settings.server.host):
        print(
            f"horologe: WARNING: serving {settings.server.host} without authorization: anyone who can reach this port "
            "can call every tool. Enable auth (HOROLOGE_AUTH__ENABLED=true with issuer, resource and jwks_url or "
            "introspection_endpoint) or put an authenticating proxy in front.",
            file=sys.stderr,
        )
    options: dict[str, Any] = {
        "host": settings.server.host,
        "port": settings.server.port,
        "access_log": False,
        "log_level": settings.logging.level.lower(),
        "timeout_graceful_shutdown": http.graceful_shutdown_seconds,
        "server_header": False,
    }
    if http.workers == 1:
        from horologe.heap import settle_after_startup
        from horologe.transports.http import create_app

        app = create_app(settings)
        settle_after_startup()
        uvicorn.run(app, **options)
        return
    os.environ[SETTINGS_ENV] = settings.model_dump_json()
    with tempfile.TemporaryDirectory(prefix="horologe-metrics-") as metrics_dir:
        os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", metrics_dir)
        uvicorn.run("horologe.transports.http:app_from_environment", factory=True, workers=http.workers, **options)
