"""compose.yaml's own topology on loopback: nginx and two replicas with the shipped environment and secret.

The settings are read from compose.yaml itself (the replicas' environment, the secret's mount, nginx's template and
upstreams), so a change there that breaks state across replicas breaks this test.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from horologe.client.connect import ClientOptions, connect
from horologe.client.context import ContextSettings
from tests.e2e.conftest import RunningServer
from tests.e2e.test_nginx_replicas import TEMPLATE, behind_nginx

pytestmark = [pytest.mark.e2e, pytest.mark.anyio]
ROOT = Path(__file__).parents[2]
COMPOSE: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))


def replica_environment(secret_dir: Path) -> dict[str, str]:
    """The replicas' environment from compose.yaml, with each secret's /run/secrets path pointing at a local file."""
    services = COMPOSE["services"]
    replicas = [services[name] for name in services if name != "nginx"]
    assert len(replicas) == 2 and replicas[0]["environment"] == replicas[1]["environment"]
    env = {key: str(value) for key, value in replicas[0]["environment"].items()}
    for name in replicas[0].get("secrets", []):
        local = secret_dir / name
        # What the compose comment tells an operator to create: one key id and a random secret.
        local.write_text(json.dumps({"k1": secrets.token_urlsafe(48)}), encoding="utf-8")
        env = {key: str(local) if value == f"/run/secrets/{name}" else value for key, value in env.items()}
    return env


@pytest.fixture(scope="module")
def topology(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, list[RunningServer]]]:
    nginx = COMPOSE["services"]["nginx"]
    mounted = [volume.split(":")[0] for volume in nginx["volumes"]]
    assert (ROOT / mounted[0]).resolve() == TEMPLATE.resolve(), "nginx in compose.yaml uses the tested template"
    assert sorted(nginx["environment"]) == ["HOROLOGE_UPSTREAM_1", "HOROLOGE_UPSTREAM_2", "NGINX_LISTEN"]
    env = replica_environment(tmp_path_factory.mktemp("secrets"))
    with behind_nginx(tmp_path_factory.mktemp("nginx-compose"), env) as running:
        yield running


def options(url: str, tmp_path: Path) -> ClientOptions:
    return ClientOptions(
        url=url,
        mode="2026-07-28",
        allow_local_state=True,
        state_db=tmp_path / "client-state.sqlite3",
        context=ContextSettings(enabled=False),
    )


async def test_state_set_through_one_replica_is_read_through_the_other(
    topology: tuple[int, list[RunningServer]], tmp_path: Path
) -> None:
    _, (first, second) = topology
    async with connect(options(f"{first.url}/mcp", tmp_path)) as (client, _):
        stored = await client.call_tool("preferences", {"action": "set", "timezone": "Europe/Vienna"})
        assert stored.structured_content is not None, stored
        assert stored.structured_content["stored"] is True and stored.structured_content["kept"] == "client"
    async with connect(options(f"{second.url}/mcp", tmp_path)) as (client, _):
        read = await client.call_tool("preferences", {"action": "get"})
        assert read.structured_content is not None
        assert read.structured_content["preferences"] == {"timezone": "Europe/Vienna"}


async def test_state_holds_through_nginx_round_robin(topology: tuple[int, list[RunningServer]], tmp_path: Path) -> None:
    listen, _ = topology
    async with connect(options(f"http://127.0.0.1:{listen}/mcp", tmp_path)) as (client, _):
        await client.call_tool("preferences", {"action": "set", "timezone": "Asia/Tokyo"})
        for _ in range(4):  # consecutive requests alternate between the replicas (and their two workers each)
            read = await client.call_tool("preferences", {"action": "get"})
            assert read.structured_content is not None
            assert read.structured_content["preferences"] == {"timezone": "Asia/Tokyo"}
