"""Writing instants: ISO 8601, RFC 3339, RFC 2822, HTTP dates, Unix time, English prose and strftime patterns.

Decisions worth knowing:

- ``Z`` is written only when the zone is UTC itself (its name is "UTC"); a zone that merely sits at
  offset zero, such as Europe/London in winter, is written ``+00:00``.
- Fractional seconds appear only when non-zero, truncated to milliseconds (``.500``).
- ``iso8601`` keeps the zone's exact offset, including the seconds of historic LMT offsets
  (``+05:41:16``); ``rfc3339`` and ``rfc2822`` cannot express those and fall back to UTC.
- Every English word (day and month names, AM/PM, ``%c``/``%x``/``%X``) is built from fixed tables,
  never from the process locale, and ``%Y``/``%G`` are always four digits.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Final, Literal, get_args

from horologe.core.errors import InvalidArgument
from horologe.core.messages import N_, Message, msg
from horologe.core.weekdays import DAY_NAMES

OutputFormat = Literal["iso8601", "rfc3339", "rfc2822", "http", "unix", "unix_ms", "human", "custom"]
OUTPUT_FORMATS: tuple[str, ...] = get_args(OutputFormat)

MAX_PATTERN_LENGTH: Final = 200
MAX_OUTPUT_LENGTH: Final = 2000

_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
_MONTHS: Final = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_NUMERIC_OFFSET = re.compile(r"[+-]\d{2}(?::?\d{2}){0,2}")
_TOKEN = re.compile(r"%(:?.)?|[^%]+", re.DOTALL)

# Rendered by strftime: these are numeric or the zone's own name, so the C locale cannot change them.
_STRFTIME_DIRECTIVES: Final = frozenset("wdmyHIMSfzZjUWuV")
# Common glibc extensions outside the portable set, with the portable spelling to use instead.
_REPLACEMENTS: Final = {
    "F": "%Y-%m-%d",
    "T": "%H:%M:%S",
    "D": "%m/%d/%y",
    "R": "%H:%M",
    "r": "%I:%M:%S %p",
    "e": "%d",
    "h": "%b",
    "k": "%H",
    "l": "%I",
    "P": "%p",
}
_HINTS: Final[Mapping[str, Message]] = {
    **{code: msg(N_("Use {replacement} instead."), replacement=spelling) for code, spelling in _REPLACEMENTS.items()},
    "s": msg(N_("Use the 'unix' output format instead.")),
}
_PATTERN_EXAMPLE: Final = "'%Y-%m-%d %H:%M'"
_PATTERN_SUGGESTIONS: Final = ("%Y-%m-%d %H:%M:%S", "%A, %B %d, %Y", "%I:%M %p %Z")


def format_instant(
    instant: datetime,
    fmt: OutputFormat,
    *,
    custom_format: str | None = None,
    zone_label: str | None = None,
) -> str | int:
    """Write an aware instant (already in the target zone) in one of the output formats."""
    if instant.utcoffset() is None:
        raise ValueError("format_instant takes an aware datetime")
    if fmt == "custom":
        if custom_format is None:
            raise InvalidArgument(
                N_("The 'custom' format needs a custom_format pattern such as {example}."), example=_PATTERN_EXAMPLE
            )
        return format_custom(instant, custom_format)
    if fmt == "human":
        return _human(instant, zone_label)
    writer = _WRITERS.get(fmt)
    if writer is None:
        raise InvalidArgument(
            N_("Unknown output format {format}. Use one of: {known}."),
            format=repr(fmt),
            known=", ".join(OUTPUT_FORMATS),
            suggestions=OUTPUT_FORMATS,
        )
    return writer(instant)


def validate_custom_format(pattern: str) -> None:
    """Check a strftime pattern: bounded length and only portable, locale-independent directives."""
    _tokens(pattern)


def format_custom(instant: datetime, pattern: str) -> str:
    """Render a validated strftime pattern with English names whatever the process locale."""
    parts = [_render_directive(instant, code) if is_directive else code for is_directive, code in _tokens(pattern)]
    text = "".join(parts)
    if len(text) > MAX_OUTPUT_LENGTH:
        raise InvalidArgument(
            N_("The custom format produces {length} characters; the limit is {limit}."),
            length=len(text),
            limit=MAX_OUTPUT_LENGTH,
        )
    return text


# --- Fixed formats ----------------------------------------------------------------------------------------------


def _iso8601(instant: datetime) -> str:
    if _offset(instant).microseconds:
        instant = instant.astimezone(UTC)
    return _iso(instant)


def _rfc3339(instant: datetime) -> str:
    if _offset(instant) % timedelta(minutes=1):
        instant = instant.astimezone(UTC)
    return _iso(instant)


def _iso(instant: datetime) -> str:
    # Fields rather than f"{instant:%H:%M:%S}": strftime costs more than the rest of this function.
    text = f"{_date_text(instant)}T{instant.hour:02d}:{instant.minute:02d}:{instant.second:02d}"
    millis = instant.microsecond // 1000
    if millis:
        text += f".{millis:03d}"
    return text + ("Z" if _is_utc(instant) else _offset_text(_offset(instant), colon=True))


def _rfc2822(instant: datetime) -> str:
    if _offset(instant) % timedelta(minutes=1):
        instant = instant.astimezone(UTC)
    return f"{_mail_stamp(instant)} {_offset_text(_offset(instant), colon=False)}"


def _http(instant: datetime) -> str:
    return f"{_mail_stamp(instant.astimezone(UTC))} GMT"


def _mail_stamp(instant: datetime) -> str:
    day_name, month_name = DAY_NAMES[instant.weekday()][:3], _MONTHS[instant.month - 1][:3]
    return f"{day_name}, {instant.day:02d} {month_name} {instant.year:04d} {instant:%H:%M:%S}"


def _unix(instant: datetime) -> int:
    return (instant - _EPOCH) // timedelta(seconds=1)


def _unix_ms(instant: datetime) -> int:
    return (instant - _EPOCH) // timedelta(milliseconds=1)


def _human(instant: datetime, zone_label: str | None) -> str:
    label = zone_label or _abbreviation(instant)
    day_name, month_name = DAY_NAMES[instant.weekday()], _MONTHS[instant.month - 1]
    clock = f"{instant.hour % 12 or 12}:{instant.minute:02d} {_meridiem(instant)}"
    return f"{day_name}, {month_name} {instant.day}, {instant.year} at {clock} {label}"


_WRITERS: Final[dict[str, Callable[[datetime], str | int]]] = {
    "iso8601": _iso8601,
    "rfc3339": _rfc3339,
    "rfc2822": _rfc2822,
    "http": _http,
    "unix": _unix,
    "unix_ms": _unix_ms,
}


# --- Custom patterns --------------------------------------------------------------------------------------------


def _english_c(instant: datetime) -> str:
    """The C locale's %c: 'Sun Aug 17 06:30:00 2025'."""
    day_name, month_name = DAY_NAMES[instant.weekday()][:3], _MONTHS[instant.month - 1][:3]
    return f"{day_name} {month_name} {instant.day:>2} {instant:%H:%M:%S} {instant.year:04d}"


_ENGLISH_DIRECTIVES: Final[dict[str, Callable[[datetime], str]]] = {
    "a": lambda d: DAY_NAMES[d.weekday()][:3],
    "A": lambda d: DAY_NAMES[d.weekday()],
    "b": lambda d: _MONTHS[d.month - 1][:3],
    "B": lambda d: _MONTHS[d.month - 1],
    "p": lambda d: _meridiem(d),
    "c": _english_c,
    "x": lambda d: f"{d:%m/%d}/{d.year % 100:02d}",
    "X": lambda d: f"{d:%H:%M:%S}",
    "Y": lambda d: f"{d.year:04d}",
    "G": lambda d: f"{d.isocalendar().year:04d}",
    ":z": lambda d: _offset_text(_offset(d), colon=True),
    "%": lambda d: "%",
}
ALLOWED_DIRECTIVES: tuple[str, ...] = tuple(
    sorted({*_STRFTIME_DIRECTIVES, *_ENGLISH_DIRECTIVES}, key=lambda code: (code.lower(), code))
)


def _tokens(pattern: str) -> list[tuple[bool, str]]:
    """Split a pattern into (is_directive, text) pieces, refusing anything outside the allowed set."""
    if not pattern:
        raise InvalidArgument(
            N_("The custom format pattern is empty; give one such as {example}."), example=_PATTERN_EXAMPLE
        )
    if len(pattern) > MAX_PATTERN_LENGTH:
        raise InvalidArgument(
            N_("The custom format pattern is {length} characters long; the limit is {limit}."),
            length=len(pattern),
            limit=MAX_PATTERN_LENGTH,
        )
    pieces: list[tuple[bool, str]] = []
    for match in _TOKEN.finditer(pattern):
        text = match.group()
        if not text.startswith("%"):
            pieces.append((False, text))
            continue
        code = match.group(1)
        if code is None:
            raise InvalidArgument(
                N_("A lone {percent} ends the custom format pattern; write {escaped} for a literal percent sign."),
                percent=repr("%"),
                escaped=repr("%%"),
                also=(_allowed_directives(),),
                suggestions=_PATTERN_SUGGESTIONS,
                details=_allowed_details(),
            )
        if code not in _STRFTIME_DIRECTIVES and code not in _ENGLISH_DIRECTIVES:
            hint = (_HINTS[code],) if code in _HINTS else ()
            raise InvalidArgument(
                N_("The custom format directive {directive} is not supported."),
                directive=repr(f"%{code}"),
                also=(*hint, _allowed_directives()),
                suggestions=_PATTERN_SUGGESTIONS,
                details=_allowed_details(),
            )
        pieces.append((True, code))
    return pieces


def _render_directive(instant: datetime, code: str) -> str:
    english = _ENGLISH_DIRECTIVES.get(code)
    return english(instant) if english else instant.strftime(f"%{code}")


def _allowed_directives() -> Message:
    return msg(N_("Allowed directives: {directives}."), directives=" ".join(f"%{code}" for code in ALLOWED_DIRECTIVES))


def _allowed_details() -> dict[str, object]:
    return {"allowed_directives": [f"%{code}" for code in ALLOWED_DIRECTIVES]}


# --- Shared -----------------------------------------------------------------------------------------------------


def _offset(instant: datetime) -> timedelta:
    offset = instant.utcoffset()
    assert offset is not None  # format_instant refuses naive datetimes up front
    return offset


def _is_utc(instant: datetime) -> bool:
    return not _offset(instant) and instant.tzname() in ("UTC", "Z")


def _offset_text(offset: timedelta, *, colon: bool) -> str:
    # A private stand-in for tzdb.format_offset, which another module provides.
    sign = "-" if offset < timedelta(0) else "+"
    seconds = abs(offset) // timedelta(seconds=1)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    separator = ":" if colon else ""
    text = f"{sign}{hours:02d}{separator}{minutes:02d}"
    return f"{text}{separator}{secs:02d}" if secs else text


def _abbreviation(instant: datetime) -> str:
    name = instant.tzname()
    if name and not _NUMERIC_OFFSET.fullmatch(name):
        return name
    offset = _offset(instant)
    return f"UTC{_offset_text(offset, colon=True)}" if offset else "UTC"


def _meridiem(instant: datetime) -> str:
    return "AM" if instant.hour < 12 else "PM"


def _date_text(instant: datetime) -> str:
    return f"{instant.year:04d}-{instant.month:02d}-{instant.day:02d}"
