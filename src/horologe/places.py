"""Where places come from: the packaged places table (cities, exemplar cities, country names) and the offline
coordinates-to-zone lookup (tzfpy). The core parses and searches what is read here (`horologe.core.gazetteer`)."""

from __future__ import annotations

import gzip
from functools import cache
from importlib.resources import files

from horologe.core import tzdb
from horologe.core.gazetteer import Gazetteer

TABLE = "places.tsv.gz"


@cache
def gazetteer() -> Gazetteer:
    """The places table shipped in the package, read on its first search."""
    return Gazetteer(_table_text, zone_at)


def _table_text() -> str:
    return gzip.decompress(files("horologe.data").joinpath(TABLE).read_bytes()).decode("utf-8")


def zone_at(latitude: float, longitude: float) -> str | None:
    """The IANA zone at a point (tzfpy's boundaries), or None where it names none this tzdata knows."""
    import tzfpy  # loaded on the first coordinates a client sends

    name = tzfpy.get_tz(longitude, latitude)
    return name if name in tzdb.zone_names() else None
