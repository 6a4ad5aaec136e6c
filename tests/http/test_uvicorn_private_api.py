"""What `horologe.http.connection` takes from uvicorn's private modules, held to the version range we declare.

The deadline protocols subclass uvicorn's `H11Protocol` and `HttpToolsProtocol` and read their internals
(`flow`, `cycle`, `connections`, `tasks`, `limit_concurrency`, h11's `conn`); `DrainingServer` subclasses
`Server` and reads `servers`, `server_state`, `lifespan` and `config`. None of it is public API: when an upgrade
moves any of it, these tests fail naming what moved, before a slow client or a shutdown finds out.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import inspect
from typing import Any

import pytest
import uvicorn
from packaging.requirements import Requirement
from packaging.version import Version
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import Server, ServerState

from horologe.http.connection import DrainingServer, H11Deadlines, HttpToolsDeadlines

PROTOCOL_ATTRIBUTES = ("flow", "cycle", "app", "limit_concurrency", "connections", "tasks", "transport", "loop")
HOOKS = {
    H11Protocol: ("data_received", "connection_made", "connection_lost"),
    HttpToolsProtocol: (
        "data_received",
        "connection_made",
        "connection_lost",
        "on_message_begin",
        "on_headers_complete",
        "on_message_complete",
    ),
}


def declared_range() -> Requirement:
    """horologe's own requirement on uvicorn, as installed."""
    requirements = importlib.metadata.requires("horologe") or []
    found = [Requirement(text) for text in requirements if Requirement(text).name == "uvicorn"]
    assert found, "pyproject.toml must declare uvicorn: http/connection.py subclasses its private classes"
    return found[0]


def test_the_installed_uvicorn_is_the_range_we_declare_and_the_range_is_one_minor_release() -> None:
    requirement = declared_range()
    installed = Version(uvicorn.__version__)
    assert installed in requirement.specifier, f"uvicorn {installed} is outside {requirement}"
    assert Version(f"{installed.major}.{installed.minor + 1}") not in requirement.specifier, (
        f"{requirement} admits the next minor release: pin uvicorn to the releases this module is tested with"
    )


@pytest.mark.parametrize("base", [H11Protocol, HttpToolsProtocol], ids=["h11", "httptools"])
def test_the_protocol_internals_the_deadlines_read_are_still_there(base: type[Any]) -> None:
    for hook in HOOKS[base]:
        assert callable(getattr(base, hook, None)), f"uvicorn's {base.__name__}.{hook} moved"
    loop = asyncio.new_event_loop()
    try:
        config = Config(app=_app, limit_concurrency=3)
        config.load()
        protocol = base(config=config, server_state=ServerState(), app_state={}, _loop=loop)
        missing = [name for name in PROTOCOL_ATTRIBUTES if name != "transport" and not hasattr(protocol, name)]
        assert not missing, f"uvicorn's {base.__name__} no longer has {missing}"
        assert protocol.limit_concurrency == 3
        assert protocol.cycle is None
        if base is H11Protocol:
            assert hasattr(protocol, "conn"), "uvicorn's H11Protocol no longer keeps h11's connection in `conn`"
    finally:
        loop.close()


@pytest.mark.parametrize(
    ("ours", "base"), [(H11Deadlines, H11Protocol), (HttpToolsDeadlines, HttpToolsProtocol)], ids=["h11", "httptools"]
)
def test_the_deadline_classes_build_on_uvicorns_constructor(ours: type[Any], base: type[Any]) -> None:
    assert ours.__mro__.index(base) == 2, "our deadline mixin sits right before uvicorn's protocol"
    parameters = list(inspect.signature(base).parameters)
    assert parameters[:3] == ["config", "server_state", "app_state"], f"the constructor moved: {parameters}"


def test_the_server_internals_the_draining_shutdown_reads_are_still_there() -> None:
    assert issubclass(DrainingServer, Server)
    assert list(inspect.signature(Server.shutdown).parameters) == ["self", "sockets"]
    server = Server(Config(app=_app))
    for name in ("server_state", "config"):
        assert hasattr(server, name), f"uvicorn's Server no longer has {name}"
    assert hasattr(server.server_state, "connections")
    source = inspect.getsource(Server)
    for used in ("self.servers", "self.lifespan"):
        assert used in source, f"uvicorn's Server no longer sets {used}"
    assert "http_protocol_class" in inspect.getsource(Config.load)


async def _app(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover - never called
    raise AssertionError
