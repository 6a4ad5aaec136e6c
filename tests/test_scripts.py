"""The repository's scripts: what they may do to a developer's machine."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SCRIPTS = sorted((Path(__file__).parents[1] / "scripts").iterdir())
# The commands that end processes by name, spelled apart so that this file does not itself contain them.
BY_NAME = ("p" + "kill", "kill" + "all")


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_no_script_ends_processes_by_name(script: Path) -> None:
    text = script.read_text(encoding="utf-8")
    # A developer's own nginx or Redis must survive `make test`: processes are ended by pid only.
    assert not re.search(rf"\b({'|'.join(BY_NAME)})\b|kill\s+-\S*\s*\$\(pgrep", text), script.name


def test_installing_test_packages_keeps_their_services_from_starting() -> None:
    text = (Path(__file__).parents[1] / "scripts" / "install-test-deps").read_text(encoding="utf-8")
    policy = text.index("/usr/sbin/policy-rc.d")
    assert policy < text.index("apt-get install") and "exit 101" in text
