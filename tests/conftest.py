"""Shared fixtures: a fixed clock and servers built on it."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime
from typing import Any

import pytest
from mcp.server.lowlevel.server import Server

from horologe.clock import FixedClock
from horologe.config import Settings, load_settings
from horologe.server.app import build_server

# Zones come from the tzdata package only, as in the server process (see horologe.cli.main).
zoneinfo.reset_tzpath(to=())

# A Sunday, in standard time in Europe and North America.
FIXED_NOW = datetime(2026, 11, 22, 3, 11, 30, 123456, tzinfo=UTC)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def settings(monkeypatch: pytest.MonkeyPatch) -> Settings:
    for name in ("DEFAULT_TIMEZONE", "HOROLOGE_DEFAULT_TIMEZONE", "HOROLOGE_TIME__DEFAULT_TIMEZONE"):
        monkeypatch.delenv(name, raising=False)
    return load_settings()


@pytest.fixture
def server(settings: Settings) -> Server[Any]:
    return build_server(settings, FixedClock(FIXED_NOW))
