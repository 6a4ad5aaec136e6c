"""The shared fixtures' shortcuts (tests/fixtures.py) still rest on what they assume."""

from __future__ import annotations

from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator, SchemaError
from mcp.server.lowlevel.server import Server

from horologe.config import Settings, load_settings
from tests.conftest import IN_PROCESS
from tests.fixtures import TEST_OVERRIDES, SchemaChecks, connect, loaded_settings


@pytest.mark.anyio
async def test_each_session_asks_for_the_output_schema_check_and_it_runs_once(
    server: Server[Any], settings: Settings, schema_checks: SchemaChecks
) -> None:
    asked, run = schema_checks.asked, schema_checks.run
    for _ in range(2):
        async with AsyncExitStack() as stack:
            client = await connect(server, settings, IN_PROCESS, stack)
            result = await client.call_tool(
                "convert_timezone", {"timestamp": "2026-03-29T00:30:00Z", "to_timezone": "UTC"}
            )
            assert not result.is_error
    # The SDK still checks the schema in each session (else the shortcut is dead code), and only the first check ran.
    assert schema_checks.asked - asked == 2
    assert schema_checks.run - run <= 1


def test_a_schema_that_fails_the_check_fails_it_every_time(schema_checks: SchemaChecks) -> None:
    run = schema_checks.run
    for _ in range(2):
        with pytest.raises(SchemaError):
            Draft202012Validator.check_schema({"type": 12})
    assert schema_checks.run - run == 2


def test_settings_follow_the_environment_of_the_test_that_asks(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOROLOGE_LOGGING__LEVEL", "ERROR")
    monkeypatch.setenv("HOROLOGE_SERVER__PORT", "9123")
    settings: Settings = request.getfixturevalue("settings")
    assert (settings.logging.level, settings.server.port) == ("ERROR", 9123)
    assert load_settings(overrides=TEST_OVERRIDES).model_copy(update={"state": settings.state}) == settings


def test_settings_are_what_loading_gives_with_a_preferences_file_of_their_own(
    settings: Settings, preferences_root: Path
) -> None:
    fresh = load_settings(overrides=TEST_OVERRIDES)
    assert settings.state.local_path is not None and settings.state.local_path.parent.parent == preferences_root
    assert settings.model_copy(update={"state": fresh.state}) == fresh


def test_settings_are_loaded_again_only_for_another_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    first = loaded_settings()
    monkeypatch.setenv("PYTEST_CURRENT_TEST", "another test (call)")  # what pytest rewrites in every test
    assert loaded_settings() is first
    monkeypatch.setenv("HOROLOGE_LOGGING__LEVEL", "ERROR")
    assert loaded_settings().logging.level == "ERROR"
