"""The image, without a container engine: what the Dockerfile declares, the README's `docker run` lines held against
its entrypoint and environment (each line's container command run, or its settings loaded, as the image would), and
the build context a release builds from, installed as the Dockerfile installs it and run."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import pytest

from horologe.cli import build_parser, flag_overrides
from horologe.config import load_settings
from horologe.http.hosts import AccessPolicy
from release.identity import identity
from release.image import DOCKERFILE, Dockerfile, expand, read
from tests.release.conftest import ROOT, SEED_LINE, UV, Dist, answers_the_seed_line

IMAGE: Final = read(DOCKERFILE.read_text(encoding="utf-8"))
DIGEST: Final = re.compile(r"^[\w./-]+(:[\w.-]+)?@sha256:[0-9a-f]{64}$")
# Where the Dockerfile installs horologe; a test stands this repository's (or a fresh) environment in for it.
INSTALLED_BIN: Final = "/opt/horologe/bin"


@dataclass
class DockerRun:
    """One `docker run` line of the README: its options, the image, and the arguments for the container."""

    env: dict[str, str] = field(default_factory=dict)
    published: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    image: str = ""
    arguments: list[str] = field(default_factory=list)

    def container_env(self, image: Dockerfile, bin_dir: Path) -> dict[str, str]:
        """The environment the container's process gets: the image's, then `-e`, with the install dir in place."""
        environment = {**image.env, **self.env}
        path = expand(environment["PATH"], {"PATH": os.environ["PATH"]})
        environment["PATH"] = path.replace(INSTALLED_BIN, str(bin_dir))
        return environment


def docker_run(words: list[str]) -> DockerRun:
    """Parse `docker run [OPTIONS] IMAGE [ARGUMENTS]` for the options the README uses (others fail the test)."""
    assert words[:2] == ["docker", "run"], words
    run, rest = DockerRun(), words[2:]
    while rest[0].startswith("-"):
        option = rest.pop(0)
        if option in ("-e", "--env"):
            name, _, value = rest.pop(0).partition("=")
            run.env[name] = value
        elif option in ("-p", "--publish"):
            run.published.append(rest.pop(0))
        elif option in ("-i", "--rm", "--interactive"):
            run.flags.add(option)
        else:
            raise AssertionError(f"README.md: docker run: option {option} is not understood by this test")
    run.image, run.arguments = rest[0], rest[1:]
    return run


def readme_docker_runs() -> list[DockerRun]:
    """Every `docker run` the README shows: shell lines, and the client configurations that run docker."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    runs = [docker_run(shlex.split(line)) for line in re.findall(r"^docker run .*$", readme, flags=re.MULTILINE)]
    for block in re.findall(r"```json\n(.*?)```", readme, flags=re.DOTALL):
        for server in _servers(json.loads(block)):
            arguments = server.get("args")
            if server.get("command") == "docker" and isinstance(arguments, list):
                runs.append(docker_run(["docker", *map(str, arguments)]))
    return runs


def _servers(config: dict[str, object]) -> list[dict[str, object]]:
    found: list[dict[str, object]] = []
    for key in ("mcpServers", "servers"):
        servers = config.get(key)
        if isinstance(servers, dict):
            found += [server for server in servers.values() if isinstance(server, dict)]
    return found


def test_the_base_is_pinned_by_digest_and_the_image_runs_as_a_user_with_horologe_as_entrypoint() -> None:
    assert IMAGE.bases and all(DIGEST.match(base) for base in IMAGE.bases), f"Dockerfile: base digest: {IMAGE.bases}"
    assert IMAGE.user and IMAGE.user != "root" and IMAGE.user != "0"
    assert IMAGE.entrypoint == ["horologe"] and IMAGE.cmd == []  # `docker run -i IMAGE` serves stdio
    assert (IMAGE.env["HOST"], IMAGE.env["PORT"]) == ("0.0.0.0", "8080")


def test_the_labels_say_what_the_image_is_and_whose() -> None:
    me = identity()
    labels = IMAGE.labels
    assert labels["org.opencontainers.image.description"] == me.description
    assert labels["org.opencontainers.image.source"] == me.repository
    assert labels["org.opencontainers.image.licenses"] == "MIT" and labels["org.opencontainers.image.title"]
    assert labels["io.modelcontextprotocol.server.name"] == me.registry_name  # the registry's proof for OCI
    assert "org.opencontainers.image.version" in labels and "org.opencontainers.image.revision" in labels


def test_the_readme_shows_a_stdio_and_an_http_docker_line_for_the_image() -> None:
    runs = readme_docker_runs()
    assert {run.image.split(":")[0] for run in runs} == {identity().image}
    assert any(not run.arguments and "-i" in run.flags for run in runs), "no stdio line: docker run -i --rm IMAGE"
    assert any("http" in run.arguments for run in runs), "no HTTP line"


@pytest.mark.e2e
@pytest.mark.parametrize("run", [run for run in readme_docker_runs() if not run.arguments], ids=lambda run: run.image)
def test_each_stdio_line_answers_the_seeds_line_as_the_container_would(run: DockerRun) -> None:
    command = IMAGE.command(run.arguments)
    env = run.container_env(IMAGE, Path(sys.executable).parent)
    done = subprocess.run(command, input=SEED_LINE, capture_output=True, env=env, timeout=120)
    assert done.returncode == 0 and answers_the_seed_line(done.stdout), done.stderr.decode()
    assert "-i" in run.flags  # without it docker closes stdin and the server ends at once


@pytest.mark.parametrize("run", [run for run in readme_docker_runs() if run.arguments], ids=lambda run: run.image)
def test_each_http_line_serves_on_the_published_port_for_the_hosts_it_allows(
    run: DockerRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    command = IMAGE.command(run.arguments)
    assert command[0] == "horologe"
    for name, value in run.container_env(IMAGE, Path(sys.executable).parent).items():
        monkeypatch.setenv(name, value)
    settings = load_settings(None, flag_overrides(build_parser().parse_args(command[1:])))
    assert settings.server.transport == "http"
    published = [mapping.rpartition(":")[2] for mapping in run.published]
    assert published == [str(settings.server.port)], "the -p mapping must reach the port the server binds"
    policy = AccessPolicy.for_bind(settings.server.host, settings.http.allowed_hosts, settings.http.allowed_origins)
    host_port = run.published[0].split(":")[-2]
    assert policy.host_allowed(f"localhost:{host_port}") and policy.host_allowed(f"127.0.0.1:{host_port}")


@pytest.mark.e2e
def test_the_image_context_holds_what_the_dockerfile_copies_and_runs_as_it_installs_it(
    dist: Dist, tmp_path: Path
) -> None:
    context = read((dist.image / "Dockerfile").read_text(encoding="utf-8"))
    assert context.labels["org.opencontainers.image.version"] == dist.me.version, "dist/image: version label"
    assert re.fullmatch(r"[0-9a-f]{40}(-dirty)?", context.labels["org.opencontainers.image.revision"])
    missing = [name for name in context.copied if not (dist.image / name).exists()]
    assert missing == [], f"dist/image: COPY sources: {missing} missing"
    # The Dockerfile's install, with uv: the locked dependencies exported from the context, then the context itself.
    venv = tmp_path / "opt" / "horologe"
    uv_env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never"}
    uv_env.pop("VIRTUAL_ENV", None)
    requirements = tmp_path / "requirements.txt"
    steps = [
        [str(UV), "venv", "--quiet", "--python", sys.executable, str(venv)],
        [
            *(str(UV), "export", "--quiet", "--frozen", "--no-dev", "--extra", "fast", "--extra", "http"),
            *("--no-emit-project", "--directory", str(dist.image), "-o", str(requirements)),
        ],
        [str(UV), "pip", "install", "--quiet", "--python", str(venv / "bin" / "python"), "-r", str(requirements)],
        [str(UV), "pip", "install", "--quiet", "--python", str(venv / "bin" / "python"), "--no-deps", str(dist.image)],
    ]
    for step in steps:
        installed = subprocess.run(step, capture_output=True, text=True, env=uv_env, timeout=600)
        assert installed.returncode == 0, f"dist/image: install: {' '.join(installed.stderr.split())[-300:]}"
    env = DockerRun().container_env(context, venv / "bin")
    done = subprocess.run(context.command([]), input=SEED_LINE, capture_output=True, env=env, timeout=120)
    assert done.returncode == 0 and answers_the_seed_line(done.stdout), f"dist/image: smoke run: {done.stderr!r}"
