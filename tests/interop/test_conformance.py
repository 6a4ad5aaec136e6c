"""The official MCP conformance suite (`conformance server --suite all`) over Streamable HTTP.

Three runs: horologe as deployed (stateless + JSON), horologe with sessions and SSE (`--stateful`), and the
test-only fixture server on horologe's HTTP stack, where every scenario must pass. Results are judged from each
scenario's checks.json, not from the CLI's exit code, so that a failure is only "expected" for the reason listed
in expected-failures.yml and a false positive is never counted as ours.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.interop.conftest import NodeTools, RunningServer

pytestmark = [pytest.mark.interop, pytest.mark.e2e]
HERE = Path(__file__).parent
EXPECTED_FILE = HERE / "expected-failures.yml"
CONFORMANCE_VERSION = "0.1.16"
SUITE_SIZE = 32  # server scenarios in 0.1.16 `--suite all`
# The only reasons a scenario may fail against horologe: a fixture name or an optional method it does not offer.
NOT_OFFERED = re.compile(
    r"Unknown (tool|resource|prompt) '(test_|test://)|Tool 'json_schema_2020_12_tool' not found|Method not found"
)


@dataclass
class Scenario:
    name: str
    checks: list[dict[str, Any]] = field(default_factory=list)

    def with_status(self, status: str) -> list[dict[str, Any]]:
        return [check for check in self.checks if check.get("status") == status]

    def describe(self, status: str) -> str:
        return "; ".join(
            f"{c.get('id')}: {c.get('errorMessage') or c.get('description')}" for c in self.with_status(status)
        )


def expectations() -> dict[str, Any]:
    """expected-failures.yml (a small YAML subset: lists and mappings two levels deep; PyYAML is not a dependency)."""
    data: dict[str, Any] = {"reasons": {}}
    section: Any = None
    subsection: dict[str, str] | None = None
    for raw in EXPECTED_FILE.read_text().splitlines():
        line, _, comment = raw.partition(" #")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        key, colon, value = line.strip().partition(":")
        if indent == 0:
            section = data.setdefault(key, [] if key == "server" else {})
            subsection = None
        elif line.strip().startswith("- "):
            name = line.strip()[2:].strip()
            section.append(name)
            data["reasons"][name] = comment.strip()
        elif indent == 2 and colon and not value.strip():
            subsection = section.setdefault(key, {})
        elif colon:
            (subsection if subsection is not None and indent > 2 else section)[key] = value.strip()
    return data


def run_suite(tools: NodeTools, home: Path, url: str, out: Path) -> dict[str, Scenario]:
    """Run the whole suite against `url`; the scenarios' checks by name."""
    cli = tools.modules / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
    package = json.loads((cli.parent.parent / "package.json").read_text())
    assert package["version"] == CONFORMANCE_VERSION
    command = [str(tools.node), str(cli), "server", "--url", url, "--suite", "all", "-o", str(out)]
    completed = subprocess.run(command, env=tools.env(home), capture_output=True, text=True, timeout=300)
    assert "=== SUMMARY ===" in completed.stdout, completed.stdout[-3000:] + completed.stderr[-3000:]
    scenarios: dict[str, Scenario] = {}
    for checks_file in out.glob("server-*/checks.json"):
        name = re.sub(r"-\d{4}-\d{2}-\d{2}T[\d-]+Z$", "", checks_file.parent.name).removeprefix("server-")
        scenarios.setdefault(name, Scenario(name)).checks.extend(json.loads(checks_file.read_text()))
    (out / "summary.txt").write_text(completed.stdout)
    assert len(scenarios) == SUITE_SIZE, sorted(scenarios)
    return scenarios


def test_expected_failures_file_gives_one_reason_per_scenario() -> None:
    data = expectations()
    listed = data["server"]
    assert len(listed) == len(set(listed))
    assert all(data["reasons"][name] for name in listed), "every expected failure needs a one-line '# reason'"
    assert set(data["not-applicable"]) <= set(listed)


@pytest.mark.parametrize("mode", ["stateless", "stateful"])
def test_horologe_passes_everything_it_offers(
    mode: str,
    node_tools: NodeTools,
    node_home: Path,
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> None:
    server: RunningServer = request.getfixturevalue(
        "horologe_http" if mode == "stateless" else "horologe_http_stateful"
    )
    data = expectations()
    expected = set(data["server"])
    accepted_warnings = set(data["accepted-warnings"][mode])
    scenarios = run_suite(node_tools, node_home, server.mcp_url, tmp_path / "results")

    listed_tools = scenarios["tools-list"].checks[0].get("details", {}).get("tools", [])
    assert "get_current_time" in listed_tools
    problems: list[str] = []
    for name, scenario in sorted(scenarios.items()):
        failures = scenario.with_status("FAILURE")
        if name in data["not-applicable"]:
            # A "pass" here would be the suite's false positive; either way the fixture tool must not exist.
            tool = data["not-applicable"][name]
            if tool in listed_tools:
                problems.append(f"{name}: horologe lists the fixture tool {tool}")
        if name in expected:
            if not failures and name not in data["not-applicable"]:
                problems.append(f"{name}: passes now; remove it from expected-failures.yml")
            for check in failures:
                if not NOT_OFFERED.search(check.get("errorMessage", "")):
                    problems.append(f"{name}: fails for another reason than a missing fixture: {check}")
            continue
        if failures:
            problems.append(f"{name}: FAILED: {scenario.describe('FAILURE')}")
        if scenario.with_status("WARNING") and name not in accepted_warnings:
            problems.append(f"{name}: unexpected warning: {scenario.describe('WARNING')}")
        if not scenario.with_status("WARNING") and name in accepted_warnings:
            problems.append(f"{name}: no warning any more; remove it from accepted-warnings.{mode}")
    assert not problems, "\n".join(problems)
    passed = {name for name, scenario in scenarios.items() if not scenario.with_status("FAILURE")}
    must_pass = {"server-initialize", "ping", "tools-list", "resources-list", "prompts-list", "completion-complete"}
    must_pass |= {"dns-rebinding-protection", "server-sse-polling", "server-sse-multiple-streams"}
    assert must_pass <= passed
    if mode == "stateful":
        # With sessions the SSE scenario really checks something (two successful checks), not only a warning.
        assert len(scenarios["server-sse-multiple-streams"].with_status("SUCCESS")) == 2


def test_fixture_server_on_horologes_http_stack_passes_every_scenario(
    node_tools: NodeTools, node_home: Path, tmp_path: Path, fixture_http: RunningServer
) -> None:
    accepted_warnings = set(expectations()["accepted-warnings"]["fixture"])
    scenarios = run_suite(node_tools, node_home, fixture_http.mcp_url, tmp_path / "results")
    failed = {name: s.describe("FAILURE") for name, s in scenarios.items() if s.with_status("FAILURE")}
    assert not failed, failed
    warned = {name: s.describe("WARNING") for name, s in scenarios.items() if s.with_status("WARNING")}
    assert set(warned) == accepted_warnings, warned
    assert sum(len(s.with_status("SUCCESS")) for s in scenarios.values()) >= 44
    for name, scenario in scenarios.items():
        assert scenario.with_status("SUCCESS") or name in accepted_warnings, f"{name} checked nothing"
