"""What the tool surface costs a model, next to the peers: o200k tokens of the tool list, the server's
instructions, and the answers to common calls.

Tokens are counted with `../shared/tools/model_view.py`'s counter (npm `gpt-tokenizer`, o200k_base), over the same
view it prints: per tool `{"name", "description", "input_schema"}`, compact JSON, what clients put in the prompt
on every turn. The instructions column is the `initialize` result's `instructions` (clients that show them put
them in the prompt too: horologe says its shared syntax there once instead of in every description).
Peers come from bench/peers.py. `--before PATH` adds rows for another checkout's `src/` (e.g. a worktree of an
older commit), served by this environment's Python.

    .venv/bin/python bench/model_view.py [--shared ../shared] [--before /path/to/old/checkout] [--no-peers]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from needs import require_shared
from peers import all_peers, official
from session import TZ, Session

ROOT = Path(__file__).resolve().parents[1]
HOROLOGE = [sys.executable, "-m", "horologe", "serve"]
NOW = {"io.modelcontextprotocol/clientContext": {"currentTimestamp": "2026-11-23T09:00:00Z"}}

# Common calls, and the official server's nearest equivalent where it has one.
COMMON_CALLS: list[tuple[str, dict[str, Any], tuple[str, dict[str, Any]] | None]] = [
    ("get_current_time", {}, ("get_current_time", {"timezone": TZ})),
    ("get_current_time", {"timezone": "Asia/Tokyo"}, ("get_current_time", {"timezone": "Asia/Tokyo"})),
    (
        "convert_timezone",
        {"timestamp": "2026-11-23T15:00", "from_timezone": "America/New_York", "to_timezone": "Asia/Tokyo"},
        ("convert_time", {"source_timezone": "America/New_York", "time": "15:00", "target_timezone": "Asia/Tokyo"}),
    ),
    ("calculate_duration", {"start_time": "2026-11-23T09:00:00Z", "end_time": "2026-12-24T00:00:00Z"}, None),
    ("resolve_time_expression", {"expression": "next Friday at 3pm"}, None),
    ("add_time", {"timestamp": "2026-11-23T10:00", "amount": "90 days"}, None),
    ("get_timezone_info", {"timezone": "America/New_York"}, None),
]


def counter(shared: Path) -> Callable[[str], int]:
    """The o200k token counter of ../shared/tools/model_view.py."""
    spec = importlib.util.spec_from_file_location("shared_model_view", shared / "tools" / "model_view.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tokens: Callable[[str], int] = module.tokens
    return tokens


def view(tools: list[dict[str, Any]]) -> str:
    """What clients put in the prompt for the tools (the view ../shared/tools/model_view.py counts)."""
    shown = [
        {"name": t["name"], "description": t.get("description", ""), "input_schema": t.get("inputSchema", {})}
        for t in tools
    ]
    return json.dumps(shown, separators=(",", ":"), ensure_ascii=False)


def surface_row(
    label: str, command: Sequence[str], tokens: Callable[[str], int], env: dict[str, str] | None = None
) -> dict[str, Any]:
    session = Session(command, env)
    try:
        tools = session.request("tools/list")["tools"]
        instructions = session.initialized.get("instructions") or ""
    finally:
        session.close()
    return {
        "surface": label,
        "tools": len(tools),
        "tool_list": tokens(view(tools)),
        "instructions": tokens(instructions) if instructions else 0,
        "per_tool": {tool["name"]: tokens(view([tool])) for tool in tools},
    }


def answer_rows(tokens: Callable[[str], int]) -> list[dict[str, Any]]:
    ours, theirs = Session([*HOROLOGE, "--toolsets", "all"]), Session(official())
    rows = []
    try:
        for name, arguments, peer in COMMON_CALLS:
            mine = ours.request("tools/call", {"name": name, "arguments": arguments, "_meta": NOW})
            row: dict[str, Any] = {
                "call": f"{name} {json.dumps(arguments, ensure_ascii=False)}",
                "text": tokens(text_of(mine)),
            }
            row["structured"] = tokens(
                json.dumps(mine.get("structuredContent"), ensure_ascii=False, separators=(",", ":"))
            )
            if peer is not None:
                other = theirs.request("tools/call", {"name": peer[0], "arguments": peer[1]})
                row["official"] = tokens(text_of(other))
            rows.append(row)
    finally:
        ours.close()
        theirs.close()
    return rows


def text_of(result: dict[str, Any]) -> str:
    return "".join(block.get("text", "") for block in result.get("content", []))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--before", type=Path, help="another checkout whose src/ is measured too")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args()
    require_shared(args.shared, "tools/model_view.py")
    tokens = counter(args.shared)

    surfaces: list[tuple[str, list[str], dict[str, str] | None]] = [
        ("horologe, stdio default", HOROLOGE, None),
        (
            "horologe, HTTP default (core, relative, calendar)",
            [*HOROLOGE, "--toolsets", "core,relative,calendar"],
            None,
        ),
        ("horologe, core (now, conversion, durations, zone facts)", [*HOROLOGE, "--toolsets", "core"], None),
        ("horologe, every toolset (all)", [*HOROLOGE, "--toolsets", "all"], None),
    ]
    if args.before is not None:
        old_env = {"PYTHONPATH": str(args.before / "src")}
        surfaces.append(
            (
                f"horologe before ({args.before.name}), all it lists",
                [sys.executable, "-m", "horologe", "serve"],
                old_env,
            )
        )
    if not args.no_peers:
        surfaces += [(name, command, None) for name, command in all_peers().items()]
    rows = [surface_row(label, command, tokens, env) for label, command, env in surfaces]

    print("### Model view of the tool list (o200k tokens)\n")
    print("| surface | tools | tool list | instructions | together |")
    print("|---|---:|---:|---:|---:|")
    for row in rows:
        together = row["tool_list"] + row["instructions"]
        print(f"| {row['surface']} | {row['tools']} | {row['tool_list']:,} | {row['instructions']:,} | {together:,} |")
    print("\n### Per tool (horologe, every toolset)\n")
    print("| tool | tokens |")
    print("|---|---:|")
    for name, count in rows[3]["per_tool"].items():
        print(f"| `{name}` | {count} |")

    answers = answer_rows(tokens)
    print("\n### Answers to common calls (o200k tokens of the text a model reads)\n")
    print("| call | horologe text | horologe structuredContent | official, nearest call |")
    print("|---|---:|---:|---:|")
    for row in answers:
        print(f"| `{row['call']}` | {row['text']} | {row['structured']} | {row.get('official', '')} |")
    if args.json:
        args.json.write_text(json.dumps({"surfaces": rows, "answers": answers}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
