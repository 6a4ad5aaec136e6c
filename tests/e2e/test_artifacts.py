"""What a release ships, as a user gets it: the wheel through `uvx` and the PEX, run from outside the repository.

`make dist/horologe` builds the wheel, the sdist and the PEX into dist/ once per run (make rebuilds only what a
changed source needs), before the first test here (a module runs in one xdist worker: `--dist loadfile`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import pytest

from tests.e2e.conftest import check_healthy
from tests.e2e.processes import Output, end, spawn

pytestmark = pytest.mark.e2e
ROOT: Final = Path(__file__).resolve().parents[2]
UV: Final = ROOT / ".tools" / "bin" / "uv"
SEED_LINE: Final = (
    b'{"jsonrpc":"2.0","method":"tools/call","params":{"name":"get_current_time","arguments":{}},"id":1}\n'
)


@dataclass(frozen=True)
class Dist:
    """The built artefacts, and a scratch directory outside the repository with its own uv tool directory."""

    wheel: Path
    sdist: Path
    pex: Path
    outside: Path

    def env(self) -> dict[str, str]:
        """The environment of a user's shell: tools installed into the scratch directory, no Python downloads."""
        return {**os.environ, "UV_TOOL_DIR": str(self.outside / "tools"), "UV_PYTHON_DOWNLOADS": "never"}

    def uvx(self, requirement: str, *arguments: str) -> list[str]:
        """`uvx --from REQUIREMENT horologe ARGUMENTS`, isolated from any installed tool."""
        return [str(UV), "tool", "run", "--isolated", "--from", requirement, "horologe", *arguments]


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    if not UV.exists():
        pytest.fail(f"{UV} is missing: `make test` bootstraps it (or run `make .venv/.dev`)")
    built = subprocess.run(
        ["make", "-s", "dist/horologe", f"PYTHON={sys.executable}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (ROOT / "dist").glob("horologe-*.whl")
    (sdist,) = (ROOT / "dist").glob("horologe-*.tar.gz")
    return Dist(wheel, sdist, ROOT / "dist" / "horologe", tmp_path_factory.mktemp("outside"))


def answers_the_seed_line(output: bytes) -> bool:
    """Whether a stdio server's output is the seed line's tools/call result."""
    answer = json.loads(output.splitlines()[0])
    return bool(answer["id"] == 1 and "timezone" in answer["result"]["structuredContent"])


def test_the_wheel_and_the_sdist_carry_the_licence(dist: Dist) -> None:
    assert any(name.endswith("licenses/LICENSE") for name in zipfile.ZipFile(dist.wheel).namelist())
    assert dist.sdist.stat().st_size > 0


def test_uvx_from_the_wheel_answers_the_seeds_stdio_line(dist: Dist) -> None:
    done = subprocess.run(
        dist.uvx(str(dist.wheel)), input=SEED_LINE, capture_output=True, cwd=dist.outside, env=dist.env(), timeout=300
    )
    assert done.returncode == 0, done.stderr.decode()
    assert answers_the_seed_line(done.stdout), done.stdout


def test_http_without_the_extra_names_it_in_one_line(dist: Dist) -> None:
    done = subprocess.run(
        dist.uvx(str(dist.wheel), "serve", "--transport", "http"),
        capture_output=True,
        cwd=dist.outside,
        env=dist.env(),
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode != 0
    assert "horologe[http]" in done.stderr.decode()


@pytest.fixture
def http_from_the_wheel(dist: Dist) -> Iterator[int]:
    """The wheel with the http extra, served by uvx on a port it picks; that port once it answers /healthz."""
    command = dist.uvx(f"{dist.wheel}[http]", "serve", "--transport", "http", "--port", "0")
    process = spawn(command, env=dist.env(), cwd=dist.outside)
    assert process.stderr is not None
    log = Output(process.stderr)
    try:
        line = log.wait_for("listening on http://127.0.0.1:", timeout=300)  # uvx installs the extra first
        port = int(line.split("listening on http://127.0.0.1:", 1)[1].split("/", 1)[0])
        check_healthy(port)
        yield port
    finally:
        end(process, log)


def test_the_wheel_with_the_http_extra_serves_the_readmes_curl_example(http_from_the_wheel: int) -> None:
    request = urllib.request.Request(
        f"http://127.0.0.1:{http_from_the_wheel}/mcp/tools/call",
        data=b'{"name":"get_current_time","arguments":{}}',
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert "structuredContent" in json.loads(response.read())


def test_the_pex_answers_the_seeds_stdio_line_from_outside_the_repository(dist: Dist) -> None:
    env = {**os.environ, "PEX_ROOT": str(dist.outside / "pex")}  # a first run: it unpacks into an empty cache
    done = subprocess.run([str(dist.pex)], input=SEED_LINE, capture_output=True, cwd=dist.outside, env=env, timeout=300)
    assert done.returncode == 0, done.stderr.decode()
    assert answers_the_seed_line(done.stdout), done.stdout
