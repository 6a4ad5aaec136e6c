"""Where tools keep what they remember for a user: the client's state, a file on this computer, or this process.

The preference and timer tools write through a `Memory`. Which one a request gets is decided once, when its
context is built (`horologe.protocol.context`):

- `client`: the client keeps state (SEP-1655, declared or shown by sending state): values travel signed in the
  client's state, so any replica can answer. Preferences in server scope, timers in session scope.
- `client_unverified`: the client's capability cannot be checked (stateless HTTP in the initialize era): state
  is set anyway, and tools say it is only kept if the client keeps state.
- `computer` / `process` (stdio, the client keeps no state): preferences in a JSON file in the user's state
  directory, so "remember my home zone" works in today's desktop clients and across restarts; timers in the
  server process, for as long as it runs.
- `nowhere` (HTTP, the client keeps no state): nothing persists, and tools say so.
- `unavailable` (stdio): the preferences file cannot be used (a symlink loop, a file where a directory should be,
  a directory at its path, no permission): the file store is off for this process, with one warning in the log,
  and tools say preferences are not kept. The file can only degrade itself, never a request.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, Protocol

from horologe.state import MAX_ITEMS, RequestState, Scope, StateFull

logger = logging.getLogger("horologe")

Where = Literal["client", "client_unverified", "computer", "process", "nowhere", "unavailable"]
MAX_LOCAL_BYTES: Final = 64 * 1024
LOCK_SECONDS: Final = 5.0
"""How long a write waits for another process's write to the preferences file (a longer hold is a stuck process)."""


class Memory(Protocol):
    """Named JSON values kept for one user; `where` says where they are kept."""

    @property
    def where(self) -> Where:
        """Where the values are kept."""
        ...

    def items(self) -> dict[str, Any]:
        """Every value, by name."""
        ...

    def get(self, name: str) -> Any:
        """A value, or None."""
        ...

    def set(self, name: str, value: Any) -> None:
        """Keep `value` under `name`; raises StateFull when no more values can be kept."""
        ...

    def delete(self, name: str) -> None:
        """Forget `name`."""
        ...

    def update(self, name: str, change: Callable[[Any], Any]) -> Any:
        """Replace the value of `name` with `change(current value)` in one step (None forgets it); returns it."""
        ...


def update_by_parts(memory: Memory, name: str, change: Callable[[Any], Any]) -> Any:
    """`Memory.update` for memories that only this request writes: get, change, set (or delete)."""
    value = change(memory.get(name))
    if value is None:
        memory.delete(name)
    else:
        memory.set(name, value)
    return value


@dataclass(slots=True)
class ClientMemory:
    """Values in one scope of the client's state (SEP-1655), under a common name prefix."""

    state: RequestState
    scope: Scope
    prefix: str
    verified: bool = True

    @property
    def where(self) -> Where:
        """`client`, or `client_unverified` when the client's capability cannot be checked."""
        return "client" if self.verified else "client_unverified"

    def items(self) -> dict[str, Any]:
        """Every value of this memory in the client's state."""
        return {
            name.removeprefix(self.prefix): item.value
            for name, item in self.state.items(self.scope).items()
            if name.startswith(self.prefix)
        }

    def get(self, name: str) -> Any:
        """A value from the client's state."""
        return self.state.get(self.scope, self.prefix + name)

    def set(self, name: str, value: Any) -> None:
        """Ask the client to keep a value (signed into the answer)."""
        self.state.set(self.scope, self.prefix + name, value)

    def delete(self, name: str) -> None:
        """Ask the client to forget a value."""
        self.state.delete(self.scope, self.prefix + name)

    def update(self, name: str, change: Callable[[Any], Any]) -> Any:
        """Change a value in the client's state."""
        return update_by_parts(self, name, change)


@dataclass(slots=True)
class ProcessMemory:
    """Values kept by this server process, for as long as it runs."""

    values: dict[str, Any] = field(default_factory=dict)
    where: Where = "process"

    def items(self) -> dict[str, Any]:
        """Every value."""
        return dict(self.values)

    def get(self, name: str) -> Any:
        """A value, or None."""
        return self.values.get(name)

    def set(self, name: str, value: Any) -> None:
        """Keep a value (at most as many as a client would be asked to keep)."""
        if name not in self.values and len(self.values) >= MAX_ITEMS:
            raise StateFull(f"at most {MAX_ITEMS} items can be kept")
        self.values[name] = value

    def delete(self, name: str) -> None:
        """Forget a value."""
        self.values.pop(name, None)

    def update(self, name: str, change: Callable[[Any], Any]) -> Any:
        """Change a value (one event loop thread at a time calls the tools that do)."""
        return update_by_parts(self, name, change)


class FileMemory:
    """Values in a small JSON file on this computer (the user's state directory), shared by every local process.

    The file is read again only when it changed on disk. A change is a read-modify-write under a lock file beside
    it, so two clients' servers on one computer lose none of each other's updates; the file is replaced atomically,
    and a symlinked file is written through its link, never replaced by a regular file. Any OS error on the path
    turns the store off for this process (`where` becomes 'unavailable') with one warning in the log: requests
    then go on without stored preferences, and nothing about the path reaches a client.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.where: Where = "computer"
        self._stamp: tuple[int, int] | None = None
        self._values: dict[str, Any] = {}
        self._load()  # a path that cannot be used is found, and said in the log, at start

    def items(self) -> dict[str, Any]:
        """Every value in the file."""
        return dict(self._load())

    def get(self, name: str) -> Any:
        """A value from the file, or None."""
        return self._load().get(name)

    def set(self, name: str, value: Any) -> None:
        """Write a value to the file."""
        self.update(name, lambda current: value)

    def delete(self, name: str) -> None:
        """Remove a value from the file."""
        self.update(name, lambda current: None)

    def update(self, name: str, change: Callable[[Any], Any]) -> Any:
        """Change one value under the file's lock, from what the file holds now; nothing is written when the store
        is off (or turns off now)."""
        if self.where != "computer":
            return change(None)
        from filelock import FileLock  # loaded by the first write: a server that only reads never needs it

        try:
            target = self.path.resolve()
            target.parent.mkdir(parents=True, exist_ok=True)
            with FileLock(target.with_name(target.name + ".lock"), timeout=LOCK_SECONDS):
                self._stamp = None
                values = dict(self._load())
                value = change(values.get(name))
                if value is None:
                    values.pop(name, None)
                elif name not in values and len(values) >= MAX_ITEMS:
                    raise StateFull(f"at most {MAX_ITEMS} items can be kept")
                else:
                    values[name] = value
                if self.where == "computer":
                    self._save(target, values)
            return value
        except (OSError, RuntimeError) as exc:  # a lock timeout is an OSError; RuntimeError: a symlink loop (3.11/3.12)
            self._turn_off(exc)
            return change(None)

    def _load(self) -> Mapping[str, Any]:
        if self.where != "computer":
            return {}
        try:
            status = self.path.stat()
        except FileNotFoundError:
            self._stamp, self._values = None, {}
            return self._values
        except OSError as exc:
            self._turn_off(exc)
            return {}
        stamp = (status.st_mtime_ns, status.st_size)
        if stamp != self._stamp:
            self._values = self._read()
            self._stamp = stamp
        return self._values

    def _read(self) -> dict[str, Any]:
        try:
            if self.path.stat().st_size > MAX_LOCAL_BYTES:
                raise ValueError(f"larger than {MAX_LOCAL_BYTES} bytes")
            values = json.loads(self.path.read_text(encoding="utf-8"))
        except OSError as exc:  # a directory at the path, no permission to read
            self._turn_off(exc)
            return {}
        except ValueError as exc:
            logger.warning("ignoring the local preferences file %s (%s)", self.path, exc)
            return {}
        return values if isinstance(values, dict) else {}

    def _save(self, target: Path, values: dict[str, Any]) -> None:
        text = json.dumps(values, ensure_ascii=False, indent=1, sort_keys=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".preferences-")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(text)
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        self._values, self._stamp = values, None

    def _turn_off(self, error: BaseException) -> None:
        if self.where == "unavailable":
            return
        self.where, self._values = "unavailable", {}
        logger.warning(
            "the local preferences file %s cannot be used (%s): preferences are not kept by this server process; "
            "fix the path or set HOROLOGE_STATE__LOCAL_PATH, then restart",
            self.path,
            error,
        )


class NoMemory:
    """Nothing is kept: the tools say so."""

    where: Final[Where] = "nowhere"

    def items(self) -> dict[str, Any]:
        """Nothing."""
        return {}

    def get(self, name: str) -> Any:
        """Nothing."""
        return None

    def set(self, name: str, value: Any) -> None:
        """Kept nowhere."""

    def delete(self, name: str) -> None:
        """Nothing to forget."""

    def update(self, name: str, change: Callable[[Any], Any]) -> Any:
        """Kept nowhere: the changed value, for the answer."""
        return change(None)


NO_MEMORY: Final = NoMemory()


@dataclass(frozen=True, slots=True)
class Memories:
    """A request's memories: the user's preferences (long-lived) and timers (this conversation)."""

    preferences: Memory
    timers: Memory


NOWHERE: Final = Memories(NO_MEMORY, NO_MEMORY)


@dataclass(frozen=True, slots=True)
class LocalMemories:
    """What a stdio server keeps itself when its client keeps no state: a preferences file and process timers."""

    preferences: FileMemory
    timers: ProcessMemory

    @classmethod
    def at(cls, path: Path) -> LocalMemories:
        """Local memories with the preferences file at `path`."""
        return cls(FileMemory(path), ProcessMemory())


PREFERENCES_PREFIX: Final = "horologe."
TIMERS_PREFIX: Final = "horologe.timer."


def memories_for(state: RequestState | None, local: LocalMemories | None) -> Memories:
    """Where one request's preferences and timers are kept (see the module docstring)."""
    if state is not None and state.capability in ("declared", "inferred"):
        return Memories(
            ClientMemory(state, "server", PREFERENCES_PREFIX), ClientMemory(state, "session", TIMERS_PREFIX)
        )
    if local is not None:
        return Memories(local.preferences, local.timers)
    if state is not None and state.capability == "unknown":
        return Memories(
            ClientMemory(state, "server", PREFERENCES_PREFIX, verified=False),
            ClientMemory(state, "session", TIMERS_PREFIX, verified=False),
        )
    return NOWHERE
