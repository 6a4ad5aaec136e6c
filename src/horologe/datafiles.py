"""The data files shipped in the package (src/horologe/data, built by scripts/): where they lie, and the one error a
missing or damaged one raises, naming it, so that a broken installation stops at start-up, never answers wrongly."""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


class DataFileError(RuntimeError):
    """A packaged data file is missing or damaged: the installation is broken, not the request."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"the data file {path} {problem}; reinstall horologe")
        self.path = path


def packaged(name: str) -> Path:
    """The path of a data file of the package (installed as files: wheels unpack them)."""
    return Path(str(files("horologe.data").joinpath(name)))


def read_gzip_text(name: str) -> str:
    """A packaged gzip file's text (its checksum verified); DataFileError when missing or damaged."""
    return _decoded(name, lambda raw: gzip.decompress(raw).decode("utf-8"), (EOFError, zlib.error, UnicodeDecodeError))


def read_json(name: str) -> Any:
    """A packaged JSON file's value; DataFileError when missing or damaged."""
    return _decoded(name, json.loads, (ValueError,))  # JSONDecodeError and UnicodeDecodeError are ValueErrors


def _decoded(name: str, decode: Callable[[bytes], T], damage: tuple[type[Exception], ...]) -> T:
    """A packaged file's bytes read and decoded; DataFileError when it is missing, unreadable, or `decode` raises one
    of `damage`."""
    path = packaged(name)
    unreadable: tuple[type[Exception], ...] = (OSError, *damage)
    try:
        return decode(path.read_bytes())
    except FileNotFoundError as exc:
        raise DataFileError(path, "is missing") from exc
    except unreadable as exc:
        raise DataFileError(path, f"is damaged ({exc})") from exc
