"""The access log: its client (the peer, or the client a trusted proxy forwards, as the rate limits read it), and
its lines are INFO lines: a log level above INFO turns them off."""

from __future__ import annotations

import json

import httpx2
import pytest

from horologe.clock import FixedClock
from horologe.config import Settings
from horologe.http.app import create_app
from tests.asgi import running
from tests.conftest import FIXED_NOW

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(("trusted", "logged"), [([], "127.0.0.1"), (["127.0.0.1"], "203.0.113.9")])
async def test_the_access_log_believes_x_forwarded_for_only_from_trusted_proxies(
    settings: Settings, capfd: pytest.CaptureFixture[str], trusted: list[str], logged: str
) -> None:
    limits = settings.rate_limit.model_copy(update={"trusted_proxies": tuple(trusted)})
    http = settings.http.model_copy(update={"access_log": True})
    app = create_app(settings.model_copy(update={"rate_limit": limits, "http": http}), FixedClock(FIXED_NOW))
    transport = httpx2.ASGITransport(app, client=("127.0.0.1", 40000))
    async with running(app), httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        answer = await client.get("/healthz", headers={"x-forwarded-for": "203.0.113.9"})
    assert answer.status_code == 200
    lines = [json.loads(line) for line in capfd.readouterr().err.splitlines() if '"horologe.access"' in line]
    assert [line["client"] for line in lines] == [logged]


@pytest.mark.parametrize(("level", "lines"), [("DEBUG", 1), ("INFO", 1), ("WARNING", 0), ("ERROR", 0)])
async def test_access_lines_are_info_lines_and_obey_the_log_level(
    settings: Settings, capfd: pytest.CaptureFixture[str], level: str, lines: int
) -> None:
    http = settings.http.model_copy(update={"access_log": True})
    logging = settings.logging.model_copy(update={"level": level})
    app = create_app(settings.model_copy(update={"http": http, "logging": logging}), FixedClock(FIXED_NOW))
    transport = httpx2.ASGITransport(app, client=("127.0.0.1", 40000))
    async with running(app), httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        answer = await client.get("/healthz")
    assert answer.status_code == 200
    assert capfd.readouterr().err.count('"horologe.access"') == lines
