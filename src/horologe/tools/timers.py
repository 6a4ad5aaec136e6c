"""The `timer` tool: stopwatches and countdowns, kept where the request's memory keeps them.

A timer is its start instant (and duration, for a countdown), measured against the server's clock when asked:
in the client's session state (signed, so any replica can answer), or in this stdio server's process.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Final

from horologe.context import RequestContext
from horologe.core.errors import InvalidArgument
from horologe.core.messages import N_, msg
from horologe.memory import Memory
from horologe.state import StateFull
from horologe.tools.memory import kept, note
from horologe.tools.present import without_nulls
from horologe.tools.schemas.preferences import TimerArgs, TimerResult
from horologe.tools.spec import ToolOptions, ToolSpec

MAX_TIMERS: Final = 16  # leaves room in the 20-item session scope for other state


def timer(args: TimerArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Start, check, stop or list timers."""
    memory = ctx.memory.timers
    now_ms = int(ctx.clock.timestamp() * 1000)
    common = {"stored": kept(memory), "kept": memory.where, "note": note(ctx, memory, "timers")}
    if args.action == "list":
        described = [_describe(value, now_ms) for value in memory.items().values()]
        listed = sorted((item for item in described if item is not None), key=lambda item: str(item["label"]))
        return without_nulls(timers=listed, **common)
    if args.label is None:
        raise InvalidArgument(N_("Give the timer's label, e.g. 'tea'."), suggestions=["tea"])
    if args.action == "start":
        return without_nulls(timer=_start(memory, args.label, args.duration_seconds, now_ms), **common)
    reading = _describe(memory.get(args.label), now_ms)
    if reading is None:
        raise _unknown_timer(args.label, memory)
    if args.action == "stop":
        memory.delete(args.label)
        reading["stopped"] = True
    return without_nulls(timer=reading, **common)


def _start(memory: Memory, label: str, duration_seconds: int | None, now_ms: int) -> dict[str, Any] | None:
    value: dict[str, Any] = {"label": label, "started_ms": now_ms}
    if duration_seconds is not None:
        value["duration_seconds"] = duration_seconds
    running = memory.items()
    if label not in running and len(running) >= MAX_TIMERS:
        raise InvalidArgument(N_("At most {count} timers can run at once; stop one first."), count=MAX_TIMERS)
    try:
        memory.set(label, value)
    except StateFull:
        raise InvalidArgument(
            N_("Cannot start another timer: at most {count} items can be kept in session scope."), count=MAX_TIMERS
        ) from None
    return _describe(value, now_ms)


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


def _unknown_timer(label: str, memory: Memory) -> InvalidArgument:
    known = sorted(memory.items())
    hint = msg(N_("Running timers: {timers}."), timers=", ".join(known)) if known else msg(N_("No timers are running."))
    return InvalidArgument(
        N_("No timer named {label} in this session."), label=repr(label), also=(hint,), suggestions=known[:3]
    )


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "timer",
        "Timer",
        "Start, check, stop or list stopwatches and countdowns by label; a countdown says what remains and when it "
        "ends. Timers last for this conversation.",
        TimerArgs,
        TimerResult,
        timer,
        read_only=False,
        destructive=True,  # 'stop' forgets the timer
        idempotent=False,  # starting again restarts the clock
    ),
)
