"""`make run` on a fresh checkout: the set-up talks on stderr, stdout carries the protocol alone, first run included;
`make install` gives the command the README tells clients to run.

A client configuration may run `make run` itself, so a single byte of make's or the installers' output on stdout
would corrupt its stream. The checkout is a copy of this repository's files without `.tools/` or `.venv/` (what a
clone has); uv's download cache is the machine's, so no package is fetched twice.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Final

import pytest

from tests.e2e.conftest import users_shell

pytestmark = pytest.mark.e2e
ROOT: Final = Path(__file__).resolve().parents[2]
SEED_LINE: Final = (
    b'{"jsonrpc":"2.0","method":"tools/call","params":{"name":"get_current_time","arguments":{}},"id":1}\n'
)


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This repository's files as a clone has them: tracked and new ones, no .tools/, .venv/ or dist/."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    target = tmp_path_factory.mktemp("clone") / "horologe"
    for name in filter(None, listed.decode().split("\0")):
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the work tree is not part of the checkout
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def answers_the_seed_line_alone(stdout: bytes) -> bool:
    """Whether stdout is exactly one JSON-RPC line: the seed line's tools/call result."""
    (line,) = stdout.splitlines()
    answer = json.loads(line)
    return bool(answer["id"] == 1 and "timezone" in answer["result"]["structuredContent"])


def test_the_first_make_run_sets_up_on_stderr_and_answers_alone_on_stdout(checkout: Path) -> None:
    done = subprocess.run(
        ["make", "run"], cwd=checkout, input=SEED_LINE, capture_output=True, timeout=900, env=users_shell()
    )
    assert done.returncode == 0, done.stderr.decode()
    assert answers_the_seed_line_alone(done.stdout), done.stdout
    said = done.stderr.decode()
    assert "horologe: installing the locked dependencies into .venv/ (once)" in said
    assert (checkout / ".venv" / ".runtime").exists()
    # The documented client configuration, from elsewhere: -C, with make's directory lines turned off.
    again = subprocess.run(
        ["make", "--no-print-directory", "-C", str(checkout), "run"],
        cwd=checkout.parent,
        input=SEED_LINE,
        capture_output=True,
        timeout=300,
        env=users_shell(),
    )
    assert again.returncode == 0 and answers_the_seed_line_alone(again.stdout), again.stdout + again.stderr
    assert again.stderr == b""  # set up already: nothing to say
    # Plain -C: make writes its directory lines on stdout before it reads any Makefile; run says so on stderr, with
    # the two forms whose stdout is clean.
    plain = subprocess.run(
        ["make", "-C", str(checkout), "run"],
        cwd=checkout.parent,
        input=SEED_LINE,
        capture_output=True,
        timeout=300,
        env=users_shell(),
    )
    entering, answer, leaving = plain.stdout.splitlines()
    assert entering.startswith(b"make: Entering directory") and leaving.startswith(b"make: Leaving directory")
    assert answers_the_seed_line_alone(answer)
    assert b"use make --no-print-directory -C DIR run, or the command `make install` puts on PATH" in plain.stderr


def test_make_install_gives_the_command_the_readme_tells_clients_to_run(checkout: Path, tmp_path: Path) -> None:
    # The README's first screen until the first release: `make install`, then the clients run `horologe`. A fresh
    # home (uv puts tools under it), the machine's download cache (uv's own, named before HOME moves).
    cache = subprocess.run([str(ROOT / ".tools" / "bin" / "uv"), "cache", "dir"], capture_output=True, text=True)
    env = {key: value for key, value in users_shell().items() if not key.startswith(("XDG_", "UV_TOOL"))}
    env |= {"HOME": str(tmp_path), "UV_CACHE_DIR": cache.stdout.strip()}
    done = subprocess.run(["make", "install"], cwd=checkout, capture_output=True, timeout=900, env=env)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    command = tmp_path / ".local" / "bin" / "horologe"
    said = done.stdout.decode()
    assert f"horologe: installed {command}" in said
    assert f"claude mcp add horologe -- {command}" in said
    served = subprocess.run([str(command)], input=SEED_LINE, capture_output=True, timeout=300, cwd=tmp_path, env=env)
    assert served.returncode == 0 and answers_the_seed_line_alone(served.stdout), served.stderr.decode()[-2000:]
