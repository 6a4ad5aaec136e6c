"""Nothing a client sends can grow a cache without bound: every cache in the package is bounded, or keyed only by
what the server itself holds (zone names of the database, its languages, its tools)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from typing import Any

import horologe

# Unbounded caches, each keyed by data of the server's own (finite, known at start), never by request text.
KEYED_BY_SERVER_DATA = {
    "horologe.core.tzdb._tzif_bytes": "a database zone key (callers resolve the name first)",
    "horologe.core.tzdb.get_zone": "a database zone key (callers resolve the name first)",
    "horologe.core.tzdb._compiled": "a canonical database zone key",
    "horologe.core.relative_grammar._table": "one of the grammar's languages and one of its table names",
    "horologe.i18n.catalog.translations": "one of the server's catalog languages",
    "horologe.protocol.listing.tool_entry": "a tool spec, a catalog language, a setting",
    "horologe.tools.registry.tool_schemas": "a tool spec",
    "horologe.protocol.handlers.declares_mcp_headers": "a tool spec",
}


def caches() -> Iterator[tuple[str, Any]]:
    """Every functools cache defined in the package: module functions and class attributes."""
    for module_info in pkgutil.walk_packages(horologe.__path__, "horologe."):
        if module_info.name.endswith("__main__"):
            continue  # running it is the command line
        module = importlib.import_module(module_info.name)
        holders: list[tuple[str, Any]] = [(module.__name__, module)]
        holders += [
            (f"{module.__name__}.{name}", value)
            for name, value in list(vars(module).items())
            if inspect.isclass(value) and value.__module__ == module.__name__
        ]
        for prefix, holder in holders:
            for name, value in list(vars(holder).items()):
                if callable(getattr(value, "cache_parameters", None)) and getattr(value, "__module__", None) == (
                    module.__name__
                ):
                    yield f"{prefix}.{name}", value


def test_every_cache_keyed_by_request_data_has_a_bound() -> None:
    found = dict(caches())
    assert len(found) > 20, "the walk found too few caches to be looking in the right place"
    unbounded = {name for name, cached in found.items() if cached.cache_parameters()["maxsize"] is None}
    arguments = {name for name in unbounded if inspect.signature(found[name]).parameters}
    assert arguments <= KEYED_BY_SERVER_DATA.keys(), (
        f"unbounded caches keyed by arguments: {arguments - set(KEYED_BY_SERVER_DATA)}"
    )
    assert set(KEYED_BY_SERVER_DATA) <= arguments, f"stale entries: {set(KEYED_BY_SERVER_DATA) - arguments}"


def test_the_host_check_remembers_accepted_values_only() -> None:
    from horologe.http import hosts

    policy = hosts.AccessPolicy(("localhost:*",), ())
    before = set(hosts._accepted)
    for n in range(3000):
        assert not policy.host_allowed(f"evil{n}.example")
    assert policy.host_allowed("localhost:8080")
    assert hosts._accepted - before <= {("localhost:8080", ("localhost:*",))}
    for port in range(3000):
        assert policy.host_allowed(f"localhost:{port}")
    assert len(hosts._accepted) <= hosts.MOST_REMEMBERED


def test_locale_lookups_keep_only_cldr_locales() -> None:
    from horologe.i18n import cldr

    before = set(cldr._loaded)
    for n in range(2000):
        assert cldr.first_week_day(f"de-AT-x-u{n}") == 0
    assert len(set(cldr._loaded) - before) <= 2
    assert cldr.first_week_day("en") == 6 and cldr.babel_locale("qq") is None and cldr.babel_locale("x" * 50) is None
