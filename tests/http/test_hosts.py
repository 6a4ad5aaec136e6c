"""The Host and Origin allow-lists, and which bind addresses are loopback."""

from __future__ import annotations

import pytest

from horologe.config import is_loopback
from horologe.http.hosts import AccessPolicy


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("127.8.9.1", True),
        ("0.0.0.0", False),
        ("10.0.0.1", False),
        ("example.com", False),
    ],
)
def test_loopback_addresses_are_recognised(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_loopback_bind_defaults_to_localhost_names_on_any_port() -> None:
    policy = AccessPolicy.for_bind("127.0.0.1", (), ())
    assert policy.host_allowed("127.0.0.1:8080") and policy.host_allowed("localhost") and policy.host_allowed("[::1]:9")
    assert not policy.host_allowed("evil.example") and not policy.host_allowed("localhost.evil.example:80")
    assert not policy.host_allowed(None)
    assert policy.origin_allowed("http://localhost:3000") and policy.origin_allowed("https://127.0.0.1:8443")
    assert not policy.origin_allowed("http://evil.example") and not policy.origin_allowed("http://localhost.evil:1")


def test_a_public_bind_without_a_host_list_is_refused() -> None:
    with pytest.raises(ValueError, match="--allowed-host"):
        AccessPolicy.for_bind("0.0.0.0", (), ())


def test_configured_hosts_and_port_wildcards() -> None:
    policy = AccessPolicy.for_bind("0.0.0.0", ("time.example.com", "api.example.com:*", "exact.example:8443"), ())
    assert policy.host_allowed("time.example.com") and policy.host_allowed("TIME.example.com:443")
    assert policy.host_allowed("api.example.com:1234") and policy.host_allowed("exact.example:8443")
    assert not policy.host_allowed("exact.example:8444") and not policy.host_allowed("api.example.com:abc")
    for digits in ("\uff11\uff12", "\u00b2", "\u0661\u0662"):  # fullwidth, superscript, Arabic-Indic
        assert not policy.host_allowed(f"api.example.com:{digits}") and not policy.host_allowed(
            f"time.example.com:{digits}"
        )
    assert policy.origin_allowed("https://time.example.com") and not policy.origin_allowed("https://other.example")


def test_star_accepts_any_host_only_when_asked() -> None:
    policy = AccessPolicy.for_bind("0.0.0.0", ("*",), ("https://app.example",))
    assert policy.host_allowed("anything:1")
    assert policy.origin_allowed("https://app.example") and not policy.origin_allowed("https://evil.example")
