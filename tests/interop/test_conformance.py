"""The official MCP conformance suite (`conformance server --suite all --spec-version <era>`) over Streamable HTTP.

Each era (2025-11-25 through `initialize`, 2026-07-28 per request) is run against horologe as deployed (stateless +
JSON), horologe with sessions and SSE (`--stateful`), and the test-only fixture server on horologe's HTTP stack,
where every scenario must pass. Results are judged from each scenario's checks.json, not from the CLI's exit code,
so that a failure is only "expected" for the reason listed in expected-failures.yml and a false positive is never
counted as ours. Each run writes its counts to `<results>/counts.json` and prints them (`-s`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.processes import run
from tests.interop.conftest import NodeTools, RunningServer

pytestmark = [pytest.mark.interop, pytest.mark.e2e]
HERE = Path(__file__).parent
EXPECTED_FILE = HERE / "expected-failures.yml"
CONFORMANCE_VERSION = "0.2.0-alpha.12"
ERAS = ["2025-11-25", "2026-07-28"]
SUITE_SIZE = {"2025-11-25": 33, "2026-07-28": 40}  # server scenarios of `--suite all` per era in 0.2.0-alpha.12
# The only reasons a check may fail against horologe: a fixture or an optional method it does not offer.
NOT_OFFERED = re.compile(
    r"Unknown (tool|resource|prompt) '(test_|test://)|Tool 'json_schema_2020_12_tool' not found|Method not found"
    r"|Not testable: server (does not list the diagnostic tool 'test_|exposes no tool with x-mcp-header)"
)
# Messages that name no fixture; accepted only when the fixture named in the scenario's reason is not listed.
NAMES_NOTHING = re.compile(r"^Expected InputRequiredResult|^Prerequisite failed: could not get initial InputRequired")
FIXTURE_NAME = re.compile(r"\b(test_\w+)")


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
            section = data.setdefault(key, [] if key in ERAS else {})
            subsection = None
        elif line.strip().startswith("- "):
            name = line.strip()[2:].strip()
            section.append(name)
            data["reasons"].setdefault(key_of(section, data), {})[name] = comment.strip()
        elif indent == 2 and colon and not value.strip():
            subsection = section.setdefault(key, {})
        elif colon:
            (subsection if subsection is not None and indent > 2 else section)[key] = value.strip()
    return data


def key_of(section: list[str], data: dict[str, Any]) -> str:
    """The era whose list `section` is."""
    return next(era for era in ERAS if data.get(era) is section)


def run_suite(tools: NodeTools, home: Path, url: str, era: str, out: Path) -> dict[str, Scenario]:
    """Run the whole suite for one era against `url`; the scenarios' checks by name."""
    cli = tools.modules / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
    package = json.loads((cli.parent.parent / "package.json").read_text())
    assert package["version"] == CONFORMANCE_VERSION
    command = [
        str(tools.node),
        str(cli),
        "server",
        "--url",
        url,
        "--suite",
        "all",
        "--spec-version",
        era,
        "-o",
        str(out),
    ]
    completed = run(command, env=tools.env(home), timeout=600)  # the whole suite for one era
    assert "=== SUMMARY ===" in completed.stdout, completed.stdout[-3000:] + completed.stderr[-3000:]
    scenarios: dict[str, Scenario] = {}
    for checks_file in out.glob("server-*/checks.json"):
        name = re.sub(r"-\d{4}-\d{2}-\d{2}T[\d-]+Z$", "", checks_file.parent.name).removeprefix("server-")
        scenarios.setdefault(name, Scenario(name)).checks.extend(json.loads(checks_file.read_text()))
    (out / "summary.txt").write_text(completed.stdout)
    assert len(scenarios) == SUITE_SIZE[era], sorted(scenarios)
    return scenarios


def report(label: str, scenarios: dict[str, Scenario], out: Path) -> dict[str, int]:
    """Scenario and check counts of one run, written next to its results and printed."""
    checks = [check for scenario in scenarios.values() for check in scenario.checks]
    counts = {
        "scenarios": len(scenarios),
        "scenarios_passed": sum(1 for s in scenarios.values() if not s.with_status("FAILURE")),
        **{status.lower(): sum(1 for c in checks if c.get("status") == status) for status in CHECK_STATUSES},
    }
    (out / "counts.json").write_text(json.dumps({label: counts}))
    print(f"conformance {CONFORMANCE_VERSION} {label}: {json.dumps(counts)}")
    return counts


CHECK_STATUSES = ("SUCCESS", "FAILURE", "WARNING", "SKIPPED", "INFO")


def test_expected_failures_file_gives_one_reason_per_scenario() -> None:
    data = expectations()
    for era in ERAS:
        listed = data[era]
        assert len(listed) == len(set(listed))
        reasons = data["reasons"][era]
        assert all(reasons[name] for name in listed), "every expected failure needs a one-line '# reason'"
        assert all(re.search(r"test_|test://|json_schema_2020_12_tool|-32601", reasons[name]) for name in listed), (
            "every reason names the fixture (or the optional method) horologe lacks"
        )
    assert set(data["not-applicable"]) <= set(data[ERAS[0]]) & set(data[ERAS[1]])


def fixture_missing(check: dict[str, Any], reason: str, listed_tools: list[str]) -> bool:
    """Whether a failing check failed only for want of a suite fixture horologe does not have."""
    message = str(check.get("errorMessage", ""))
    if NOT_OFFERED.search(message):
        return True
    named = FIXTURE_NAME.findall(reason)
    return bool(NAMES_NOTHING.search(message)) and bool(named) and not set(named) & set(listed_tools)


@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize("mode", ["stateless", "stateful"])
def test_horologe_passes_everything_it_offers(
    mode: str,
    era: str,
    node_tools: NodeTools,
    node_home: Path,
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> None:
    server: RunningServer = request.getfixturevalue(
        "horologe_http" if mode == "stateless" else "horologe_http_stateful"
    )
    data = expectations()
    expected = set(data[era])
    reasons = data["reasons"][era]
    accepted_warnings = set(data["accepted-warnings"].get(f"{mode}-{era}") or {})
    scenarios = run_suite(node_tools, node_home, server.mcp_url, era, tmp_path / "results")
    report(f"horologe {mode} {era}", scenarios, tmp_path / "results")

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
                problems.append(f"{name}: passes now; remove it from expected-failures.yml ({era})")
            for check in failures:
                if not fixture_missing(check, reasons[name], listed_tools):
                    problems.append(f"{name}: fails for another reason than a missing fixture: {check}")
            continue
        if failures:
            problems.append(f"{name}: FAILED: {scenario.describe('FAILURE')}")
        if scenario.with_status("WARNING") and name not in accepted_warnings:
            problems.append(f"{name}: unexpected warning: {scenario.describe('WARNING')}")
        if not scenario.with_status("WARNING") and name in accepted_warnings:
            problems.append(f"{name}: no warning any more; remove it from accepted-warnings.{mode}-{era}")
    assert not problems, "\n".join(problems)
    passed = {name for name, scenario in scenarios.items() if not scenario.with_status("FAILURE")}
    must_pass = {"tools-list", "resources-list", "prompts-list", "dns-rebinding-protection"}
    if era == "2026-07-28":
        must_pass |= {"caching", "http-header-validation", "sep-2164-resource-not-found"}
        must_pass |= {"input-required-result-unsupported-methods", "server-sse-multiple-streams"}
    else:
        must_pass |= {"server-initialize", "ping", "server-sse-polling", "server-sse-multiple-streams"}
    assert must_pass <= passed, must_pass - passed
    if era == "2026-07-28":
        # server-stateless fails only its 4 checks that need the suite's diagnostic tools; the others pass.
        stateless = scenarios["server-stateless"]
        assert len(stateless.with_status("FAILURE")) == 4 and len(stateless.with_status("SUCCESS")) >= 21
    if mode == "stateful" and era == "2025-11-25":
        # With sessions the SSE scenario really checks something (two successful checks), not only a warning.
        assert len(scenarios["server-sse-multiple-streams"].with_status("SUCCESS")) == 2


@pytest.mark.parametrize("era", ERAS)
def test_fixture_server_on_horologes_http_stack_passes_every_scenario(
    era: str, node_tools: NodeTools, node_home: Path, tmp_path: Path, fixture_http: RunningServer
) -> None:
    accepted_warnings = set(expectations()["accepted-warnings"].get(f"fixture-{era}") or {})
    scenarios = run_suite(node_tools, node_home, fixture_http.mcp_url, era, tmp_path / "results")
    counts = report(f"fixture {era}", scenarios, tmp_path / "results")
    failed = {name: s.describe("FAILURE") for name, s in scenarios.items() if s.with_status("FAILURE")}
    assert not failed, failed
    warned = {name: s.describe("WARNING") for name, s in scenarios.items() if s.with_status("WARNING")}
    assert set(warned) == accepted_warnings, warned
    assert counts["success"] >= (78 if era == "2025-11-25" else 140)
    for name, scenario in scenarios.items():
        assert scenario.with_status("SUCCESS") or name in accepted_warnings, f"{name} checked nothing"
