"""The MCP Bundle (`.mcpb`): Claude Desktop's one-click install, built from the wheel and the lock file.

Server type `uv` (manifest 0.4): the bundle carries horologe's wheel and the locked versions of its dependencies
(`pyproject.toml` and `uv.lock`, about 1 MB in all), and the client's uv installs them, with a Python, on first start.
A bundled-`python` server would install offline and start without that first installation, but only where the
compiled dependencies it carries (pydantic-core, rpds-py, tzfpy, cryptography) were built for the user's platform
and Python minor version, with that Python already installed: a bundle built here would serve Linux with CPython 3.11
and fail on the macOS and Windows machines Claude Desktop runs on (the MCPB README says so of pydantic). The
measurements are in docs/releasing.md.

The manifest's tool list comes from the tool registry, and its `user_config` sets the default timezone and the
toolsets through the environment variables horologe reads (`release.settings`), so an unknown zone is refused at
start with the message the command line gives.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from horologe.tools.registry import DEFAULT_TOOLSETS, TOOLS, TOOLSET_OF
from horologe.tools.spec import ToolSpec
from release.docs import first_sentence
from release.identity import ROOT, Identity
from release.settings import BUNDLE_SETTINGS

MANIFEST_VERSION: Final = "0.4"  # the first with server type "uv"
ICON: Final = ROOT / "release" / "icon.png"
ENTRY_POINT: Final = "server/main.py"
MAIN: Final = '''"""horologe's MCP Bundle entry point: serve MCP over stdio with the installed command line."""

from horologe.cli import main

raise SystemExit(main())
'''
# A fixed time for every file in the zip, so that the same inputs give the same bundle and the same SHA-256.
ZIP_TIME: Final = (2020, 1, 1, 0, 0, 0)


def build(me: Identity, wheel: Path, requirements: Sequence[str], uv: Path, out: Path) -> Path:
    """Stage the bundle in `out/bundle/`, lock it with `uv`, and zip it into `out/<name>-<version>.mcpb`."""
    staging = out / "bundle"
    shutil.rmtree(staging, ignore_errors=True)
    (staging / "server").mkdir(parents=True)
    shutil.copyfile(wheel, staging / "server" / wheel.name)
    (staging / ENTRY_POINT).write_text(MAIN, encoding="utf-8")
    (staging / "pyproject.toml").write_text(bundle_project(me, wheel.name, requirements), encoding="utf-8")
    subprocess.run([str(uv), "lock", "--quiet", "--directory", str(staging)], check=True)
    shutil.copyfile(ICON, staging / "icon.png")
    (staging / "manifest.json").write_text(json.dumps(manifest(me), indent=2) + "\n", encoding="utf-8")
    bundle = out / me.bundle_name
    write_zip(staging, bundle)
    return bundle


def bundle_project(me: Identity, wheel: str, requirements: Sequence[str]) -> str:
    """The bundle's pyproject.toml: horologe from the wheel beside it, every dependency at its locked version."""
    pins = [f"{me.package}=={me.version}", *requirements]
    listed = "".join(f"    {json.dumps(pin)},\n" for pin in pins)
    return (
        "# The dependencies of horologe's MCP Bundle: the client's uv installs them (with a Python) on first start.\n"
        "[project]\n"
        f'name = "{me.package}-bundle"\n'
        f'version = "{me.version}"\n'
        'requires-python = ">=3.11"\n'
        f"dependencies = [\n{listed}]\n\n"
        "[tool.uv.sources]\n"
        f'{me.package} = {{ path = "server/{wheel}" }}\n'
    )


def manifest(me: Identity) -> dict[str, Any]:
    """manifest.json: what Claude Desktop shows, asks and runs."""
    env = {setting.env: f"${{user_config.{setting.key}}}" for setting in BUNDLE_SETTINGS}
    return {
        "manifest_version": MANIFEST_VERSION,
        "name": me.package,
        "display_name": me.package,
        "version": me.version,
        "description": me.description,
        "long_description": (
            "The current time anywhere, conversion between timezones on any date, durations, formatting, calendars "
            "and recurrences, in the user's own zone and language. A local time that a DST change skips or repeats "
            "is reported, never silently shifted."
        ),
        "author": {"name": f"{me.package} contributors", "url": me.repository},
        "repository": {"type": "git", "url": f"{me.repository}.git"},
        "homepage": me.repository,
        "documentation": f"{me.repository}/tree/main/docs",
        "support": f"{me.repository}/issues",
        "icon": "icon.png",
        "server": {
            "type": "uv",
            "entry_point": ENTRY_POINT,
            "mcp_config": {
                "command": "uv",
                "args": ["run", "--directory", "${__dirname}", "--frozen", ENTRY_POINT],
                "env": env,
            },
        },
        "tools": [_tool(spec) for spec in TOOLS],
        "tools_generated": False,
        "prompts_generated": True,  # time_query_assistant: its text depends on its arguments
        "keywords": ["time", "timezone", "dst", "calendar", "recurrence"],
        "license": "MIT",
        "compatibility": {"platforms": ["darwin", "win32", "linux"], "runtimes": {"python": ">=3.11"}},
        "user_config": {
            setting.key: {
                "type": "string",
                "title": setting.title,
                "description": setting.description,
                "required": False,
                "default": setting.default,
            }
            for setting in BUNDLE_SETTINGS
        },
    }


def _tool(spec: ToolSpec) -> dict[str, str]:
    """A tool as the manifest lists it: its name and the first sentence of its description."""
    first = first_sentence(spec)
    toolset = TOOLSET_OF[spec.name]
    if toolset not in DEFAULT_TOOLSETS["stdio"]:
        first += f" (toolset '{toolset}': add it under Toolsets)"
    return {"name": spec.name, "description": first}


def write_zip(staging: Path, bundle: Path) -> None:
    """Zip `staging` into `bundle`, files sorted and timestamps fixed: the same inputs give the same bytes."""
    bundle.unlink(missing_ok=True)
    with zipfile.ZipFile(bundle, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(p for p in staging.rglob("*") if p.is_file()):
            entry = zipfile.ZipInfo(path.relative_to(staging).as_posix(), ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, path.read_bytes())


def sha256(path: Path) -> str:
    """The file's SHA-256, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()
