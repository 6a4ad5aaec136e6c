"""What a release ships, built once per run and checked as a user and a registry get it.

`make dist` builds the wheel, the sdist, the PEX, the MCP Bundle, server.json and the image context into dist/ (make
rebuilds only what a changed source needs), under a lock, before the first test that needs them: the modules here
run in several xdist workers. `make release-check` runs this directory alone; `make test` runs it with the rest.
A check that fails says, in its first line, which artefact and which check: `dist/server.json: registry schema: ...`.
"""

from __future__ import annotations

import fcntl
import json
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pytest

from release.identity import Identity, identity
from tests.e2e.conftest import users_shell

ROOT: Final = Path(__file__).resolve().parents[2]
UV: Final = ROOT / ".tools" / "bin" / "uv"
ME: Final = identity()
SEED_LINE: Final = (
    b'{"jsonrpc":"2.0","method":"tools/call","params":{"name":"get_current_time","arguments":{}},"id":1}\n'
)


@dataclass(frozen=True)
class Dist:
    """The built artefacts, and a scratch directory outside the repository with its own uv tool directory."""

    wheel: Path
    sdist: Path
    pex: Path
    bundle: Path
    server_json: Path
    image: Path
    outside: Path
    me: Identity

    def env(self, **extra: str) -> dict[str, str]:
        """The environment of a user's shell: tools and uv's cache in the scratch directory, no Python downloads."""
        # A fresh uv cache too, as a user's first `uvx horologe` has: uv takes a find-links wheel of a version it has
        # cached as unchanged, so a shared cache could run a wheel built before this one (the dependencies download).
        tools = {
            "UV_TOOL_DIR": str(self.outside / "tools"),
            "UV_CACHE_DIR": str(self.outside / "uv-cache"),
            "UV_PYTHON_DOWNLOADS": "never",
        }
        return {**users_shell(), **tools, **extra}

    def uvx(self, requirement: str, *arguments: str) -> list[str]:
        """`uvx --find-links dist/ --from REQUIREMENT horologe ARGUMENTS`, isolated from any installed tool."""
        return [
            *(str(UV), "tool", "run", "--isolated", "--find-links", str(self.wheel.parent)),
            *("--from", requirement, "horologe", *arguments),
        ]


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    """`make dist`, once for all workers (a lock file orders them; the later ones find everything up to date)."""
    if not UV.exists():
        pytest.fail(f"{UV} is missing: `make test` bootstraps it (or run `make .venv/.dev`)")
    (ROOT / "build").mkdir(exist_ok=True)
    with (ROOT / "build" / ".dist.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        built = subprocess.run(
            ["make", "-s", "dist", f"PYTHON={sys.executable}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
    last = (built.stderr.strip() or built.stdout.strip() or "no output").splitlines()[-1]
    assert built.returncode == 0, f"dist/: make dist: {last}"
    return Dist(
        wheel=ROOT / "dist" / f"horologe-{ME.version}-py3-none-any.whl",
        sdist=ROOT / "dist" / f"horologe-{ME.version}.tar.gz",
        pex=ROOT / "dist" / "horologe",
        bundle=ROOT / "dist" / ME.bundle_name,
        server_json=ROOT / "dist" / "server.json",
        image=ROOT / "dist" / "image",
        outside=tmp_path_factory.mktemp("outside"),
        me=ME,
    )


def answers_the_seed_line(output: bytes) -> bool:
    """Whether a stdio server's output is exactly the seed line's tools/call result."""
    lines = output.splitlines()
    if len(lines) != 1:
        return False
    answer: Mapping[str, Any] = json.loads(lines[0])
    return bool(answer.get("id") == 1 and "timezone" in answer.get("result", {}).get("structuredContent", {}))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A failed release check is reported in one line: its message (the artefact, the check, what is wrong), then
    where it was checked. The messages are written to be read alone; a traceback would bury them."""
    outcome = yield
    report: pytest.TestReport = outcome.get_result()  # type: ignore[attr-defined]
    if report.failed and call.excinfo is not None:
        message = str(call.excinfo.value).strip().splitlines() or [call.excinfo.typename]
        here = Path(__file__).parent
        entries = [entry for entry in call.excinfo.traceback if Path(entry.path).is_relative_to(here)]
        where = f"{Path(entries[-1].path).relative_to(ROOT)}:{entries[-1].lineno + 1}" if entries else item.nodeid
        last = f" ... {message[-1].strip()}" if len(message) > 1 else ""  # e.g. a process's last words
        report.longrepr = f"{message[0]}{last}  [{where}]"


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """With `--tb=no` (as `make release-check` runs), each failed check's one line, and nothing else."""
    if config.option.tbstyle == "no":
        for report in terminalreporter.stats.get("failed", []):
            terminalreporter.write_line(str(report.longrepr))
