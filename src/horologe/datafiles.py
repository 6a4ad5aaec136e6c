"""The data files shipped in the package (src/horologe/data, built by scripts/): where they lie, and the one error a
missing or damaged one raises, naming it, so that a broken installation stops at start-up, never answers wrongly."""

from __future__ import annotations

import gzip
import json
import zlib
from importlib.resources import files
from pathlib import Path
from typing import Any


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
    path = packaged(name)
    try:
        return gzip.decompress(path.read_bytes()).decode("utf-8")
    except FileNotFoundError as exc:
        raise DataFileError(path, "is missing") from exc
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as exc:
        raise DataFileError(path, f"is damaged ({exc})") from exc


def read_json(name: str) -> Any:
    """A packaged JSON file's value; DataFileError when missing or damaged."""
    path = packaged(name)
    try:
        return json.loads(path.read_bytes())
    except FileNotFoundError as exc:
        raise DataFileError(path, "is missing") from exc
    except (OSError, ValueError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise DataFileError(path, f"is damaged ({exc})") from exc
