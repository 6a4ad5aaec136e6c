"""Run the HTTP app under uvicorn: one process, or a lean supervisor with `--workers N` worker processes.

Kept apart from `horologe.http.app` so that the supervisor of several workers never imports the app (the SDK,
the tools, Starlette): it binds the socket, then uvicorn spawns workers that build the app themselves from the
settings it leaves in their environment (`app_from_environment`), and it says "listening on" once one of them
accepts requests.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import tempfile
import time
from socket import socket
from typing import TYPE_CHECKING, Any, Final

from uvicorn.config import Config
from uvicorn.supervisors import Multiprocess

from horologe.config import Settings, is_loopback, load_settings
from horologe.http.hosts import AccessPolicy
from horologe.http.listen import listening_socket, mcp_url
from horologe.logs import configure_logging

if TYPE_CHECKING:
    from starlette.applications import Starlette

logger = logging.getLogger("horologe")
SETTINGS_ENV = "HOROLOGE_INTERNAL_SETTINGS_JSON"
WORKER_START_SECONDS: Final = 120.0
"""How long the supervisor waits for a worker to accept requests before it stops waiting to say so."""


def serve_http(settings: Settings) -> None:
    """Run uvicorn (uvloop and httptools when installed) with deadlines for slow clients and a graceful SIGTERM.

    Raises `ListenError` (a ValueError) when the address cannot be bound, before anything has started.
    """
    from horologe.http.connection import DeadlineConfig, DrainingServer, deadline_protocol

    http = settings.http
    policy = AccessPolicy.for_bind(settings.server.host, http.allowed_hosts, http.allowed_origins)  # before forking
    for origin in http.cors_origins:
        if not policy.origin_allowed(origin):
            logger.warning(
                "CORS origin %s has no effect: requests from it are refused (403) because it is not an allowed origin; "
                "add --allowed-origin %s (HOROLOGE_HTTP__ALLOWED_ORIGINS) too",
                origin,
                origin,
            )
    if not settings.auth.enabled and not is_loopback(settings.server.host):
        logger.warning(
            "serving %s without authorization: anyone who can reach this port can call every tool. Enable auth "
            "(HOROLOGE_AUTH__ENABLED=true with issuer, resource and jwks_url or introspection_endpoint) or put an "
            "authenticating proxy in front.",
            settings.server.host,
        )
    sock = listening_socket(settings.server.host, settings.server.port)
    settings = with_state_key(settings)
    options: dict[str, Any] = {
        "host": settings.server.host,
        "port": settings.server.port,
        "access_log": False,
        "log_level": settings.logging.level.lower(),
        "log_config": None,  # uvicorn's loggers propagate to horologe's one handler (horologe.logs)
        "timeout_graceful_shutdown": http.graceful_shutdown_seconds,
        "server_header": False,
        # X-Forwarded-For is believed only from `rate_limit.trusted_proxies` (`ClientAddress`); uvicorn's own reading
        # would believe any loopback peer by default, whatever was configured.
        "proxy_headers": False,
        "http": deadline_protocol(),
        "header_timeout": http.header_timeout_seconds,
        "body_timeout": http.body_timeout_seconds,
        "max_header_bytes": http.max_header_bytes,
        "timeout_keep_alive": http.keep_alive_seconds,
        "limit_concurrency": http.max_connections,
    }
    if http.workers == 1:
        from horologe.heap import settle_after_startup
        from horologe.http.app import create_app  # only the serving process imports the app

        app = create_app(settings)
        settle_after_startup()
        server = DrainingServer(DeadlineConfig(app, **options))
        server.run(sockets=[sock])
        if not server.started:
            raise SystemExit(3)  # uvicorn's code for a server that could not start (it logged why)
        return
    os.environ[SETTINGS_ENV] = settings.model_dump_json()
    with tempfile.TemporaryDirectory(prefix="horologe-metrics-") as metrics_dir:
        os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", metrics_dir)
        config = DeadlineConfig(
            "horologe.http.serve:app_from_environment", factory=True, workers=http.workers, **options
        )
        Supervisor(config, [sock]).run()


def with_state_key(settings: Settings) -> Settings:
    """The settings, with a signing key made now when none is configured (said once, here, at start).

    Every worker of this process then signs client-side state with the same key. Without a configured key, state a
    client keeps stops verifying when the server restarts; other replicas never read it, which is worth a warning
    where replicas are likely (a bind beyond loopback).
    """
    if settings.state.keys:
        return settings
    advice = "set HOROLOGE_STATE__KEYS (see docs/deployment.md) to keep it across restarts"
    if is_loopback(settings.server.host):
        logger.info(
            "no state signing key is configured: client-side state (preferences, timers a client keeps) is signed "
            "with a key made at start and stops verifying when this server restarts; %s",
            advice,
        )
    else:
        logger.warning(
            "no state signing key is configured: client-side state is signed with a key made at start, so other "
            "replicas cannot read it and it stops verifying on restart; give every replica the same "
            "HOROLOGE_STATE__KEYS"
        )
    state = settings.state.model_copy(update={"keys": {"start": secrets.token_urlsafe(32)}, "active_key": "start"})
    return settings.model_copy(update={"state": state})


class Supervisor(Multiprocess):
    """uvicorn's supervisor of worker processes, which says "listening on" once a worker accepts requests."""

    def __init__(self, config: Config, sockets: list[socket]) -> None:
        super().__init__(config, sockets)
        self.url = mcp_url(config.host, sockets[0].getsockname()[1])

    def init_processes(self) -> None:
        """Start the workers, then wait until one of them has started serving and announce the address.

        A signal that arrives meanwhile is handled at once; workers that die first are left to uvicorn's loop.
        """
        super().init_processes()
        deadline = time.monotonic() + WORKER_START_SECONDS
        while time.monotonic() < deadline:
            self.handle_signals()
            if self.should_exit.is_set() or not any(process.process.is_alive() for process in self.processes):
                return
            if any(process.is_ready(timeout=0.25) for process in self.processes):
                logger.info("listening on %s", self.url)
                return


def app_from_environment() -> Starlette:
    """The app for uvicorn workers: settings arrive serialized in the environment from `horologe serve`."""
    from horologe.heap import settle_after_startup
    from horologe.http.app import create_app  # each worker imports the app; the supervisor never does

    raw = os.environ.get(SETTINGS_ENV)
    settings = Settings.model_validate(json.loads(raw)) if raw else load_settings()
    configure_logging(settings.logging.level, "json")  # a spawned worker starts with no logging configured
    app = create_app(settings)
    settle_after_startup()  # each worker is its own serving process
    return app
