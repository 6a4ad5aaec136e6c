"""Build src/horologe/data/tool_schemas.json: every tool's published input and output JSON Schemas.

Run after changing a tool's argument or result models, or upgrading pydantic:
`.venv/bin/python scripts/build_tool_schemas.py` (tests/tools/test_compiled_schemas.py fails until then). pydantic
generates the schemas in about 10 ms a tool, which a stdio client's first `tools/list` waited for; the server reads
them from this file instead (`horologe.tools.registry.tool_schemas`).
"""

from __future__ import annotations

import json
from pathlib import Path

from horologe.tools.registry import compiled_schemas

OUT = Path(__file__).parents[1] / "src" / "horologe" / "data" / "tool_schemas.json"


def main() -> None:
    OUT.write_text(compiled_schemas(), encoding="utf-8")
    print(f"{OUT}: {len(json.loads(OUT.read_text(encoding='utf-8')))} tool forms")


if __name__ == "__main__":
    main()
