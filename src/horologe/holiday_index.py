"""Which countries' holidays data name each holiday: the index shipped in the package (built by
scripts/build_holiday_names.py), read on the first holiday name the caller's country does not have. The core looks the
name up in it (`horologe.core.holiday_names`) and works out the dates from those countries' data only."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from horologe.datafiles import read_gzip_text

if TYPE_CHECKING:  # start-up checks the file without loading the holiday code
    from horologe.core.holiday_names import NameIndex

TABLE = "holiday_names.tsv.gz"


@cache
def holiday_index() -> NameIndex:
    """The packaged index: a name's key -> the countries whose data name a holiday so."""
    return {frozenset(words.split(" ")): frozenset(codes.split(",")) for words, codes in _rows()}


def built_with() -> str:
    """The version of the `holidays` package the index was built from (its first line says it)."""
    first = _text().split("\n", 1)[0]
    return first.removeprefix("# holidays ").split(":", 1)[0]


def _rows() -> list[tuple[str, str]]:
    rows = []
    for line in _text().splitlines():
        if line and not line.startswith("#"):
            words, codes = line.split("\t")
            rows.append((words, codes))
    return rows


def check() -> None:
    """Read the index's file now (its checksum verified), so that a missing or damaged one stops start-up naming it."""
    _text()


def _text() -> str:
    return read_gzip_text(TABLE)
