"""The domain error hierarchy: every error has a stable `kind` and the seed's JSON-RPC code.

TimeError
├── InvalidTimezone          -32000  unknown or unusable timezone input
│   └── AmbiguousTimezone    -32000  an abbreviation or city that names several zones
├── InvalidTimestamp         -32001  unparsable timestamp, or out of the supported range
├── ConversionError          -32002  a local time that cannot be placed on the timeline
│   ├── NonexistentLocalTime -32002  in a DST gap, with disambiguation="reject"
│   └── AmbiguousLocalTime   -32002  in a DST fold, with disambiguation="reject"
└── InvalidArgument          -32602  any other bad argument (format directive, unit, range)
    └── InvalidArguments     -32602  tool arguments of the wrong type, missing or unknown
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Final

INVALID_TIMEZONE: Final = -32000
INVALID_TIMESTAMP: Final = -32001
CONVERSION_ERROR: Final = -32002
INVALID_PARAMS: Final = -32602


class TimeError(ValueError):
    """Base of every domain error; carries a stable kind, a code, suggestions and details.

    `template` and `params` (optional) name the message for translation at the server edge; an error without
    them is shown in English whatever language the client asked for.
    """

    code: ClassVar[int] = INVALID_PARAMS
    kind: ClassVar[str] = "time_error"

    def __init__(
        self,
        message: str,
        *,
        suggestions: Sequence[str] = (),
        details: Mapping[str, object] | None = None,
        template: str | None = None,
        params: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.suggestions = tuple(suggestions)
        self.details = dict(details or {})
        # A stable message id and its parameters, for the server edge to render the message in the request's
        # language (SEP-2792). The core stays English: `message` is always the English text.
        self.template = template
        self.params = dict(params or {})

    def to_dict(self) -> dict[str, object]:
        """The structured error object sent to clients."""
        body: dict[str, object] = {
            "code": self.code,
            "kind": self.kind,
            "message": self.message,
            "suggestions": list(self.suggestions),
        }
        if self.details:
            body["details"] = self.details
        return body


class InvalidTimezone(TimeError):
    """The timezone input names no zone we know."""

    code = INVALID_TIMEZONE
    kind = "invalid_timezone"


class AmbiguousTimezone(InvalidTimezone):
    """The timezone input (an abbreviation such as IST) names several zones."""

    kind = "ambiguous_timezone"


class InvalidTimestamp(TimeError):
    """The timestamp cannot be parsed or lies outside years 1..9999."""

    code = INVALID_TIMESTAMP
    kind = "invalid_timestamp"


class ConversionError(TimeError):
    """A local time could not be placed on the timeline."""

    code = CONVERSION_ERROR
    kind = "conversion_error"


class NonexistentLocalTime(ConversionError):
    """A local time inside a DST gap, refused because disambiguation is 'reject'."""

    kind = "nonexistent_local_time"


class AmbiguousLocalTime(ConversionError):
    """A local time inside a DST fold, refused because disambiguation is 'reject'."""

    kind = "ambiguous_local_time"


class InvalidArgument(TimeError):
    """Any other argument that is out of its domain (format directive, unit, range)."""

    code = INVALID_PARAMS
    kind = "invalid_argument"


class InvalidArguments(InvalidArgument):
    """Tool arguments that do not match the tool's input schema."""

    kind = "invalid_arguments"
