"""One identity and one version: every file that names the repository, the image or the registry entry names the
owner written in pyproject.toml, and every image tag that is a version is the package's."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from horologe import __version__
from release.identity import FOREIGN, PLACEHOLDER, Identity, identity, mismatches, unpublishable
from tests.release.conftest import ROOT, Dist

VENDORED = ("release/registry/",)  # the registry's own files name their own examples


def repository_files() -> list[Path]:
    """The files a clone has (tracked and new ones), text only, without what is vendored."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return [
        ROOT / name for name in listed.split("\0") if name and not name.startswith(VENDORED) and (ROOT / name).is_file()
    ]


@pytest.mark.e2e  # asks git which files a clone has
def test_every_file_names_the_one_identity() -> None:
    me = identity()
    found: list[str] = []
    named = 0
    for path in repository_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        named += "horologe" in text and any(host in text for host in ("github.com/", "ghcr.io/", "io.github."))
        found += mismatches(me, str(path.relative_to(ROOT)), text)
    assert found == [], "\n".join(found)
    assert named >= 5  # pyproject.toml, README.md, Dockerfile, compose.yaml, deploy/k8s at least


@pytest.mark.e2e
def test_the_generated_files_name_it_too(dist: Dist) -> None:
    for path in (dist.server_json, dist.image / "Dockerfile", dist.bundle.parent / "bundle" / "manifest.json"):
        found = list(mismatches(dist.me, str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
        assert found == [], found[0] if found else ""


def test_another_owner_or_version_is_named_with_its_file_and_line() -> None:
    me = Identity(owner="someone", package="horologe", version="1.2.3", description="")
    mine, theirs = "someone", "other"  # written apart, so this file itself names no owner but the real one
    good, bad, old, older = "1.2.3", "1.2.0", "1.0.0", "0.9.0"  # and no release but the real one
    text = "\n".join(
        [
            f"see https://github.com/{mine}/horologe",
            f"image: ghcr.io/{theirs}/horologe:1.2.3",
            f"name: io.github.{theirs}/horologe",
            f"image: ghcr.io/{mine}/horologe:1.2.2",
            f"image: ghcr.io/{mine}/horologe:latest",
            f"download horologe-{good}.mcpb or horologe-{bad}.mcpb from releases/download/v{good}/",
            f"uv publish dist/horologe-{old}-py3-none-any.whl dist/horologe-{good}.tar.gz; gh release create v{older}",
        ]
    )
    assert list(mismatches(me, "compose.yaml", text)) == [
        "compose.yaml:2: names the image of 'other', not 'someone'",
        "compose.yaml:3: names the registry name of 'other', not 'someone'",
        "compose.yaml:4: tags the image '1.2.2', not the version '1.2.3'",
        "compose.yaml:6: names the release '1.2.0', not the version '1.2.3'",
        "compose.yaml:7: names the release '1.0.0', not the version '1.2.3'",
        "compose.yaml:7: names the release '0.9.0', not the version '1.2.3'",
    ]


def test_the_version_lives_in_one_place() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["hatch"]["version"]["path"] == "src/horologe/__init__.py"
    assert identity().version == __version__
    assert len(identity().description) <= 100  # the registry's limit; the manifest and server.json use this one


def test_a_release_is_refused_under_a_placeholder_or_foreign_owner_or_an_unreleased_readme() -> None:
    chosen = Identity(owner="someone", package="horologe", version="1.2.3", description="", released=True)
    assert unpublishable(chosen) == []
    placeholder = unpublishable(replace(chosen, owner=PLACEHOLDER))
    assert placeholder == [
        "pyproject.toml: [tool.horologe.release] owner: still the placeholder 'choose.an.owner': set the GitHub"
        " account that will host horologe (docs/releasing.md)"
    ]
    assert [reason.split(":")[1] for reason in unpublishable(replace(chosen, owner="Horologe"))] == [
        " [tool.horologe.release] owner"
    ]
    assert "released: false" in unpublishable(replace(chosen, released=False))[0]


def test_the_owner_is_the_placeholder_or_the_projects_own() -> None:
    assert "." not in identity().owner or identity().owner == PLACEHOLDER  # no GitHub account has a dot
    assert identity().owner.lower() not in FOREIGN


@pytest.mark.e2e  # runs `python -m release publishable` as `make release-check` does
def test_release_check_ends_by_refusing_what_may_not_be_published() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "release", "publishable"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == (1 if unpublishable(identity()) else 0)
    assert done.stderr.splitlines() == unpublishable(identity())
