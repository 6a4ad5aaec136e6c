"""Tools whose memory lives on the client (SEP-1655): preferences in server scope, timers in session scope.

Nothing is stored on the server: every value travels signed in the client's state (see `horologe.state`),
so any replica behind a load balancer can answer. Stored preferences are defaults for later calls, below
the explicit argument and the client context (SEP-1809): explicit argument > client context > stored
preference > server default. When the client does not keep state, the tools say so instead of pretending.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, Literal

from pydantic import Field, field_validator

from horologe.context import RequestContext
from horologe.core.client_context import read_client_context
from horologe.core.errors import InvalidArgument
from horologe.core.format import OutputFormat
from horologe.core.zones import ResolvedZone, resolve_zone
from horologe.server import schemas
from horologe.server.state_middleware import RequestState, StateFull, current_state
from horologe.server.tools import ToolOptions, ToolSpec

PREFERENCES_ITEM: Final = "horologe.preferences"
TIMER_PREFIX: Final = "horologe.timer."
MAX_TIMERS: Final = 16  # leaves room in the 20-item session scope for other state
PREFERENCE_FIELDS: Final = ("timezone", "locale", "format", "week_start", "working_hours")
Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_HHMM: Final = re.compile(r"([01]\d|2[0-3]):[0-5]\d")
_LABEL_HELP: Final = "A name for the timer, e.g. 'tea' or 'standup' (1-64 characters)."

NO_TRANSPORT_STATE: Final = (
    "Client-side state is only available over MCP (stdio or Streamable HTTP); nothing was stored or read."
)
NO_CAPABILITY: Final = (
    "This client did not declare the 'state' capability (SEP-1655), so it cannot keep {what} for this server; "
    "nothing was stored. Pass the values explicitly on each call instead."
)
UNVERIFIED_CAPABILITY: Final = (
    "The client's 'state' capability could not be checked on this connection; the {what} will only be "
    "remembered if the client keeps client-side state (SEP-1655)."
)


# --- preferences -------------------------------------------------------------------------------------------


class WorkingHours(schemas.Arguments):
    start: str = Field(description="Start of the working day, HH:MM (24 h), e.g. '09:00'.")
    end: str = Field(description="End of the working day, HH:MM (24 h), e.g. '17:30'.")
    days: tuple[Weekday, ...] = Field(
        default=("monday", "tuesday", "wednesday", "thursday", "friday"), description="Working days."
    )

    @field_validator("start", "end")
    @classmethod
    def _hhmm(cls, value: str) -> str:
        if not _HHMM.fullmatch(value):
            raise ValueError("use HH:MM on a 24-hour clock, e.g. '09:00'")
        return value


class SetPreferencesArgs(schemas.Arguments):
    timezone: str | None = Field(default=None, max_length=256, description=f"Home timezone. {schemas.TIMEZONE_HELP}")
    locale: str | None = Field(default=None, max_length=64, description="BCP 47 locale for formatting, e.g. 'de-AT'.")
    format: OutputFormat | None = Field(default=None, description="Preferred output format, e.g. 'iso8601', 'human'.")
    week_start: Weekday | None = Field(default=None, description="First day of the week.")
    working_hours: WorkingHours | None = Field(default=None, description="Working hours and days.")


class GetPreferencesArgs(schemas.Arguments):
    pass


class ClearPreferencesArgs(schemas.Arguments):
    fields: tuple[Literal["timezone", "locale", "format", "week_start", "working_hours"], ...] | None = Field(
        default=None, description="Preferences to forget; all of them when omitted."
    )


class PreferencesResult(schemas.Result):
    stored: bool = Field(description="Whether the client was asked to keep the preferences.")
    preferences: dict[str, Any] = Field(description="The preferences in effect after this call.")
    capability: str = Field(description="The client's state capability: declared, inferred, absent or unknown.")
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Preferences:
    """Stored preferences, verified; what the request context applies as defaults."""

    values: dict[str, Any] = field(default_factory=dict)

    @property
    def zone(self) -> ResolvedZone | None:
        name = self.values.get("timezone")
        if not isinstance(name, str):
            return None
        try:
            return resolve_zone(name)
        except ValueError:  # a zone tzdata dropped since it was stored
            return None

    @property
    def locale(self) -> str | None:
        locale = self.values.get("locale")
        return locale if isinstance(locale, str) else None


NO_PREFERENCES: Final = Preferences()


def stored_preferences() -> Preferences:
    """The verified preferences of the request being handled (empty outside MCP or without state)."""
    state = current_state()
    value = state.get("server", PREFERENCES_ITEM) if state is not None else None
    if not isinstance(value, dict):
        return NO_PREFERENCES
    return Preferences({key: value[key] for key in PREFERENCE_FIELDS if key in value})


def _state_or_none(what: str) -> tuple[RequestState | None, str | None]:
    state = current_state()
    if state is None:
        return None, NO_TRANSPORT_STATE
    if not state.supported:
        return None, NO_CAPABILITY.format(what=what)
    return state, UNVERIFIED_CAPABILITY.format(what=what) if state.capability == "unknown" else None


def _out(**fields: Any) -> dict[str, Any]:
    """A result without its None fields (the published schemas have no nulls)."""
    return {name: value for name, value in fields.items() if value is not None}


def _capability() -> str:
    state = current_state()
    return state.capability if state is not None else "unavailable"


def set_preferences(args: SetPreferencesArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Remember defaults for later calls: validated, merged over what is stored, signed into server scope."""
    changes: dict[str, Any] = {}
    if args.timezone is not None:
        changes["timezone"] = resolve_zone(args.timezone).key
    if args.locale is not None:
        from horologe.server.localized import locale_known

        checked = read_client_context({"locale": args.locale}, locale_known=locale_known)
        if checked.locale is None:
            raise InvalidArgument(f"Unknown locale {args.locale[:64]!r}; use a BCP 47 tag such as 'de-AT' or 'en-US'.")
        changes["locale"] = checked.locale
    if args.format is not None:
        if args.format not in options.supported_formats:
            raise InvalidArgument(
                f"Format {args.format!r} is not enabled on this server. Use one of: "
                f"{', '.join(options.supported_formats)}.",
                suggestions=list(options.supported_formats)[:3],
            )
        changes["format"] = args.format
    if args.week_start is not None:
        changes["week_start"] = args.week_start
    if args.working_hours is not None:
        changes["working_hours"] = args.working_hours.model_dump(mode="json")
    if not changes:
        raise InvalidArgument(
            f"Name at least one preference to set: {', '.join(PREFERENCE_FIELDS)}.", suggestions=["timezone"]
        )
    merged = {**stored_preferences().values, **changes}
    state, note = _state_or_none("preferences")
    if state is not None:
        state.set("server", PREFERENCES_ITEM, merged)
    return _out(stored=state is not None, preferences=merged, capability=_capability(), note=note)


def get_preferences(args: GetPreferencesArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """The stored preferences, as verified from the client's state."""
    _, note = _state_or_none("preferences")
    return _out(stored=False, preferences=stored_preferences().values, capability=_capability(), note=note)


def clear_preferences(args: ClearPreferencesArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Forget some or all preferences (all: the item is deleted with null)."""
    state, note = _state_or_none("preferences")
    remaining = {} if args.fields is None else stored_preferences().values
    for name in args.fields or ():
        remaining.pop(name, None)
    if state is not None:
        if remaining:
            state.set("server", PREFERENCES_ITEM, remaining)
        else:
            state.delete("server", PREFERENCES_ITEM)
    return _out(stored=state is not None, preferences=remaining, capability=_capability(), note=note)


# --- timers ------------------------------------------------------------------------------------------------


class TimerArgs(schemas.Arguments):
    label: str = Field(min_length=1, max_length=64, description=_LABEL_HELP)


class StartTimerArgs(TimerArgs):
    duration_seconds: int | None = Field(
        default=None, ge=1, le=31_536_000, description="Count down from this many seconds; omit for a stopwatch."
    )


class ListTimersArgs(schemas.Arguments):
    pass


class TimerResult(schemas.Result):
    stored: bool
    capability: str
    note: str | None = None


def _timer_name(label: str) -> str:
    return TIMER_PREFIX + label


def _describe(value: Any, now_ms: int) -> dict[str, Any] | None:
    if not isinstance(value, dict) or not isinstance(value.get("started_ms"), int):
        return None
    started_ms: int = value["started_ms"]
    elapsed_ms = max(0, now_ms - started_ms)
    body: dict[str, Any] = {
        "label": value.get("label"),
        "kind": "countdown" if isinstance(value.get("duration_seconds"), int) else "stopwatch",
        "started": _iso_ms(started_ms),
        "elapsed_seconds": round(elapsed_ms / 1000, 3),
    }
    if body["kind"] == "countdown":
        total_ms = value["duration_seconds"] * 1000
        body["duration_seconds"] = value["duration_seconds"]
        body["remaining_seconds"] = round(max(0, total_ms - elapsed_ms) / 1000, 3)
        body["finished"] = elapsed_ms >= total_ms
        body["ends"] = _iso_ms(started_ms + total_ms)
    return body


def _iso_ms(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _timers(state: RequestState | None) -> dict[str, Any]:
    if state is None:
        return {}
    return {
        name.removeprefix(TIMER_PREFIX): item.value
        for name, item in state.items("session").items()
        if name.startswith(TIMER_PREFIX)
    }


def _unknown_timer(label: str, state: RequestState | None) -> InvalidArgument:
    known = sorted(_timers(state))
    hint = f" Running timers: {', '.join(known)}." if known else " No timers are running."
    return InvalidArgument(f"No timer named {label!r} in this session.{hint}", suggestions=known[:3])


def start_timer(args: StartTimerArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Start (or restart) a stopwatch or countdown; its start instant is kept, signed, in session state."""
    state, note = _state_or_none("timers")
    now_ms = state.now_ms if state is not None else int(ctx.now.timestamp() * 1000)
    value: dict[str, Any] = {"label": args.label, "started_ms": now_ms}
    if args.duration_seconds is not None:
        value["duration_seconds"] = args.duration_seconds
    if state is not None:
        if args.label not in _timers(state) and len(_timers(state)) >= MAX_TIMERS:
            raise InvalidArgument(f"At most {MAX_TIMERS} timers can run at once; stop one first.")
        try:
            state.set("session", _timer_name(args.label), value)
        except StateFull as exc:
            raise InvalidArgument(f"Cannot start another timer: {exc}.") from None
    return _out(timer=_describe(value, now_ms), stored=state is not None, capability=_capability(), note=note)


def check_timer(args: TimerArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Elapsed (and remaining) time of a timer, measured from its signed start instant."""
    state, note = _state_or_none("timers")
    value = _timers(state).get(args.label)
    described = _describe(value, state.now_ms) if state is not None else None
    if described is None:
        if note is not None and state is None:
            return _out(stored=False, capability=_capability(), note=note)
        raise _unknown_timer(args.label, state)
    return _out(timer=described, stored=True, capability=_capability(), note=note)


def stop_timer(args: TimerArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Stop a timer: its final reading, and the client is asked to forget it."""
    result = check_timer(args, ctx, options)
    state = current_state()
    if result.get("timer") is not None and state is not None:
        state.delete("session", _timer_name(args.label))
        result["timer"]["stopped"] = True
    return result


def list_timers(args: ListTimersArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Every timer of this session with its reading."""
    state, note = _state_or_none("timers")
    timers = [] if state is None else [_describe(value, state.now_ms) for value in _timers(state).values()]
    listed = sorted((timer for timer in timers if timer is not None), key=lambda timer: str(timer["label"]))
    return _out(timers=listed, stored=state is not None, capability=_capability(), note=note)


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "set_preferences",
        "Remember my time preferences",
        "Remember the user's home timezone, locale, preferred output format, first day of the week and working "
        "hours as defaults for later calls (kept by the client, signed; an explicit argument or the client's own "
        "context still wins). Only the fields given change.",
        SetPreferencesArgs,
        PreferencesResult,
        set_preferences,
    ),
    ToolSpec(
        "get_preferences",
        "Show my time preferences",
        "The user's stored time preferences (home timezone, locale, output format, week start, working hours).",
        GetPreferencesArgs,
        PreferencesResult,
        get_preferences,
    ),
    ToolSpec(
        "clear_preferences",
        "Forget my time preferences",
        "Forget the named stored preferences, or all of them.",
        ClearPreferencesArgs,
        PreferencesResult,
        clear_preferences,
    ),
    ToolSpec(
        "start_timer",
        "Start a timer",
        "Start a stopwatch, or a countdown when duration_seconds is given, under a label. Restarting a label "
        "resets it. Timers last for this conversation (session) and work on any server replica.",
        StartTimerArgs,
        TimerResult,
        start_timer,
    ),
    ToolSpec(
        "check_timer",
        "Check a timer",
        "Elapsed time of a stopwatch, or remaining time of a countdown, by label.",
        TimerArgs,
        TimerResult,
        check_timer,
    ),
    ToolSpec(
        "stop_timer",
        "Stop a timer",
        "Stop a timer by label and report its final reading.",
        TimerArgs,
        TimerResult,
        stop_timer,
    ),
    ToolSpec(
        "list_timers",
        "List timers",
        "Every running timer of this conversation with its reading.",
        ListTimersArgs,
        TimerResult,
        list_timers,
    ),
)
