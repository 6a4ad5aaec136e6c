"""Auth configuration: off by default, complete when on, and errors that name the key."""

from __future__ import annotations

from typing import Any

import pytest

from horologe.config import ConfigError, load_settings
from horologe.http.auth.scopes import ScopePolicy
from horologe.http.auth.tokens import audience_matches, canonical_url, expand_scopes
from horologe.http.request import operations

BASE = {"enabled": True, "issuer": "https://as.example", "resource": "https://time.example/mcp"}


def test_auth_is_off_by_default() -> None:
    assert load_settings().auth.enabled is False


@pytest.mark.parametrize(
    ("auth", "named"),
    [
        ({"enabled": True}, "auth.issuer"),
        ({**BASE, "resource": ""}, "auth.resource"),
        (BASE, "auth.jwks_url or auth.introspection_endpoint"),
        ({**BASE, "introspection_endpoint": "https://as.example/i"}, "auth.introspection_client_id"),
        ({**BASE, "jwks_url": "http://as.example/jwks"}, "must use https"),
        ({**BASE, "jwks_url": "ftp://as.example/jwks"}, "auth.jwks_url"),
        ({**BASE, "resource": "https://time.example/mcp#x", "jwks_url": "https://as.example/j"}, "auth.resource"),
        ({"algorithms": ["HS256"]}, "auth.algorithms"),
        ({"algorithms": ["none"]}, "auth.algorithms"),
        ({"required_scopes": ["a b"]}, "auth.required_scopes"),
        ({"clock_skew_seconds": 9999}, "auth.clock_skew_seconds"),
        ({"unknown": 1}, "auth.unknown"),
    ],
)
def test_incomplete_or_unsafe_auth_config_fails_naming_the_key(auth: dict[str, Any], named: str) -> None:
    with pytest.raises(ConfigError, match=named.replace(".", r"\.").replace("(", r"\(")):
        load_settings(overrides={"auth": auth})


def test_auth_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOROLOGE_AUTH__ENABLED", "true")
    monkeypatch.setenv("HOROLOGE_AUTH__ISSUER", "https://as.example")
    monkeypatch.setenv("HOROLOGE_AUTH__RESOURCE", "https://time.example/mcp")
    monkeypatch.setenv("HOROLOGE_AUTH__JWKS_URL", "https://as.example/jwks")
    monkeypatch.setenv("HOROLOGE_AUTH__TOOL_SCOPES", '{"set_preference": ["horologe:write"]}')
    auth = load_settings().auth
    assert auth.enabled and auth.tool_scopes == {"set_preference": ("horologe:write",)}


def test_canonical_resource_urls() -> None:
    assert canonical_url("HTTPS://Time.Example/mcp/") == "https://time.example/mcp"
    assert audience_matches(["x", "https://time.example/mcp"], "https://time.example/mcp")
    assert not audience_matches("https://time.example/mcp2", "https://time.example/mcp")
    assert not audience_matches(None, "https://time.example/mcp") and not audience_matches([1], "https://x")


def test_scope_policy_unions_tool_scopes_and_follows_the_hierarchy() -> None:
    policy = ScopePolicy(("r",), {"t": ("w",)}, {"admin": ("w",), "w": ("r",)})
    batch = [{"method": "tools/call", "params": {"name": "t"}}, {"method": "tools/call", "params": {"name": "u"}}]
    assert policy.needed(operations(batch)) == ("r", "w")
    assert policy.needed(()) == ("r",)
    assert policy.missing(("r", "w"), ["admin"]) == [] and policy.missing(("r", "w"), ["r"]) == ["w"]
    assert expand_scopes(["admin"], {"admin": ("w",), "w": ("r", "admin")}) == {"admin", "w", "r"}
