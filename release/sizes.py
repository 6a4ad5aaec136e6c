"""What a release weighs: the size of each artefact in dist/, measured by `python -m release sizes` and written into
docs/deployment.md (tests/release checks the figures there against the artefacts it builds)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

from release.identity import Identity

MB: Final = 1_000_000
ROW: Final = re.compile(r"^\| (?P<artefact>[^|]+?) \| `(?P<file>[^`]+)` \| (?P<size>[\d.]+) MB \|$", re.MULTILINE)


def artefacts(me: Identity) -> dict[str, str]:
    """Each artefact a release ships as a file, and its file name in dist/."""
    return {
        "wheel": f"{me.package}-{me.version}-py3-none-any.whl",
        "sdist": f"{me.package}-{me.version}.tar.gz",
        "single-file executable (PEX)": me.package,
        "MCP Bundle": me.bundle_name,
    }


def measure(me: Identity, dist: Path) -> dict[str, int]:
    """The size in bytes of each artefact in `dist`."""
    return {artefact: (dist / name).stat().st_size for artefact, name in artefacts(me).items()}


def table(me: Identity, measured: dict[str, int]) -> str:
    """The sizes as a Markdown table, in MB (10^6 bytes) with one decimal."""
    rows = ["| artefact | file | size |", "|---|---|---|"]
    names = artefacts(me)
    rows += [f"| {artefact} | `{names[artefact]}` | {size / MB:.1f} MB |" for artefact, size in measured.items()]
    return "\n".join(rows)


def documented(text: str) -> dict[str, float]:
    """The sizes a table written by `table` states, in MB."""
    return {row["artefact"]: float(row["size"]) for row in ROW.finditer(text)}
