"""server.json for the official MCP Registry: valid against the registry's own schema, one identity, one version, the
settings horologe reads, and the ownership proofs the registry looks for."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Final

import pytest
from jsonschema import Draft7Validator

from horologe.config import FLAT_ENV
from release.identity import identity
from release.registry import SCHEMA_URL, server_json
from release.settings import USER_SETTINGS
from tests.release.conftest import ROOT, Dist

SCHEMA: Final = json.loads((ROOT / "release" / "registry" / "server.schema.json").read_text(encoding="utf-8"))


def problems(entry: dict[str, Any]) -> list[str]:
    """Every way `entry` breaks the registry's schema, one line each: where, and what."""
    validator = Draft7Validator(SCHEMA, format_checker=Draft7Validator.FORMAT_CHECKER)
    found = sorted(validator.iter_errors(entry), key=lambda error: list(error.absolute_path))
    return [f"{'/'.join(map(str, error.absolute_path)) or '(root)'}: {error.message}" for error in found]


def test_the_vendored_schema_is_the_version_server_json_names() -> None:
    assert SCHEMA["$id"] == SCHEMA_URL
    assert (ROOT / "release" / "registry" / "LICENSE").read_text().startswith("MIT License")


@pytest.mark.e2e
def test_dist_server_json_is_valid_against_the_registrys_schema(dist: Dist) -> None:
    entry = json.loads(dist.server_json.read_text(encoding="utf-8"))
    assert problems(entry) == [], f"dist/server.json: registry schema: {'; '.join(problems(entry))}"
    assert entry == server_json(dist.me, entry["packages"][2]["fileSha256"])  # made by release/registry.py


def test_one_identity_and_one_version_throughout() -> None:
    me = identity()
    entry = server_json(me, "0" * 64)
    assert entry["name"] == f"io.github.{me.owner}/horologe" and len(entry["description"]) <= 100
    pypi, oci, mcpb = entry["packages"]
    assert (pypi["registryType"], pypi["identifier"], pypi["version"]) == ("pypi", "horologe", me.version)
    assert (pypi["runtimeHint"], pypi["transport"]) == ("uvx", {"type": "stdio"})
    assert (oci["registryType"], oci["identifier"]) == ("oci", f"ghcr.io/{me.owner.lower()}/horologe:{me.version}")
    assert mcpb["identifier"].endswith(f"/releases/download/v{me.version}/horologe-{me.version}.mcpb")
    assert mcpb["identifier"].startswith(me.repository) and "mcp" in mcpb["identifier"]  # the registry requires it


def test_the_environment_variables_are_ones_horologe_reads() -> None:
    entry = server_json(identity(), "0" * 64)
    for package in entry["packages"][:2]:
        names = [variable["name"] for variable in package["environmentVariables"]]
        assert names == [setting.env for setting in USER_SETTINGS] and set(names) <= set(FLAT_ENV)


def test_the_readme_proves_ownership_of_the_pypi_package() -> None:
    # The registry looks for "mcp-name: <name>" followed by a boundary (a newline, whitespace, a tag, "-->").
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    name = re.escape(identity().registry_name)
    assert re.search(rf"mcp-name: {name}(\s|<|-->)", readme), "README.md: mcp-name: no ownership line"


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (lambda entry: entry | {"description": "x" * 101}, "description: 'xxxxxxxx"),
        (lambda entry: entry | {"name": "horologe"}, "name: 'horologe' does not match"),
        (lambda entry: {key: value for key, value in entry.items() if key != "version"}, "'version' is a required"),
        (lambda entry: entry | {"packages": [entry["packages"][0] | {"version": "latest"}]}, "packages/0/version"),
    ],
)
def test_what_the_registry_would_refuse_is_named_in_one_line(change: Any, complaint: str, tmp_path: Path) -> None:
    found = problems(change(server_json(identity(), "0" * 64)))
    assert len(found) == 1 and complaint in found[0] and "\n" not in found[0], found
