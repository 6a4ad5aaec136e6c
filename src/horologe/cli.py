"""`horologe serve | tools | call`: the command line."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import zoneinfo
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from horologe import __version__
from horologe.client import cli as client_cli
from horologe.client.cli import parse_tool_arguments
from horologe.deferred_imports import defer_package_init
from horologe.logs import LEVELS, configure_logging

if TYPE_CHECKING:
    from horologe.config import Settings

# What `horologe[http]` installs, by import name: a plain (stdio) install goes without them.
HTTP_EXTRA_MODULES = ("prometheus_client", "jwt", "cryptography", "limits", "redis")
DESCRIPTION = "horologe: an MCP server for time, timezones and DST done right."
EPILOG = """\
configuration (highest wins): flags > environment > --config FILE > defaults.
environment: HOROLOGE_<SECTION>__<KEY>, e.g. HOROLOGE_TIME__DEFAULT_TIMEZONE=Europe/Vienna,
             HOROLOGE_HTTP__ALLOWED_HOSTS='["time.example.com"]'; the seed's DEFAULT_TIMEZONE,
             HOROLOGE_DEFAULT_TIMEZONE, HOROLOGE_TOOLSETS, HOROLOGE_LOG_LEVEL; HTTP: PORT and HOST
             (as hosting platforms set them; HOROLOGE_SERVER__PORT and __HOST win over them).
config file: the seed's JSON format, e.g.
  {"server": {"name": "horologe", "transport": "stdio"},
   "capabilities": {"tools": true, "resources": true, "prompts": true},
   "time": {"default_timezone": "UTC", "supported_formats": ["iso8601", "unix", "custom"],
            "precision": "milliseconds"}}
"""
# Said once when a person starts the stdio server in a terminal, where it would otherwise wait in silence.
WAITING_ON_A_TERMINAL = (
    "horologe: serving MCP over stdio, waiting for a client's JSON-RPC messages on stdin, one per line "
    "(MCP clients start horologe this way; to try a tool yourself: horologe call get_current_time; "
    "horologe --help for more; Ctrl-D ends)"
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    parser = argparse.ArgumentParser(
        prog="horologe", description=DESCRIPTION, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--version", action="version", version=f"horologe {__version__}")
    # `horologe` alone (or with serve's flags, as the seed's client configuration passes them) serves.
    _add_serve_flags(parser)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    # A subcommand's flags default to SUPPRESS: one given before the subcommand (`horologe --toolsets all tools`)
    # is kept unless the subcommand gives it again (argparse would otherwise overwrite it with the default).
    serve = commands.add_parser(
        "serve",
        help="run the MCP server (the default when no command is given)",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        argument_default=argparse.SUPPRESS,
    )
    _add_serve_flags(serve, argparse.SUPPRESS)

    tools = commands.add_parser("tools", help="list the tools and their arguments", argument_default=argparse.SUPPRESS)
    _add_settings_flags(tools)

    call = commands.add_parser(
        "call", help="call a tool once, in process, and print its JSON result", argument_default=argparse.SUPPRESS
    )
    _add_settings_flags(call)
    call.add_argument("tool", help="tool name, e.g. get_current_time")
    call.add_argument(
        "arguments", nargs="*", default=[], metavar="KEY=VALUE", help="arguments; values are JSON or plain text"
    )
    client_cli.add_parser(commands)
    return parser


def _add_serve_flags(parser: argparse.ArgumentParser, default: Any = None) -> None:
    _add_settings_flags(parser)
    parser.add_argument("--transport", choices=["stdio", "http"], help="stdio (default; for local clients) or http")
    parser.add_argument("--host", help="HTTP: address to bind (default 127.0.0.1; environment HOST)")
    parser.add_argument(
        "--port", type=int, help="HTTP: port to bind (default 8080; environment PORT; 0: any free port)"
    )
    parser.add_argument("--workers", type=int, help="HTTP: worker processes (default 1)")
    parser.add_argument(
        "--stateful", action="store_true", default=default, help="HTTP: 2025-era sessions with SSE (default: stateless)"
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        metavar="HOST",
        help="HTTP: accepted Host header, repeatable ('api.example.com', 'name:*'); required off loopback",
    )
    parser.add_argument("--allowed-origin", action="append", metavar="ORIGIN", help="HTTP: accepted Origin, repeatable")
    parser.add_argument("--cors-origin", action="append", metavar="ORIGIN", help="HTTP: origin given CORS headers")
    parser.add_argument("--max-connections", type=int, help="HTTP: open connections per process (default 1000)")
    parser.add_argument("--max-sessions", type=int, help="HTTP --stateful: open sessions per process (default 1000)")
    parser.add_argument(
        "--session-idle-seconds", type=float, help="HTTP --stateful: close a session idle this long (default 600)"
    )
    parser.add_argument(
        "--new-sessions-per-client",
        metavar="RATE",
        help="HTTP --stateful: sessions one client may open, e.g. '10/minute' (the default); '' for any",
    )


def _add_settings_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, metavar="FILE", help="JSON configuration file (the seed's format)")
    parser.add_argument(
        "--default-timezone", metavar="TZ", help="zone used when a call names none ('local' = this host's zone)"
    )
    parser.add_argument(
        "--log-level",
        type=str.upper,
        choices=LEVELS,
        metavar="LEVEL",
        help="stderr log level, any case: debug, info (default), warning, error",
    )
    parser.add_argument(
        "--toolsets",
        metavar="NAMES",
        help="tools to offer, comma-separated: core (always on), relative, calendar, schedule, zones, memory, "
        "default, all",
    )
    parser.add_argument(
        "--tool-budget", type=float, metavar="SECONDS", help="most time one tool call may compute (default 5)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    # Every zone comes from the tzdata package, never the host's files: the same answers on every machine.
    zoneinfo.reset_tzpath(to=())
    # The SDK's package __init__ files import its client and MCPServer; a server needs neither (see the module).
    defer_package_init("mcp", "mcp.server")
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "client":  # the companion client takes no server settings
        return client_cli.run(args)
    if getattr(args, "transport", None) == "http" and (problem := missing_http_extra()):
        print(problem, file=sys.stderr)
        return 2
    from horologe.config import ConfigError, load_settings

    try:
        settings = load_settings(args.config, flag_overrides(args))
    except ConfigError as exc:
        print(f"horologe: {exc}", file=sys.stderr)
        return 2
    serving = args.command in ("serve", None)
    http = serving and settings.server.transport == "http"
    if http and (problem := missing_http_extra()):  # the transport came from the environment or a config file
        print(problem, file=sys.stderr)
        return 2
    configure_logging(settings.logging.level, "json" if http else "text")
    if serving:
        return _serve(settings)
    try:
        if args.command == "tools":
            return _list_tools(settings)
        return _call(settings, args.tool, args.arguments)
    except BrokenPipeError:  # `horologe call ... | head`: the reader left; say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def missing_http_extra() -> str | None:
    """A one-line message naming `horologe[http]` when its libraries are not installed, else None."""
    missing = [name for name in HTTP_EXTRA_MODULES if importlib.util.find_spec(name) is None]
    if not missing:
        return None
    return (
        f"horologe: serving over HTTP needs the http extra ({', '.join(missing)} not installed): "
        "pip install 'horologe[http]' (or uv tool install 'horologe[http]')"
    )


def flag_overrides(args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """The settings the parsed command line sets (flags not given are left to the other sources)."""
    flags = {
        ("time", "default_timezone"): args.default_timezone,
        ("logging", "level"): args.log_level,
        ("capabilities", "toolsets"): args.toolsets,
        ("execution", "budget_seconds"): args.tool_budget,
        ("server", "transport"): getattr(args, "transport", None),
        ("server", "host"): getattr(args, "host", None),
        ("server", "port"): getattr(args, "port", None),
        ("http", "workers"): getattr(args, "workers", None),
        ("http", "stateful"): getattr(args, "stateful", None),
        ("http", "allowed_hosts"): getattr(args, "allowed_host", None),
        ("http", "allowed_origins"): getattr(args, "allowed_origin", None),
        ("http", "cors_origins"): getattr(args, "cors_origin", None),
        ("http", "max_connections"): getattr(args, "max_connections", None),
        ("http", "max_sessions"): getattr(args, "max_sessions", None),
        ("http", "session_idle_seconds"): getattr(args, "session_idle_seconds", None),
        ("http", "new_sessions_per_client"): getattr(args, "new_sessions_per_client", None),
    }
    overrides: dict[str, dict[str, Any]] = {}
    for (section, key), value in flags.items():
        if value is not None:
            overrides.setdefault(section, {})[key] = value
    return overrides


def _serve(settings: Settings) -> int:
    from horologe import holiday_index, places
    from horologe.datafiles import DataFileError
    from horologe.tools.registry import check_schemas

    try:
        places.check()
        holiday_index.check()
        check_schemas()
    except DataFileError as exc:
        print(f"horologe: {exc}", file=sys.stderr)
        return 2
    if settings.server.transport == "http":
        from horologe.http.serve import serve_http  # the HTTP stack loads only for HTTP

        try:
            serve_http(settings)
        except ValueError as exc:
            print(f"horologe: {exc}", file=sys.stderr)
            return 2
        return 0
    import anyio

    from horologe.clock import SystemClock
    from horologe.heap import settle_after_startup
    from horologe.protocol.server import build_server
    from horologe.stdio import serve_stdio

    server = build_server(settings, SystemClock())
    settle_after_startup()
    if sys.stdin is not None and sys.stdin.isatty():
        print(WAITING_ON_A_TERMINAL, file=sys.stderr)
    try:
        anyio.run(serve_stdio, server)
    except KeyboardInterrupt:
        return 130
    return 0


def _list_tools(settings: Settings) -> int:
    from horologe.tools.registry import selected_tools, tool_schemas

    for spec in selected_tools(settings.capabilities.toolsets, settings.server.transport):
        schema = tool_schemas(spec)[0]
        required = set(schema.get("required", []))
        names = [name if name in required else f"[{name}]" for name in schema["properties"]]
        print(f"{spec.name}({', '.join(names)})  {spec.title}")
    return 0


def _call(settings: Settings, tool: str, pairs: Sequence[str]) -> int:
    import anyio
    from mcp.shared.exceptions import MCPError

    from horologe.clock import SystemClock
    from horologe.protocol.dispatch import dispatch
    from horologe.protocol.server import build_server
    from horologe.wire import ERROR_META

    arguments = parse_tool_arguments(pairs)
    if arguments is None:
        return 2
    server = build_server(settings, SystemClock())
    params = {"name": tool, "arguments": arguments}
    try:
        result = anyio.run(lambda: dispatch(server, "tools/call", params, kind="cli"))
    except MCPError as exc:
        print(f"horologe: {exc.error.message}", file=sys.stderr)
        return 2
    if result.get("isError"):
        print(json.dumps({"error": result["_meta"][ERROR_META]}, indent=2, ensure_ascii=False))
        return 1
    print(json.dumps(result.get("structuredContent"), indent=2, ensure_ascii=False))
    return 0
