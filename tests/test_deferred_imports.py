"""The SDK's package `__init__` files run only when a name from them is needed."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from horologe.deferred_imports import defer_package_init

pytestmark = pytest.mark.e2e  # a fresh interpreter per check

HEAVY = ("mcp.client", "mcp.server.mcpserver", "httpx2")


def run_python(code: str) -> str:
    completed = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=60, check=False
    )
    assert completed.returncode == 0, completed.stderr
    return completed.stdout.strip()


def test_server_modules_import_without_the_client_and_mcpserver() -> None:
    out = run_python(
        f"""
        import sys
        from horologe.deferred_imports import defer_package_init
        defer_package_init("mcp", "mcp.server")
        from mcp.server.lowlevel.server import Server
        print(sorted(name for name in {HEAVY!r} if name in sys.modules))
        """
    )
    assert out == "[]"


def test_names_from_the_package_init_still_import_on_demand() -> None:
    out = run_python(
        """
        from horologe.deferred_imports import defer_package_init
        defer_package_init("mcp", "mcp.server")
        import mcp
        from mcp.server.lowlevel.server import Server
        from mcp import ClientSession
        from mcp.server import MCPServer, Server as Exported
        print(ClientSession.__name__, MCPServer.__name__, Exported is Server, mcp.types.Tool.__name__)
        """
    )
    assert out == "ClientSession MCPServer True Tool"


def test_the_command_line_imports_no_sdk_client() -> None:
    out = run_python(
        f"""
        import contextlib, io, sys
        from horologe.cli import main
        with contextlib.redirect_stdout(io.StringIO()):
            code = main(["tools"])
        print(code, sorted(name for name in {HEAVY!r} if name in sys.modules))
        """
    )
    assert out == "0 []"


def test_an_unknown_or_plain_module_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A module written here, so no earlier test can have imported it (an imported name is left alone).
    (tmp_path / "horologe_plain_module.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ImportError, match="not an importable package"):
        defer_package_init("horologe_plain_module")
    assert "horologe_plain_module" not in sys.modules
    with pytest.raises(ImportError, match="not an importable package"):
        defer_package_init("horologe_no_such_package")


def test_a_package_already_imported_is_left_alone() -> None:
    import mcp

    defer_package_init("mcp")
    assert sys.modules["mcp"] is mcp
