"""Reading coordinates typed where a zone is expected: '48.2082, 16.3738', '48.2082,16.3738', '-33.87 151.21',
'48.2°N 16.4°E', '48°12'30"N 16°22'21"E' (or with prime marks), 'N 48.2 E 16.4', 'geo:48.2,16.4' (RFC 5870).

Latitude comes first unless hemisphere letters say otherwise ('16.4°E 48.2°N'). A bare pair of numbers is read as
coordinates only when it has a comma or a decimal point ('+5 30' stays a UTC offset). Text made only of numbers,
signs and coordinate marks that is not a whole pair in range is refused with what was understood, never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from horologe.core.errors import InvalidTimezone
from horologe.core.messages import N_, msg

COORDINATES_HELP: Final = msg(
    N_("Write coordinates as latitude, longitude in decimal degrees, such as '48.2082, 16.3738' or '48.2°N 16.4°E'.")
)
EXAMPLE: Final = "48.2082, 16.3738"
_ASCII = str.maketrans(
    {"\u2212": "-", "\u2032": "'", "\u2019": "'", "\u2033": '"', "\u201d": '"', "\u00ba": "°", "\u02da": "°"}
)
"""Minus sign, primes, curly quotes and degree look-alikes as the ASCII marks (and degree sign) they stand for."""
_MARKS = "°'\""
# Text that can only be meant as coordinates: numbers, signs, marks, hemisphere letters, separators.
_COORDINATE_LIKE: Final = re.compile(rf"^(?:geo:)?[\s\d.,;+\-{_MARKS}NSEWnsew]*\d[\s\d.,;+\-{_MARKS}NSEWnsew]*$")
_NUMBER = r"[+\-]?\d{1,3}(?:\.\d+)?"
_PART: Final = re.compile(
    rf"""^(?P<before>[NSEWnsew])?\s*
    (?P<degrees>{_NUMBER})\s*°?\s*
    (?:(?P<minutes>\d{{1,2}}(?:\.\d+)?)\s*'\s*)?
    (?:(?P<seconds>\d{{1,2}}(?:\.\d+)?)\s*(?:"|'')\s*)?
    (?P<after>[NSEWnsew])?$""",
    re.VERBOSE,
)


@dataclass(frozen=True, slots=True)
class Point:
    """A place on Earth in decimal degrees."""

    latitude: float
    longitude: float

    def label(self) -> str:
        """The point as people write it back: '48.2082, 16.3738'."""
        return f"{self.latitude:g}, {self.longitude:g}"


def looks_like_coordinates(text: str) -> bool:
    """Whether text is made only of what coordinates are written with and holds two numbers (a UTC offset such as
    '+05:30' or '-3' does not)."""
    text = text.translate(_ASCII)
    if not _COORDINATE_LIKE.match(text):
        return False
    if len(re.findall(r"\d+(?:\.\d+)?", text)) < 2:
        # half a pair: one number written as a coordinate ('48.2', '48.2°N'), not an offset ('-3', '+5.5')
        return bool(re.search(rf"[.{_MARKS}NSEWnsew]", text)) and not re.match(r"\s*[+\-]", text)
    bare_pair = re.fullmatch(r"\s*[+\-]?\d+\s+[+\-]?\d+\s*", text)
    return bare_pair is None  # '+5 30' is an offset written with a space


def read_coordinates(text: str) -> Point:
    """The point `text` names; InvalidTimezone saying what was wrong when it is not a whole pair in range."""
    body = text.translate(_ASCII).strip()
    if body[:4].casefold() == "geo:":
        body = body[4:].split(";", 1)[0]
    parts = _split(body)
    read = [_part(part) for part in parts] if parts is not None else []
    if len(read) != 2 or read[0] is None or read[1] is None:
        raise InvalidTimezone(
            N_("{input} is not a pair of coordinates: write a latitude and a longitude."),
            input=repr(text),
            also=(COORDINATES_HELP,),
            suggestions=[EXAMPLE],
        )
    (first, first_axis), (second, second_axis) = read[0], read[1]
    if first_axis == second_axis and first_axis is not None:
        raise InvalidTimezone(
            N_("{input} gives two latitudes or two longitudes: write one of each."),
            input=repr(text),
            also=(COORDINATES_HELP,),
            suggestions=[EXAMPLE],
        )
    if first_axis == "longitude" or second_axis == "latitude":
        first, second = second, first
    if not -90 <= first <= 90:
        raise InvalidTimezone(
            N_("Latitude {value} in {input} is out of range: latitudes lie between -90 and 90."),
            value=f"{first:g}",
            input=repr(text),
            also=(COORDINATES_HELP,),
            suggestions=[EXAMPLE],
        )
    if not -180 <= second <= 180:
        raise InvalidTimezone(
            N_("Longitude {value} in {input} is out of range: longitudes lie between -180 and 180."),
            value=f"{second:g}",
            input=repr(text),
            also=(COORDINATES_HELP,),
            suggestions=[EXAMPLE],
        )
    return Point(first, second)


def _split(body: str) -> list[str] | None:
    """The two halves of a pair: at a comma or semicolon, or between the two numbers' groups."""
    for separator in (";", ","):
        if body.count(separator) == 1:
            return [part.strip() for part in body.split(separator)]
    if "," in body or ";" in body:
        decimal_commas = re.fullmatch(r"\s*([+\-]?\d+,\d+)\s+([+\-]?\d+,\d+)\s*", body)
        return [group.replace(",", ".") for group in decimal_commas.groups()] if decimal_commas else None
    letters = [found.start() for found in re.finditer("[NSEWnsew]", body)]
    if len(letters) == 2:
        prefixed = not body[: letters[0]].strip()  # 'N 48.2 E 16.4' rather than '48.2°N 16.4°E'
        cut = letters[1] if prefixed else letters[0] + 1
        return [body[:cut].strip(), body[cut:].strip()]
    halves = re.fullmatch(rf"\s*(\S+(?:\s*[{_MARKS}]\S*)*)\s+(\S.*?)\s*", body)
    if halves is None:
        return None
    return [halves.group(1), halves.group(2)]


def _part(text: str) -> tuple[float, str | None] | None:
    """One coordinate in decimal degrees and its axis when a hemisphere letter names it; None if unreadable."""
    found = _PART.match(text.strip())
    if found is None or (found["before"] and found["after"]):
        return None
    degrees = float(found["degrees"])
    minutes, seconds = float(found["minutes"] or 0), float(found["seconds"] or 0)
    if minutes >= 60 or seconds >= 60 or ((minutes or seconds) and not degrees.is_integer()):
        return None
    value = abs(degrees) + minutes / 60 + seconds / 3600
    value = -value if found["degrees"][0] == "-" else value
    letter = (found["before"] or found["after"] or "").upper()
    if letter and value < 0:
        return None  # '-48.2°S' says south twice
    if letter in "SW" and letter:
        value = -value
    axis = {"N": "latitude", "S": "latitude", "E": "longitude", "W": "longitude"}.get(letter)
    return value, axis
