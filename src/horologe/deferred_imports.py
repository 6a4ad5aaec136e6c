"""Import the SDK's server modules without first running the SDK's package `__init__` files.

`mcp/__init__.py` imports the SDK's client (and with it httpx) and `mcp/server/__init__.py` the high-level
`MCPServer` (measured: about 0.2 s and 12 MiB of a stdio server's start, none of it used by a server).
`defer_package_init` registers such a package under its real search path, so its submodules import as
usual, and runs the package's own `__init__` the first time anyone asks it for a name it has not got
(`from mcp import ClientSession` keeps working). Only the command line calls this: it owns the process.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


class _DeferredPackage(ModuleType):
    """A package whose `__init__` has not run yet; the first unknown attribute runs it."""

    def __getattr__(self, name: str) -> object:
        # From here on a plain module: no recursion while `__init__` runs.
        self.__class__ = ModuleType  # type: ignore[assignment]
        spec = self.__spec__
        assert spec is not None and spec.loader is not None
        spec.loader.exec_module(self)
        return getattr(self, name)


def defer_package_init(*names: str) -> None:
    """Register each package (parents first) so that its `__init__` runs only when a name from it is needed."""
    for name in names:
        if name in sys.modules:
            continue
        spec = importlib.util.find_spec(name)
        if spec is None or spec.submodule_search_locations is None:
            raise ImportError(f"{name} is not an importable package")
        package = _DeferredPackage(name)
        package.__spec__ = spec
        package.__loader__ = spec.loader
        package.__file__ = spec.origin
        package.__path__ = list(spec.submodule_search_locations)
        package.__package__ = name
        sys.modules[name] = package
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(sys.modules[parent], child, package)
