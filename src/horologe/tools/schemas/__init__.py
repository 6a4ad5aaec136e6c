"""Tool arguments and results as pydantic models: one source for validation and the JSON Schemas we publish.

This package holds the bases and the parts several tools share; each tool family has its own module.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from typing import Annotated, Any, Final, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    PlainValidator,
    StrictStr,
    WithJsonSchema,
    field_validator,
)
from pydantic_core import PydanticCustomError

from horologe.core.relative_grammar import MAX_EXPRESSION_LENGTH
from horologe.core.weekdays import ARGUMENT_NAMES, weekday_number


def words_or_number(limit: int, integers: bool = False) -> Callable[[object], object]:
    """The check of an argument given as words (at most `limit` characters) or as a number (`integers`: whole), never
    true/false. One check, so a refusal names the one problem instead of each branch of a union."""

    def check(value: object) -> object:
        if isinstance(value, str):
            if len(value) > limit:
                raise PydanticCustomError(
                    "string_too_long", "String should have at most {max_length} characters", {"max_length": limit}
                )
            return value
        if isinstance(value, int if integers else int | float) and not isinstance(value, bool):
            return value
        kind = "a whole number" if integers else "a number"
        raise PydanticCustomError("words_or_number", f"Input should be a string, or {kind}")

    return check


# Every text argument has a length limit no person reaches, published as `maxLength` and refused before any work
# (tests/tools/test_edges.py walks every input schema for it): a time is a phrase of the grammar's length at most.
Timestamp = Annotated[
    str | int | float,
    PlainValidator(words_or_number(MAX_EXPRESSION_LENGTH)),
    WithJsonSchema({"anyOf": [{"type": "string", "maxLength": MAX_EXPRESSION_LENGTH}, {"type": "number"}]}),
]
"""A time: words, ISO 8601 and the like, or Unix seconds."""

# The syntax of zones, timestamps, dates, durations and the DST policies, and that a zone argument left out is the
# user's, is said once, in the server's instructions (`horologe.protocol.server.instructions`); a field's description
# only says what its name does not.
UNSAID_DEFAULT: Final[dict[str, JsonValue]] = {"unsaid_default": True}
"""Marks a field whose default the instructions state (ISO 8601, 'compatible'): its schema leaves it out."""
FORMAT_ALIASES: Final = {"iso": "iso8601"}
"""The seed's `get_current_time` says 'iso' where every other tool says 'iso8601': both are accepted."""


def format_name(value: object) -> object:
    """An output format in the one vocabulary of every tool ('iso' is the seed's spelling of 'iso8601')."""
    return FORMAT_ALIASES.get(value, value) if isinstance(value, str) else value


Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
"""A weekday argument: `core.weekdays.ARGUMENT_NAMES` as a type (tests hold the two equal)."""
_HHMM: Final = re.compile(r"([01]?\d|2[0-3]):[0-5]\d|24:00")


def weekday_name(value: object) -> object:
    """A weekday as its full lowercase English name: 'Mon', 'mon' and 'Monday' all give 'monday'."""
    if not isinstance(value, str):
        return value
    number = weekday_number(value)
    return ARGUMENT_NAMES[number] if number is not None else value.strip().lower()


class Arguments(BaseModel):
    """Base of every tool's arguments: unknown names are refused so typos are caught."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class WorkingHours(Arguments):
    """Working hours on a local clock and the days they apply (one model for preferences and meetings)."""

    start: StrictStr = Field(default="09:00", max_length=5, description="'HH:MM', local.")
    end: StrictStr = Field(default="17:00", max_length=5, description="'HH:MM', local; before start: overnight.")
    days: tuple[Weekday, ...] = Field(
        default_factory=lambda: get_args(Weekday)[:5],
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
    input: str
    timezone: str
    read_as: Literal["abbreviation", "city", "country", "region", "coordinates", "alias", "case_insensitive"]
    place: str | None = None
    other_zones: list[str] | None = None
    note: str | None = None


class ReadsZones(Result):
    """A result of a tool that takes zones: `timezone_input` says how typed zones that are not IANA names were read
    (an abbreviation names its region's clock in every season: EST in July is New York's EDT; a city name, its most
    populous city)."""

    timezone_input: list[ZoneInput] | None = None


class When(Result):
    """An instant answered in a zone (`horologe.tools.present.when`)."""

    timestamp: str
    timezone: str
    day_of_week: str
    abbreviation: str | None = None
    dst_active: bool


class DstReport(Result):
    """A wall time a DST change skipped (`dst_gap`) or repeated (`ambiguous`): both instants, the policy applied."""

    dst_gap: bool
    ambiguous: bool
    candidates: list[str] | None = None
    disambiguation: str | None = None


class ReadAs(Result):
    """How a phrase given as a time was read, and its other reading (`horologe.tools.reading`)."""

    understood: str
    alternative: dict[str, str] | None = None


class Transition(Result):
    """A change of offset, abbreviation or DST: the wall clock it leaves and the one it starts."""

    before: str
    after: str
    abbreviation: str
    dst: bool


def clean_schema(schema: dict[str, Any], shared: frozenset[str] = frozenset()) -> dict[str, Any]:
    """A pydantic JSON Schema made plain for clients: no titles, optional fields not nullable, every $ref inlined but
    those to the `shared` definitions (kept once under $defs)."""
    defs = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                name = node["$ref"].rsplit("/", 1)[-1]
                return {"$ref": f"#/$defs/{name}"} if name in shared else walk(defs[name])
            any_of = node.get("anyOf")
            if (
                isinstance(any_of, list)
                and {"type": "null"} in any_of
                and "default" in node
                and node["default"] is None
            ):
                rest = [walk(option) for option in any_of if option != {"type": "null"}]
                merged = {k: walk(v) for k, v in node.items() if k not in ("anyOf", "default", *_UNPUBLISHED)}
                return {**(rest[0] if len(rest) == 1 else _plain_union({"anyOf": rest})), **merged}
            unpublished = _UNPUBLISHED | ({"default"} if node.get("unsaid_default") else set())
            return _plain_union({k: walk(v) for k, v in node.items() if k not in unpublished})
        if isinstance(node, list):
            return [walk(item) for item in node]
        return node

    cleaned: dict[str, Any] = walk(schema)
    if shared:
        cleaned["$defs"] = {name: walk(defs[name]) for name in sorted(shared)}
    return cleaned


_OUTPUT_PROSE: Final = frozenset({"description", "default", "properties", "$defs"})


def output_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A result's JSON Schema as published: what a client validates and no prose or defaults.

    The result's own fields are declared with their types; a nested object (a part such as `dst` or an item of a list)
    declares its required fields and their types, and its optional details are allowed without being spelled out
    (every object's extra fields are allowed, JSON Schema's default, as results may grow). An enum's values say its
    type. A part used twice is defined once ($defs).
    """
    uses = Counter(re.findall(r'"\$ref": "#/\$defs/([^"]+)"', json.dumps(schema)))
    shared = frozenset(name for name, count in uses.items() if count > 1)

    def walk(node: Any, nested: bool) -> Any:
        if isinstance(node, list):
            return [walk(item, nested) for item in node]
        if not isinstance(node, dict):
            return node
        kept = {key: walk(value, nested) for key, value in node.items() if key not in _OUTPUT_PROSE}
        if kept.get("additionalProperties") is True:  # JSON Schema's own default: saying it adds nothing
            del kept["additionalProperties"]
        if "enum" in kept and kept.get("type") == "string" and all(isinstance(v, str) for v in kept["enum"]):
            del kept["type"]
        if isinstance(node.get("$defs"), dict):
            kept["$defs"] = {name: walk(value, True) for name, value in node["$defs"].items()}
        if isinstance(node.get("properties"), dict):
            required = set(node.get("required", ()))
            declared = {
                name: walk(value, True) for name, value in node["properties"].items() if not nested or name in required
            }
            if declared:
                kept["properties"] = declared
        return kept

    stripped: dict[str, Any] = walk(clean_schema(schema, shared), False)
    return stripped


# Titles repeat the names. Length limits (`maxLength`, `maxItems`) stay: they say what a client may send.
_UNPUBLISHED: Final = frozenset({"title", "$defs", "unsaid_default"})


def _plain_union(node: dict[str, Any]) -> dict[str, Any]:
    """`anyOf` of bare types (a string's with its length limit) with the redundant ones dropped: string | integer |
    number -> string | number, and one
    type left is a plain `type`. Never a `type` list (["string", "number"]): clients that map tool schemas onto a
    single-type dialect (Gemini's OpenAPI subset) refuse it or drop the constraint, and the Inspector's schema
    portability check warns on it; `anyOf` branches of one type each validate the same values."""
    options = node.get("anyOf")
    if not isinstance(options, list) or not all(isinstance(o, dict) and set(o) - _KEPT == {"type"} for o in options):
        return node
    if any(option["type"] == "number" for option in options):  # every integer is a number
        options = [option for option in options if option["type"] != "integer"]
    rest = {key: value for key, value in node.items() if key != "anyOf"}
    if len(options) == 1:
        return {**options[0], **rest}
    return {"anyOf": options, **rest}


_KEPT: Final = frozenset({"maxLength"})
"""What a branch of a union of bare types may carry besides its type."""
