"""Facts from the IANA time zone database shipped in the `tzdata` package, never the host's copy.

Everything is read lazily through `importlib.resources` on first use and cached, so importing
this module costs nothing. Zones are loaded from the package's TZif files (not the host's
/usr/share/zoneinfo), so results match `tzdata_version()` on every machine.

Offsets, DST and transitions come from the database's own rules (`tzdata.zi`, applied the way zic
applies them: `horologe.core.tzrules`), never from guesses over offsets: the standard offset is the
Zone line's STDOFF, DST is the Rule's SAVE with zic's DST flag, and a transition is a change of UTC
offset, DST flag or abbreviation. The same rules compiled by zic are the TZif files zoneinfo reads,
and the oracle tests hold both, and zdump, to agreement.

The reading is the database's main form: negative DST stays negative (Europe/Dublin's winter GMT is
SAVE -1:00 under a +01:00 standard offset, so summer IST is standard time and winter has DST active).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from functools import cache, lru_cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from io import BytesIO
from types import MappingProxyType
from zoneinfo import ZoneInfo

from horologe.core import tzrules
from horologe.core.errors import InvalidTimezone
from horologe.core.messages import N_

ZERO = timedelta(0)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# Keep a day of slack at both ends so local times never overflow datetime's year range.
_MIN_TS = int((datetime(1, 1, 2, tzinfo=UTC) - _EPOCH).total_seconds())
_MAX_TS = int((datetime(9999, 12, 30, tzinfo=UTC) - _EPOCH).total_seconds())
_COORDINATES = re.compile(r"^([+-])(\d{2})(\d{2})(\d{2})?([+-])(\d{3})(\d{2})(\d{2})?$")


# --- package files -------------------------------------------------------------------------


def _root() -> Traversable:
    return files("tzdata")


def _read_text(*parts: str) -> str:
    node = _root()
    for part in parts:
        node = node.joinpath(part)
    return node.read_text(encoding="utf-8")


def _table_rows(name: str) -> list[list[str]]:
    text = _read_text("zoneinfo", name)
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]


def tzdata_version() -> str:
    """The IANA release of the bundled database, such as '2026f'."""
    return _version()


@cache
def _version() -> str:
    module = importlib.import_module("tzdata")
    return str(vars(module)["IANA_VERSION"])


# --- names and links -----------------------------------------------------------------------


@cache
def zone_names() -> frozenset[str]:
    """Every zone key the tzdata package can load: canonical zones and link names."""
    return frozenset(line.strip() for line in _read_text("zones").splitlines() if line.strip())


@cache
def _zi_lines() -> tuple[list[str], ...]:
    return tuple(line.split() for line in _read_text("zoneinfo", "tzdata.zi").splitlines())


@cache
def canonical_names() -> frozenset[str]:
    """The keys that are zones in their own right (``Z`` lines of tzdata.zi), not links."""
    return frozenset(fields[1] for fields in _zi_lines() if len(fields) > 1 and fields[0] == "Z")


@cache
def all_links() -> Mapping[str, str]:
    """Every link (alias) name mapped to its canonical zone, e.g. 'US/Eastern' -> 'America/New_York'."""
    raw = {fields[2]: fields[1] for fields in _zi_lines() if len(fields) == 3 and fields[0] == "L"}
    return MappingProxyType({alias: _follow(raw, alias) for alias in raw})


def _follow(links: Mapping[str, str], name: str) -> str:
    for _ in range(8):  # links may in principle point at links; never loop forever
        if name not in links:
            break
        name = links[name]
    return name


def _require_known(key: str) -> None:
    if key not in zone_names():
        raise InvalidTimezone(N_("Unknown timezone {input}."), input=repr(key))


def canonical_name(key: str) -> str:
    """The canonical zone a key names: links resolved, canonical names map to themselves."""
    _require_known(key)
    return all_links().get(key, key)


@cache
def primary_names() -> frozenset[str]:
    """Canonical zones plus the per-country names of zone.tab (Europe/Stockholm, a link to Europe/Berlin since 2022
    but Sweden's own name), minus Factory: the names a result gives."""
    listed = {zone for code in countries() for zone in zones_for_country(code)}
    return frozenset((canonical_names() | listed) - {"Factory"})


def preferred_name(key: str) -> str:
    """The name a result gives a zone: itself when primary (canonical or a country's zone.tab name), else the zone
    its legacy link names (US/Eastern -> America/New_York, Singapore -> Asia/Singapore, GMT -> Etc/GMT)."""
    return key if key in primary_names() else canonical_name(key)


@cache
def _aliases_by_canonical() -> Mapping[str, tuple[str, ...]]:
    grouped: dict[str, list[str]] = {}
    for alias, target in all_links().items():
        grouped.setdefault(target, []).append(alias)
    return MappingProxyType({target: tuple(sorted(names)) for target, names in grouped.items()})


def aliases_of(canonical: str) -> tuple[str, ...]:
    """The link names that resolve to the same zone as `canonical` (excluding itself), sorted."""
    target = canonical_name(canonical)
    return tuple(name for name in _aliases_by_canonical().get(target, ()) if name != canonical)


# --- zone1970.tab, zone.tab, iso3166.tab ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class ZoneEntry:
    """One row of zone1970.tab: a zone, the countries it covers and its principal location."""

    name: str
    country_codes: tuple[str, ...]
    coordinates: str
    latitude: float
    longitude: float
    comment: str


def parse_coordinates(text: str) -> tuple[float, float]:
    """Latitude and longitude in degrees from ISO 6709 '±DDMM[SS]±DDDMM[SS]'."""
    match = _COORDINATES.match(text)
    if match is None:
        raise ValueError(f"Bad ISO 6709 coordinates {text!r}")
    lat_sign, lat_d, lat_m, lat_s, lon_sign, lon_d, lon_m, lon_s = match.groups()
    return _degrees(lat_sign, lat_d, lat_m, lat_s), _degrees(lon_sign, lon_d, lon_m, lon_s)


def _degrees(sign: str, degrees: str, minutes: str, seconds: str | None) -> float:
    value = int(degrees) + int(minutes) / 60 + int(seconds or 0) / 3600
    return -value if sign == "-" else value


@cache
def zone_entries() -> Mapping[str, ZoneEntry]:
    """The rows of zone1970.tab keyed by zone name (zones whose clocks agree since 1970)."""
    entries: dict[str, ZoneEntry] = {}
    for row in _table_rows("zone1970.tab"):
        codes, coordinates, name = row[0], row[1], row[2]
        latitude, longitude = parse_coordinates(coordinates)
        comment = row[3] if len(row) > 3 else ""
        entries[name] = ZoneEntry(name, tuple(codes.split(",")), coordinates, latitude, longitude, comment)
    return MappingProxyType(entries)


@cache
def _zone_tab() -> tuple[tuple[str, str, str], ...]:
    """(country code, zone name, comment) rows of zone.tab: one zone name per country."""
    return tuple((row[0], row[2], row[3] if len(row) > 3 else "") for row in _table_rows("zone.tab"))


@cache
def _zones_by_country() -> Mapping[str, tuple[str, ...]]:
    grouped: dict[str, list[str]] = {}
    for code, name, _ in _zone_tab():
        grouped.setdefault(code, []).append(name)
    listed = set(grouped)
    for entry in zone_entries().values():  # only for codes zone.tab does not list
        for code in entry.country_codes:
            if code not in listed:
                grouped.setdefault(code, []).append(entry.name)
    return MappingProxyType({code: tuple(dict.fromkeys(names)) for code, names in grouped.items()})


def zones_for_country(code: str) -> tuple[str, ...]:
    """The zones of an ISO 3166 country code (case-insensitive), in zone.tab order; () if unknown."""
    return _zones_by_country().get(code.strip().upper(), ())


@cache
def _countries_by_zone() -> Mapping[str, tuple[str, ...]]:
    grouped: dict[str, list[str]] = {}
    for code, name, _ in _zone_tab():
        grouped.setdefault(name, []).append(code)
    for entry in zone_entries().values():
        grouped.setdefault(entry.name, []).extend(entry.country_codes)
    return MappingProxyType({name: tuple(dict.fromkeys(codes)) for name, codes in grouped.items()})


def zone_countries(key: str) -> tuple[str, ...]:
    """The ISO 3166 codes of the countries a zone key (or its canonical zone) covers."""
    own = _countries_by_zone().get(key, ())
    target = all_links().get(key, key)
    return tuple(dict.fromkeys(own + _countries_by_zone().get(target, ())))


@cache
def zone_comments() -> Mapping[str, str]:
    """Descriptive comments per zone name from zone1970.tab and zone.tab (empty when absent)."""
    comments = {name: comment for _, name, comment in _zone_tab() if comment}
    for entry in zone_entries().values():
        if entry.comment and entry.name not in comments:
            comments[entry.name] = entry.comment
    return MappingProxyType(comments)


@cache
def countries() -> Mapping[str, str]:
    """ISO 3166 alpha-2 code -> English country name, from iso3166.tab."""
    return MappingProxyType({row[0]: row[1] for row in _table_rows("iso3166.tab")})


def country_name(code: str) -> str | None:
    """The English name of an ISO 3166 code (case-insensitive), or None if unknown."""
    return countries().get(code.strip().upper())


# --- loading zones -------------------------------------------------------------------------


class _PackagedZone(ZoneInfo):
    """A ZoneInfo read from the tzdata package; pickles and copies by key through `get_zone`."""

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (get_zone, (self.key,))

    def __repr__(self) -> str:
        return f"zoneinfo.ZoneInfo(key={self.key!r})"


@cache
def _tzif_bytes(key: str) -> bytes:
    node = _root().joinpath("zoneinfo")
    for part in key.split("/"):
        node = node.joinpath(part)
    return node.read_bytes()


@cache
def get_zone(key: str) -> ZoneInfo:
    """The zone for an exact key, loaded from the tzdata package (InvalidTimezone if unknown)."""
    _require_known(key)
    return _PackagedZone.from_file(BytesIO(_tzif_bytes(key)), key=key)


# --- offsets -------------------------------------------------------------------------------


@lru_cache(maxsize=512)  # a few hundred distinct offsets exist in the whole database
def format_offset(td: timedelta) -> str:
    """A UTC offset as '+05:30', '-03:00' or '+00:00'; seconds only when non-zero ('+00:19:32')."""
    sign = "-" if td < ZERO else "+"
    seconds = abs(td) // timedelta(seconds=1)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    text = f"{sign}{hours:02d}:{minutes:02d}"
    return f"{text}:{secs:02d}" if secs else text


@cache
def _rules() -> tzrules.Database:
    return tzrules.Database.parse(_zi_lines())


@cache
def _compiled(canonical: str) -> tzrules.Compiled:
    return _rules().compile(canonical)


def _compiled_for(zone: tzinfo) -> tzrules.Compiled | None:
    """The zone's rules when it is one of the database's zones (by key), else None (a fixed offset)."""
    key = getattr(zone, "key", None)
    if not isinstance(key, str) or key not in zone_names():
        return None
    return _compiled(canonical_name(key))


@dataclass(frozen=True, slots=True)
class OffsetFacts:
    """The offset situation of a zone at one instant, as the database's rules state it."""

    utc_offset: timedelta
    standard_offset: timedelta
    dst_offset: timedelta
    dst_active: bool
    abbreviation: str


def offset_facts(zone: tzinfo, at: datetime) -> OffsetFacts:
    """UTC offset, standard offset, DST amount and flag, and abbreviation of `zone` at the aware instant `at`.

    The standard offset is the Zone line's STDOFF and the DST amount the Rule's SAVE in force, so negative DST
    (Ireland's winter GMT, Morocco's Ramadan time) has a negative `dst_offset` and `dst_active` set, as zic sets
    the DST flag. A fixed offset (not a database zone) is its own standard offset, without DST.
    """
    ts = _clamp(_timestamp(at))
    compiled = _compiled_for(zone)
    if compiled is None:
        local = at.astimezone(zone)
        offset = local.utcoffset() or ZERO
        return OffsetFacts(offset, offset, ZERO, False, local.tzname() or format_offset(offset))
    return _facts(tzrules.state_at(compiled, ts))


@lru_cache(maxsize=1024)
def _facts(state: tzrules.State) -> OffsetFacts:
    return OffsetFacts(_seconds(state.utoff), _seconds(state.stdoff), _seconds(state.save), state.isdst,
                       state.abbreviation)  # fmt: skip


def _seconds(value: int) -> timedelta:
    return timedelta(seconds=value)


# --- transitions ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Transition:
    """A change of UTC offset, abbreviation or DST flag; `at` is the first UTC second of the new state."""

    at: datetime
    offset_before: timedelta
    offset_after: timedelta
    abbreviation_before: str
    abbreviation_after: str
    dst_before: bool
    dst_after: bool


def _timestamp(at: datetime) -> int:
    """Whole seconds since the epoch, floored (transitions fall on whole seconds)."""
    if at.tzinfo is None or at.utcoffset() is None:
        raise ValueError("an aware datetime is required")
    return (at - _EPOCH) // timedelta(seconds=1)


def _clamp(ts: int) -> int:
    return max(_MIN_TS, min(_MAX_TS, ts))


def transitions(zone: tzinfo, start: datetime, end: datetime) -> list[Transition]:
    """Every transition of `zone` with start < at <= end, oldest first (both bounds aware)."""
    low, high = _clamp(_timestamp(start)), _clamp(_timestamp(end))
    compiled = _compiled_for(zone)
    if compiled is None or high <= low:
        return []
    changes = tzrules.changes_between(compiled, low, high)
    return [_transition(change) for change in changes if tzrules.visible(change[1], change[2])]


def next_transition(zone: tzinfo, at: datetime) -> Transition | None:
    """The first transition strictly after `at` (through year 9999); None when the data schedules none."""
    compiled = _compiled_for(zone)
    if compiled is None:
        return None
    change = tzrules.next_change(compiled, _clamp(_timestamp(at)), _MAX_TS)
    return None if change is None else _transition(change)


def previous_transition(zone: tzinfo, at: datetime) -> Transition | None:
    """The last transition at or before `at` (the one that set the current state), however long ago.

    None only when the zone never changed in the data (UTC, Etc/GMT-5) or for a fixed offset.
    """
    compiled = _compiled_for(zone)
    if compiled is None:
        return None
    change = tzrules.previous_change(compiled, _clamp(_timestamp(at)))
    return None if change is None else _transition(change)


def _transition(change: tuple[int, tzrules.State, tzrules.State]) -> Transition:
    ts, before, after = change
    return Transition(
        at=_EPOCH + timedelta(seconds=ts),
        offset_before=_seconds(before.utoff),
        offset_after=_seconds(after.utoff),
        abbreviation_before=before.abbreviation,
        abbreviation_after=after.abbreviation,
        dst_before=before.isdst,
        dst_after=after.isdst,
    )
