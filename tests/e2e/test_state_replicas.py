"""SEP-1655 across replicas: two horologe processes behind nginx share only a signing key, no storage."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from horologe.client.connect import ClientOptions, connect
from horologe.client.context import ContextSettings
from tests.e2e.conftest import RunningServer
from tests.e2e.test_nginx_replicas import behind_nginx

pytestmark = [pytest.mark.e2e, pytest.mark.anyio]
KEYS_ENV = {
    "HOROLOGE_STATE__KEYS": json.dumps({"k1": "shared-secret-for-the-replica-tests-0123456789"}),
    "HOROLOGE_TOOLSETS": "default,memory",  # HTTP offers no memory tools unless the operator adds them
}


@pytest.fixture(scope="module")
def keyed_balanced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, list[RunningServer]]]:
    with behind_nginx(tmp_path_factory.mktemp("nginx-state"), KEYS_ENV) as topology:
        yield topology


def options(url: str, tmp_path: Path, mode: str, **kw: object) -> ClientOptions:
    return ClientOptions(
        url=url,
        mode=mode,  # type: ignore[arg-type]
        allow_local_state=True,
        state_db=tmp_path / "client-state.sqlite3",
        context=kw.pop("context", ContextSettings(enabled=False)),  # type: ignore[arg-type]
        **kw,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_preferences_set_through_one_replica_are_honoured_by_the_other(
    keyed_balanced: tuple[int, list[RunningServer]], tmp_path: Path, mode: str
) -> None:
    _, (first, second) = keyed_balanced
    async with connect(options(f"{first.url}/mcp", tmp_path, mode)) as (client, _):
        stored = await client.call_tool(
            "preferences", {"action": "set", "timezone": "Europe/Vienna", "week_start": "sunday"}
        )
        assert stored.structured_content is not None
        # Stateless HTTP in the initialize era cannot show the client's capability on a call: the tool says so.
        assert stored.structured_content["kept"] == ("client" if mode == "2026-07-28" else "client_unverified")
    # A new client session against the other replica: same host, so the same server-scope state.
    async with connect(options(f"{second.url}/mcp", tmp_path, mode)) as (client, _):
        now = await client.call_tool("get_current_time", {})
        assert now.structured_content is not None and now.structured_content["timezone"] == "Europe/Vienna"
        prefs = await client.call_tool("preferences", {"action": "get"})
        assert prefs.structured_content is not None
        assert prefs.structured_content["preferences"] == {"timezone": "Europe/Vienna", "week_start": "sunday"}


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_timers_and_preferences_work_through_nginx_round_robin(
    keyed_balanced: tuple[int, list[RunningServer]], tmp_path: Path, mode: str
) -> None:
    listen, _ = keyed_balanced
    async with connect(options(f"http://127.0.0.1:{listen}/mcp", tmp_path, mode)) as (client, envelope):
        await client.call_tool("preferences", {"action": "set", "timezone": "Asia/Tokyo"})
        started = await client.call_tool("timer", {"action": "start", "label": "deploy"})
        assert started.structured_content is not None and started.structured_content["stored"] is True
        for _ in range(4):  # consecutive requests alternate between the replicas
            checked = await client.call_tool("timer", {"action": "check", "label": "deploy"})
            assert not checked.is_error, checked
            assert checked.structured_content is not None
            assert checked.structured_content["timer"]["label"] == "deploy"
            now = await client.call_tool("get_current_time", {})
            assert now.structured_content is not None and now.structured_content["timezone"] == "Asia/Tokyo"
            assert "dev.horologe/state" not in (now.meta or {})
        listed = await client.call_tool("timer", {"action": "list"})
        assert listed.structured_content is not None and len(listed.structured_content["timers"]) == 1
        assert envelope.malformed == []


async def test_language_and_context_through_the_client_over_http(
    keyed_balanced: tuple[int, list[RunningServer]], tmp_path: Path
) -> None:
    listen, _ = keyed_balanced
    url = f"http://127.0.0.1:{listen}/mcp"
    context = ContextSettings(timezone="America/Los_Angeles", locale="en-US")
    seen = set()
    for lang in ("de-AT", "fr"):
        async with connect(options(url, tmp_path, "2026-07-28", lang=lang, context=context)) as (client, envelope):
            result = await client.call_tool("get_current_time", {})
            assert result.structured_content is not None
            assert result.structured_content["timezone"] == "America/Los_Angeles"
            assert result.meta is not None
            assert result.meta["dev.horologe/context"]["applied"]["timezone"] == "America/Los_Angeles"
            seen.add(result.meta.get("io.modelcontextprotocol/contentLanguage"))
            assert envelope.malformed == []
    assert len(seen) == 2
