"""The `preferences` tool: the user's home zone, locale, week start, output format and working hours.

Preferences are kept where the request's memory keeps them (`horologe.memory`: the client's state, signed; a
file on this computer over stdio; or nowhere). They are defaults for later calls, below the explicit argument
and the client context (SEP-1809): explicit argument > client context > stored preference > server default.
The request's context builder reads them (`stored_preferences`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Final

from horologe.context import RequestContext
from horologe.core.client_context import read_client_context
from horologe.core.errors import InvalidArgument
from horologe.core.messages import N_
from horologe.core.zones import ResolvedZone, resolve_zone
from horologe.i18n.cldr import locale_known
from horologe.memory import Memory
from horologe.state import StateFull
from horologe.tools.memory import kept, note
from horologe.tools.present import enabled_format, without_nulls, zone_of
from horologe.tools.schemas.preferences import (
    PreferencesArgs,
    PreferencesResult,
    PreferencesWithHoursArgs,
)
from horologe.tools.spec import ToolOptions, ToolSpec

PREFERENCES_ITEM: Final = "preferences"
PREFERENCE_FIELDS: Final = ("timezone", "locale", "format", "week_start", "working_hours")


@dataclass(frozen=True, slots=True)
class Preferences:
    """Stored preferences, verified; what the request context applies as defaults."""

    values: dict[str, Any] = field(default_factory=dict)

    @property
    def zone(self) -> ResolvedZone | None:
        """The stored home zone, when it still names a zone."""
        name = self.values.get("timezone")
        if not isinstance(name, str):
            return None
        try:
            return resolve_zone(name, source="database")
        except ValueError:  # a zone tzdata dropped since it was stored
            return None

    @property
    def locale(self) -> str | None:
        """The stored locale."""
        locale = self.values.get("locale")
        return locale if isinstance(locale, str) else None


NO_PREFERENCES: Final = Preferences()


def stored_preferences(memory: Memory) -> Preferences:
    """The preferences a request's memory holds (none when nothing is kept)."""
    value = memory.get(PREFERENCES_ITEM)
    if not isinstance(value, dict):
        return NO_PREFERENCES
    return Preferences({key: value[key] for key in PREFERENCE_FIELDS if key in value})


def preferences(args: PreferencesArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Read, change or forget the user's preferences, kept where this request's memory keeps them."""
    changes = _changes(args, ctx, options)
    if args.action == "set" and not changes:
        raise InvalidArgument(
            N_("Name at least one preference to set: {fields}."),
            fields=", ".join(name for name in PREFERENCE_FIELDS if name in type(args).model_fields),
            suggestions=["timezone"],
        )
    if args.action != "set" and changes:
        raise InvalidArgument(
            N_("{fields} only go with action 'set'."), fields=", ".join(sorted(changes)), suggestions=["set"]
        )
    if args.action != "clear" and args.fields is not None:
        raise InvalidArgument(N_("'fields' only goes with action 'clear'."), suggestions=["clear"])
    memory = ctx.memory.preferences
    values = dict(ctx.preferences) if args.action == "get" else _keep(memory, args, changes)
    return without_nulls(
        preferences=values, stored=kept(memory), kept=memory.where, note=note(ctx, memory, "preferences")
    )


def _changes(args: PreferencesArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """The preferences an argument list sets, validated."""
    changes: dict[str, Any] = {}
    if args.timezone is not None:
        changes["timezone"] = zone_of(args.timezone, ctx).key
    if args.locale is not None:
        checked = read_client_context({"locale": args.locale}, locale_known=locale_known)
        if checked.locale is None:
            raise InvalidArgument(
                N_("Unknown locale {locale}; use a BCP 47 tag such as 'de-AT' or 'en-US'."),
                locale=repr(args.locale[:64]),
            )
        changes["locale"] = checked.locale
    if args.format is not None:
        enabled_format(args.format, options)
        changes["format"] = args.format
    if args.week_start is not None:
        changes["week_start"] = args.week_start
    working_hours = getattr(args, "working_hours", None)
    if working_hours is not None:
        changes["working_hours"] = working_hours.model_dump(mode="json")
    return changes


def _keep(memory: Memory, args: PreferencesArgs, changes: dict[str, Any]) -> dict[str, Any]:
    """Set or clear preferences from what the memory holds now (another process may have changed it since the
    request began); the preferences in effect afterwards."""

    def change(current: Any) -> dict[str, Any] | None:
        values = {k: v for k, v in current.items() if k in PREFERENCE_FIELDS} if isinstance(current, dict) else {}
        if args.action == "set":
            values |= changes
        else:
            values = {} if args.fields is None else {k: v for k, v in values.items() if k not in args.fields}
        return values or None

    try:
        return memory.update(PREFERENCES_ITEM, change) or {}
    except StateFull:
        raise InvalidArgument(N_("No more preferences can be kept here; clear some first.")) from None


def _description(hours: bool) -> str:
    kept = ["home timezone", "locale", "week start", "output format (of get_current_time)"]
    if hours:
        kept.append("working hours (for find_meeting_time)")
    return (
        f"Remember (set), show (get) or forget (clear) the user's {', '.join(kept[:-1])} and {kept[-1]}; later calls "
        "use them as defaults."
    )


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "preferences",
        "Time preferences",
        _description(hours=True),
        PreferencesWithHoursArgs,
        PreferencesResult,
        preferences,
        read_only=False,
        destructive=True,  # 'clear' forgets what the user kept
    ),
)
_OFFERED: Final = {
    hours: replace(TOOLS[0], description=_description(hours), arguments=arguments)
    for hours, arguments in ((False, PreferencesArgs), (True, PreferencesWithHoursArgs))
}


def offered(*, hours: bool) -> ToolSpec:
    """`preferences` taking only what the offered tools use: working hours where `find_meeting_time` is offered (the
    other preferences are every surface's)."""
    return _OFFERED[hours]
