"""The `resolve_time_expression` tool: what people say ("next Friday at 3pm", "the last day of February",
"Christmas", "every weekday at 9:30") as exact times in the user's zone and clock.

The reference instant is `reference_time` when given, else the request's now (the client's `currentTimestamp`, else
the server clock). The zone is `timezone`, else the client context's, else the server's. The week starts on the
stored `week_start` preference, else the locale's first day (`locale`, else the client's: Babel/CLDR, Monday in
de-AT, Sunday in en-US), else Monday. The grammar lives in `horologe.core.relative`; no fallback parser guesses.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from horologe.context import RequestContext
from horologe.core.client_context import read_client_context
from horologe.core.errors import InvalidArgument
from horologe.core.messages import N_
from horologe.core.relative import Resolution
from horologe.core.weekdays import DAY_NAMES
from horologe.core.zones import ResolvedZone
from horologe.i18n.cldr import locale_known
from horologe.i18n.language import Language
from horologe.tools.present import dst_report, iso, without_nulls, zone_from
from horologe.tools.reading import instant_of, resolve_phrase, week_start
from horologe.tools.schemas.relative import ResolveTimeExpressionArgs, ResolveTimeExpressionResult
from horologe.tools.spec import ToolOptions, ToolSpec


def resolve_time_expression(
    args: ResolveTimeExpressionArgs, ctx: RequestContext, options: ToolOptions
) -> dict[str, Any]:
    """Resolve an expression into an instant, a half-open period or a recurrence's next occurrences."""
    zone = zone_from(args.timezone, ctx)
    locale = _locale(args.locale) or ctx.locale
    reference = ctx.now if args.reference_time is None else instant_of(args.reference_time, zone, ctx).instant
    resolution = resolve_phrase(
        args.expression,
        zone,
        ctx,
        reference=reference,
        locale=locale,
        count=args.count,
    )
    first_day, _ = week_start(None, ctx, locale)
    return _result(resolution, zone, first_day, ctx.language)


def _locale(tag: str | None) -> str | None:
    if tag is None:
        return None
    parsed = read_client_context({"locale": tag}, locale_known=locale_known)
    if parsed.locale is None:
        raise InvalidArgument(
            N_("Invalid locale {locale}. Use a BCP 47 tag such as 'de-AT' or 'en-US'."),
            locale=repr(tag[:64]),
            details={"reason": parsed.ignored.get("locale", "unknown")},
            suggestions=["en-US", "de-AT", "fr-FR"],
        )
    return parsed.locale


def _span(start: datetime, end: datetime | None, zone: ResolvedZone) -> dict[str, Any]:
    """An instant, or a period's bounds, in the zone, with the weekday of its (first) day."""
    local = start.astimezone(zone.tz)
    if end is None:
        return {"instant": iso(local), "day_of_week": DAY_NAMES[local.weekday()]}
    return {"start": iso(local), "end": iso(end.astimezone(zone.tz)), "day_of_week": DAY_NAMES[local.weekday()]}


def _occurrence(instant: datetime, zone: ResolvedZone, whole_day: bool) -> dict[str, str]:
    local = instant.astimezone(zone.tz)
    when = local.date().isoformat() if whole_day else iso(local)
    return {"date" if whole_day else "timestamp": when, "day_of_week": DAY_NAMES[local.weekday()]}


def _result(resolution: Resolution, zone: ResolvedZone, first_day: int, language: Language) -> dict[str, Any]:
    body: dict[str, Any] = {"kind": resolution.kind, "interpretation": language.render(resolution.interpretation)}
    if resolution.kind == "recurrence":
        whole_day = resolution.granularity == "day"
        body["occurrences"] = [_occurrence(instant, zone, whole_day) for instant in resolution.occurrences]
        body["rule"] = resolution.rule
    else:
        body |= _span(resolution.start, resolution.end, zone)
    alternative = resolution.alternative
    return body | without_nulls(
        timezone=zone.key,
        week_start=DAY_NAMES[first_day] if resolution.granularity == "week" and resolution.kind == "period" else None,
        dst=dst_report(resolution.local_time),
        alternative=(
            {
                "interpretation": language.render(alternative.interpretation),
                **_span(alternative.start, alternative.end, zone),
            }
            if alternative is not None
            else None
        ),
    )


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "resolve_time_expression",
        "Resolve a relative time expression",
        "What people say as exact times in the user's zone: an instant, a period [start, end) or the next "
        "occurrences, e.g. 'in 45 minutes', 'last 7 days', 'second Tuesday of next month', 'Easter 2027', "
        "'every weekday at 9:30'. Use it instead of computing dates.",
        ResolveTimeExpressionArgs,
        ResolveTimeExpressionResult,
        resolve_time_expression,
    ),
)
