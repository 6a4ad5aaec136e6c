"""The protocol layer never touches the ASGI scope: what HTTP knows of a request reaches it as functions."""

from __future__ import annotations

import ast
from pathlib import Path

import horologe.protocol

PROTOCOL = Path(horologe.protocol.__file__).parent


def scope_readers(source: str) -> list[int]:
    """Lines that read a `scope` attribute or pass the name "scope" to getattr."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        attribute = isinstance(node, ast.Attribute) and node.attr == "scope"
        named = (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
            and any(isinstance(arg, ast.Constant) and arg.value == "scope" for arg in node.args)
        )
        if attribute or named:
            lines.append(getattr(node, "lineno", 0))
    return lines


def test_the_walker_finds_both_ways_of_reading_the_scope() -> None:
    assert scope_readers("a = ctx.request.scope\nb = getattr(ctx.request, 'scope', None)\n") == [1, 2]
    assert scope_readers("hint = CacheHint(scope='public')\n") == []


def test_no_protocol_module_reads_the_asgi_scope() -> None:
    found = {
        path.name: lines
        for path in sorted(PROTOCOL.glob("*.py"))
        if (lines := scope_readers(path.read_text(encoding="utf-8")))
    }
    assert found == {}
