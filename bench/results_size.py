"""How big the answers to the common calls are: characters (and o200k tokens) of what a model reads, per call.

The fixed set of issue 26: `get_current_time` with and without a zone, a conversion, `add_time`, `get_timezone_info`,
`date_info` and a duration. Every call goes to a fresh stdio server in the 2025-11-25 era with the same client
context (`currentTimestamp` only, Monday 2026-11-23 10:00 in Vienna, the host zone), and its `structuredContent` is
validated against the tool's published `outputSchema`. Three sizes per call:

- `text`: characters of the text content, what most clients hand the model;
- `result`: characters of the whole `tools/call` result as sent (content, structuredContent and `_meta`);
- `tokens`: o200k tokens of the text (with `--shared`, the project's counter).

Then the bytes of every tool's `outputSchema` in the same `tools/list` (compact JSON, every toolset), the weight
of the list as sent to clients that keep output schemas.

With `--before PATH` another checkout's `src/` answers the same calls in the same run, and each size is given as
after / before.

    .venv/bin/python bench/results_size.py [--before /path/to/old/checkout] [--shared ../shared] [--show]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
from session import Session

ROOT = Path(__file__).resolve().parents[1]
HOROLOGE = [sys.executable, "-m", "horologe", "serve", "--toolsets", "all"]
NOW = {"io.modelcontextprotocol/clientContext": {"currentTimestamp": "2026-11-23T09:00:00Z"}}
COMMON_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("get_current_time", {}),
    ("get_current_time", {"timezone": "Asia/Tokyo"}),
    (
        "convert_timezone",
        {"timestamp": "2026-11-23T15:00", "from_timezone": "America/New_York", "to_timezone": "Asia/Tokyo"},
    ),
    ("add_time", {"timestamp": "2026-11-23T10:00", "amount": "90 days"}),
    ("get_timezone_info", {"timezone": "America/New_York"}),
    ("date_info", {"date": "2027-07-04"}),
    ("calculate_duration", {"start_time": "2026-11-23T09:00:00Z", "end_time": "2026-12-24T00:00:00Z", "units": "days"}),
]


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def text_of(result: dict[str, Any]) -> str:
    return "".join(block.get("text", "") for block in result.get("content", []))


def answers(env: dict[str, str] | None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The output schemas the server lists, and each common call's result, checked against its tool's schema."""
    session = Session(HOROLOGE, env)
    try:
        schemas = {tool["name"]: tool.get("outputSchema") for tool in session.request("tools/list")["tools"]}
        found = []
        for name, arguments in COMMON_CALLS:
            result = session.request("tools/call", {"name": name, "arguments": arguments, "_meta": NOW})
            if result.get("isError") or "error" in result:
                raise SystemExit(f"{name} {compact(arguments)} failed: {compact(result)[:400]}")
            if schemas.get(name):
                jsonschema.validate(result.get("structuredContent"), schemas[name])
            found.append(result)
        return schemas, found
    finally:
        session.close()


def sizes(result: dict[str, Any], tokens: Callable[[str], int] | None) -> dict[str, int]:
    text = text_of(result)
    measured = {"text": len(text), "result": len(compact(result))}
    if tokens is not None:
        measured["tokens"] = tokens(text)
    return measured


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, help="another checkout whose src/ answers the same calls")
    parser.add_argument("--shared", type=Path, help="the project's shared tools, to count o200k tokens too")
    parser.add_argument("--show", action="store_true", help="print every answer's text")
    args = parser.parse_args()
    tokens = None
    if args.shared is not None:
        from model_view import counter

        tokens = counter(args.shared)
    surfaces: dict[str, dict[str, str] | None] = {"after": None}
    if args.before is not None:
        surfaces = {"before": {"PYTHONPATH": str(args.before / "src")}, **surfaces}
    answered = {label: answers(env) for label, env in surfaces.items()}
    measured = {label: [sizes(result, tokens) for result in found] for label, (_, found) in answered.items()}
    if args.show:
        for label, (_, found) in answered.items():
            for (name, arguments), result in zip(COMMON_CALLS, found, strict=True):
                print(f"{label} {name} {compact(arguments)}\n  {text_of(result)}\n", file=sys.stderr)

    keys = ["text", "result", *(["tokens"] if tokens else [])]
    print("### Results of the common calls (characters; o200k tokens of the text)\n")
    print("| call | " + " | ".join(f"{key}: {' / '.join(measured)}" for key in keys) + " |")
    print("|---|" + "---:|" * len(keys))
    totals = {label: dict.fromkeys(keys, 0) for label in measured}
    for index, (name, arguments) in enumerate(COMMON_CALLS):
        cells = []
        for key in keys:
            values = [measured[label][index][key] for label in measured]
            for label in measured:
                totals[label][key] += measured[label][index][key]
            cells.append(" / ".join(f"{value:,}" for value in values))
        print(f"| `{name} {compact(arguments)}` | " + " | ".join(cells) + " |")
    print("| **total** | " + " | ".join(" / ".join(f"{totals[label][key]:,}" for label in measured) for key in keys))
    if "before" in measured:
        ratios = ", ".join(f"{key} {totals['after'][key] / totals['before'][key]:.0%}" for key in keys)
        print(f"\nafter / before: {ratios}")
    print_schemas({label: schemas for label, (schemas, _) in answered.items()})
    return 0


def print_schemas(listed: dict[str, dict[str, Any]]) -> None:
    """Bytes of each tool's output schema (compact JSON) per surface, and their total."""
    print("\n### Output schemas (bytes of compact JSON, every toolset)\n")
    print("| tool | " + " / ".join(listed) + " |")
    print("|---|---:|")
    names = list(dict.fromkeys(name for schemas in listed.values() for name in schemas))
    for name in names:
        cells = [f"{len(compact(schemas[name])):,}" if schemas.get(name) else "-" for schemas in listed.values()]
        print(f"| `{name}` | " + " / ".join(cells) + " |")
    totals = {
        label: sum(len(compact(schema)) for schema in schemas.values() if schema) for label, schemas in listed.items()
    }
    print("| **total** | " + " / ".join(f"{total:,}" for total in totals.values()) + " |")
    if "before" in totals:
        print(f"\nafter / before: {totals['after'] / totals['before']:.0%}")


if __name__ == "__main__":
    raise SystemExit(main())
