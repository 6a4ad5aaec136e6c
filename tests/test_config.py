"""Settings: precedence flags > environment > file > defaults, and clear errors naming the bad key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import tzlocal

from horologe.config import ConfigError, load_settings
from horologe.protocol.server import default_zone_from


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "DEFAULT_TIMEZONE",
        "HOROLOGE_DEFAULT_TIMEZONE",
        "HOROLOGE_TIME__DEFAULT_TIMEZONE",
        "HOROLOGE_LOG_LEVEL",
        "HOROLOGE_TOOLSETS",
        "HOST",
        "PORT",
        "HOROLOGE_SERVER__HOST",
        "HOROLOGE_SERVER__PORT",
    ):
        monkeypatch.delenv(name, raising=False)


def write(tmp_path: Path, body: object) -> Path:
    path = tmp_path / "horologe.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    return path


def test_defaults_are_the_automatic_zone_stdio_and_all_capabilities() -> None:
    settings = load_settings()
    assert settings.time.default_timezone == "auto"
    assert settings.server.transport == "stdio"
    assert settings.capabilities.tools and settings.capabilities.resources and settings.capabilities.prompts
    assert settings.capabilities.toolsets == ("default",)


@pytest.mark.parametrize(
    ("transport", "tz", "zone"),
    [("stdio", "Europe/Vienna", "Europe/Vienna"), ("http", "Europe/Vienna", "UTC"), ("stdio", "UTC", "UTC")],
)
def test_the_automatic_default_zone_is_the_hosts_over_stdio_and_utc_over_http(
    monkeypatch: pytest.MonkeyPatch, transport: str, tz: str, zone: str
) -> None:
    monkeypatch.setenv("TZ", tz)
    tzlocal.reload_localzone()
    try:
        settings = load_settings(overrides={"server": {"transport": transport}})
        assert default_zone_from(settings).key == zone
        assert default_zone_from(load_settings(overrides={"time": {"default_timezone": "local"}})).key == tz
    finally:
        monkeypatch.undo()
        tzlocal.reload_localzone()


def test_a_hosts_legacy_key_keeps_its_database_meaning_and_a_typed_one_follows_the_abbreviation_rule(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tzlocal, "get_localzone_name", lambda: "EST")
    host = default_zone_from(load_settings(overrides={"time": {"default_timezone": "local"}}))
    assert (host.key, host.kind, host.canonical) == ("America/Panama", "alias", "America/Panama")  # UTC-5 all year
    typed = default_zone_from(load_settings(overrides={"time": {"default_timezone": "EST"}}))
    assert (typed.key, typed.kind) == ("America/New_York", "abbreviation")


def test_a_default_zone_may_be_configured_as_a_city() -> None:
    assert default_zone_from(load_settings(overrides={"time": {"default_timezone": "Mumbai"}})).key == "Asia/Kolkata"


@pytest.mark.parametrize(
    ("given", "toolsets"),
    [("core,calendar", ("core", "calendar")), (" All ", ("all",)), (["memory"], ("memory",))],
)
def test_toolsets_come_as_a_list_or_comma_separated(given: object, toolsets: tuple[str, ...]) -> None:
    assert load_settings(overrides={"capabilities": {"toolsets": given}}).capabilities.toolsets == toolsets


def test_toolsets_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOROLOGE_TOOLSETS", "core,schedule")
    assert load_settings().capabilities.toolsets == ("core", "schedule")


@pytest.mark.parametrize("given", ["", "core,nonsense"])
def test_unknown_or_no_toolsets_are_refused_by_name(given: str) -> None:
    with pytest.raises(ConfigError, match=r"capabilities\.toolsets"):
        load_settings(overrides={"capabilities": {"toolsets": given}})


def test_the_seed_configuration_file_is_accepted(tmp_path: Path) -> None:
    seed = {
        "server": {
            "name": "time-mcp-server",
            "version": "1.0.0",
            "transport": "stdio",
            "host": "localhost",
            "port": 8080,
        },
        "capabilities": {"tools": True, "resources": True, "prompts": True},
        "time": {
            "default_timezone": "UTC",
            "supported_formats": ["iso8601", "rfc3339", "unix", "custom"],
            "precision": "milliseconds",
        },
    }
    settings = load_settings(write(tmp_path, seed))
    assert settings.server.name == "time-mcp-server"
    assert settings.time.supported_formats == ("iso8601", "rfc3339", "unix", "custom")


def test_flags_beat_environment_beats_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, {"time": {"default_timezone": "Asia/Tokyo"}})
    assert load_settings(path).time.default_timezone == "Asia/Tokyo"
    monkeypatch.setenv("DEFAULT_TIMEZONE", "Europe/Vienna")
    assert load_settings(path).time.default_timezone == "Europe/Vienna"
    monkeypatch.setenv("HOROLOGE_TIME__DEFAULT_TIMEZONE", "America/Chicago")
    assert load_settings(path).time.default_timezone == "America/Chicago"
    flags = {"time": {"default_timezone": "Australia/Sydney"}}
    assert load_settings(path, flags).time.default_timezone == "Australia/Sydney"


def test_port_and_host_as_hosting_platforms_set_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, {"server": {"port": 9000}})
    monkeypatch.setenv("PORT", "3000")
    monkeypatch.setenv("HOST", "0.0.0.0")
    settings = load_settings(path)
    assert (settings.server.host, settings.server.port) == ("0.0.0.0", 3000)  # over the file
    monkeypatch.setenv("HOROLOGE_SERVER__PORT", "4000")
    assert load_settings(path).server.port == 4000  # horologe's own name over the platform's
    assert load_settings(path, {"server": {"port": 5000}}).server.port == 5000  # and a flag over both
    monkeypatch.setenv("PORT", "eighty")
    monkeypatch.delenv("HOROLOGE_SERVER__PORT")
    with pytest.raises(ConfigError, match=r"server\.port"):
        load_settings()


def test_a_flat_variable_left_empty_counts_as_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    # What a client's settings form left blank passes on (an MCP bundle's user_config, a compose file).
    for name in ("DEFAULT_TIMEZONE", "HOROLOGE_TOOLSETS", "HOROLOGE_LOG_LEVEL", "PORT", "HOST"):
        monkeypatch.setenv(name, "")
    settings = load_settings()
    assert settings.time.default_timezone == "auto" and settings.capabilities.toolsets == ("default",)
    assert settings.logging.level == "INFO" and (settings.server.host, settings.server.port) == ("127.0.0.1", 8080)


@pytest.mark.parametrize("level", ["info", "Info", " debug ", "WARNING"])
def test_log_levels_in_any_case(monkeypatch: pytest.MonkeyPatch, level: str) -> None:
    monkeypatch.setenv("HOROLOGE_LOG_LEVEL", level)
    assert load_settings().logging.level == level.strip().upper()


def test_file_values_merge_with_flags_of_the_same_section(tmp_path: Path) -> None:
    path = write(tmp_path, {"time": {"precision": "seconds"}})
    settings = load_settings(path, {"time": {"default_timezone": "Europe/Vienna"}})
    assert settings.time.precision == "seconds"
    assert settings.time.default_timezone == "Europe/Vienna"


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ({"time": {"default_timezone": "Mars/Base"}}, "time.default_timezone"),
        ({"time": {"precision": "fortnights"}}, "time.precision"),
        ({"time": {"supported_formats": ["iso8601", "sundial"]}}, "time.supported_formats"),
        ({"server": {"port": 70000}}, "server.port"),
        ({"server": {"colour": "blue"}}, "server.colour"),
        ({"tiem": {}}, "tiem"),
        ({"execution": {"budget_seconds": 0}}, "execution.budget_seconds"),
        ({"execution": {"budget_seconds": 601}}, "execution.budget_seconds"),
    ],
)
def test_invalid_configuration_names_the_bad_key(tmp_path: Path, body: object, key: str) -> None:
    with pytest.raises(ConfigError) as raised:
        load_settings(write(tmp_path, body))
    assert key in str(raised.value)


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", ""])
def test_a_config_file_that_is_not_a_json_object_is_refused(tmp_path: Path, content: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError):
        load_settings(path)


def test_a_missing_config_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_settings(tmp_path / "nope.json")


def test_an_invalid_environment_value_names_the_variable_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEFAULT_TIMEZONE", "Nowhere/Land")
    with pytest.raises(ConfigError, match=r"time\.default_timezone"):
        load_settings()


def test_local_is_accepted_as_the_default_timezone() -> None:
    assert load_settings(None, {"time": {"default_timezone": "LOCAL"}}).time.default_timezone == "local"


def test_state_keys_from_a_mounted_secret_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = tmp_path / "state-keys.json"
    secret.write_text(json.dumps({"k1": "a-shared-secret-of-at-least-32-chars!"}), encoding="utf-8")
    monkeypatch.setenv("HOROLOGE_STATE__KEYS_FILE", str(secret))
    monkeypatch.setenv("HOROLOGE_STATE__KEYS", json.dumps({"k0": "an-older-key-still-verified-0123456789"}))
    keys = load_settings().state.keys
    assert keys == {"k1": "a-shared-secret-of-at-least-32-chars!", "k0": "an-older-key-still-verified-0123456789"}


@pytest.mark.parametrize(
    ("content", "says"),
    [(None, "cannot be read"), ("{not json", "cannot be read"), ('["k1"]', "JSON object"), ('{"k1": "short"}', "32")],
)
def test_a_bad_state_keys_file_names_the_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str | None, says: str
) -> None:
    secret = tmp_path / "state-keys.json"
    if content is not None:
        secret.write_text(content, encoding="utf-8")
    monkeypatch.setenv("HOROLOGE_STATE__KEYS_FILE", str(secret))
    with pytest.raises(ConfigError) as raised:
        load_settings()
    assert "state" in str(raised.value) and says in str(raised.value)


def test_the_body_buffer_must_hold_at_least_one_body_of_the_largest_size() -> None:
    with pytest.raises(ConfigError, match=r"max_buffered_body_bytes \(1048576\) must be at least http.max_body_bytes"):
        load_settings(overrides={"http": {"max_body_bytes": 2 * 1_048_576, "max_buffered_body_bytes": 1_048_576}})


@pytest.mark.parametrize("rate", ["10/fortnight", "fast"])
def test_new_sessions_per_client_must_be_a_rate(rate: str) -> None:
    with pytest.raises(ConfigError, match=r"http.new_sessions_per_client: .* is not a rate like"):
        load_settings(overrides={"http": {"new_sessions_per_client": rate}})


def test_the_tool_budget_comes_from_the_file_the_environment_or_a_flag(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert load_settings().execution.budget_seconds == 5.0
    path = write(tmp_path, {"execution": {"budget_seconds": 2}})
    assert load_settings(path).execution.budget_seconds == 2.0
    monkeypatch.setenv("HOROLOGE_EXECUTION__BUDGET_SECONDS", "3.5")
    assert load_settings(path).execution.budget_seconds == 3.5
    assert load_settings(path, {"execution": {"budget_seconds": 0.5}}).execution.budget_seconds == 0.5


def test_port_zero_lets_the_system_pick_and_a_negative_port_is_refused() -> None:
    assert load_settings(overrides={"server": {"port": 0}}).server.port == 0  # the "listening on" line names it
    with pytest.raises(ConfigError):
        load_settings(overrides={"server": {"port": -1}})
