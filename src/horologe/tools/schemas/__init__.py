"""Tool arguments and results as pydantic models: one source for validation and the JSON Schemas we publish.

This package holds the bases and the parts several tools share; each tool family has its own module.
"""

from __future__ import annotations

import re
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, StrictStr, field_validator

Timestamp = StrictStr | StrictInt | StrictFloat  # strict: true/false are not Unix times

# The syntax of zones, timestamps, dates, durations and the DST policies is said once, in the server's
# instructions (`horologe.protocol.server.instructions`); a field's description only says what it is for.
ZONE = "Default: the user's zone."
DISAMBIGUATION = "DST gap/fold policy."
CUSTOM_FORMAT = "strftime pattern for format 'custom'."
FORMAT_ALIASES: Final = {"iso": "iso8601"}
"""The seed's `get_current_time` says 'iso' where every other tool says 'iso8601': both are accepted."""


def format_name(value: object) -> object:
    """An output format in the one vocabulary of every tool ('iso' is the seed's spelling of 'iso8601')."""
    return FORMAT_ALIASES.get(value, value) if isinstance(value, str) else value


WEEKDAYS: Final = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_WEEKDAY_ABBREVIATIONS: Final = {name[:3]: name for name in WEEKDAYS}
_HHMM: Final = re.compile(r"([01]?\d|2[0-3]):[0-5]\d|24:00")


def weekday_name(value: object) -> object:
    """A weekday as its full lowercase English name: 'Mon', 'mon' and 'Monday' all give 'monday'."""
    if not isinstance(value, str):
        return value
    lowered = value.strip().lower()
    return _WEEKDAY_ABBREVIATIONS.get(lowered, lowered)


class Arguments(BaseModel):
    """Base of every tool's arguments: unknown names are refused so typos are caught."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class WorkingHours(Arguments):
    """Working hours on a local clock and the days they apply (one model for preferences and meetings)."""

    start: StrictStr = Field(default="09:00", description="'HH:MM', local.")
    end: StrictStr = Field(default="17:00", description="'HH:MM', local; before start: overnight.")
    days: tuple[Weekday, ...] = Field(
        default_factory=lambda: ("monday", "tuesday", "wednesday", "thursday", "friday"),
        min_length=1,
        max_length=7,
        description="Default: Monday to Friday.",
    )

    @field_validator("start", "end")
    @classmethod
    def _hhmm(cls, value: str) -> str:
        if not _HHMM.fullmatch(value):
            raise ValueError("use HH:MM on a 24-hour clock, e.g. '09:00'")
        return value

    @field_validator("days", mode="before")
    @classmethod
    def _day_names(cls, value: object) -> object:
        return [weekday_name(day) for day in value] if isinstance(value, list | tuple) else value


class Result(BaseModel):
    """Base of every tool's result schema (results are built as dicts; these models only publish schemas)."""

    model_config = ConfigDict(extra="allow", defer_build=True)


class ZoneInput(Result):
    input: str = Field(description="What was typed.")
    timezone: str = Field(description="The zone it was read as.")
    read_as: Literal["abbreviation", "city", "country", "region", "coordinates", "alias", "case_insensitive"] = Field(
        description="How: a city, region (state, province), country, coordinates or abbreviation; or another "
        "spelling of the zone's name (alias: a legacy name such as 'US/Eastern'; case_insensitive)."
    )
    place: str | None = Field(
        default=None, description="The place it was read as, e.g. 'Mumbai, IN', 'Arizona, US', '48.2082, 16.3738'."
    )
    other_zones: list[str] | None = Field(
        default=None, description="Zones of smaller places of that name, or of the region's other parts."
    )


class ReadsZones(Result):
    """A result of a tool that takes zones: says how a typed zone that is not an IANA name was read."""

    timezone_input: list[ZoneInput] | None = Field(
        default=None,
        description="How typed zones were read when not by the zone's current IANA name: an abbreviation names its "
        "region's clock in every season (EST in July is New York's EDT); a place name, its most populous place.",
    )


class ZoneMoment(Result):
    timestamp: str = Field(description="ISO 8601 with the zone's offset.")
    timezone: str = Field(description="The zone's name (IANA key or fixed offset).")
    utc_offset: str = Field(description="Offset from UTC, e.g. '+01:00'.")
    abbreviation: str = Field(description="Zone abbreviation in effect, e.g. 'CET'.")
    dst_active: bool


class DstReport(Result):
    dst_gap: bool = Field(description="The local time given does not exist (skipped by a DST change).")
    ambiguous: bool = Field(description="The local time given exists twice (repeated by a DST change).")
    candidates: list[str] | None = Field(default=None, description="Both possible instants when dst_gap/ambiguous.")
    disambiguation: str | None = Field(default=None, description="The policy applied to choose among candidates.")


class Transition(Result):
    at: str = Field(description="Instant of the change, UTC.")
    local_before: str
    local_after: str
    offset_before: str
    offset_after: str
    abbreviation_before: str
    abbreviation_after: str
    dst_before: bool
    dst_after: bool


def clean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A pydantic JSON Schema made plain for clients: no titles, optional fields not nullable, no $defs."""
    defs = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return walk(defs[node["$ref"].rsplit("/", 1)[-1]])
            any_of = node.get("anyOf")
            if (
                isinstance(any_of, list)
                and {"type": "null"} in any_of
                and "default" in node
                and node["default"] is None
            ):
                rest = [walk(option) for option in any_of if option != {"type": "null"}]
                merged = {k: walk(v) for k, v in node.items() if k not in ("anyOf", "default", *_UNPUBLISHED)}
                return {**(rest[0] if len(rest) == 1 else _one_type({"anyOf": rest})), **merged}
            return _one_type({k: walk(v) for k, v in node.items() if k not in _UNPUBLISHED})
        if isinstance(node, list):
            return [walk(item) for item in node]
        return node

    cleaned: dict[str, Any] = walk(schema)
    return cleaned


# Titles repeat the names; string length limits are checked and explained when exceeded, and cost every reader of
# the tool list tokens (list limits, `maxItems`, stay: they shape what a model sends).
_UNPUBLISHED: Final = frozenset({"title", "$defs", "maxLength"})


def _one_type(node: dict[str, Any]) -> dict[str, Any]:
    """`anyOf` of bare types as one `type` list, e.g. string | integer | number -> ["string", "number"]."""
    options = node.get("anyOf")
    if not isinstance(options, list) or not all(isinstance(o, dict) and set(o) == {"type"} for o in options):
        return node
    types = [option["type"] for option in options]
    if "number" in types and "integer" in types:
        types.remove("integer")  # every integer is a number
    rest = {key: value for key, value in node.items() if key != "anyOf"}
    return {"type": types[0] if len(types) == 1 else types, **rest}
