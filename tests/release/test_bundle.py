"""The MCP Bundle as Claude Desktop gets it: a valid manifest (`mcpb validate`), the registry's tools, a PNG icon,
settings that reach the server, and a first start from a fresh environment that answers the seed's stdio line."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest

from horologe.tools.registry import TOOLS
from release.bundle import ZIP_TIME, sha256
from release.settings import BUNDLE_SETTINGS
from tests.e2e.conftest import users_shell
from tests.interop.conftest import NODE_BIN, NODE_MODULES
from tests.release.conftest import ROOT, SEED_LINE, UV, Dist, answers_the_seed_line

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def unpacked(dist: Dist, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundle unzipped where a client would install it."""
    target = tmp_path_factory.mktemp("installed") / "horologe"
    with zipfile.ZipFile(dist.bundle) as bundle:
        bundle.extractall(target)
    return target


def manifest(unpacked: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((unpacked / "manifest.json").read_text(encoding="utf-8"))
    return loaded


def launch(unpacked: Path, **settings: str) -> tuple[list[str], dict[str, str]]:
    """The command and environment a client runs: mcp_config with `${__dirname}` and the user's settings filled in."""
    declared = manifest(unpacked)
    values = {key: settings.get(key, option["default"]) for key, option in declared["user_config"].items()}

    def fill(text: str) -> str:
        text = text.replace("${__dirname}", str(unpacked))
        for key, value in values.items():
            text = text.replace(f"${{user_config.{key}}}", value)
        return text

    config = declared["server"]["mcp_config"]
    assert config["command"] == "uv"
    command = [str(UV), *(fill(argument) for argument in config["args"])]
    environment = {name: fill(value) for name, value in config.get("env", {}).items()}
    return command, {**users_shell(), "UV_PYTHON_DOWNLOADS": "never", **environment}


def test_mcpb_validates_the_manifest_as_shipped(dist: Dist, unpacked: Path) -> None:
    mcpb = NODE_MODULES / ".bin" / "mcpb"
    assert mcpb.exists(), f"{dist.bundle.name}: mcpb validate: the mcpb CLI is missing (run tests/interop/install.sh)"
    env = {**os.environ, "PATH": f"{NODE_BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run([str(mcpb), "validate", str(unpacked)], capture_output=True, text=True, env=env, timeout=300)
    said = " ".join((done.stdout + done.stderr).split())
    assert done.returncode == 0 and "passes" in said, f"{dist.bundle.name}: mcpb validate: {said}"


def test_the_manifest_lists_the_registrys_tools_and_asks_for_the_zone_and_the_toolsets(unpacked: Path) -> None:
    declared = manifest(unpacked)
    assert [tool["name"] for tool in declared["tools"]] == [spec.name for spec in TOOLS]
    assert all(tool["description"] and "{" not in tool["description"] for tool in declared["tools"])
    assert set(declared["user_config"]) == {setting.key for setting in BUNDLE_SETTINGS}
    assert declared["server"]["mcp_config"]["env"] == {
        setting.env: f"${{user_config.{setting.key}}}" for setting in BUNDLE_SETTINGS
    }
    assert declared["server"]["type"] == "uv" and (unpacked / declared["server"]["entry_point"]).is_file()


def test_the_icon_is_a_512_pixel_png(unpacked: Path) -> None:
    icon = (unpacked / manifest(unpacked)["icon"]).read_bytes()
    assert icon.startswith(b"\x89PNG\r\n\x1a\n") and struct.unpack(">II", icon[16:24]) == (512, 512)


def test_the_bundle_is_reproducible_and_small(dist: Dist) -> None:
    with zipfile.ZipFile(dist.bundle) as bundle:
        entries = bundle.infolist()
    assert [entry.filename for entry in entries] == sorted(entry.filename for entry in entries)
    assert {entry.date_time for entry in entries} == {ZIP_TIME}
    # The places table (a compiled SQLite file: regions and names in twelve languages) is most of it; a bundle past
    # 5 MB means something else was packed by mistake.
    assert dist.bundle.stat().st_size < 5_000_000, f"{dist.bundle.name}: size: {dist.bundle.stat().st_size} bytes"
    assert json.loads(dist.server_json.read_text())["packages"][2]["fileSha256"] == sha256(dist.bundle)


def test_a_first_start_installs_from_a_fresh_environment_and_answers_the_seeds_stdio_line(unpacked: Path) -> None:
    command, env = launch(unpacked)
    done = subprocess.run(command, input=SEED_LINE, capture_output=True, env=env, cwd=unpacked.parent, timeout=600)
    assert done.returncode == 0 and answers_the_seed_line(done.stdout), (
        f"{unpacked.name}.mcpb: smoke run: {done.stderr.decode().strip().splitlines()[-1:]}"
    )
    assert (unpacked / ".venv").is_dir()  # where the client's uv installed the locked dependencies


def test_a_zone_horologe_does_not_understand_is_refused_at_start_as_the_command_line_refuses_it(
    unpacked: Path,
) -> None:
    command, env = launch(unpacked, default_timezone="Mars/Base")
    done = subprocess.run(command, input=SEED_LINE, capture_output=True, env=env, cwd=unpacked.parent, timeout=600)
    cli = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "horologe"), "serve", "--default-timezone", "Mars/Base"],
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert cli.returncode == done.returncode == 2 and done.stdout == b""
    assert cli.stderr.decode().startswith("horologe: invalid configuration:")
    assert done.stderr.decode().endswith(cli.stderr.decode())


def test_settings_left_empty_are_horologes_defaults(unpacked: Path) -> None:
    command, env = launch(unpacked, default_timezone="", toolsets="")
    tools = subprocess.run(
        [*command, "tools"], capture_output=True, env=env, cwd=unpacked.parent, timeout=600, stdin=subprocess.DEVNULL
    )
    # The default surface: the specification's six tools among them, memory and schedule opt-in.
    assert tools.returncode == 0 and b"list_timezones(" in tools.stdout
    assert b"preferences(" not in tools.stdout and b"next_occurrences(" not in tools.stdout
