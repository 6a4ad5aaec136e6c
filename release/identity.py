"""Who publishes horologe, and the names that follow from it: written once, in `pyproject.toml`.

`[tool.horologe.release] owner` is the GitHub account that hosts the repository. The repository URL, the image
(`ghcr.io/<owner>/horologe`, lower case as registries require) and the MCP Registry name (`io.github.<owner>/horologe`,
which the registry grants to whoever signs in as that GitHub account) are derived from it; the version is horologe's
`__version__`, the description the package's. `released` says whether the README speaks of the package on PyPI.

Until an owner is chosen `owner` is `PLACEHOLDER`, which no GitHub account can be; `unpublishable` says why a
release must not go out under these names (`make release-check` ends with it).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from horologe import __version__

ROOT: Final = Path(__file__).resolve().parents[1]
PLACEHOLDER: Final = "choose.an.owner"
"""The owner until one is chosen: GitHub account names have no dots, so no one can hold the names it makes."""
FOREIGN: Final = frozenset({"horologe"})
"""GitHub accounts known to belong to others: `horologe` holds someone's unrelated repositories."""
# Where a file names the repository, the image or the registry entry: (what, a pattern with the owner as group 1).
NAMED: Final = (
    ("repository", re.compile(r"github\.com/([\w.-]+)/horologe\b")),
    ("repository", re.compile(r"raw\.githubusercontent\.com/([\w.-]+)/horologe\b")),
    ("image", re.compile(r"ghcr\.io/([\w.-]+)/horologe\b")),
    ("registry name", re.compile(r"io\.github\.([\w.-]+)/horologe\b")),
)
IMAGE_TAG: Final = re.compile(r"ghcr\.io/[\w.-]+/horologe:([\w.-]+)")
# A release's file names and its tag carry the version: the bundle, the wheel, the sdist, the GitHub release.
RELEASE_FILE: Final = re.compile(
    r"\bhorologe-(\d+\.\d+\.\d+[\w.]*?)(?:\.mcpb|\.tar\.gz|-py3)"
    r"|(?:releases/download/|release create )v(\d+\.\d+\.\d+)\b"
)


@dataclass(frozen=True)
class Identity:
    """The names a release publishes under."""

    owner: str
    package: str
    version: str
    description: str
    released: bool = False

    @property
    def repository(self) -> str:
        """The repository's web address."""
        return f"https://github.com/{self.owner}/{self.package}"

    @property
    def image(self) -> str:
        """The container image, without a tag."""
        return f"ghcr.io/{self.owner.lower()}/{self.package}"

    @property
    def registry_name(self) -> str:
        """The server's name in the MCP Registry."""
        return f"io.github.{self.owner}/{self.package}"

    @property
    def bundle_name(self) -> str:
        """The MCP Bundle's file name."""
        return f"{self.package}-{self.version}.mcpb"

    def expected_owner(self, named: str) -> str:
        """The owner a file must write where it names `named` (images are lower case)."""
        return self.owner.lower() if named == "image" else self.owner


def identity(root: Path = ROOT) -> Identity:
    """The identity written in `root`'s pyproject.toml."""
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    return Identity(
        owner=project["tool"]["horologe"]["release"]["owner"],
        package=project["project"]["name"],
        version=__version__,
        description=project["project"]["description"],
        released=project["tool"]["horologe"]["release"]["released"],
    )


def unpublishable(me: Identity) -> list[str]:
    """Why a release must not be published under `me`'s names (empty when it may)."""
    setting = "pyproject.toml: [tool.horologe.release]"
    found = []
    if me.owner == PLACEHOLDER:
        found.append(
            f"{setting} owner: still the placeholder {PLACEHOLDER!r}: set the GitHub account that will host horologe"
            " (docs/releasing.md)"
        )
    elif me.owner.lower() in FOREIGN:
        found.append(f"{setting} owner: {me.owner!r} is someone else's GitHub account: choose the project's own")
    if not me.released:
        found.append(
            f"{setting} released: false, so the README tells PyPI's readers that horologe is not on PyPI: set it to"
            " true and run `.venv/bin/python -m release docs`"
        )
    return found


def mismatches(me: Identity, name: str, text: str) -> Iterator[str]:
    """Each place in `text` (the file `name`) that names another owner, or tags the image with another version."""
    for number, line in enumerate(text.splitlines(), start=1):
        for named, pattern in NAMED:
            for found in pattern.finditer(line):
                if found.group(1) != me.expected_owner(named):
                    yield f"{name}:{number}: names the {named} of {found.group(1)!r}, not {me.expected_owner(named)!r}"
        for tag in IMAGE_TAG.finditer(line):
            if re.fullmatch(r"\d+(\.\d+)*\S*", tag.group(1)) and tag.group(1) != me.version:
                yield f"{name}:{number}: tags the image {tag.group(1)!r}, not the version {me.version!r}"
        for release in RELEASE_FILE.finditer(line):
            version = release.group(1) or release.group(2)
            if version != me.version:
                yield f"{name}:{number}: names the release {version!r}, not the version {me.version!r}"
