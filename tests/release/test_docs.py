"""The README a user reads first and the docs/ behind it: small, the line that installs horologe today on the first
screen, every client block and install link the one configuration, the generated parts as the registry and the release
settings say today, no dead links (on PyPI's page neither), no issue numbers."""

from __future__ import annotations

import base64
import json
import re
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any, Final
from unittest.mock import patch
from urllib.parse import parse_qs, urlsplit

import pytest

from release.docs import GENERATED, install, stale, stdio_server, write
from release.identity import identity
from tests.release.conftest import ROOT

README: Final = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS: Final = sorted((ROOT / "docs").glob("*.md"))
FIRST_SCREEN: Final = 40  # lines a reader sees before scrolling on a repository page, roughly
LINK: Final = re.compile(r"\]\(([^)\s]+)\)")


def json_blocks(text: str) -> list[dict[str, Any]]:
    """Every ```json block of `text`, parsed."""
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", text, flags=re.DOTALL)]


def servers(config: dict[str, Any]) -> list[dict[str, Any]]:
    """The server entries of a client configuration (`mcpServers` or VS Code's `servers`)."""
    return [server for key in ("mcpServers", "servers") for server in config.get(key, {}).values()]


def test_the_readme_is_small_and_its_first_screen_gets_a_user_started() -> None:
    assert len(README.encode()) <= 16 * 1024, f"README.md: size: {len(README.encode())} bytes, over 16 KB"
    first_screen = "\n".join(README.splitlines()[:FIRST_SCREEN])
    # Until the first release the line that works today is `make install`, and the screen says why.
    lines = (
        ("uvx horologe", "make run", "make test") if identity().released else ("make install", "make run", "make test")
    )
    for line in lines:
        assert re.search(rf"^{line}\b", first_screen, flags=re.MULTILINE), f"README.md: first screen: no `{line}`"
    if not identity().released:
        assert "**horologe is not on PyPI yet**" in first_screen, "README.md: first screen: does not say it"
    assert f"mcp-name: {identity().registry_name}" in first_screen


def test_the_install_lines_switch_when_a_release_exists() -> None:
    assert install() in README
    released = replace(identity(), released=True)
    with patch("release.docs.identity", return_value=released):
        assert re.search(r"^uvx horologe$", install(), flags=re.MULTILINE) and "not on PyPI" not in install()
    with patch("release.docs.identity", return_value=replace(released, released=False)):
        assert "**horologe is not on PyPI yet**" in install() and "\nmake install " in install()


def pypi_description(readme: str) -> str:
    """The README as PyPI shows it: pyproject's fancy-pypi-readme substitutions applied, as the build applies them."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    hook = project["tool"]["hatch"]["metadata"]["hooks"]["fancy-pypi-readme"]
    assert [fragment["path"] for fragment in hook["fragments"]] == ["README.md"]
    for substitution in hook["substitutions"]:
        readme = re.sub(substitution["pattern"], substitution["replacement"], readme)
    return readme


def test_every_link_on_pypis_page_is_absolute_and_leads_to_the_same_file() -> None:
    shown = pypi_description(README)
    repository = identity().repository
    for before, after in zip(LINK.findall(README), LINK.findall(shown), strict=True):
        assert re.match(r"[a-z][a-z0-9+.-]*:", after), f"README.md: on PyPI the link {before} is relative"
        if "://" not in before:
            assert after in (f"{repository}{before}", f"{repository}/blob/main/{before}"), after
            assert before.startswith("#") or (ROOT / before.split("#")[0]).exists(), before


@pytest.mark.parametrize("page", [ROOT / "README.md", ROOT / "ARCHITECTURE.md", *DOCS], ids=lambda page: page.name)
def test_no_page_sends_a_reader_to_an_issue_number(page: Path) -> None:
    # The issue tracker is the team's, not the reader's: a page says what holds, not which issue asked for it.
    found = re.search(r"\bissues? #?\d+", page.read_text(encoding="utf-8"), flags=re.IGNORECASE)
    assert found is None, f"{page.relative_to(ROOT)}: cites {found.group(0)!r}" if found else ""


def test_every_client_block_runs_the_published_package_or_the_image() -> None:
    entries = [server for config in json_blocks(README) for server in servers(config)]
    assert len(entries) >= 4  # Claude Desktop, VS Code, Cursor, Docker
    for server in entries:
        if server["command"] == "uvx":
            assert {key: server[key] for key in ("command", "args")} == stdio_server(), server
        else:
            assert server["command"] == "docker" and server["args"][-1].startswith(identity().image), server
        assert set(server.get("env", {})) <= {"DEFAULT_TIMEZONE", "HOROLOGE_TOOLSETS", "HOROLOGE_LOG_LEVEL"}
    assert re.search(r"^claude mcp add horologe -- uvx horologe$", README, flags=re.MULTILINE)


def install_link(label: str) -> dict[str, list[str]]:
    found = re.search(rf"\[{label}\]\(([^)]+)\)", README)
    assert found, f"README.md: no [{label}] link"
    return parse_qs(urlsplit(found.group(1)).query)


def test_the_install_links_carry_the_same_configuration() -> None:
    vscode = install_link("Install in VS Code")
    assert vscode["name"] == ["horologe"] and json.loads(vscode["config"][0]) == {"type": "stdio", **stdio_server()}
    cursor = install_link("Add to Cursor")
    assert cursor["name"] == ["horologe"] and json.loads(base64.b64decode(cursor["config"][0])) == stdio_server()


def test_the_generated_parts_say_what_the_registry_says() -> None:
    assert stale() == [], f"{', '.join(stale())}: out of date: run `.venv/bin/python -m release docs`"


def test_a_stale_part_is_named_and_rewritten(tmp_path: Path) -> None:
    for file in {file for file, _ in GENERATED.values()}:
        (tmp_path / file).parent.mkdir(parents=True, exist_ok=True)
        text = (ROOT / file).read_text(encoding="utf-8")
        (tmp_path / file).write_text(text.replace("| `get_current_time", "| `old_name"), encoding="utf-8")
    assert "README.md: tools" in stale(tmp_path)
    assert "README.md: tools" in write(tmp_path) and stale(tmp_path) == []


def test_missing_markers_are_named(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "tools.md").write_text((ROOT / "docs" / "tools.md").read_text(encoding="utf-8"))
    (tmp_path / "README.md").write_text("# horologe\n\nno generated parts\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"README\.md: the markers of the generated part '\w+' are missing"):
        write(tmp_path)


@pytest.mark.parametrize("page", [ROOT / "README.md", ROOT / "ARCHITECTURE.md", *DOCS], ids=lambda page: page.name)
def test_every_relative_link_leads_somewhere(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if "://" in target or target.startswith(("#", "mailto:")):
            continue
        path = (page.parent / target.split("#")[0]).resolve()
        assert path.exists(), f"{page.relative_to(ROOT)}: link: {target} leads nowhere"


def test_the_readme_links_every_page_of_docs() -> None:
    linked = {Path(target).name for target in LINK.findall(README) if target.startswith("docs/")}
    assert linked == {page.name for page in DOCS}


@pytest.mark.parametrize("page", [ROOT / "README.md", *DOCS], ids=lambda page: page.name)
def test_no_page_says_horologe_is_unreleased_once_it_is(page: Path) -> None:
    says = "not on PyPI yet" in page.read_text(encoding="utf-8")
    assert not (says and identity().released), f"{page.relative_to(ROOT)}: still says horologe is not on PyPI yet"
