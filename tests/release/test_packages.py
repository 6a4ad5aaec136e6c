"""The wheel, the sdist and the PEX as a user gets them: checked as PyPI checks them, run from outside the repository
with a fresh tool environment or cache, answering the seed's stdio line."""

from __future__ import annotations

import email
import re
import subprocess
import urllib.request
import zipfile
from collections.abc import Iterator

import pytest

from release import sizes
from tests.e2e.conftest import check_healthy
from tests.e2e.processes import Output, end, spawn
from tests.release.conftest import ROOT, SEED_LINE, Dist, answers_the_seed_line

pytestmark = pytest.mark.e2e


def wheel_metadata(dist: Dist) -> email.message.Message:
    """The wheel's METADATA: what PyPI shows (the README is its description)."""
    with zipfile.ZipFile(dist.wheel) as wheel:
        name = next(entry for entry in wheel.namelist() if entry.endswith(".dist-info/METADATA"))
        return email.message_from_bytes(wheel.read(name))


def test_twine_checks_the_metadata_and_that_the_readme_renders(dist: Dist) -> None:
    done = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "twine"), "check", "--strict", str(dist.wheel), str(dist.sdist)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"{dist.wheel.name}: twine check: {' '.join(done.stdout.split())}"


def test_the_wheel_carries_the_version_the_licence_and_the_registry_ownership_line(dist: Dist) -> None:
    metadata = wheel_metadata(dist)
    assert metadata["Version"] == dist.me.version, f"{dist.wheel.name}: version: {metadata['Version']}"
    assert len(metadata["Summary"]) <= 100, f"{dist.wheel.name}: summary: longer than the registry's 100 characters"
    description = metadata.get_payload()
    assert isinstance(description, str)
    ownership = f"<!-- mcp-name: {dist.me.registry_name} -->"
    assert ownership in description, f"{dist.wheel.name}: mcp-name: the README has no {ownership}"
    assert metadata["Description-Content-Type"] == "text/markdown"
    relative = [
        link for link in re.findall(r"\]\(([^)\s]+)\)", description) if not re.match(r"[a-z][a-z0-9+.-]*:", link)
    ]
    assert relative == [], f"{dist.wheel.name}: description: relative links lead nowhere on PyPI: {relative}"
    assert any(name.endswith("licenses/LICENSE") for name in zipfile.ZipFile(dist.wheel).namelist())
    assert dist.sdist.stat().st_size > 0


def test_uvx_finds_the_wheel_and_answers_the_seeds_stdio_line(dist: Dist) -> None:
    # What `uvx horologe` will do once the package is on PyPI, with dist/ standing in for the index.
    done = subprocess.run(
        dist.uvx(f"horologe=={dist.me.version}"),
        input=SEED_LINE,
        capture_output=True,
        cwd=dist.outside,
        env=dist.env(),
        timeout=300,
    )
    assert done.returncode == 0 and answers_the_seed_line(done.stdout), (
        f"{dist.wheel.name}: uvx smoke run: {done.stderr.decode().strip().splitlines()[-1:]}"
    )


def test_http_without_the_extra_names_it_in_one_line(dist: Dist) -> None:
    done = subprocess.run(
        dist.uvx(f"horologe=={dist.me.version}", "serve", "--transport", "http"),
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
    command = dist.uvx(f"horologe[http]=={dist.me.version}", "serve", "--transport", "http", "--port", "0")
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


def test_the_wheel_with_the_http_extra_serves_the_curl_example(http_from_the_wheel: int) -> None:
    request = urllib.request.Request(
        f"http://127.0.0.1:{http_from_the_wheel}/mcp/tools/call",
        data=b'{"name":"get_current_time","arguments":{}}',
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert b"structuredContent" in response.read()


def test_the_pex_answers_the_seeds_stdio_line_from_a_fresh_cache(dist: Dist) -> None:
    env = dist.env(PEX_ROOT=str(dist.outside / "pex"))  # a first run: it unpacks into an empty cache
    done = subprocess.run([str(dist.pex)], input=SEED_LINE, capture_output=True, cwd=dist.outside, env=env, timeout=300)
    assert done.returncode == 0 and answers_the_seed_line(done.stdout), (
        f"dist/horologe (PEX): smoke run: {done.stderr.decode().strip().splitlines()[-1:]}"
    )


def test_the_documented_sizes_are_the_artefacts_within_a_tenth(dist: Dist) -> None:
    documented = sizes.documented((ROOT / "docs" / "deployment.md").read_text(encoding="utf-8"))
    measured = sizes.measure(dist.me, dist.wheel.parent)
    assert documented.keys() == measured.keys(), "docs/deployment.md: sizes: run `.venv/bin/python -m release sizes`"
    for artefact, size in measured.items():
        assert abs(size / sizes.MB - documented[artefact]) <= 0.1 * documented[artefact], (
            f"docs/deployment.md: sizes: {artefact} is {size / sizes.MB:.1f} MB, documented {documented[artefact]} MB:"
            " run `.venv/bin/python -m release sizes`"
        )
