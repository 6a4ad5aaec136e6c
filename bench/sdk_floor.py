"""The SDK's floor: its low-level `Server` with one trivial tool and nothing of horologe's on top.

What no server built on the SDK can beat, measured next to horologe in the same run:
    python bench/sdk_floor.py stdio          # horologe's stdio edge, SDK package __init__ deferred as horologe does
    uvicorn --app-dir bench sdk_floor:app    # stateless JSON Streamable HTTP at /mcp, no middleware of ours
"""

from __future__ import annotations

import sys
import time
from typing import Any

from horologe.deferred_imports import defer_package_init

defer_package_init("mcp", "mcp.server")

import mcp_types as types  # noqa: E402
from mcp.server.lowlevel.server import Server  # noqa: E402

from horologe.protocol.server import pipeline  # noqa: E402


async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[])


async def call_tool(ctx: Any, params: Any) -> dict[str, Any]:
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())  # what the SDK's MCPServer time server returns
    return {"content": [{"type": "text", "text": now}], "isError": False, "resultType": "complete"}


def no_schema(name: str) -> None:
    """Nothing to validate (horologe gives the SDK its schemas the same way, so neither runs a hidden tools/list)."""
    return None


server: Server[Any] = Server(
    "sdk-floor", version="1", on_list_tools=list_tools, on_call_tool=call_tool, get_tool_input_schema=no_schema
)
server.middleware = pipeline([])  # no middleware of ours: spans only when tracing is configured, as horologe

if __name__ == "__main__" and sys.argv[1:] == ["stdio"]:
    import anyio

    from horologe.stdio import serve_stdio

    anyio.run(serve_stdio, server)
else:
    app = server.streamable_http_app(stateless_http=True, json_response=True)
