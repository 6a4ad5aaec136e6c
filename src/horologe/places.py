"""Where places come from: the packaged places table (cities, exemplar cities, country names), compiled at build time
into a read-only SQLite file queried where it lies, and the offline coordinates-to-zone lookup (tzfpy). The core
searches what is read here (`horologe.core.gazetteer`)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from horologe.core import tzdb
from horologe.core.gazetteer import SCHEMA, Gazetteer, Locate, Query, compile_rows
from horologe.datafiles import DataFileError, packaged

TABLE = "places.sqlite3"
FORMAT = 1
"""The compiled table's layout (`PRAGMA user_version`): a file of another layout is refused at start-up."""


@cache
def gazetteer() -> Gazetteer:
    """The places table shipped in the package, opened on its first search."""
    return Gazetteer(lambda: open_table(packaged(TABLE)), zone_at)


def open_table(path: Path, version: int = FORMAT) -> Query:
    """Queries over a compiled read-only file, safe from any thread; raises DataFileError for a missing or damaged
    file or one of another layout than `version`."""
    _check_size(path)
    try:
        connection = sqlite3.connect(f"{path.as_uri()}?mode=ro&immutable=1", uri=True, check_same_thread=False)
        found = connection.execute("PRAGMA user_version").fetchone()[0]
        connection.execute("SELECT count(*) FROM sqlite_schema").fetchone()
    except sqlite3.DatabaseError as exc:
        raise DataFileError(path, f"is damaged ({exc})") from exc
    if found != version:
        raise DataFileError(path, f"has layout {found}, this horologe reads {version}")
    return _Reader(connection, path).query


def _check_size(path: Path) -> None:
    """A SQLite file whose header is SQLite's and whose size is the one its header gives (a truncated or padded copy
    is refused before SQLite reads a page of it)."""
    try:
        with path.open("rb") as file:
            header, size = file.read(100), path.stat().st_size
    except FileNotFoundError as exc:
        raise DataFileError(path, "is missing") from exc
    if len(header) < 100 or not header.startswith(b"SQLite format 3\0"):
        raise DataFileError(path, "is damaged (not a SQLite file)")
    page_size = int.from_bytes(header[16:18], "big")
    expected = (65536 if page_size == 1 else page_size) * int.from_bytes(header[28:32], "big")
    if expected != size:
        raise DataFileError(path, f"is damaged (its header says {expected:,} bytes, it has {size:,})")


class _Reader:
    """One connection, one query at a time (tool bodies run on worker threads)."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._connection, self._path, self._lock = connection, path, threading.Lock()

    def query(self, sql: str, parameters: Sequence[object]) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._connection.execute(sql, parameters).fetchall()
            except sqlite3.DatabaseError as exc:
                raise DataFileError(self._path, f"is damaged ({exc})") from exc


def check() -> None:
    """Open the places table now, so that a missing or damaged file stops start-up naming it."""
    gazetteer().open()


def compile_table(text: str, target: str | Path = ":memory:") -> sqlite3.Connection:
    """The places table's text (`scripts/build_places.py`) compiled into a SQLite database at `target`."""
    connection = sqlite3.connect(target)
    connection.executescript(SCHEMA)
    with connection:
        for statement, parameters in compile_rows(text):
            connection.execute(statement, parameters)
        connection.execute(f"PRAGMA user_version = {FORMAT}")
    return connection


def from_text(text: str, locate: Locate | None = None) -> Gazetteer:
    """A places table from its text, compiled in memory (tests, and tables written by hand)."""
    connection = compile_table(text)
    return Gazetteer(lambda: lambda sql, parameters: connection.execute(sql, parameters).fetchall(), locate)


def zone_at(latitude: float, longitude: float) -> str | None:
    """The IANA zone at a point (tzfpy's boundaries), or None where it names none this tzdata knows."""
    import tzfpy  # loaded on the first coordinates a client sends

    name = tzfpy.get_tz(longitude, latitude)
    return name if name in tzdb.zone_names() else None
