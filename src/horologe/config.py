"""Settings: command-line flags > environment > config file (the seed's JSON format) > defaults.

Environment variables are `HOROLOGE_<SECTION>__<KEY>` (e.g. `HOROLOGE_TIME__DEFAULT_TIMEZONE`), plus the
seed's flat `DEFAULT_TIMEZONE` and the shorter `HOROLOGE_DEFAULT_TIMEZONE`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    JsonConfigSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from horologe import __version__
from horologe.core.errors import TimeError
from horologe.core.format import OutputFormat
from horologe.core.zones import resolve_zone

ALL_FORMATS: tuple[OutputFormat, ...] = (
    "iso8601",
    "rfc3339",
    "rfc2822",
    "http",
    "unix",
    "unix_ms",
    "human",
    "custom",
)
# The seed's flat variable names, and where they land in the nested settings.
FLAT_ENV: Mapping[str, tuple[str, str]] = {
    "DEFAULT_TIMEZONE": ("time", "default_timezone"),
    "HOROLOGE_DEFAULT_TIMEZONE": ("time", "default_timezone"),
    "HOROLOGE_LOG_LEVEL": ("logging", "level"),
}


class ConfigError(Exception):
    """The configuration cannot be used; the message names the bad key and says how to fix it."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ServerSection(_Section):
    """Identity and transport of the server."""

    name: str = Field(default="horologe", min_length=1, max_length=100)
    version: str = __version__
    transport: Literal["stdio", "http"] = "stdio"
    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=1, le=65535)


class CapabilitiesSection(_Section):
    """Which MCP capabilities are offered."""

    tools: bool = True
    resources: bool = True
    prompts: bool = True


class TimeSection(_Section):
    """Time defaults: the default zone ('local' = the host's zone), formats offered, precision of 'now'."""

    default_timezone: str = "UTC"
    supported_formats: tuple[OutputFormat, ...] = ALL_FORMATS
    precision: Literal["seconds", "milliseconds", "microseconds"] = "milliseconds"

    @field_validator("default_timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        if value.strip().lower() == "local":
            return "local"
        try:
            resolve_zone(value)
        except TimeError as exc:
            raise ValueError(exc.message) from None
        return value

    @field_validator("supported_formats")
    @classmethod
    def _not_empty(cls, value: tuple[OutputFormat, ...]) -> tuple[OutputFormat, ...]:
        if not value:
            raise ValueError('list at least one format, e.g. ["iso8601", "unix"]')
        return value


class HttpSection(_Section):
    """The HTTP transport: who may call, how much, how long, and how it is served."""

    allowed_hosts: tuple[str, ...] = Field(
        default=(), description="Host header values accepted ('api.example.com', 'host:*' for any port)"
    )
    allowed_origins: tuple[str, ...] = Field(default=(), description="Origin values accepted ('https://app.example')")
    cors_origins: tuple[str, ...] = Field(default=(), description="Origins given CORS headers; none by default")
    max_body_bytes: int = Field(default=1_048_576, ge=1024, le=64 * 1_048_576)
    max_json_depth: int = Field(default=32, ge=4, le=512)
    request_timeout_seconds: float = Field(default=30.0, gt=0, le=3600)
    stateful: bool = Field(default=False, description="2025 era: sessions with SSE streams instead of stateless")
    workers: int = Field(default=1, ge=1, le=64)
    access_log: bool = True
    graceful_shutdown_seconds: float = Field(default=20.0, ge=0, le=600)


class AuthSection(_Section):
    """OAuth 2.1 resource server (HTTP only). Owned by the auth work (issue 4)."""

    enabled: bool = False


class RateLimitSection(_Section):
    """Rate limiting (HTTP only). Owned by the auth work (issue 4)."""

    enabled: bool = False


class I18nSection(_Section):
    """Languages (SEP-2792). Owned by the language work (issue 6)."""

    default_language: str = "en"


class LoggingSection(_Section):
    """Logging on stderr (stdout belongs to the protocol)."""

    level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "WARNING"

    @field_validator("level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value


class Settings(BaseSettings):
    """All settings of a horologe process."""

    model_config = SettingsConfigDict(
        env_prefix="HOROLOGE_",
        env_nested_delimiter="__",
        extra="forbid",
        frozen=True,
    )

    server: ServerSection = ServerSection()
    capabilities: CapabilitiesSection = CapabilitiesSection()
    time: TimeSection = TimeSection()
    http: HttpSection = HttpSection()
    auth: AuthSection = AuthSection()
    rate_limit: RateLimitSection = RateLimitSection()
    i18n: I18nSection = I18nSection()
    logging: LoggingSection = LoggingSection()

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Flags (init) > HOROLOGE_* env > the seed's flat env names > the JSON file."""
        return init_settings, env_settings, _FlatEnvSource(settings_cls), JsonConfigSettingsSource(settings_cls)


class _FlatEnvSource(PydanticBaseSettingsSource):
    """The seed's flat environment variables (`DEFAULT_TIMEZONE`)."""

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        values: dict[str, dict[str, str]] = {}
        # Iterate in reverse so the more specific HOROLOGE_ name wins over the seed's name.
        for env_name, (section, key) in reversed(list(FLAT_ENV.items())):
            if env_name in os.environ:
                values.setdefault(section, {}).setdefault(key, os.environ[env_name])
        return values


def load_settings(
    config_file: Path | None = None, overrides: Mapping[str, Mapping[str, Any]] | None = None
) -> Settings:
    """Build settings from all sources; raise ConfigError naming the bad key on invalid input."""
    settings_cls: type[Settings] = Settings
    if config_file is not None:
        _check_config_file(config_file)
        config = SettingsConfigDict(**{**Settings.model_config, "json_file": config_file})
        settings_cls = type("FileSettings", (Settings,), {"model_config": config})
    try:
        layers: dict[str, Any] = {k: dict(v) for k, v in (overrides or {}).items()}
        return settings_cls(**layers)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, config_file)) from None


def _check_config_file(path: Path) -> None:
    if not path.is_file():
        raise ConfigError(f"config file {str(path)!r} does not exist or is not a file")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"config file {str(path)!r} cannot be read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(f"config file {str(path)!r} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f'config file {str(path)!r} must hold a JSON object like {{"time": {{...}}}}')


def _describe(exc: ValidationError, config_file: Path | None) -> str:
    lines = ["invalid configuration:"]
    for error in exc.errors():
        key = ".".join(str(part) for part in error["loc"]) or "(root)"
        message = error["msg"].removeprefix("Value error, ")
        if error["type"] == "extra_forbidden":
            message = "unknown key (check the spelling; see `horologe serve --help`)"
        lines.append(f"  {key}: {message}")
    if config_file is not None:
        lines.append(f"  (sources: flags, HOROLOGE_* environment, {config_file})")
    return "\n".join(lines)
