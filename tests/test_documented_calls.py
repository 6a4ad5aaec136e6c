"""Every tool call the README and docs/ show is one the default server of its transport offers, with arguments its
schema accepts: `horologe call` and `horologe client call --stdio` against a default stdio server, `horologe client
call --url` and the `curl` examples against a default HTTP server (a reader copies them without `--toolsets`)."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pytest
from jsonschema import Draft202012Validator

from horologe.cli import build_parser
from horologe.client.cli import parse_tool_arguments
from horologe.tools.registry import DEFAULT_TOOLSETS, selected_tools, tool_schemas

ROOT: Final = Path(__file__).parents[1]
PAGES: Final = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
COMMAND: Final = re.compile(r"^(?:\$ )?(horologe (?:client )?call .*?)(?:\s+#.*)?$", re.MULTILINE)
CURL: Final = re.compile(r"curl [^\n]*?/mcp/tools/call(?:[^\n]*\\\n)*?[^\n]*?-d '([^']+)'")


@dataclass(frozen=True)
class DocumentedCall:
    """One call a page shows: where, against which transport's default server, the tool and its arguments."""

    where: str
    transport: str
    tool: str
    arguments: dict[str, Any]


def from_command(where: str, line: str) -> DocumentedCall:
    """`horologe call TOOL k=v...` or `horologe client call (--url URL | --stdio CMD) TOOL k=v...`, read by the
    command line's own parser."""
    args = build_parser().parse_args(shlex.split(line)[1:])
    if args.command == "client":
        served = shlex.split(args.stdio or "")
        assert "--toolsets" not in served, f"{where}: {line}: a reader's server has the default tools"
        transport = "http" if args.url else "stdio"
    else:
        assert args.toolsets is None, f"{where}: {line}: a reader's server has the default tools"
        transport = "stdio"
    arguments = parse_tool_arguments(args.arguments)
    assert arguments is not None, f"{where}: {line}: arguments are not key=value"
    return DocumentedCall(where, transport, args.tool, arguments)


def documented_calls() -> list[DocumentedCall]:
    """Every call the pages and compose.yaml's comment show."""
    calls = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        name = str(page.relative_to(ROOT))
        calls += [from_command(name, line) for line in COMMAND.findall(text)]
    for name, call in curl_bodies():
        calls.append(DocumentedCall(name, "http", call["name"], call.get("arguments", {})))
    return calls


def curl_bodies() -> list[tuple[str, Any]]:
    """`curl ... /mcp/tools/call ... -d '{...}'` in docs/http.md and compose.yaml's comment (line continuations
    too): each file's name and the request body, parsed."""
    bodies = []
    for name in ("docs/http.md", "compose.yaml"):
        text = (ROOT / name).read_text(encoding="utf-8").replace("\n#", "\n")
        bodies += [(name, json.loads(body)) for body in CURL.findall(text)]
    return bodies


CALLS: Final = documented_calls()


def test_the_pages_examples_are_found() -> None:
    assert {(call.where, call.transport) for call in CALLS} >= {
        ("docs/client.md", "http"),
        ("docs/configuration.md", "stdio"),
        ("docs/http.md", "http"),
    }


@pytest.mark.parametrize("call", CALLS, ids=lambda call: f"{call.where}:{call.tool}")
def test_each_documented_call_works_on_a_default_server(call: DocumentedCall) -> None:
    offered = {spec.name: spec for spec in selected_tools(["default"], call.transport)}
    assert call.tool in offered, (
        f"{call.where}: {call.tool} is not offered by a default {call.transport} server"
        f" (toolsets {', '.join(DEFAULT_TOOLSETS[call.transport])})"
    )
    errors = list(Draft202012Validator(tool_schemas(offered[call.tool])[0]).iter_errors(call.arguments))
    assert errors == [], f"{call.where}: {call.tool}: {[error.message for error in errors]}"
