"""`horologe client tools | call | state`: the companion client on the command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from horologe.client.context import ContextSettings


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register `client` and its subcommands on the main parser's subparsers."""
    client: argparse.ArgumentParser = commands.add_parser(
        "client", help="talk to an MCP server as a client (state, context, language)"
    )
    sub = client.add_subparsers(dest="client_command", metavar="CLIENT_COMMAND", required=True)
    tools = sub.add_parser("tools", help="list the server's tools")
    _connection_flags(tools)
    call = sub.add_parser("call", help="call a tool: horologe client call TOOL key=value ...")
    _connection_flags(call)
    call.add_argument("tool")
    call.add_argument("arguments", nargs="*", metavar="KEY=VALUE", help="values are JSON or plain text")
    call.add_argument("--json", action="store_true", help="print the whole result as JSON")
    state = sub.add_parser("state", help="the server-scope state this client keeps")
    state.add_argument("action", choices=["list", "clear"])
    state.add_argument("--scope", help="only this server (host name, or stdio:COMMAND as listed)")
    state.add_argument("--state-db", type=Path, help="state database (default: in the user's state directory)")
    return client


def _connection_flags(parser: argparse.ArgumentParser) -> None:
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--stdio", metavar="COMMAND", help="start this server over stdio, e.g. 'horologe serve'")
    target.add_argument("--url", help="Streamable HTTP endpoint, e.g. https://time.example.com/mcp")
    parser.add_argument("--lang", help="language preference (default: LANGUAGE / LC_ALL / LANG), e.g. de-AT")
    parser.add_argument("--timezone", help="the user's IANA zone sent as client context (default: detected)")
    parser.add_argument("--locale", help="the user's locale sent as client context (default: from the environment)")
    parser.add_argument("--no-context", action="store_true", help="send no client context")
    parser.add_argument("--mode", choices=["auto", "legacy", "2026-07-28"], default="auto", help="protocol era")
    parser.add_argument(
        "--allow-local-state", action="store_true", help="keep state for localhost and IP-address servers (dev only)"
    )
    parser.add_argument("--state-db", type=Path, help="state database (default: in the user's state directory)")
    parser.add_argument("--debug", action="store_true", help="print the whole traceback when something fails")


def run(args: argparse.Namespace) -> int:
    """Run a `horologe client ...` command; returns the exit code."""
    if args.client_command == "state":
        return _state(args)
    import anyio

    from horologe.client.connect import ClientOptions
    from horologe.otel import install_sdk_from_environment

    # The SDK's client opens a span per request and injects `traceparent` once a provider is installed (SEP-414).
    install_sdk_from_environment()
    arguments = parse_tool_arguments(getattr(args, "arguments", ()))
    if arguments is None:
        return 2
    options = ClientOptions(
        stdio=args.stdio,
        url=args.url,
        lang=args.lang,
        allow_local_state=args.allow_local_state,
        state_db=args.state_db,
        context=ContextSettings(enabled=not args.no_context, timezone=args.timezone, locale=args.locale),
        mode=args.mode,
    )
    try:
        code: int = anyio.run(_session, options, args, arguments)
    except Exception as exc:
        if args.debug:
            raise
        print(f"horologe: {failure_message(exc, args)}", file=sys.stderr)
        return 2
    return code


def failure_message(exc: BaseException, args: argparse.Namespace) -> str:
    """One line saying what went wrong talking to the server (the first real error inside task groups)."""
    from mcp.shared.exceptions import MCPError

    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    target = f"--url {args.url}" if args.url else f"--stdio {args.stdio!r}"
    if isinstance(exc, FileNotFoundError | PermissionError):
        return f"cannot start {target}: {exc.strerror}: {exc.filename}"
    if isinstance(exc, MCPError):
        if exc.error.message == "Connection closed":
            return f"{target}: the server closed the connection (is it an MCP server? does it start on its own?)"
        return exc.error.message
    if isinstance(exc, ValueError):
        return str(exc)
    return f"cannot talk to the server at {target}: {str(exc) or type(exc).__name__} (--debug shows the traceback)"


async def _session(options: Any, args: argparse.Namespace, arguments: dict[str, Any]) -> int:
    from horologe.client.connect import connect

    async with connect(options) as (client, _):
        if args.client_command == "tools":
            listed = await client.list_tools()
            for tool in listed.tools:
                properties = tool.input_schema.get("properties", {})
                required = set(tool.input_schema.get("required", []))
                names = [name if name in required else f"[{name}]" for name in properties]
                print(f"{tool.name}({', '.join(names)})  {tool.title or ''}".rstrip())
            return 0
        result = await client.call_tool(args.tool, arguments)
    if args.json:
        print(
            json.dumps(result.model_dump(by_alias=True, mode="json", exclude_none=True), indent=2, ensure_ascii=False)
        )
    elif result.structured_content is not None and not result.is_error:
        print(json.dumps(result.structured_content, indent=2, ensure_ascii=False))
    else:
        for block in result.content:
            print(getattr(block, "text", block))
    return 1 if result.is_error else 0


def _state(args: argparse.Namespace) -> int:
    from horologe.client.store import ServerStateDB

    db = ServerStateDB(args.state_db)
    if args.action == "clear":
        removed = db.clear(args.scope)
        print(f"removed {removed} item(s)")
        return 0
    items = [item for item in db.listing() if args.scope is None or item.scope == args.scope]
    for item in items:
        print(f"{item.scope}\t{item.name}\t{item.size} bytes")
    if not items:
        print("no stored state")
    return 0


def parse_tool_arguments(pairs: Sequence[str]) -> dict[str, Any] | None:
    """`key=value` pairs as tool arguments (values are JSON when they parse, else text); None after an error."""
    arguments: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            print(f"horologe: argument {pair!r} must look like key=value", file=sys.stderr)
            return None
        try:
            arguments[key] = json.loads(value)
        except json.JSONDecodeError:
            arguments[key] = value
    return arguments


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m horologe.client.cli ...` without the top-level CLI."""
    parser = argparse.ArgumentParser(prog="horologe")
    add_parser(parser.add_subparsers(dest="command"))
    return run(parser.parse_args(["client", *(argv if argv is not None else sys.argv[1:])]))
