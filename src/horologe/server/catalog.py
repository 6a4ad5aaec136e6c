"""Every tool the server offers, in listing order. A new tool module adds its TOOLS here."""

from __future__ import annotations

from horologe.server import calendar_tools, relative_tools, state_tools, tools
from horologe.server.tools import ToolSpec

TOOLS: tuple[ToolSpec, ...] = (*tools.TOOLS, *calendar_tools.TOOLS, *relative_tools.TOOLS, *state_tools.TOOLS)
TOOLS_BY_NAME: dict[str, ToolSpec] = {tool.name: tool for tool in TOOLS}
