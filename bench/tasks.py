"""The task suite: everyday questions, the calls a careful model makes for each on each surface, and whether the
answer is in what the tools said.

Each task is a question (in English, German, French, Spanish or Japanese) of one everyday class, the calls a careful
model would make on a surface (its own tool names and arguments), and the answer worked out by hand from zoneinfo and
the calendar (oracles, never our own output): a task is answered when one of the accepted spellings of the answer is in
the text the tools returned. A model that gets no answer from a surface's tools answers from its own knowledge; that
counts as not answered, as the issue counted it.

Surfaces, each run task by task in a fresh stdio process in the 2025-11-25 era (host zone Europe/Vienna, a fresh
state directory, a client that keeps no SEP-1655 state, as today's desktop clients):

- `horologe`: this checkout's default surface (a task that needs another toolset names it);
- `before` (with `--before PATH`): another checkout's `src/` (e.g. 2811cb3), with the plans written for its surface;
- `official`: the reference `mcp-server-time` (get_current_time, convert_time of a HH:MM today);
- `time-mcp`: the npm `time-mcp` (current_time, convert_time of a full datetime, relative_time, get_week_year, ...).

horologe's "now" is fixed through the client context's `currentTimestamp` (Monday 2026-11-23 10:00 in Vienna); the
peers read the machine's clock, so each answer is worked out from the "now" of the surface that gives it.

A careful model follows the first suggestion of an error once; where a surface takes no 'now' or no 'local', it asks
for the current time first. Reported per surface: answers found, calls per question, o200k tokens of the results
(with `--shared`), and the tool list's tokens (name + description + input schema).

    .venv/bin/python bench/tasks.py [--before /path/to/old/checkout] [--shared ../shared] [--no-peers]
                                    [--only ID ...] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from session import TZ, Session

FIXED_NOW = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
NOW_META = {"io.modelcontextprotocol/clientContext": {"currentTimestamp": "2026-11-23T09:00:00Z"}}
HOME = ZoneInfo(TZ)
Results = list[dict[str, Any]]
Arguments = dict[str, Any] | Callable[[Results], dict[str, Any]]
Expect = Callable[[datetime], Sequence[str]]


@dataclass(frozen=True)
class Call:
    """One tool call; `arguments` may be computed from the results of the calls before it (each result's
    structuredContent, else its text parsed as JSON when it is JSON, else {"text": ...})."""

    tool: str
    arguments: Arguments = field(default_factory=dict)
    retry: str | None = None  # the argument a careful model replaces with an error's first suggestion


@dataclass(frozen=True)
class Task:
    """An everyday question of one class, the plan on each surface, and the accepted answers at a surface's now."""

    id: str
    kind: str
    language: str
    question: str
    plans: dict[str, Sequence[Call]]
    expect: Expect
    toolsets: str | None = None  # when horologe needs more than its default surface


# --- the answer, worked out by hand ---------------------------------------------------------------------------


def stamps(moment: datetime) -> list[str]:
    """A local date and time as the surfaces write it: ISO 8601 ('T') or with a space."""
    return [moment.strftime("%Y-%m-%dT%H:%M"), moment.strftime("%Y-%m-%d %H:%M")]


def clock_in(zone: str) -> Expect:
    """The time now in a zone (this minute or the next: a call may cross a minute)."""
    return lambda now: [s for m in (now, now + timedelta(minutes=1)) for s in stamps(now_in(m, zone))]


def now_in(now: datetime, zone: str) -> datetime:
    return now.astimezone(ZoneInfo(zone))


def today(now: datetime) -> date:
    return now.astimezone(HOME).date()


def local(day: date, hour: int, minute: int, zone: str) -> datetime:
    return datetime.combine(day, time(hour, minute), ZoneInfo(zone))


def converted(moment: datetime, zone: str) -> list[str]:
    return stamps(moment.astimezone(ZoneInfo(zone)))


def fixed(*answers: str) -> Expect:
    return lambda now: answers


def next_weekday(day: date, weekday: int) -> date:
    """The first such weekday after `day` ("next Tuesday")."""
    return day + timedelta(days=(weekday - day.weekday() - 1) % 7 + 1)


def nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    first = date(year, month, 1)
    return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))


def next_month(day: date) -> tuple[int, int]:
    return (day.year + 1, 1) if day.month == 12 else (day.year, day.month + 1)


def days_until(now: datetime, day: date) -> list[str]:
    span = (datetime.combine(day, time(0), HOME) - now) / timedelta(days=1)
    return [f"{span:.1f} days", f"{int(span)} days", f"{int(span) + 1} days"]


def christmas(now: datetime) -> date:
    this = date(today(now).year, 12, 25)
    return this if this >= today(now) else date(this.year + 1, 12, 25)


# --- plans ---------------------------------------------------------------------------------------------------------

OFFICIAL_NOW = Call("get_current_time", {"timezone": TZ})
TIME_MCP_NOW = Call("current_time", {"timezone": TZ})
"""Where a peer has no tool for a question, a careful model asks it for today and works the rest out itself."""


def same(call: Call | Sequence[Call], **others: Sequence[Call]) -> dict[str, Sequence[Call]]:
    """horologe's plan, also the `before` surface's unless given."""
    plan = [call] if isinstance(call, Call) else list(call)
    return {"horologe": plan, "before": plan} | others


def zone_now(zone: str, timezone_arg: str) -> dict[str, Sequence[Call]]:
    """'What time is it in X?' on every surface."""
    return same(
        Call("get_current_time", {"timezone": timezone_arg}, retry="timezone"),
        official=[Call("get_current_time", {"timezone": zone})],
        **{"time-mcp": [Call("current_time", {"timezone": zone})]},
    )


def horologe_only(call: Call | Sequence[Call], before: Sequence[Call] | None = None) -> dict[str, Sequence[Call]]:
    """A question no peer has a tool for: the model answers it from its own knowledge there."""
    plans = same(call, official=[], **{"time-mcp": []})
    return plans if before is None else plans | {"before": before}


def today_at(
    words: dict[str, Any], source: str, source_text: str, clock: str, target: str, target_text: str
) -> dict[str, Sequence[Call]]:
    """'HH:MM in A is what in B?' (today): horologe reads it in one call; `before` and time-mcp need today's date."""
    return same(
        Call("convert_timezone", words),
        before=[
            Call("get_current_time", {"timezone": source}),
            Call(
                "convert_timezone",
                lambda r: {
                    "timestamp": f"{r[0]['timestamp'][:10]}T{clock}",
                    "from_timezone": source_text,
                    "to_timezone": target_text,
                },
            ),
        ],
        official=[Call("convert_time", {"source_timezone": source, "time": clock, "target_timezone": target})],
        **{
            "time-mcp": [
                TIME_MCP_NOW,
                Call("convert_time", lambda r: _time_mcp_convert(r, source, f"{clock}:00", target)),
            ]
        },
    )


def phrase(expression: str, before: Sequence[Call] | None = None, **options: Any) -> dict[str, Sequence[Call]]:
    """A question resolve_time_expression answers in one call; a peer can only give today's date."""
    plans = same(
        Call("resolve_time_expression", {"expression": expression, **options}),
        official=[OFFICIAL_NOW],
        **{"time-mcp": [TIME_MCP_NOW]},
    )
    return plans if before is None else plans | {"before": before}


def words_to(timestamp: str, zone: str, before_words: str | None = None) -> dict[str, Sequence[Call]]:
    """'<a time in words> in <zone>': one call on horologe; two on `before` (resolve, then convert); a peer can only
    give today's date."""
    return same(
        Call("convert_timezone", {"timestamp": timestamp, "to_timezone": zone}),
        before=before_phrase_then(
            "convert_timezone", before_words or timestamp, lambda at: {"timestamp": at, "to_timezone": zone}
        ),
        official=[OFFICIAL_NOW],
        **{"time-mcp": [TIME_MCP_NOW]},
    )


def before_phrase_then(tool: str, expression: str, build: Callable[[str], dict[str, Any]]) -> list[Call]:
    """On the `before` surface a timestamp takes no words: resolve the phrase, then pass the instant it gave."""
    return [
        Call("resolve_time_expression", {"expression": expression}),
        Call(tool, lambda results: build(_before_instant(results[-1]))),
    ]


def _before_instant(result: dict[str, Any]) -> str:
    bound = result.get("instant") or result.get("start") or {}
    return str(bound.get("local", "") if isinstance(bound, dict) else bound)


TASKS: list[Task] = [
    # --- now, here and there ----------------------------------------------------------------------------------
    Task(
        "now",
        "now",
        "en",
        "What time is it?",
        same(Call("get_current_time"), official=[OFFICIAL_NOW], **{"time-mcp": [TIME_MCP_NOW]}),
        clock_in(TZ),
    ),
    Task(
        "mumbai",
        "now",
        "de",
        "Wie spät ist es in Mumbai?",
        zone_now("Asia/Kolkata", "Mumbai"),
        clock_in("Asia/Kolkata"),
    ),
    Task(
        "beijing",
        "now",
        "fr",
        "Quelle heure est-il à Pékin ?",
        zone_now("Asia/Shanghai", "Beijing"),
        clock_in("Asia/Shanghai"),
    ),
    Task(
        "san-francisco",
        "now",
        "es",
        "¿Qué hora es en San Francisco?",
        zone_now("America/Los_Angeles", "San Francisco"),
        clock_in("America/Los_Angeles"),
    ),
    Task("tokyo-ja", "now", "ja", "東京は今何時?", zone_now("Asia/Tokyo", "東京"), clock_in("Asia/Tokyo")),
    Task(
        "munich",
        "now",
        "de",
        "Wie spät ist es in München?",
        zone_now("Europe/Berlin", "München"),
        clock_in("Europe/Berlin"),
    ),
    Task("kiev", "now", "en", "What time is it in Kiev?", zone_now("Europe/Kyiv", "Kiev"), clock_in("Europe/Kyiv")),
    Task(
        "sao-paulo",
        "now",
        "en",
        "What time is it in Sao Paulo?",
        zone_now("America/Sao_Paulo", "Sao Paulo"),
        clock_in("America/Sao_Paulo"),
    ),
    # --- conversions ------------------------------------------------------------------------------------------
    Task(
        "ny-3pm-here",
        "conversion",
        "en",
        "What is 3pm New York time in my time?",
        today_at(
            {"timestamp": "3pm", "from_timezone": "New York", "to_timezone": "local"},
            "America/New_York",
            "America/New_York",
            "15:00",
            TZ,
            "local",
        ),
        lambda now: converted(local(now_in(now, "America/New_York").date(), 15, 0, "America/New_York"), TZ),
    ),
    Task(
        "pst-london",
        "conversion",
        "en",
        "What is 9am PST in London?",
        today_at(
            {"timestamp": "9am PST", "to_timezone": "London"},
            "America/Los_Angeles",
            "PST",
            "09:00",
            "Europe/London",
            "London",
        ),
        lambda now: converted(
            local(now_in(now, "America/Los_Angeles").date(), 9, 0, "America/Los_Angeles"), "Europe/London"
        ),
    ),
    Task(
        "madrid-buenos-aires",
        "conversion",
        "es",
        "Convierte las 18:00 del 23 de noviembre de 2026 de Madrid a la hora de Buenos Aires.",
        same(
            Call(
                "convert_timezone",
                {"timestamp": "2026-11-23T18:00", "from_timezone": "Madrid", "to_timezone": "Buenos Aires"},
            ),
            official=[OFFICIAL_NOW],  # it converts today's times only
            **{
                "time-mcp": [
                    Call(
                        "convert_time",
                        {
                            "sourceTimezone": "Europe/Madrid",
                            "targetTimezone": "America/Argentina/Buenos_Aires",
                            "time": "2026-11-23 18:00:00",
                        },
                    )
                ]
            },
        ),
        fixed("2026-11-23T14:00", "2026-11-23 14:00"),
    ),
    Task(
        "unix",
        "conversion",
        "en",
        "What date is the Unix time 1700000000?",
        horologe_only(Call("convert_timezone", {"timestamp": 1700000000, "to_timezone": "UTC"})),
        fixed("2023-11-14T22:13", "2023-11-14 22:13"),
    ),
    Task(
        "gap",
        "conversion",
        "en",
        "Is 2:30 am on 8 March 2026 a real time in New York?",
        same(
            Call(
                "convert_timezone",
                {"timestamp": "2026-03-08T02:30", "from_timezone": "America/New_York", "to_timezone": "UTC"},
            ),
            official=[],
            **{
                "time-mcp": [
                    Call(
                        "convert_time",
                        {"sourceTimezone": "America/New_York", "targetTimezone": "UTC", "time": "2026-03-08 02:30:00"},
                    )
                ]
            },
        ),
        fixed('"dst_gap":true', '"dst_gap": true'),
    ),
    # --- a time in words, in one call --------------------------------------------------------------------------
    Task(
        "next-tuesday-tokyo",
        "time in words",
        "en",
        "What is next Tuesday 4pm my time in Tokyo?",
        words_to("next Tuesday 4pm", "Tokyo", before_words="next Tuesday at 4pm"),
        lambda now: converted(local(next_weekday(today(now), 1), 16, 0, TZ), "Asia/Tokyo"),
    ),
    Task(
        "yesterday-5pm-ny",
        "time in words",
        "de",
        "Wie viel Uhr war gestern um 17 Uhr bei mir in New York?",
        words_to("gestern um 17 Uhr", "New York"),
        lambda now: converted(local(today(now) - timedelta(days=1), 17, 0, TZ), "America/New_York"),
    ),
    Task(
        "nine-ny-kolkata",
        "time in words",
        "en",
        "When it is 09:00 in New York, what time is it in Kolkata?",
        today_at(
            {"timestamp": "09:00", "from_timezone": "New York", "to_timezone": "Kolkata"},
            "America/New_York",
            "New York",
            "09:00",
            "Asia/Kolkata",
            "Kolkata",
        ),
        lambda now: converted(local(now_in(now, "America/New_York").date(), 9, 0, "America/New_York"), "Asia/Kolkata"),
    ),
    Task(
        "in-45-minutes",
        "time in words",
        "en",
        "What time will it be in 45 minutes?",
        phrase("in 45 minutes"),
        lambda now: [
            s for m in (now, now + timedelta(minutes=1)) for s in stamps(now_in(m + timedelta(minutes=45), TZ))
        ],
    ),
    # --- days and periods in words ------------------------------------------------------------------------------
    Task(
        "next-tuesday",
        "relative day",
        "de",
        "Welches Datum ist nächsten Dienstag?",
        phrase("nächsten Dienstag"),
        lambda now: [next_weekday(today(now), 1).isoformat()],
    ),
    Task(
        "this-weekend",
        "relative day",
        "en",
        "Which dates are this weekend?",
        phrase("this weekend"),
        lambda now: [(today(now) + timedelta(days=(5 - today(now).weekday()) % 7)).isoformat()],
    ),
    Task(
        "friday-next-week-ja",
        "relative day",
        "ja",
        "来週の金曜日は何日?",
        phrase("来週の金曜日"),
        lambda now: [(today(now) - timedelta(days=today(now).weekday()) + timedelta(days=11)).isoformat()],
    ),
    Task(
        "last-month",
        "relative day",
        "es",
        "¿Qué fechas abarca el mes pasado?",
        phrase("el mes pasado"),
        lambda now: [f"{(today(now).replace(day=1) - timedelta(days=1)):%Y-%m}-01"],
    ),
    # --- weekdays and days of a month -------------------------------------------------------------------------
    Task(
        "second-tuesday",
        "day of a month",
        "en",
        "What date is the second Tuesday of next month?",
        phrase("the second Tuesday of next month"),
        lambda now: [nth_weekday(*next_month(today(now)), 1, 2).isoformat()],
    ),
    Task(
        "premier-lundi",
        "day of a month",
        "fr",
        "Quel jour est le premier lundi du mois prochain ?",
        phrase("le premier lundi du mois prochain"),
        lambda now: [nth_weekday(*next_month(today(now)), 0, 1).isoformat()],
    ),
    Task(
        "last-day-february",
        "day of a month",
        "en",
        "What is the last day of February 2028?",
        same(
            Call("resolve_time_expression", {"expression": "the last day of February 2028"}),
            official=[],
            **{"time-mcp": [Call("days_in_month", {"date": "2028-02-01"})]},
        ),
        fixed("2028-02-29", "is 29"),
    ),
    Task(
        "end-of-next-month-es",
        "day of a month",
        "es",
        "¿Qué día es fin del mes próximo?",
        phrase("fin del mes próximo"),
        lambda now: [_month_end(today(now)).isoformat()],
    ),
    Task(
        "fortnight",
        "day of a month",
        "en",
        "What's the date in a fortnight?",
        phrase("in a fortnight"),
        lambda now: [(today(now) + timedelta(days=14)).isoformat()],
    ),
    # --- holidays by name -------------------------------------------------------------------------------------
    Task(
        "thanksgiving",
        "holiday",
        "en",
        "When is Thanksgiving this year in the US?",
        horologe_only(
            Call("resolve_time_expression", {"expression": "Thanksgiving in the US"}),
            before=[Call("list_holidays", {"country": "US"})],
        ),
        lambda now: [nth_weekday(today(now).year, 11, 3, 4).isoformat()],
    ),
    Task(
        "easter-2027",
        "holiday",
        "de",
        "Wann ist Ostern 2027?",
        horologe_only(
            Call("resolve_time_expression", {"expression": "Ostern 2027"}),
            before=[Call("list_holidays", {"country": "AT", "year": 2027})],
        ),
        fixed("2027-03-28"),
    ),
    Task(
        "diwali-india",
        "holiday",
        "en",
        "When is Diwali 2027 in India?",
        horologe_only(
            Call("resolve_time_expression", {"expression": "Diwali 2027 in India"}),
            before=[Call("list_holidays", {"country": "IN", "year": 2027})],
        ),
        fixed("2027-10-29"),
    ),
    Task(
        "days-to-christmas",
        "holiday",
        "fr",
        "Combien de jours jusqu'à Noël ?",
        same(
            Call("calculate_duration", {"start_time": "now", "end_time": "Noël", "units": "days"}),
            before=[
                Call("resolve_time_expression", {"expression": "Christmas"}),
                Call(
                    "calculate_duration",
                    lambda r: {"start_time": "now", "end_time": _before_instant(r[-1]), "units": "days"},
                ),
            ],
            official=[OFFICIAL_NOW],
            **{"time-mcp": [Call("relative_time", {"time": "2026-12-25 00:00:00"})]},
        ),
        lambda now: days_until(now, christmas(now)),
    ),
    Task(
        "easter-monday",
        "holiday",
        "fr",
        "Quel jour est le lundi de Pâques 2027 en France ?",
        horologe_only(Call("list_holidays", {"country": "FR", "year": 2027, "language": "fr"})),
        fixed("2027-03-29"),
    ),
    # --- recurrences in words ---------------------------------------------------------------------------------
    Task(
        "standups",
        "recurrence",
        "en",
        "We meet every weekday at 9:30. When are the next three meetings?",
        phrase("every weekday at 9:30", before=[], count=3),
        lambda now: stamps(_next_workday_at(now, 9, 30)),
    ),
    Task(
        "second-tuesday-monthly",
        "recurrence",
        "de",
        "Wir treffen uns jeden zweiten Dienstag im Monat um 10 Uhr. Wann ist das nächste Treffen?",
        phrase("jeden zweiten Dienstag im Monat um 10 Uhr", before=[], count=1),
        lambda now: stamps(_next_nth_at(now, 1, 2, 10)),
    ),
    Task(
        "every-2-weeks",
        "recurrence",
        "es",
        "Tengo clase cada 2 semanas el lunes. ¿Cuáles son las próximas fechas?",
        phrase("cada 2 semanas el lunes", before=[]),
        lambda now: [(today(now) + timedelta(days=(0 - today(now).weekday()) % 7 + 14)).isoformat()],
    ),
    # --- durations and arithmetic -----------------------------------------------------------------------------
    Task(
        "90-days",
        "arithmetic",
        "de",
        "Welcher Tag ist in 90 Tagen?",
        phrase("in 90 Tagen"),
        lambda now: [(today(now) + timedelta(days=90)).isoformat()],
    ),
    Task(
        "jan31-plus-month",
        "arithmetic",
        "en",
        "What is January 31, 2027 plus one month?",
        horologe_only(Call("add_time", {"timestamp": "2027-01-31", "amount": "1 month"})),
        fixed("2027-02-28"),
    ),
    Task(
        "sydney-new-year",
        "duration",
        "en",
        "How many hours until New Year in Sydney?",
        same(
            Call("calculate_duration", {"start_time": "now", "end_time": "2027-01-01T00:00", "timezone": "Sydney"}),
            official=[Call("get_current_time", {"timezone": "Australia/Sydney"})],
            **{"time-mcp": [Call("relative_time", {"time": "2026-12-31 13:00:00"})]},
        ),
        lambda now: _hours_until(now, datetime(2027, 1, 1, tzinfo=ZoneInfo("Australia/Sydney"))),
    ),
    Task(
        "32-hours",
        "duration",
        "es",
        "¿Cuántas horas hay entre el 1 de marzo a las 9:00 y el 2 de marzo a las 17:00?",
        horologe_only(
            Call(
                "calculate_duration",
                {"start_time": "2026-03-01T09:00", "end_time": "2026-03-02T17:00", "units": "hours"},
            )
        ),
        fixed('"hours":32', '"hours": 32', "32 hours"),
    ),
    # --- zone and date facts ----------------------------------------------------------------------------------
    Task(
        "vienna-dst",
        "zone facts",
        "de",
        "Ist in Wien gerade Sommerzeit?",
        same(
            Call("get_timezone_info", {"timezone": "Wien"}, retry="timezone"),
            official=[Call("get_current_time", {"timezone": "Europe/Vienna"})],
            **{"time-mcp": []},
        ),
        fixed('"dst_active":false', '"is_dst": false'),
    ),
    Task(
        "ny-next-change",
        "zone facts",
        "en",
        "When do the clocks change next in New York?",
        same(Call("get_timezone_info", {"timezone": "New York"}), official=[], **{"time-mcp": []}),
        fixed("2027-03-14T02:00", "2027-03-14T03:00", "2027-03-14T07:00"),
    ),
    Task(
        "iso-week",
        "date facts",
        "fr",
        "Quelle semaine ISO sommes-nous ?",
        same(
            Call("date_info"),
            before=[Call("get_current_time")],
            official=[OFFICIAL_NOW],
            **{"time-mcp": [TIME_MCP_NOW, Call("get_week_year", lambda r: {"date": _time_mcp_date(r[0])})]},
        ),
        lambda now: [
            f"W{today(now).isocalendar().week:02d}",
            f"isoWeek of the year is {today(now).isocalendar().week}",
        ],
    ),
    Task(
        "july-4",
        "date facts",
        "es",
        "¿Qué día de la semana es el 4 de julio de 2027?",
        same(Call("date_info", {"date": "2027-07-04"}), official=[], **{"time-mcp": []}),
        fixed("Sunday"),
    ),
    Task(
        "leap-day",
        "date facts",
        "en",
        "What day of the week was 29 February 2024?",
        same(Call("date_info", {"date": "2024-02-29"}), official=[], **{"time-mcp": []}),
        fixed("Thursday"),
    ),
    # --- business days ----------------------------------------------------------------------------------------
    Task(
        "christmas-business-days",
        "business days",
        "en",
        "How many working days are left before Christmas Eve in Austria?",
        horologe_only(
            Call("business_days", {"country": "AT", "end_date": "Christmas Eve"}),
            before=[Call("business_days", {"country": "AT", "end_date": "2026-12-24"})],
        ),
        fixed('"business_days":22'),  # horologe's now: 23 weekdays Nov 23 - Dec 23, less 8 December
    ),
    Task(
        "december-france",
        "business days",
        "fr",
        "Combien de jours ouvrés en décembre 2026 en France ?",
        horologe_only(Call("business_days", {"country": "FR", "start_date": "2026-12-01", "end_date": "2027-01-01"})),
        fixed('"business_days":22'),
    ),
    # --- what the user asks to be kept ------------------------------------------------------------------------
    Task(
        "home-zone",
        "memory",
        "en",
        "Remember that I live in Tokyo. ... (later) What time is it?",
        same(
            [Call("preferences", {"action": "set", "timezone": "Tokyo"}), Call("get_current_time")],
            official=[Call("get_current_time", {"timezone": "Asia/Tokyo"})],
            **{"time-mcp": [Call("current_time", {"timezone": "Asia/Tokyo"})]},
        ),
        clock_in("Asia/Tokyo"),
    ),
    Task(
        "tea-timer",
        "memory",
        "en",
        "Start a ten-minute tea timer. ... (later) How long is left on the tea?",
        horologe_only(
            [
                Call("timer", {"action": "start", "label": "tea", "duration_seconds": 600}),
                Call("timer", {"action": "check", "label": "tea"}),
            ]
        ),
        fixed('"remaining_seconds":'),
    ),
    Task(
        "meeting-bangalore",
        "meeting",
        "en",
        "Find a one-hour slot on 24 November 2026 for me and Priya in Bangalore.",
        horologe_only(
            Call(
                "find_meeting_time",
                {
                    "participants": [{"timezone": "local"}, {"timezone": "Bangalore"}],
                    "duration": 60,
                    "start_date": "2026-11-24",
                    "end_date": "2026-11-24",
                },
            )
        ),
        # Vienna 09-17 is 08:00-16:00Z, Bangalore 09-17 is 03:30-11:30Z: the best slot starts at 08:00Z.
        fixed('"start_utc":"2026-11-24T08:00:00Z"'),
        toolsets="default,schedule",
    ),
]


def _month_end(day: date) -> date:
    """The last day of the month after `day`'s."""
    year, month = next_month(day)
    following = date(year + 1, 1, 1) if month == 12 else date(year, month + 1, 1)
    return following - timedelta(days=1)


def _next_workday_at(now: datetime, hour: int, minute: int) -> datetime:
    moment = now.astimezone(HOME)
    day = moment.date()
    while True:
        at = local(day, hour, minute, TZ)
        if day.weekday() < 5 and at >= moment:
            return at
        day += timedelta(days=1)


def _next_nth_at(now: datetime, weekday: int, n: int, hour: int) -> datetime:
    moment = now.astimezone(HOME)
    year, month = moment.year, moment.month
    while True:
        at = local(nth_weekday(year, month, weekday, n), hour, 0, TZ)
        if at >= moment:
            return at
        year, month = next_month(date(year, month, 1))


def _hours_until(now: datetime, then: datetime) -> list[str]:
    hours = (then - now) / timedelta(hours=1)
    return [f"{hours:.0f} hours", f'"hours":{hours:g}', f'"hours":{round(hours, 6):g}', f"{int(hours)} hours"]


def _time_mcp_date(result: dict[str, Any]) -> str:
    text = str(result.get("text", ""))
    return text.rsplit(" is ", 1)[-1][:10] if " is " in text else ""


def _time_mcp_convert(results: Results, source: str, clock: str = "15:00:00", target: str = TZ) -> dict[str, Any]:
    """time-mcp converts a full datetime: the model takes today's date from its current_time answer."""
    text = str(results[0].get("text", ""))
    day = text.split(" is ", 1)[1][:10] if " is " in text else ""
    return {"sourceTimezone": source, "targetTimezone": target, "time": f"{day} {clock}"}


# --- running ---------------------------------------------------------------------------------------------------


@dataclass
class Outcome:
    task: Task
    calls: int
    right: bool
    tokens: int
    trace: list[str]


def run_task(
    task: Task, surface: str, command: Sequence[str], env: dict[str, str], tokens: Callable[[str], int] | None
) -> Outcome:
    """Run one task's plan in a fresh server process: count the calls and tokens, look for the answer."""
    plan = task.plans[surface]
    meta = NOW_META if surface in ("horologe", "before") else None
    with tempfile.TemporaryDirectory(prefix="horologe-tasks-") as state:
        # The peers read the machine's clock: their answers are worked out at it.
        now = FIXED_NOW if meta else datetime.now(UTC)  # noqa: TID251
        results: Results = []
        texts: list[str] = []
        trace: list[str] = []
        calls = 0
        if not plan:
            return Outcome(task, 0, False, 0, ["(no tool for it: the model answers from its own knowledge)"])
        session = Session(command, {**env, "XDG_STATE_HOME": state})
        try:
            for step in plan:
                arguments = step.arguments(results) if callable(step.arguments) else dict(step.arguments)
                for attempt in range(2):
                    calls += 1
                    params: dict[str, Any] = {"name": step.tool, "arguments": arguments}
                    if meta:
                        params["_meta"] = meta
                    answer = session.request("tools/call", params)
                    text = _text_of(answer)
                    texts.append(text)
                    error = _error_of(answer)
                    trace.append(f"{step.tool}({json.dumps(arguments, ensure_ascii=False)}) -> {error or text[:160]}")
                    if error is None:
                        results.append(_result_of(answer, text))
                        break
                    suggestions = _suggestions(answer)
                    if attempt or step.retry is None or not suggestions:
                        raise _GaveUp
                    arguments = {**arguments, step.retry: suggestions[0]}
        except _GaveUp:
            pass  # a step the model could not get through: it answers with what it has
        finally:
            session.close()
    said = "\n".join(texts)
    compact = said.replace(": ", ":")
    right = any(answer in said or answer.replace(": ", ":") in compact for answer in task.expect(now))
    return Outcome(task, calls, right, tokens(said) if tokens else 0, trace)


class _GaveUp(Exception):
    """A call failed and its error offered nothing to retry with."""


def _cell(outcome: Outcome, with_tokens: bool) -> str:
    answered = "yes" if outcome.right else "**no**"
    return f"{outcome.calls}, {answered}" + (f", {outcome.tokens}" if with_tokens else "")


def _text_of(answer: dict[str, Any]) -> str:
    if answer.get("error"):
        return json.dumps(answer["error"], ensure_ascii=False)
    return "".join(block.get("text", "") for block in answer.get("content", []))


def _result_of(answer: dict[str, Any], text: str) -> dict[str, Any]:
    if isinstance(answer.get("structuredContent"), dict):
        return dict(answer["structuredContent"])
    try:
        parsed = json.loads(text)
    except ValueError:
        return {"text": text}
    return parsed if isinstance(parsed, dict) else {"text": text}


def _error_of(answer: dict[str, Any]) -> str | None:
    if answer.get("error"):
        return str(answer["error"].get("message", answer["error"]))[:160]
    if answer.get("isError"):
        return _text_of(answer)[:160]
    return None


def _suggestions(answer: dict[str, Any]) -> list[str]:
    detail = (answer.get("_meta") or {}).get("dev.horologe/error") or {}
    if not detail and answer.get("error"):
        detail = answer["error"].get("data") or {}
    return [str(item) for item in detail.get("suggestions") or []]


def tool_list_tokens(command: Sequence[str], env: dict[str, str], tokens: Callable[[str], int]) -> int:
    """The o200k tokens of a surface's tool list as ../shared/tools/model_view.py counts it."""
    from model_view import view

    session = Session(command, env)
    try:
        return tokens(view(session.request("tools/list")["tools"]))
    finally:
        session.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, help="another checkout whose src/ is the 'before' surface")
    parser.add_argument("--shared", type=Path, help="the project's shared tools, to count o200k tokens")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--only", nargs="*", help="task ids")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    tasks = [task for task in TASKS if not args.only or task.id in args.only]
    tokens = None
    if args.shared is not None:
        from model_view import counter

        tokens = counter(args.shared)
    horologe = [sys.executable, "-m", "horologe", "serve"]
    surfaces: dict[str, tuple[list[str], dict[str, str]]] = {"horologe": (horologe, {})}
    if args.before is not None:
        surfaces = {"before": (horologe, {"PYTHONPATH": str(args.before / "src")}), **surfaces}
    if not args.no_peers:
        from peers import npm_peer, official

        surfaces |= {"official": (official(), {}), "time-mcp": (npm_peer("time-mcp", "dist/index.js"), {})}

    table: dict[str, list[Outcome]] = {}
    for label, (command, env) in surfaces.items():
        outcomes = []
        for task in tasks:
            full = (
                [*command, "--toolsets", task.toolsets]
                if task.toolsets and label in ("horologe", "before")
                else command
            )
            outcome = run_task(task, label, full, env, tokens)
            outcomes.append(outcome)
            if args.verbose:
                print(
                    f"{label} {task.id}: {'answered' if outcome.right else 'NOT'} in {outcome.calls}", file=sys.stderr
                )
                for line in outcome.trace:
                    print(f"    {line}", file=sys.stderr)
        table[label] = outcomes

    languages = sorted({task.language for task in tasks})
    print(f"### Task suite: {len(tasks)} everyday questions ({', '.join(languages)})\n")
    heading = "calls, answered, tokens" if tokens else "calls, answered"
    print("| task | class | language | " + " | ".join(f"{label}: {heading}" for label in table) + " |")
    print("|---|---|---|" + "---|" * len(table))
    for index, task in enumerate(tasks):
        cells = [_cell(table[label][index], tokens is not None) for label in table]
        print(f"| {task.id} | {task.kind} | {task.language} | " + " | ".join(cells) + " |")
    print(
        "\n| surface | answered | calls per question | calls per answered question | result tokens | tool list tokens |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for label, outcomes in table.items():
        right = [outcome for outcome in outcomes if outcome.right]
        calls = sum(outcome.calls for outcome in outcomes) / len(outcomes)
        per_right = sum(outcome.calls for outcome in right) / len(right) if right else 0.0
        result_tokens = sum(outcome.tokens for outcome in outcomes)
        command, env = surfaces[label]
        listed = tool_list_tokens(command, env, tokens) if tokens else 0
        print(
            f"| {label} | {len(right)}/{len(outcomes)} | {calls:.2f} | {per_right:.2f} | "
            f"{result_tokens:,} | {listed:,} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
