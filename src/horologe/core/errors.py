"""The domain error hierarchy: every error has a stable `kind`, a message (id and parameters) and suggestions.

TimeError
├── InvalidTimezone          unknown or unusable timezone input
│   └── AmbiguousTimezone    an abbreviation or city that names several zones
├── InvalidTimestamp         unparsable timestamp, or out of the supported range
├── ConversionError          a local time that cannot be placed on the timeline
│   ├── NonexistentLocalTime in a DST gap, with disambiguation="reject"
│   └── AmbiguousLocalTime   in a DST fold, with disambiguation="reject"
└── InvalidArgument          any other bad argument (format directive, unit, range)
    ├── InvalidArguments     tool arguments of the wrong type, missing or unknown
    ├── OutOfRange           a result that would leave years 1..9999
    └── OutOfTime            a call that needed more computation than its budget

The core knows no wire: the JSON-RPC code and HTTP status of each class are in one table at the protocol edge
(`horologe.protocol.errors`), which also renders the message in the request's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from horologe.core.messages import Message


class TimeError(ValueError):
    """Base of every domain error: a stable kind, the message as id and parameters, suggestions and details.

    `template` is the message id (its English text, see `horologe.core.messages`); keyword parameters fill it.
    `also` adds further sentences (hints), rendered after it. `str(error)` is the English text.
    """

    kind: ClassVar[str] = "time_error"

    def __init__(
        self,
        template: str,
        /,
        *,
        suggestions: Sequence[str] = (),
        details: Mapping[str, object] | None = None,
        also: Sequence[Message] = (),
        **params: object,
    ) -> None:
        self.text = Message(template, params, tuple(also))
        super().__init__(self.text.render())
        self.suggestions = tuple(suggestions)
        self.details = dict(details or {})

    @property
    def message(self) -> str:
        """The message in English."""
        return str(self)


class InvalidTimezone(TimeError):
    """The timezone input names no zone we know."""

    kind = "invalid_timezone"


class AmbiguousTimezone(InvalidTimezone):
    """The timezone input (an abbreviation such as IST) names several zones; `input` is the text that did."""

    kind = "ambiguous_timezone"
    input: str | None = None


class InvalidTimestamp(TimeError):
    """The timestamp cannot be parsed or lies outside years 1..9999."""

    kind = "invalid_timestamp"


class ConversionError(TimeError):
    """A local time could not be placed on the timeline."""

    kind = "conversion_error"


class NonexistentLocalTime(ConversionError):
    """A local time inside a DST gap, refused because disambiguation is 'reject'."""

    kind = "nonexistent_local_time"


class AmbiguousLocalTime(ConversionError):
    """A local time inside a DST fold, refused because disambiguation is 'reject'."""

    kind = "ambiguous_local_time"


class InvalidArgument(TimeError):
    """Any other argument that is out of its domain (format directive, unit, range)."""

    kind = "invalid_argument"


class InvalidArguments(InvalidArgument):
    """Tool arguments that do not match the tool's input schema."""

    kind = "invalid_arguments"


class OutOfRange(InvalidArgument):
    """Valid input whose result would leave years 1..9999 (the range every date here can take)."""

    kind = "out_of_range"


class OutOfTime(InvalidArgument):
    """A call that needed more computation than the server allows for one call; the message says what to narrow."""

    kind = "budget_exceeded"
