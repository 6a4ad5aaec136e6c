"""`server.json` for the official MCP Registry: the PyPI package (run with uvx), the image and the bundle, all stdio.

The registry keeps metadata only; each package proves its owner on its own registry: the PyPI package by the line
`mcp-name: <name>` in its README (the PyPI description), the image by its `io.modelcontextprotocol.server.name`
label, the bundle by its release URL and SHA-256. The schema is the registry's (`release/registry/`).
"""

from __future__ import annotations

from typing import Any, Final

from release.identity import Identity
from release.settings import USER_SETTINGS

SCHEMA_URL: Final = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
STDIO: Final = {"type": "stdio"}


def server_json(me: Identity, bundle_sha256: str) -> dict[str, Any]:
    """The server's registry entry for this version; `bundle_sha256` is the SHA-256 of the .mcpb it lists."""
    environment = [
        _variable(setting.env, setting.description, setting.default, setting.choices) for setting in USER_SETTINGS
    ]
    return {
        "$schema": SCHEMA_URL,
        "name": me.registry_name,
        "title": me.package,
        "description": me.description,
        "version": me.version,
        "repository": {"url": me.repository, "source": "github"},
        "websiteUrl": me.repository,
        "icons": [{"src": icon_url(me), "mimeType": "image/png", "sizes": ["512x512"]}],
        "packages": [
            {
                "registryType": "pypi",
                "identifier": me.package,
                "version": me.version,
                "runtimeHint": "uvx",
                "transport": STDIO,
                "environmentVariables": environment,
            },
            {
                "registryType": "oci",
                "identifier": f"{me.image}:{me.version}",
                "runtimeHint": "docker",
                "transport": STDIO,
                "environmentVariables": environment,
            },
            {
                "registryType": "mcpb",
                "identifier": f"{me.repository}/releases/download/v{me.version}/{me.bundle_name}",
                "version": me.version,
                "fileSha256": bundle_sha256,
                "transport": STDIO,
            },
        ],
    }


def icon_url(me: Identity) -> str:
    """Where the icon is served from once the repository is public (the registry takes https icons only)."""
    return f"https://raw.githubusercontent.com/{me.owner}/{me.package}/main/release/icon.png"


def _variable(name: str, description: str, default: str, choices: tuple[str, ...]) -> dict[str, Any]:
    variable: dict[str, Any] = {"name": name, "description": description, "isRequired": False, "format": "string"}
    if default:
        variable["default"] = default
    if choices:
        variable["choices"] = list(choices)
    return variable
