"""The image: what the Dockerfile says (read, not run: there is no container engine here) and its build context.

`context` writes `dist/image/`: the Dockerfile, its VERSION and REVISION filled in, and exactly the files its COPY
lines take, so a release builds the image from what `make release-check` checked:
`docker build -t ghcr.io/<owner>/horologe:<version> dist/image`.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from release.identity import ROOT, Identity

DOCKERFILE: Final = ROOT / "Dockerfile"
_VARIABLE: Final = re.compile(r"\$\{(\w+)\}|\$(\w+)")


@dataclass
class Dockerfile:
    """The instructions of a Dockerfile that say what the final image is and what the build reads."""

    args: dict[str, str] = field(default_factory=dict)
    bases: list[str] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    entrypoint: list[str] = field(default_factory=list)
    cmd: list[str] = field(default_factory=list)
    copied: list[str] = field(default_factory=list)
    user: str = ""

    def command(self, arguments: list[str]) -> list[str]:
        """What the container runs for `docker run IMAGE ARGUMENTS`: the entrypoint, then the arguments or CMD."""
        return [*self.entrypoint, *(arguments or self.cmd)]


def read(text: str) -> Dockerfile:
    """The final stage's labels, environment, entrypoint and command, every base, and the files COPY takes."""
    parsed = Dockerfile()
    for instruction, rest in _instructions(text):
        if instruction == "ARG":
            name, _, default = rest.partition("=")
            parsed.args.setdefault(name.strip(), default.strip())
        elif instruction == "FROM":
            parsed.bases.append(expand(rest.split()[0], parsed.args))
            parsed.labels, parsed.env, parsed.entrypoint, parsed.cmd = {}, {}, [], []
        elif instruction == "LABEL":
            parsed.labels.update(_pairs(rest, parsed.args))
        elif instruction == "ENV":
            parsed.env.update(_pairs(rest, {**parsed.args, **parsed.env}))
        elif instruction == "ENTRYPOINT":
            parsed.entrypoint = json.loads(rest)
        elif instruction == "CMD":
            parsed.cmd = json.loads(rest)
        elif instruction == "USER":
            parsed.user = rest.strip()
        elif instruction == "COPY" and not rest.startswith("--from"):
            parsed.copied += shlex.split(rest)[:-1]
    return parsed


def expand(value: str, variables: dict[str, str]) -> str:
    """`value` with `$NAME` and `${NAME}` replaced from `variables` (unknown names stay as written)."""
    return _VARIABLE.sub(lambda found: variables.get(found.group(1) or found.group(2), found.group(0)), value)


def context(me: Identity, revision: str, out: Path) -> Path:
    """Write the image's build context into `out/image/` and return it."""
    target = out / "image"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    text = DOCKERFILE.read_text(encoding="utf-8")
    text = re.sub(r"^ARG VERSION=.*$", f"ARG VERSION={me.version}", text, flags=re.MULTILINE)
    text = re.sub(r"^ARG REVISION=.*$", f"ARG REVISION={revision}", text, flags=re.MULTILINE)
    (target / "Dockerfile").write_text(text, encoding="utf-8")
    for name in read(text).copied:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copyfile(source, target / name)
    return target


def revision() -> str:
    """The commit the work tree is at (`-dirty` when it has changes), or "unknown" outside a git checkout."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True)
        changed = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head.stdout.strip() + ("-dirty" if changed.stdout.strip() else "")


def _instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, the rest) for each instruction, continuation lines joined and comments dropped."""
    joined = re.sub(r"\\\n", " ", "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")))
    found = []
    for line in joined.splitlines():
        if line.strip():
            instruction, _, rest = line.strip().partition(" ")
            found.append((instruction.upper(), rest.strip()))
    return found


def _pairs(rest: str, variables: dict[str, str]) -> dict[str, str]:
    """`KEY=value KEY2="value two"` (as LABEL and ENV write them), values expanded."""
    pairs = {}
    for word in shlex.split(rest):
        key, _, value = word.partition("=")
        pairs[key] = expand(value, variables)
    return pairs
