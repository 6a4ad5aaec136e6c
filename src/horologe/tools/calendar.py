"""Calendar tools: date arithmetic, business days and holidays, date facts, recurrence, history, meetings.

Heavy libraries (holidays, dateutil.rrule, croniter, babel) are imported inside the core
functions that use them, so importing this module stays cheap.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from horologe.context import RequestContext
from horologe.core.arithmetic import Addition, add_amount, parse_amount
from horologe.core.calendar import (
    MAX_LISTED,
    HolidayCalendar,
    HolidayHit,
    add_business_days,
    count_business_days,
    holiday_calendar,
    holidays_in_year,
    language_tag,
    parse_weekend,
)
from horologe.core.dateinfo import date_facts, locale_week_rules, other_calendars, week_number
from horologe.core.errors import InvalidArgument
from horologe.core.localtime import LocalResolution
from horologe.core.messages import N_
from horologe.core.weekdays import DAY_NAMES
from horologe.core.zones import country_names
from horologe.i18n import SOURCE_LANGUAGE
from horologe.i18n.cldr import hours_phrase, weekday_name
from horologe.i18n.language import Language
from horologe.places import gazetteer
from horologe.tools.present import dst_report, iso, without_nulls, zone_of
from horologe.tools.reading import date_of, holiday_country, instant_of, source_zone
from horologe.tools.schemas import calendar as s
from horologe.tools.spec import ToolOptions, ToolSpec
from horologe.tools.text import text


def add_time(args: s.AddTimeArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Add an ISO 8601 duration or plain units to a time, calendar units on the wall clock; what was notable (a day
    clamped to the month's end, a DST change crossed or hit) is explained."""
    given = zone_of(args.timezone, ctx) if args.timezone is not None else None
    read = instant_of(args.timestamp, given, ctx, args.disambiguation)
    zone = source_zone(read, given, ctx, offsets=False)
    amount = parse_amount(args.amount)
    added = add_amount(read.instant, amount, zone.tz, args.disambiguation)
    start, result = read.instant.astimezone(zone.tz), added.instant.astimezone(zone.tz)
    elapsed = result.astimezone(UTC) - start.astimezone(UTC)
    clamped = None
    if added.clamped_from and added.wall_after_calendar is not None:
        clamped_day = (added.wall_after_calendar - timedelta(days=amount.weeks * 7 + amount.days)).date()
        clamped = {"from": added.clamped_from, "to": clamped_day.isoformat()}
    dst = dst_report(added.resolution)
    crossed = added.wall_after_calendar is not None and elapsed != (
        result.replace(tzinfo=None) - start.replace(tzinfo=None)
    )
    explanation = None
    if clamped or dst or crossed:
        explanation = _explanation(start, amount.iso(), zone.key, elapsed, added, clamped, ctx.language)
    return without_nulls(
        start=iso(start),
        amount=amount.iso(),
        result=iso(result),
        day_of_week=DAY_NAMES[result.weekday()],
        timezone=zone.key,
        clamped=clamped,
        dst=dst,
        elapsed_seconds=elapsed.total_seconds() if crossed else None,
        start_dst=dst_report(read.resolution),
        read_as=read.read_as(),
        explanation=explanation,
    )


def _explanation(
    start: datetime,
    amount: str,
    zone: str,
    elapsed: timedelta,
    added: Addition,
    clamped: dict[str, str] | None,
    language: Language,
) -> str:
    """What happened on the wall clock and the timeline, for an addition that clamped a day or met a DST change."""
    values = {
        "start": iso(start),
        "amount": amount,
        "zone": zone,
        "elapsed": hours_phrase(elapsed.total_seconds() / 3600, language.tag),
    }
    if added.wall_after_calendar is None:
        explanation = text(language, "add.exact", **values)
    else:
        explanation = text(language, "add.calendar", wall=added.wall_after_calendar.isoformat(), **values)
    if clamped is not None:
        explanation += text(language, "add.clamped", missing=clamped["from"], clamped=clamped["to"])
    return explanation + _dst_sentence(added.wall_after_calendar, added.resolution, language)


def holiday_language(explicit: str | None, language: Language) -> str | None:
    """Holiday names in the `language` argument, else the request's negotiated language (SEP-2792), else default."""
    if explicit is not None:
        return explicit
    return language.tag if language.requested else None


def report_holiday_language(used: str | None, language: Language) -> None:
    """Holiday names are text of the answer: when they are not in the negotiated language and its script (the
    package lacks it, or an explicit `language` argument chose another), `contentLanguage` names the language they
    are in (SEP-2792: the language actually used), Chinese with its script ('zh-Hant-TW': Traditional names are not
    the negotiated 'zh-Hans'). The package's names without a language code are English."""
    language.written_in(language_tag(used) if used else SOURCE_LANGUAGE)


def country_or_context(country: str | None, ctx: RequestContext) -> str:
    """The country argument, else the user's: the client context's, else their zone's (the country holiday names are
    read for, so 'business days until Christmas' counts the holidays of the Christmas it found)."""
    chosen = country or holiday_country(ctx, ctx.user_zone())
    if chosen is None:
        raise InvalidArgument(
            N_(
                "Name a country (ISO code such as 'US', 'AT' or 'GB'): none was given and the client sent no "
                "userLocation.country in its context."
            ),
            suggestions=["US", "GB", "DE"],
        )
    return chosen


def business_days(args: s.BusinessDaysArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Count business days between two dates, or add N business days to a date."""
    if (args.end_date is None) == (args.count is None):
        raise InvalidArgument(
            N_(
                "Give exactly one of 'end_date' (count business days from start_date to end_date) or 'count' (add "
                "business days)."
            ),
            suggestions=["end_date", "count"],
        )
    weekend = parse_weekend(args.weekend) if args.weekend is not None else None
    extra = {
        date_of(day, "extra_holidays", ctx): text(ctx.language, "business.extra_holiday")
        for day in args.extra_holidays or []
    }
    country = country_or_context(args.country, ctx)
    language = holiday_language(None, ctx.language)
    calendar = holiday_calendar(
        country,
        args.subdivision,
        language=language,
        weekend=weekend,
        extra=extra,
        names=gazetteer().subdivisions,
        countries=country_names(gazetteer()),
        parts=gazetteer().subdivisions_named,
    )
    report_holiday_language(calendar.language, ctx.language)
    start = (
        date_of(args.start_date, "start_date", ctx)
        if args.start_date
        else ctx.now.astimezone(ctx.user_zone().tz).date()
    )
    place = calendar.country + (f"-{calendar.subdivision}" if calendar.subdivision else "")
    body: dict[str, Any] = without_nulls(
        country=calendar.country,
        subdivision=calendar.subdivision,
        start=start.isoformat(),
        weekend=[DAY_NAMES[day] for day in sorted(calendar.weekend)],
    )
    if args.end_date is not None:
        end = date_of(args.end_date, "end_date", ctx)
        counted, hits = count_business_days(calendar, start, end, include_end=args.include_end, budget=ctx.budget)
        weekday_holidays = sum(1 for hit in hits if not hit.on_weekend)
        which = text(ctx.language, "business.end_included" if args.include_end else "business.end_excluded")
        summary = text(
            ctx.language,
            "business.count",
            count=counted,
            start=start,
            end=end,
            which=which,
            place=place,
            holidays=weekday_holidays,
        )
        body |= {"mode": "count", "end": end.isoformat(), "business_days": counted}
        span = (end - start).days  # signed like the count: the end date adds a day away from the start
        body |= {"calendar_days": span + (0 if not args.include_end else 1 if span >= 0 else -1)}
    else:
        assert args.count is not None
        reached, hits = add_business_days(calendar, start, args.count, ctx.budget)
        weekday = weekday_name(reached.weekday(), ctx.language.tag)
        summary = text(
            ctx.language, "business.add", count=args.count, start=start, place=place, result=reached, weekday=weekday
        )
        result_day = DAY_NAMES[reached.weekday()]
        body |= {"mode": "add", "count": args.count, "result": reached.isoformat(), "result_day_of_week": result_day}
    return body | without_nulls(
        holidays=[_holiday(hit) for hit in hits[:MAX_LISTED]],
        holidays_truncated=True if len(hits) > MAX_LISTED else None,
        summary=summary,
    )


def list_holidays(args: s.ListHolidaysArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """The public holidays of a country (and subdivision) in a year."""
    country = country_or_context(args.country, ctx)
    calendar: HolidayCalendar = holiday_calendar(
        country,
        args.subdivision,
        language=holiday_language(args.language, ctx.language),
        names=gazetteer().subdivisions,
        countries=country_names(gazetteer()),
        parts=gazetteer().subdivisions_named,
    )
    report_holiday_language(calendar.language, ctx.language)
    year = args.year or ctx.now.astimezone(ctx.user_zone().tz).year
    hits = holidays_in_year(calendar, year)
    return without_nulls(
        country=calendar.country,
        subdivision=calendar.subdivision,
        year=year,
        language=calendar.language,
        count=len(hits),
        holidays=[_holiday(hit) for hit in hits],
    )


def date_info(args: s.DateInfoArgs, ctx: RequestContext, options: ToolOptions) -> dict[str, Any]:
    """Weekday, ISO week, day of year, quarter, month length and leap year of a date, its week under the locale's
    rules when a locale is known, and the date in other calendars."""
    given = zone_of(args.timezone, ctx) if args.timezone is not None else None
    read = None
    if args.date is None:
        day = ctx.now.astimezone(ctx.zone_or_default(given).tz).date()
    elif isinstance(args.date, str) and _ISO_DAY.fullmatch(args.date.strip()):
        day = date_of(args.date, "date", ctx)  # a day needs no zone
    else:
        # The day where the time was given: a zone the text names ('11pm PST'), else the argument, else its offset.
        read = instant_of(args.date, given, ctx)
        day = read.instant.astimezone(source_zone(read, given, ctx, offsets=True).tz).date()
    facts = date_facts(day)
    locale = args.locale or ctx.locale
    locale_week = None
    if locale is not None:
        rules = locale_week_rules(locale)
        week_year, week = week_number(day, rules)
        first_day = DAY_NAMES[rules.first_day]
        locale_week = {"locale": rules.locale, "week": week, "week_year": week_year, "first_day_of_week": first_day}
    return without_nulls(
        **{key: facts[key] for key in _DATE_FACTS},
        locale_week=locale_week,
        calendars=_calendars(other_calendars(day)),
        read_as=read.read_as() if read is not None else None,
    )


_ISO_DAY = re.compile(r"[+-]?\d{4,6}-(?:\d{2}-\d{2}|[Ww]\d{2}(?:-\d)?|\d{3})")
_DATE_FACTS = (
    "date",
    "day_of_week",
    "iso_week_date",
    "iso_week_monday",
    "day_of_year",
    "quarter",
    "days_in_month",
    "leap_year",
)


def _calendars(found: dict[str, Any]) -> dict[str, str]:
    """The other calendars' readings as people write them ('29 Sivan 5787', 'Reiwa 9'), where defined."""
    written = {}
    for name, reading in found.items():
        if reading is None:
            continue
        if name == "japanese_era":
            written[name] = f"{reading['text']} ({reading['era_kanji']}{reading['year']}年)"
        elif name == "julian":
            written[name] = reading["date"]
        else:
            written[name] = f"{reading['day']} {reading['month_name']} {reading['year']}"
    return written


# --- helpers -------------------------------------------------------------------------------------------------


def _dst_sentence(wall: datetime | None, resolution: LocalResolution | None, language: Language) -> str:
    """What the DST policy did with the wall time the calendar units reached (in a gap: a time that does not exist)."""
    if wall is None or resolution is None or resolution.status == "unique":
        return ""
    key = "add.gap" if resolution.status == "gap" else "add.fold"
    return text(language, key, wall=wall.isoformat(), policy=resolution.policy, placed=iso(resolution.instant))


def _holiday(hit: HolidayHit) -> dict[str, Any]:
    return without_nulls(
        date=hit.day.isoformat(),
        names=list(hit.names),
        day_of_week=DAY_NAMES[hit.day.weekday()],
        on_weekend=True if hit.on_weekend else None,
        estimated=True if hit.estimated else None,
    )


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "add_time",
        "Add or subtract time",
        "A given time plus or minus an amount.",
        s.AddTimeArgs,
        s.AddTimeResult,
        add_time,
    ),
    ToolSpec(
        "business_days",
        "Business days",
        "Business days between two dates, or the date N business days after one, skipping weekends and public "
        "holidays.",
        s.BusinessDaysArgs,
        s.BusinessDaysResult,
        business_days,
    ),
    ToolSpec(
        "list_holidays",
        "Public holidays",
        "A country's public holidays in a year, with dates and weekdays.",
        s.ListHolidaysArgs,
        s.ListHolidaysResult,
        list_holidays,
    ),
    ToolSpec(
        "date_info",
        "Date facts",
        "Facts about a date (default today): weekday, ISO week, day of year, quarter, leap year, the date in other "
        "calendars (Hebrew, Islamic, Persian, Japanese era, Julian).",
        s.DateInfoArgs,
        s.DateInfoResult,
        date_info,
    ),
)
