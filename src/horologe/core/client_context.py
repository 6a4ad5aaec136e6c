"""Client context (SEP-1809): read a `clientContext` object field by field, never failing on bad input.

A client may send its user's ``timezone`` (IANA), ``currentTimestamp`` (RFC 3339 with an offset),
``locale`` (BCP 47) and ``userLocation`` (``city``, ``region``, ``country``, ``coordinates``). Each
field is validated on its own: a bad field is dropped and the reason recorded in ``ignored``; the
good ones are recorded in ``applied``. Nothing here raises for bad client input.

Where the object travels on the wire (top level, or `params._meta`) is the wire module's business
(`horologe.wire.normalize_request`); this module only judges its content.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from horologe.core import tzdb
from horologe.core.errors import TimeError
from horologe.core.gazetteer import Gazetteer
from horologe.core.parse import parse_timestamp
from horologe.core.zones import ResolvedZone, did_you_mean, resolve_zone

MAX_TEXT: Final = 256
KNOWN_FIELDS: Final = ("timezone", "currentTimestamp", "locale", "userLocation")
LOCATION_FIELDS: Final = ("city", "region", "country", "coordinates")
_IANA_KINDS: Final = frozenset({"iana", "alias", "case_insensitive", "utc"})
# BCP 47 language tags (RFC 5646 'langtag', without grandfathered tags): language, script, region, variants,
# extensions, private use.
_BCP47: Final = re.compile(
    r"(?P<language>[A-Za-z]{2,3}|[A-Za-z]{5,8})"
    r"(?:-(?P<script>[A-Za-z]{4}))?"
    r"(?:-(?P<region>[A-Za-z]{2}|\d{3}))?"
    r"(?P<variants>(?:-(?:[A-Za-z0-9]{5,8}|\d[A-Za-z0-9]{3}))*)"
    r"(?P<extensions>(?:-[0-9A-WY-Za-wy-z](?:-[A-Za-z0-9]{2,8})+)*)"
    r"(?:-[xX](?:-[A-Za-z0-9]{1,8})+)?"
)


@dataclass(frozen=True, slots=True)
class UserLocation:
    """The coarse location hint a client may send; every part optional."""

    city: str | None = None
    region: str | None = None
    country: str | None = None
    latitude: float | None = None
    longitude: float | None = None


@dataclass(frozen=True, slots=True)
class ClientContext:
    """The usable part of a client's context, plus what was applied, ignored and why."""

    zone: ResolvedZone | None = None
    now: datetime | None = None
    locale: str | None = None
    location: UserLocation | None = None
    applied: Mapping[str, Any] = field(default_factory=dict)
    ignored: Mapping[str, str] = field(default_factory=dict)
    conflicts: tuple[Mapping[str, Any], ...] = ()

    @property
    def country(self) -> str | None:
        """The user's ISO 3166 country code, when one was sent and valid."""
        return self.location.country if self.location else None

    def report(self) -> dict[str, Any]:
        """The `_meta` report: what was applied, what was ignored and why, and any disagreement."""
        body: dict[str, Any] = {"applied": dict(self.applied), "ignored": dict(self.ignored)}
        if self.conflicts:
            body["conflicts"] = [dict(conflict) for conflict in self.conflicts]
        return body


NO_CONTEXT: Final = ClientContext()


def read_client_context(
    raw: object,
    *,
    locale_known: Callable[[str], bool] | None = None,
    places: Gazetteer | None = None,
    zone_at: Callable[[float, float], str | None] | None = None,
) -> ClientContext:
    """Validate a raw `clientContext` value field by field; bad fields are ignored and reported, never raised.

    `locale_known`, when given, is a callable telling whether locale data exists for a well-formed tag
    (the server passes Babel's lookup); a tag it refuses is ignored like a malformed one. Without a `timezone`,
    the user's zone comes from `userLocation`: its coordinates through `zone_at` (latitude, longitude -> IANA name),
    else its city in `places`, else its country when that has one zone; the zone found is reported as
    `userLocation.timezone`.
    """
    if raw is None:
        return NO_CONTEXT
    if not isinstance(raw, Mapping):
        return ClientContext(ignored={"clientContext": f"must be an object, not {_type_name(raw)}"})
    applied: dict[str, Any] = {}
    ignored: dict[str, str] = {}
    zone = _field(raw, "timezone", _read_zone, ignored)
    now = _field(raw, "currentTimestamp", _read_timestamp, ignored)
    locale = _field(raw, "locale", lambda value: _read_locale(value, locale_known), ignored)
    location = _read_location(raw.get("userLocation"), applied, ignored) if "userLocation" in raw else None
    for name in raw:
        if name not in KNOWN_FIELDS:
            ignored[_clip(str(name), 64)] = f"unknown field (known: {', '.join(KNOWN_FIELDS)})"
    if zone is None and location is not None:
        zone = _located_zone(location, places, zone_at, ignored)
        if zone is not None:
            applied["userLocation"]["timezone"] = zone.key
    if zone is not None and "timezone" in raw:
        applied["timezone"] = zone.key
    if now is not None:
        applied["currentTimestamp"] = now.isoformat()
    if locale is not None:
        applied["locale"] = locale
    conflicts = _conflicts(zone, now)
    return ClientContext(zone, now, locale, location, applied, ignored, conflicts)


# --- fields ----------------------------------------------------------------------------------------------------


class _Ignored(Exception):
    """A field that cannot be used; the message says why."""


def _field(raw: Mapping[str, Any], name: str, reader: Callable[[object], Any], ignored: dict[str, str]) -> Any:
    if name not in raw:
        return None
    try:
        return reader(raw[name])
    except _Ignored as exc:
        ignored[name] = str(exc)
        return None


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise _Ignored(f"{what} must be a string, not {_type_name(value)}")
    text = value.strip()
    if not text:
        raise _Ignored(f"{what} is empty")
    if len(text) > MAX_TEXT:
        raise _Ignored(f"{what} is too long ({len(text)} characters, at most {MAX_TEXT})")
    if any(ord(char) < 32 or ord(char) == 127 for char in text):
        raise _Ignored(f"{what} contains control characters")
    return text


def _read_zone(value: object) -> ResolvedZone:
    text = _text(value, "timezone")
    try:
        zone = resolve_zone(text, source="database")
    except TimeError:
        zone = None
    if zone is None or zone.kind not in _IANA_KINDS:
        suggestions = [zone.key] if zone is not None and zone.kind != "fixed_offset" else _close_zone(text)
        hint = f" (did you mean {suggestions[0]!r}?)" if suggestions else ""
        reason = "not an IANA timezone identifier" if zone is not None else "unknown timezone"
        raise _Ignored(f"{reason} {_clip(text)!r}{hint}")
    return zone


def _close_zone(text: str) -> list[str]:
    """A spelling suggestion only within the same area ('Europe/Viena' -> 'Europe/Vienna', not 'Mars/Base')."""
    area = text.split("/")[0].casefold()
    return [zone for _, zone in did_you_mean(text, 1) if "/" not in text or zone.split("/")[0].casefold() == area]


def _read_timestamp(value: object) -> datetime:
    text = _text(value, "currentTimestamp")
    try:
        parsed = parse_timestamp(text, UTC)
    except TimeError:
        raise _Ignored(f"not an RFC 3339 timestamp: {_clip(text)!r}") from None
    if parsed.source_format != "iso8601":
        raise _Ignored(f"not an RFC 3339 timestamp: {_clip(text)!r}")
    if not parsed.explicit_offset:
        raise _Ignored(f"{_clip(text)!r} has no UTC offset (write e.g. '2025-11-12T14:23:00+01:00' or '...Z')")
    return parsed.instant


def _read_locale(value: object, locale_known: Callable[[str], bool] | None) -> str:
    text = _text(value, "locale")
    match = _BCP47.fullmatch(text)
    if match is None:
        hint = f" (did you mean {text.replace('_', '-')!r}?)" if "_" in text else ""
        raise _Ignored(f"malformed BCP 47 language tag {_clip(text)!r}{hint}")
    tag = normalize_tag(match)
    if locale_known is not None and not locale_known(tag):
        raise _Ignored(f"no locale data for {tag!r}")
    return tag


def normalize_tag(match: re.Match[str]) -> str:
    """A BCP 47 tag in its conventional case: language lower, script title, region upper ('de-AT')."""
    parts = [match["language"].lower()]
    if match["script"]:
        parts.append(match["script"].title())
    if match["region"]:
        parts.append(match["region"].upper())
    last = "region" if match["region"] else "script" if match["script"] else "language"
    return "-".join(parts) + match.string[match.end(last) :].lower()


def _read_location(value: object, applied: dict[str, Any], ignored: dict[str, str]) -> UserLocation | None:
    if not isinstance(value, Mapping):
        ignored["userLocation"] = f"must be an object, not {_type_name(value)}"
        return None
    found: dict[str, Any] = {}
    for name in ("city", "region"):
        if name in value:
            try:
                found[name] = _text(value[name], f"userLocation.{name}")
            except _Ignored as exc:
                ignored[f"userLocation.{name}"] = str(exc)
    if "country" in value:
        try:
            found["country"] = _read_country(value["country"])
        except _Ignored as exc:
            ignored["userLocation.country"] = str(exc)
    if "coordinates" in value:
        try:
            found["latitude"], found["longitude"] = _read_coordinates(value["coordinates"])
        except _Ignored as exc:
            ignored["userLocation.coordinates"] = str(exc)
    for name in value:
        if name not in LOCATION_FIELDS:
            ignored[f"userLocation.{_clip(str(name), 64)}"] = f"unknown field (known: {', '.join(LOCATION_FIELDS)})"
    if not found:
        return None
    report = {k: v for k, v in found.items() if k in ("city", "region", "country")}
    if "latitude" in found:
        report["coordinates"] = {"latitude": found["latitude"], "longitude": found["longitude"]}
    applied["userLocation"] = report
    return UserLocation(**found)


def _located_zone(
    location: UserLocation,
    places: Gazetteer | None,
    zone_at: Callable[[float, float], str | None] | None,
    ignored: dict[str, str],
) -> ResolvedZone | None:
    """The zone at the user's coordinates, else of their city (in their region and country), else of their region
    (in their country), else of a one-zone country."""
    if location.latitude is not None and location.longitude is not None and zone_at is not None:
        name = zone_at(location.latitude, location.longitude)
        if name is not None:
            return resolve_zone(name, source="database")
    named = {"city": (location.city, location.region), "region": (location.region, location.country)}
    for part, (name, within) in named.items():
        if name is None or places is None:
            continue
        try:
            text = f"{name}, {within}" if within else name
            return resolve_zone(text, country_hint=location.country, places=places)
        except TimeError as exc:
            ignored[f"userLocation.{part}"] = f"names no single zone: {exc.message}"
    if location.country is not None and len(zones := tzdb.zones_for_country(location.country)) == 1:
        return resolve_zone(zones[0], source="database")
    return None


def _read_country(value: object) -> str:
    text = _text(value, "userLocation.country")
    if len(text) != 2 or not text.isascii() or not text.isalpha():
        raise _Ignored(f"not an ISO 3166-1 alpha-2 country code: {_clip(text)!r}")
    if tzdb.country_name(text) is None:
        raise _Ignored(f"unknown ISO 3166-1 alpha-2 country code {text.upper()!r}")
    return text.upper()


def _read_coordinates(value: object) -> tuple[float, float]:
    if not isinstance(value, Mapping):
        raise _Ignored(f"must be an object with latitude and longitude, not {_type_name(value)}")
    latitude = _number(value, "latitude", 90.0)
    longitude = _number(value, "longitude", 180.0)
    return latitude, longitude


def _number(value: Mapping[str, Any], name: str, limit: float) -> float:
    if name not in value:
        raise _Ignored(f"{name} is missing")
    number = value[name]
    if isinstance(number, bool) or not isinstance(number, int | float) or not math.isfinite(number):
        raise _Ignored(f"{name} must be a number, not {_type_name(number)}")
    if not -limit <= number <= limit:
        raise _Ignored(f"{name} {number} is out of range (-{limit:g}..{limit:g})")
    return float(number)


def _conflicts(zone: ResolvedZone | None, now: datetime | None) -> tuple[Mapping[str, Any], ...]:
    """A timestamp whose offset is not the zone's offset at that instant: said, then timezone and instant used."""
    if zone is None or now is None:
        return ()
    sent = now.utcoffset() or timedelta(0)
    expected = now.astimezone(zone.tz).utcoffset() or timedelta(0)
    if sent == expected:
        return ()
    return (
        {
            "fields": ["timezone", "currentTimestamp"],
            "message": f"currentTimestamp has offset {tzdb.format_offset(sent)} but {zone.key} is at "
            f"{tzdb.format_offset(expected)} at that instant; the timestamp is used as the instant and "
            f"{zone.key} for interpretation.",
            "timestamp_offset": tzdb.format_offset(sent),
            "timezone_offset": tzdb.format_offset(expected),
        },
    )


def _type_name(value: object) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}.get(
        type(value), "number" if isinstance(value, int | float) else type(value).__name__
    )


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
