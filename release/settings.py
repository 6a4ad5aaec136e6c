"""The settings a person installing horologe may choose, as environment variables: what `server.json` lists for
MCP Registry clients and what the bundle's `user_config` asks in Claude Desktop, described once here.

Each is one of the flat environment names horologe reads (`horologe.config.FLAT_ENV`); an empty value counts as unset.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from horologe.config import TOOLSET_NAMES
from horologe.logs import LEVELS
from horologe.tools.registry import DEFAULT_TOOLSETS


@dataclass(frozen=True)
class UserSetting:
    """One environment variable a user may set: its name, a title and help for a settings form, its default."""

    key: str
    env: str
    title: str
    description: str
    default: str
    choices: tuple[str, ...] = ()


DEFAULT_TIMEZONE: Final = UserSetting(
    key="default_timezone",
    env="DEFAULT_TIMEZONE",
    title="Default timezone",
    description=(
        "The zone used when a question names none: an IANA name (Europe/Vienna), a city (Vienna) or an offset "
        "(+05:30). Leave empty for this computer's zone."
    ),
    default="",
)
TOOLSETS: Final = UserSetting(
    key="toolsets",
    env="HOROLOGE_TOOLSETS",
    title="Toolsets",
    description=(
        "Which tools to offer, comma-separated: 'default' ("
        + ", ".join(DEFAULT_TOOLSETS["stdio"])
        + "), 'all', or toolset names from "
        + ", ".join(name for name in TOOLSET_NAMES if name not in ("default", "all"))
        + ". Fewer tools cost the model less context."
    ),
    default="default",
)
LOG_LEVEL: Final = UserSetting(
    key="log_level",
    env="HOROLOGE_LOG_LEVEL",
    title="Log level",
    description="How much horologe writes to its log (stderr).",
    default="info",
    choices=tuple(level.lower() for level in LEVELS),
)
USER_SETTINGS: Final = (DEFAULT_TIMEZONE, TOOLSETS, LOG_LEVEL)
"""Every setting a registry client may ask for, in the order a form shows them."""
BUNDLE_SETTINGS: Final = (DEFAULT_TIMEZONE, TOOLSETS)
"""The settings Claude Desktop asks for when the bundle is installed."""
