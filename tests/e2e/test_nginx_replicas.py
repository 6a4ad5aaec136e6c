"""Two horologe replicas behind a real nginx on loopback, configured from deploy/nginx/horologe.conf.template."""

from __future__ import annotations

import contextlib
import http.client
import json
import shutil
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp.client import Client

from tests.e2e.conftest import RunningServer, check_healthy, free_port, start_http_server, wait_until_listening
from tests.e2e.processes import Output, end, spawn

pytestmark = [pytest.mark.e2e]
TEMPLATE = Path(__file__).parents[2] / "deploy" / "nginx" / "horologe.conf.template"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def render_config(directory: Path, listen: int, upstreams: list[int]) -> Path:
    """The deployment template inside a minimal main config that runs unprivileged in `directory`."""
    # Like the nginx image's envsubst: only the named variables are replaced, nginx's own ($http_host) stay.
    site = string.Template(TEMPLATE.read_text(encoding="utf-8")).safe_substitute(
        HOROLOGE_UPSTREAM_1=f"127.0.0.1:{upstreams[0]}",
        HOROLOGE_UPSTREAM_2=f"127.0.0.1:{upstreams[1]}",
        NGINX_LISTEN=f"127.0.0.1:{listen}",
    )
    assert "${" not in site, "a template variable was left unrendered"
    temp_paths = "".join(
        f"  {directive} {directory / name};\n"
        for directive, name in (
            ("client_body_temp_path", "body"),
            ("proxy_temp_path", "proxy"),
            ("fastcgi_temp_path", "fastcgi"),
            ("uwsgi_temp_path", "uwsgi"),
            ("scgi_temp_path", "scgi"),
        )
    )
    config = directory / "nginx.conf"
    config.write_text(
        "daemon off;\nworker_processes 1;\n"
        f"pid {directory / 'nginx.pid'};\nerror_log {directory / 'error.log'} warn;\n"
        "events { worker_connections 256; }\n"
        f"http {{\n  access_log off;\n{temp_paths}{site}\n}}\n",
        encoding="utf-8",
    )
    return config


@contextlib.contextmanager
def behind_nginx(directory: Path, env: dict[str, str] | None = None) -> Iterator[tuple[int, list[RunningServer]]]:
    """Two real replicas (same environment) behind a real nginx on loopback; everything stopped afterwards."""
    if not Path(NGINX).exists():
        pytest.fail("nginx is required for this test (make test installs the Debian package)")
    with contextlib.ExitStack() as stopping:  # stops what was started, in reverse order, whatever fails
        replicas: list[RunningServer] = []
        for _ in range(2):
            replica = start_http_server(env=env)
            stopping.callback(replica.stop)
            replicas.append(replica)
        listen = free_port()
        config = render_config(directory, listen, [replica.port for replica in replicas])
        # Its own process group: nginx's master and its worker both end with it.
        nginx = spawn([NGINX, "-c", str(config), "-p", str(directory)])
        assert nginx.stderr is not None
        errors = Output(nginx.stderr)
        stopping.callback(end, nginx, errors)
        try:
            wait_until_listening(listen, nginx)  # nginx says nothing when it is ready
        except RuntimeError as exc:
            raise RuntimeError(f"{exc}: {errors.text()}") from None
        check_healthy(listen)
        yield listen, replicas


@pytest.fixture(scope="module")
def balanced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, list[RunningServer]]]:
    with behind_nginx(tmp_path_factory.mktemp("nginx")) as topology:
        yield topology


def test_nginx_spreads_rest_calls_over_both_replicas(balanced: tuple[int, list[RunningServer]]) -> None:
    listen, replicas = balanced
    for _ in range(6):
        connection = http.client.HTTPConnection("127.0.0.1", listen, timeout=10)
        body = json.dumps({"name": "get_current_time", "arguments": {"timezone": "Europe/Vienna"}})
        connection.request("POST", "/mcp/tools/call", body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        assert (
            response.status == 200 and json.loads(response.read())["structuredContent"]["timezone"] == "Europe/Vienna"
        )
        assert response.getheader("x-upstream") is None  # nginx names no replica to clients
        connection.close()
    for replica in replicas:  # each replica's access log has served some of them
        assert '"status":200' in replica.wait_for_log('"path":"/mcp/tools/call"')


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_sdk_client_works_through_nginx_in_both_eras(
    balanced: tuple[int, list[RunningServer]], mode: str
) -> None:
    listen, _ = balanced
    async with Client(f"http://127.0.0.1:{listen}/mcp", mode=mode, cache=None) as client:
        for _ in range(4):  # consecutive requests land on different replicas; stateless serving makes that fine
            result = await client.call_tool(
                "convert_timezone", {"timestamp": "2025-08-17T10:30:00Z", "to_timezone": "Asia/Tokyo"}
            )
            assert result.structured_content is not None
            assert result.structured_content["converted"]["timestamp"] == "2025-08-17T19:30:00+09:00"
