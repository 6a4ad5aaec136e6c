"""The parts of README.md and docs/ written from the tool registry and the release settings, never by hand: the tool
lists, the install links, and the README's install lines (a clone's until `released`, then PyPI's).

Each generated part sits between `<!-- begin NAME: python -m release docs -->` and `<!-- end NAME -->`;
`python -m release docs` rewrites them, and `tests/release/test_docs.py` fails while one is out of date.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final
from urllib.parse import quote

from horologe.tools.registry import DEFAULT_TOOLSETS, TOOLS, TOOLSET_OF, TOOLSETS, tool_schemas
from horologe.tools.spec import ToolSpec
from release.identity import ROOT, identity


def first_sentence(spec: ToolSpec) -> str:
    """What the tool does: the first sentence of its description, without the aside naming the server's default zone
    (a listing fills it in; here it is not known)."""
    description = re.sub(r"\s*\([^()]*\{default_zone\}[^()]*\)", "", spec.description)
    return description.split(". ")[0].rstrip(".") + "."


def signature(spec: ToolSpec) -> str:
    """`name(required, optional?)`, from the tool's input schema."""
    schema = tool_schemas(spec)[0]
    required = set(schema.get("required", []))
    names = [name if name in required else f"{name}?" for name in schema["properties"]]
    return f"{spec.name}({', '.join(names)})"


def readme_tools() -> str:
    """One line per tool, for the README: name, what it does, and whether it is offered by default."""
    rows = ["| tool | what it does |", "|---|---|"]
    for spec in TOOLS:
        toolset = TOOLSET_OF[spec.name]
        note = "" if toolset in DEFAULT_TOOLSETS["stdio"] else f" *(toolset `{toolset}`, not offered by default)*"
        rows.append(f"| `{spec.name}` | {first_sentence(spec)}{note} |")
    return "\n".join(rows)


def toolsets_table() -> str:
    """The toolsets, their tools, and where each is offered by default."""
    rows = ["| toolset | tools | offered by default |", "|---|---|---|"]
    for name, specs in TOOLSETS.items():
        default = [transport for transport, names in DEFAULT_TOOLSETS.items() if name in names]
        where = "always" if name == "core" else (", ".join(default) if default else "no")
        rows.append(f"| `{name}` | {', '.join(f'`{spec.name}`' for spec in specs)} | {where} |")
    return "\n".join(rows)


def tools_reference() -> str:
    """Every tool with its arguments (`?`: optional) and its whole description, as a model reads it."""
    rows = ["| tool | what it does |", "|---|---|"]
    for spec in TOOLS:
        rows.append(f"| `{signature(spec)}` | {' '.join(spec.description.split())} |")
    return "\n".join(rows)


FROM_A_CLONE: Final = """\
**horologe is not on PyPI yet**: `uvx horologe` and the client setups below are the lines for the
published package, and will work once it is released. Until then, install it from a clone of this repository, with
Python ≥ 3.11 and `make` (uv and the locked dependencies come by themselves):

```sh
make install   # the horologe command, in uv's tool directory (~/.local/bin); it prints the line for your client
```

Then each setup below runs that command instead of `uvx horologe`: `claude mcp add horologe -- horologe`, or
`"command": "horologe", "args": []` in a client's JSON (the full path `make install` printed, where a client does not
find it). From the clone you can also:

```sh
make run    # set up and serve MCP over stdio (stdout carries protocol messages only; set-up output goes to stderr)
make test   # set up and run the whole test suite
```"""

FROM_PYPI: Final = """\
```sh
uvx horologe
```

That is the line the client setups below run; it needs [uv](https://docs.astral.sh/uv/getting-started/installation/).
From a clone of this repository, with Python ≥ 3.11 and `make` (everything else comes from the lock file):

```sh
make run    # set up and serve MCP over stdio (stdout carries protocol messages only; set-up output goes to stderr)
make test   # set up and run the whole test suite
```"""


def install() -> str:
    """The README's first lines after the summary: how to install horologe today."""
    return FROM_PYPI if identity().released else FROM_A_CLONE


def stdio_server() -> dict[str, object]:
    """The client configuration that runs the published package over stdio, as the README's setups write it."""
    return {"command": "uvx", "args": [identity().package]}


def vscode_link() -> str:
    """VS Code's install link: the server's `mcp.json` entry, URL-encoded."""
    config = json.dumps({"type": "stdio", **stdio_server()}, separators=(",", ":"))
    name = identity().package
    return f"[Install in VS Code](https://vscode.dev/redirect/mcp/install?name={name}&config={quote(config, safe='')})"


def cursor_link() -> str:
    """Cursor's install deeplink: the server's `mcp.json` entry, base64-encoded (cursor.com/docs/mcp/install-links)."""
    config = base64.b64encode(json.dumps(stdio_server(), separators=(",", ":")).encode()).decode()
    name = identity().package
    return (
        f"[Add to Cursor](cursor://anysphere.cursor-deeplink/mcp/install?name={name}&config={quote(config, safe='')})"
    )


GENERATED: Final[Mapping[str, tuple[str, Callable[[], str]]]] = {
    "install": ("README.md", install),
    "tools": ("README.md", readme_tools),
    "vscode-link": ("README.md", vscode_link),
    "cursor-link": ("README.md", cursor_link),
    "toolsets": ("docs/tools.md", toolsets_table),
    "tool-reference": ("docs/tools.md", tools_reference),
}


def block(name: str, command: str = "docs") -> re.Pattern[str]:
    """The generated part `name` of a file, markers included; `command` is the `python -m release` command that
    writes it."""
    begin = rf"<!-- begin {name}: python -m release {command} -->"
    return re.compile(rf"({begin}\n)(.*?)(<!-- end {name} -->)", re.DOTALL)


def stale(root: Path = ROOT) -> list[str]:
    """The generated parts that differ from what the registry says now, as `file: part`."""
    found = []
    for name, (file, make) in GENERATED.items():
        match = block(name).search((root / file).read_text(encoding="utf-8"))
        if match is None or match.group(2) != make() + "\n":
            found.append(f"{file}: {name}")
    return found


def write(root: Path = ROOT) -> list[str]:
    """Rewrite every generated part; returns those that changed."""
    changed = stale(root)
    for name, (file, make) in GENERATED.items():
        fill(root / file, name, make())
    return changed


def fill(path: Path, name: str, generated: str, command: str = "docs") -> None:
    """Rewrite the generated part `name` of the file `path` to hold `generated`."""
    text = path.read_text(encoding="utf-8")
    updated, count = block(name, command).subn(lambda found: found.group(1) + generated + "\n" + found.group(3), text)
    if count != 1:
        raise ValueError(f"{path}: the markers of the generated part {name!r} are missing")
    path.write_text(updated, encoding="utf-8")
