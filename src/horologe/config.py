"""Settings: command-line flags > environment > config file (the seed's JSON format) > defaults.

Environment variables are `HOROLOGE_<SECTION>__<KEY>` (e.g. `HOROLOGE_TIME__DEFAULT_TIMEZONE`), plus a few flat
names (`FLAT_ENV`): the seed's `DEFAULT_TIMEZONE`, shorter `HOROLOGE_*` spellings, and the `PORT` and `HOST` that
hosting platforms set. A flat name set to the empty string counts as unset (a client's form left blank).
"""

from __future__ import annotations

import ipaddress
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final, Literal, get_args
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_settings import (
    BaseSettings,
    JsonConfigSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from horologe.core.errors import TimeError
from horologe.core.format import OutputFormat
from horologe.core.zones import resolve_zone
from horologe.places import gazetteer

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
# Flat variable names and where they land in the nested settings; a later name of the same key wins over an earlier
# one, and every `HOROLOGE_<SECTION>__<KEY>` name wins over them all.
FLAT_ENV: Mapping[str, tuple[str, str]] = {
    "DEFAULT_TIMEZONE": ("time", "default_timezone"),  # the seed's
    "HOROLOGE_DEFAULT_TIMEZONE": ("time", "default_timezone"),
    "HOROLOGE_LOG_LEVEL": ("logging", "level"),
    "HOROLOGE_TOOLSETS": ("capabilities", "toolsets"),
    "HOST": ("server", "host"),  # what hosting platforms set for an HTTP server (Smithery, PaaS, containers)
    "PORT": ("server", "port"),
}
Toolset = Literal["default", "all", "core", "relative", "calendar", "schedule", "zones", "memory"]
TOOLSET_NAMES: Final[tuple[str, ...]] = get_args(Toolset)
"""Which tools are offered: `core` (get_current_time, convert_timezone, calculate_duration, get_timezone_info; always
on), `relative` (resolve_time_expression), `calendar` (add_time, business_days, list_holidays, date_info), `schedule`
(next_occurrences, find_meeting_time), `zones` (list_timezones, timezone_history), `format` (format_time), `memory`
(preferences, timer); `default` is the transport's default set, `all` every one (`horologe.tools.registry`)."""


LOOPBACK_HOSTS: Final = ("127.0.0.1", "localhost", "[::1]")


def is_loopback(host: str) -> bool:
    """Whether a bind address only accepts connections from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _optional_rate(value: str) -> str:
    """A rate in `limits` notation ('' for none), or a ValueError saying what one looks like."""
    try:
        if value.strip():
            _check_rate(value)
    except ValueError:
        raise ValueError(f"{value!r} is not a rate like '600/minute' or '10/second;300/minute'") from None
    return value


class ConfigError(Exception):
    """The configuration cannot be used; the message names the bad key and says how to fix it."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ServerSection(_Section):
    """Identity and transport of the server."""

    name: str = Field(default="horologe", min_length=1, max_length=100)
    version: str | None = Field(default=None, max_length=100)
    """Accepted because the seed's configuration file has it, and not used: `serverInfo.version` is always horologe's
    own version, the one a bug report needs."""
    transport: Literal["stdio", "http"] = "stdio"
    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=0, le=65535, description='0: any free port (the "listening on" line names it)')
    website_url: str | None = Field(default=None, pattern=r"^https?://\S+$", max_length=2000)
    """Where people learn about this deployment (`serverInfo.websiteUrl`, 2025-11-25 and later)."""
    icon_url: str | None = Field(default=None, pattern=r"^https://\S+$", max_length=2000)
    """An icon for clients to show (`serverInfo.icons`), served over https from a domain the operator trusts."""


class CapabilitiesSection(_Section):
    """Which MCP capabilities are offered, and which toolsets (see `TOOLSET_NAMES`)."""

    tools: bool = True
    resources: bool = True
    prompts: bool = True
    toolsets: tuple[Toolset, ...] = ("default",)

    @field_validator("toolsets", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):  # `--toolsets core,calendar` and HOROLOGE_TOOLSETS=core,calendar
            return tuple(name.strip().lower() for name in value.split(",") if name.strip())
        return value

    @field_validator("toolsets")
    @classmethod
    def _some(cls, value: tuple[Toolset, ...]) -> tuple[Toolset, ...]:
        if not value:
            raise ValueError(f"name at least one toolset: {', '.join(TOOLSET_NAMES)}")
        return value


class TimeSection(_Section):
    """Time defaults: the default zone, formats offered, precision of 'now'.

    `default_timezone` is 'auto' unless set: the host's zone over stdio (the user's own machine) and UTC over HTTP
    (a shared server has no user's zone); 'local' is always the host's zone.
    """

    default_timezone: str = "auto"
    supported_formats: tuple[OutputFormat, ...] = ALL_FORMATS
    precision: Literal["seconds", "milliseconds", "microseconds"] = "milliseconds"

    @field_validator("default_timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        if value.strip().lower() in ("local", "auto"):
            return value.strip().lower()
        try:
            resolve_zone(value, places=gazetteer())
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
    access_log: bool = Field(default=True, description="one INFO line per request (none above log level INFO)")
    graceful_shutdown_seconds: float = Field(default=20.0, ge=0, le=600)
    header_timeout_seconds: float = Field(
        default=10.0, gt=0, le=600, description="A request's line and headers must arrive within this (else 408)"
    )
    body_timeout_seconds: float = Field(
        default=30.0, gt=0, le=3600, description="Then its body must arrive within this (else 408)"
    )
    max_header_bytes: int = Field(
        default=65_536, ge=4096, le=1_048_576, description="A request's line and headers together (else 431)"
    )
    keep_alive_seconds: int = Field(default=5, ge=1, le=600, description="Idle keep-alive connections close after")
    max_connections: int = Field(
        default=1000, ge=1, le=1_000_000, description="Open connections per process; requests beyond get 503"
    )
    max_buffered_body_bytes: int = Field(
        default=32 * 1_048_576,
        ge=1_048_576,
        le=4096 * 1_048_576,
        description="Request bodies one process holds at once; a body that does not fit gets 503",
    )
    max_sessions: int = Field(default=1000, ge=1, le=1_000_000, description="--stateful: open sessions per process")
    session_idle_seconds: float = Field(
        default=600.0, gt=0, le=86_400, description="--stateful: a session without requests for this long is closed"
    )
    new_sessions_per_client: str = Field(
        default="10/minute", description="--stateful: sessions one client IP (or token subject) may open; '' = any"
    )

    @field_validator("new_sessions_per_client")
    @classmethod
    def _session_rate(cls, value: str) -> str:
        return _optional_rate(value)

    @model_validator(mode="after")
    def _bodies_fit(self) -> HttpSection:
        if self.max_buffered_body_bytes < self.max_body_bytes:
            raise ValueError(
                f"http.max_buffered_body_bytes ({self.max_buffered_body_bytes}) must be at least http.max_body_bytes "
                f"({self.max_body_bytes}), or no body of the largest size could be received"
            )
        return self


class ExecutionSection(_Section):
    """How tool calls run: off the event loop, each under a time budget (a call past it ends in an error)."""

    budget_seconds: float = Field(
        default=5.0, gt=0, le=600, description="Most wall time one tool call may compute before it is stopped"
    )


class AuthSection(_Section):
    """OAuth 2.1 resource server (HTTP only): bearer tokens checked by JWKS or RFC 7662 introspection."""

    enabled: bool = False
    issuer: str = Field(default="", description="The authorization server's issuer URL (the tokens' `iss`)")
    resource: str = Field(default="", description="Canonical URL of this server's /mcp (RFC 8707 audience)")
    jwks_url: str = Field(default="", description="JWKS of the issuer, for JWT access tokens")
    jwks_cache_seconds: float = Field(default=300.0, ge=1, le=86_400)
    jwks_min_refresh_seconds: float = Field(default=30.0, ge=0, le=3600, description="Refetch floor on unknown kid")
    algorithms: tuple[str, ...] = (
        "RS256",
        "RS384",
        "RS512",
        "PS256",
        "PS384",
        "PS512",
        "ES256",
        "ES384",
        "ES512",
        "EdDSA",
    )
    introspection_endpoint: str = Field(default="", description="RFC 7662 endpoint, for opaque tokens")
    introspection_client_id: str = ""
    introspection_client_secret: str = Field(default="", repr=False)
    introspection_cache_seconds: float = Field(default=30.0, ge=0, le=600)
    required_scopes: tuple[str, ...] = Field(default=("horologe:read",), description="Needed by every request")
    tool_scopes: dict[str, tuple[str, ...]] = Field(default_factory=dict, description="Extra scopes per tool")
    implied_scopes: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description='Scope hierarchy: {"horologe:admin": ["horologe:read"]}'
    )
    protect_metrics: bool = False
    metrics_scopes: tuple[str, ...] = ("horologe:metrics",)
    clock_skew_seconds: float = Field(default=30.0, ge=0, le=300)
    http_timeout_seconds: float = Field(default=3.0, gt=0, le=30)

    @field_validator("algorithms")
    @classmethod
    def _asymmetric_only(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        allowed = {"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}
        refused = [name for name in value if name not in allowed]
        if refused or not value:
            raise ValueError(f"use asymmetric JWS algorithms only, from {sorted(allowed)}; not {refused or 'none'}")
        return value

    @field_validator("required_scopes", "metrics_scopes")
    @classmethod
    def _scope_tokens(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for scope in value:
            if not scope or any(ch in scope for ch in ' "\\') or not scope.isprintable():
                raise ValueError(f"{scope!r} is not a valid OAuth scope (no spaces, quotes or backslashes)")
        return value

    @model_validator(mode="after")
    def _complete_when_enabled(self) -> AuthSection:
        for key in ("issuer", "resource", "jwks_url", "introspection_endpoint"):
            value: str = getattr(self, key)
            if not value:
                continue
            parts = urlsplit(value)
            if parts.scheme not in ("https", "http") or not parts.hostname or parts.fragment:
                raise ValueError(f"auth.{key}: {value!r} must be an absolute http(s) URL without a fragment")
            if parts.scheme == "http" and not is_loopback(parts.hostname):
                raise ValueError(f"auth.{key}: {value!r} must use https (plain http only on loopback)")
        if not self.enabled:
            return self
        for key in ("issuer", "resource"):
            if not getattr(self, key):
                raise ValueError(f"auth.{key} is required when auth.enabled is true")
        if not self.jwks_url and not self.introspection_endpoint:
            raise ValueError("auth.jwks_url or auth.introspection_endpoint is required when auth.enabled is true")
        if self.introspection_endpoint and not self.introspection_client_id:
            raise ValueError("auth.introspection_client_id is required with auth.introspection_endpoint")
        return self


class RateLimitSection(_Section):
    """Rate limiting (HTTP only): per token subject or client IP, in memory or shared through Redis."""

    enabled: bool = False
    storage_uri: str = Field(default="memory://", description="memory:// or redis://host:port/db (rediss:// for TLS)")
    default: str = Field(default="600/minute", description="limits notation; ';' joins several; '' = none")
    methods: dict[str, str] = Field(default_factory=dict, description='Per MCP method: {"tools/list": "60/minute"}')
    tools: dict[str, str] = Field(default_factory=dict, description='Per tool: {"convert_timezone": "10/second"}')
    trusted_proxies: tuple[str, ...] = Field(default=(), description="IPs/CIDRs whose X-Forwarded-For is believed")
    fail_mode: Literal["open", "closed"] = "open"
    storage_timeout_seconds: float = Field(default=0.25, gt=0, le=5)
    retry_seconds: float = Field(default=1.0, gt=0, le=60, description="Pause before retrying an unreachable store")
    auth_failures: str = Field(
        default="30/minute",
        description="Refused tokens per client IP before its requests get 429 unchecked (auth on; '' = no limit)",
    )

    @field_validator("default", "auth_failures")
    @classmethod
    def _default_rate(cls, value: str) -> str:
        return _optional_rate(value)

    @field_validator("methods", "tools")
    @classmethod
    def _rates(cls, value: dict[str, str]) -> dict[str, str]:
        for name, rate in value.items():
            try:
                _check_rate(rate)
            except ValueError:
                raise ValueError(f"{name}: {rate!r} is not a rate like '60/minute' or '10/second;300/minute'") from None
        return value

    @field_validator("trusted_proxies")
    @classmethod
    def _networks(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for network in value:
            try:
                ipaddress.ip_network(network, strict=False)
            except ValueError:
                raise ValueError(f"{network!r} is not an IP address or CIDR like '10.0.0.0/8'") from None
        return value

    @field_validator("storage_uri")
    @classmethod
    def _storage(cls, value: str) -> str:
        scheme = urlsplit(value).scheme
        if value != "memory://" and (scheme not in ("redis", "rediss") or not urlsplit(value).hostname):
            raise ValueError(f"{value!r}: use memory:// or redis://host:port/db (rediss:// for TLS)")
        return value


def _check_rate(rate: str) -> None:
    """Raise ValueError unless `rate` parses as rates ('10/second;300/minute'); unchecked without the http extra."""
    try:
        from limits import parse_many  # the rate-limit library loads only when rates are configured
    except ImportError:  # a stdio install: rates only matter over HTTP, which names the missing extra first
        return
    parse_many(rate)


class I18nSection(_Section):
    """Languages (SEP-2792): the language used without a usable preference, and whether descriptions are translated.

    Descriptions stay canonical English by default: the SEP does not expect them translated, and models read
    them. `translate_descriptions` translates those our catalogs carry (others stay English).
    """

    default_language: Literal["en", "de", "fr", "es", "ja", "zh-Hans"] = "en"
    translate_descriptions: bool = False


class StateSection(_Section):
    """Client-side state (SEP-1655): HMAC keys by id (rotate by adding a key, then switching `active_key`).

    Without keys, stdio uses a random per-process key; HTTP does too but warns at start, because replicas
    (and workers) must share a key to read each other's state. Keys need at least 32 characters.
    """

    enabled: bool = True
    local_fallback: bool = Field(
        default=True,
        description="stdio: keep preferences in a local file and timers in the process when the client keeps no state",
    )
    local_path: Path | None = Field(default=None, description="The local preferences file (default: user state dir)")
    keys: dict[str, str] = Field(default_factory=dict, repr=False, description="key id -> secret")
    keys_file: Path | None = Field(
        default=None, description='A JSON file {"key id": "secret"} read at start (a mounted secret); adds to keys'
    )
    active_key: str | None = Field(default=None, description="key id new state is signed with (default: the only key)")
    default_max_age_seconds: int = Field(default=34_560_000, ge=60, le=34_560_000)

    @model_validator(mode="before")
    @classmethod
    def _keys_from_file(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not data.get("keys_file"):
            return data
        path = Path(data["keys_file"])
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"keys_file {str(path)!r} cannot be read as JSON: {exc}") from None
        if not isinstance(loaded, dict) or not all(isinstance(v, str) for v in loaded.values()):
            raise ValueError(f'keys_file {str(path)!r} must hold a JSON object like {{"k1": "a secret of 32+ chars"}}')
        return {**data, "keys": {**loaded, **(data.get("keys") or {})}}

    @field_validator("keys")
    @classmethod
    def _strong(cls, value: dict[str, str]) -> dict[str, str]:
        for key_id, secret in value.items():
            if not key_id or len(secret) < 32:
                raise ValueError(f"key {key_id!r}: use a non-empty id and a secret of at least 32 characters")
        return value

    @field_validator("active_key")
    @classmethod
    def _active_known(cls, value: str | None, info: Any) -> str | None:
        keys = info.data.get("keys") or {}
        if value is not None and value not in keys:
            raise ValueError(f"{value!r} is not one of the configured keys")
        return value


class LoggingSection(_Section):
    """Logging on stderr (stdout belongs to the protocol)."""

    level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    @field_validator("level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value


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
    execution: ExecutionSection = ExecutionSection()
    auth: AuthSection = AuthSection()
    rate_limit: RateLimitSection = RateLimitSection()
    i18n: I18nSection = I18nSection()
    state: StateSection = StateSection()
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
    """The flat environment variables of `FLAT_ENV` (`DEFAULT_TIMEZONE`, `PORT`, ...); empty ones count as unset."""

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        values: dict[str, dict[str, str]] = {}
        # Iterate in reverse so the more specific HOROLOGE_ name wins over the seed's name.
        for env_name, (section, key) in reversed(list(FLAT_ENV.items())):
            if os.environ.get(env_name, "").strip():
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
