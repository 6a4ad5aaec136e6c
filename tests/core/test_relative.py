"""Relative expressions resolved at fixed reference instants: DST days, month and year edges, five languages."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from horologe.core import tzdb
from horologe.core.errors import InvalidArgument
from horologe.core.relative import UnknownExpression, add_months, resolve_expression

VIENNA = tzdb.get_zone("Europe/Vienna")
NEW_YORK = tzdb.get_zone("America/New_York")
TOKYO = tzdb.get_zone("Asia/Tokyo")
MONDAY, SUNDAY = 0, 6


def at(zone_key: str, text: str) -> datetime:
    """A local wall time in a zone, as an aware datetime (unambiguous inputs only)."""
    return datetime.fromisoformat(text).replace(tzinfo=tzdb.get_zone(zone_key))


def span(expression: str, reference: datetime, zone_key: str, week_start: int = MONDAY) -> tuple[str, str, float]:
    result = resolve_expression(expression, reference=reference, zone=tzdb.get_zone(zone_key), week_start=week_start)
    assert result.kind == "period" and result.end is not None
    hours = (result.end.astimezone(UTC) - result.start.astimezone(UTC)) / timedelta(hours=1)
    return result.start.isoformat(), result.end.isoformat(), hours


def instant(expression: str, reference: datetime, zone_key: str) -> str:
    result = resolve_expression(expression, reference=reference, zone=tzdb.get_zone(zone_key))
    assert result.kind == "instant" and result.end is None
    return result.start.isoformat()


# (expression, zone, reference local time, start, end, length in hours)
PERIODS = [
    # Vienna springs forward on 2026-03-29: that day has 23 hours, and "yesterday" on the 30th is that day.
    ("today", "Europe/Vienna", "2026-03-29T12:00", "2026-03-29T00:00:00+01:00", "2026-03-30T00:00:00+02:00", 23),
    ("yesterday", "Europe/Vienna", "2026-03-30T09:00", "2026-03-29T00:00:00+01:00", "2026-03-30T00:00:00+02:00", 23),
    ("gestern", "Europe/Vienna", "2026-03-30T09:00", "2026-03-29T00:00:00+01:00", "2026-03-30T00:00:00+02:00", 23),
    ("tomorrow", "Europe/Vienna", "2026-03-28T22:00", "2026-03-29T00:00:00+01:00", "2026-03-30T00:00:00+02:00", 23),
    ("this week", "Europe/Vienna", "2026-03-29T12:00", "2026-03-23T00:00:00+01:00", "2026-03-30T00:00:00+02:00", 167),
    ("this month", "Europe/Vienna", "2026-03-29T12:00", "2026-03-01T00:00:00+01:00", "2026-04-01T00:00:00+02:00", 743),
    # New York falls back on 2026-11-01: that day has 25 hours.
    ("today", "America/New_York", "2026-11-01T12:00", "2026-11-01T00:00:00-04:00", "2026-11-02T00:00:00-05:00", 25),
    ("yesterday", "America/New_York", "2026-11-02T08:00", "2026-11-01T00:00:00-04:00", "2026-11-02T00:00:00-05:00", 25),
    ("ayer", "America/New_York", "2026-11-02T08:00", "2026-11-01T00:00:00-04:00", "2026-11-02T00:00:00-05:00", 25),
    (
        "this month",
        "America/New_York",
        "2026-11-15T08:00",
        "2026-11-01T00:00:00-04:00",
        "2026-12-01T00:00:00-05:00",
        721,
    ),
    (
        "last month",
        "America/New_York",
        "2026-12-01T00:30",
        "2026-11-01T00:00:00-04:00",
        "2026-12-01T00:00:00-05:00",
        721,
    ),
    # Month and year boundaries, 29/30/31-day months, leap day.
    ("last month", "Europe/Vienna", "2026-01-01T00:30", "2025-12-01T00:00:00+01:00", "2026-01-01T00:00:00+01:00", 744),
    ("this year", "Europe/Vienna", "2026-12-31T23:59", "2026-01-01T00:00:00+01:00", "2027-01-01T00:00:00+01:00", 8760),
    ("last year", "Asia/Tokyo", "2029-01-01T00:00", "2028-01-01T00:00:00+09:00", "2029-01-01T00:00:00+09:00", 8784),
    ("this month", "Asia/Tokyo", "2028-02-29T10:00", "2028-02-01T00:00:00+09:00", "2028-03-01T00:00:00+09:00", 696),
    ("this month", "Asia/Tokyo", "2027-02-10T10:00", "2027-02-01T00:00:00+09:00", "2027-03-01T00:00:00+09:00", 672),
    ("last month", "Asia/Tokyo", "2026-05-31T10:00", "2026-04-01T00:00:00+09:00", "2026-05-01T00:00:00+09:00", 720),
    ("end of month", "Asia/Tokyo", "2028-02-03T10:00", "2028-02-29T00:00:00+09:00", "2028-03-01T00:00:00+09:00", 24),
    ("end of month", "Asia/Tokyo", "2026-04-03T10:00", "2026-04-30T00:00:00+09:00", "2026-05-01T00:00:00+09:00", 24),
    ("Monatsende", "Europe/Vienna", "2026-12-03T10:00", "2026-12-31T00:00:00+01:00", "2027-01-01T00:00:00+01:00", 24),
    ("tomorrow", "Asia/Tokyo", "2028-02-28T23:00", "2028-02-29T00:00:00+09:00", "2028-03-01T00:00:00+09:00", 24),
    ("yesterday", "Asia/Tokyo", "2028-03-01T01:00", "2028-02-29T00:00:00+09:00", "2028-03-01T00:00:00+09:00", 24),
    (
        "this quarter",
        "Europe/Vienna",
        "2026-03-31T23:00",
        "2026-01-01T00:00:00+01:00",
        "2026-04-01T00:00:00+02:00",
        2159,
    ),
    ("Q3 2025", "Europe/Vienna", "2026-03-29T12:00", "2025-07-01T00:00:00+02:00", "2025-10-01T00:00:00+02:00", 2208),
    (
        "2025年第3四半期",
        "Asia/Tokyo",
        "2026-03-29T12:00",
        "2025-07-01T00:00:00+09:00",
        "2025-10-01T00:00:00+09:00",
        2208,
    ),
    ("last 7 days", "Europe/Vienna", "2026-04-02T12:00", "2026-03-26T12:00:00+01:00", "2026-04-02T12:00:00+02:00", 167),
    (
        "the past 24 hours",
        "Europe/Vienna",
        "2026-03-29T12:00",
        "2026-03-28T11:00:00+01:00",
        "2026-03-29T12:00:00+02:00",
        24,
    ),
    (
        "since Monday",
        "Europe/Vienna",
        "2026-03-29T12:00",
        "2026-03-23T00:00:00+01:00",
        "2026-03-29T12:00:00+02:00",
        155,
    ),
    ("since Sunday", "Europe/Vienna", "2026-03-29T12:00", "2026-03-29T00:00:00+01:00", "2026-03-29T12:00:00+02:00", 11),
]


@pytest.mark.parametrize(("expression", "zone", "reference", "start", "end", "hours"), PERIODS)
def test_periods_are_half_open_calendar_spans_exact_across_dst(
    expression: str, zone: str, reference: str, start: str, end: str, hours: float
) -> None:
    assert span(expression, at(zone, reference), zone) == (start, end, hours)


@pytest.mark.parametrize(
    ("week_start", "start", "end"),
    [
        (MONDAY, "2026-11-16T00:00:00-05:00", "2026-11-23T00:00:00-05:00"),
        (SUNDAY, "2026-11-22T00:00:00-05:00", "2026-11-29T00:00:00-05:00"),
    ],
)
def test_the_week_starts_on_the_given_day(week_start: int, start: str, end: str) -> None:
    reference = at("America/New_York", "2026-11-22T10:00")  # a Sunday
    assert span("this week", reference, "America/New_York", week_start)[:2] == (start, end)


def test_last_week_is_the_previous_calendar_week() -> None:
    reference = at("America/New_York", "2026-11-22T10:00")
    assert span("last week", reference, "America/New_York", SUNDAY)[:2] == (
        "2026-11-15T00:00:00-05:00",
        "2026-11-22T00:00:00-05:00",
    )


INSTANTS = [
    ("now", "Europe/Vienna", "2026-03-29T12:00", "2026-03-29T12:00:00+02:00"),
    ("in 2 hours", "Europe/Vienna", "2026-03-29T01:30", "2026-03-29T04:30:00+02:00"),
    ("3 days ago", "Europe/Vienna", "2026-04-01T10:00", "2026-03-29T10:00:00+02:00"),
    ("in 1 day", "America/New_York", "2026-10-31T12:00", "2026-11-01T12:00:00-05:00"),
    ("tomorrow noon", "America/New_York", "2026-10-31T20:00", "2026-11-01T12:00:00-05:00"),
    ("next Friday at 3pm", "Europe/Vienna", "2026-11-22T04:11", "2026-11-27T15:00:00+01:00"),
    ("next Friday at 3pm", "Europe/Vienna", "2026-11-27T09:00", "2026-12-04T15:00:00+01:00"),
    ("Friday at 3pm", "Europe/Vienna", "2026-11-27T09:00", "2026-11-27T15:00:00+01:00"),
    ("last friday", "Europe/Vienna", "2026-11-27T09:00", "2026-11-20T00:00:00+01:00"),
    ("in 1 month", "Asia/Tokyo", "2026-01-31T10:00", "2026-02-28T10:00:00+09:00"),
    ("in 1 month", "Asia/Tokyo", "2028-01-31T10:00", "2028-02-29T10:00:00+09:00"),
    ("in 1 year", "Asia/Tokyo", "2028-02-29T10:00", "2029-02-28T10:00:00+09:00"),
    # A wall time inside the spring-forward gap moves forward by the gap.
    ("tomorrow at 2:30", "Europe/Vienna", "2026-03-28T12:00", "2026-03-29T03:30:00+02:00"),
]


@pytest.mark.parametrize(("expression", "zone", "reference", "expected"), INSTANTS)
def test_instants(expression: str, zone: str, reference: str, expected: str) -> None:
    if expression == "last friday":
        assert span(expression, at(zone, reference), zone)[0] == expected
    else:
        assert instant(expression, at(zone, reference), zone) == expected


def test_a_fall_back_wall_time_takes_its_first_occurrence_and_says_so() -> None:
    result = resolve_expression(
        "tomorrow at 1:30am", reference=at("America/New_York", "2026-10-31T12:00"), zone=NEW_YORK
    )
    assert result.start.isoformat() == "2026-11-01T01:30:00-04:00"
    assert result.local_time is not None and result.local_time.ambiguous


SAME_MEANING = {
    "yesterday": ["gestern", "hier", "ayer", "昨日"],
    "this month": ["diesen Monat", "ce mois-ci", "este mes", "今月"],
    "last week": ["letzte Woche", "la semaine dernière", "la semana pasada", "先週"],
    "next Friday at 3pm": [
        "nächsten Freitag um 15 Uhr",
        "vendredi prochain à 15h",
        "el próximo viernes a las 15:00",
        "次の金曜日の15時",
        "next friday 15:00",
    ],
    "tomorrow noon": ["morgen Mittag", "demain midi", "mañana al mediodía", "明日の正午", "noon tomorrow"],
    "3 days ago": ["vor 3 Tagen", "il y a 3 jours", "hace 3 días", "3日前", "three days ago"],
    "in 2 hours": ["in 2 Stunden", "dans 2 heures", "en 2 horas", "2時間後", "in two hours"],
    "last 7 days": ["die letzten 7 Tage", "les 7 derniers jours", "los últimos 7 días", "過去7日間"],
    "since Monday": ["seit Montag", "depuis lundi", "desde el lunes", "月曜日から"],
    "end of month": ["Ende des Monats", "fin du mois", "fin de mes", "月末"],
    "this year": ["dieses Jahr", "cette année", "este año", "今年"],
}


@pytest.mark.parametrize(
    ("english", "translation"), [(en, other) for en, others in SAME_MEANING.items() for other in others]
)
def test_translations_mean_the_same(english: str, translation: str) -> None:
    reference = at("Europe/Vienna", "2026-11-22T04:11")
    expected = resolve_expression(english, reference=reference, zone=VIENNA)
    got = resolve_expression(translation, reference=reference, zone=VIENNA)
    assert (got.kind, got.start, got.end) == (expected.kind, expected.start, expected.end)


@pytest.mark.parametrize(
    ("expression", "language"), [("gestern", "de"), ("hier", "fr"), ("ayer", "es"), ("昨日", "ja"), ("now", "en")]
)
def test_the_language_that_understood_is_reported(expression: str, language: str) -> None:
    result = resolve_expression(expression, reference=at("Europe/Vienna", "2026-11-22T04:11"), zone=VIENNA)
    assert result.language == language


@pytest.mark.parametrize("expression", ["gibberish", "asdf qwer", "next", "at 25:00", "in many hours", "😀", " "])
def test_text_no_rule_reads_is_an_error_with_examples_never_now(expression: str) -> None:
    with pytest.raises(UnknownExpression) as caught:
        resolve_expression(expression, reference=at("Europe/Vienna", "2026-11-22T04:11"), zone=VIENNA)
    assert "next Friday at 3pm" in caught.value.message
    assert caught.value.suggestions


def test_errors_list_examples_in_the_preferred_language_first() -> None:
    with pytest.raises(UnknownExpression) as caught:
        resolve_expression("blabla", reference=at("Europe/Vienna", "2026-11-22T04:11"), zone=VIENNA, languages=["de"])
    assert caught.value.suggestions[0] == "jetzt"


def test_since_a_future_day_is_refused() -> None:
    with pytest.raises(InvalidArgument):
        resolve_expression("since tomorrow", reference=at("Europe/Vienna", "2026-11-22T04:11"), zone=VIENNA)


def test_a_naive_reference_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        resolve_expression("today", reference=datetime(2026, 1, 1), zone=VIENNA)


@pytest.mark.parametrize(
    ("start", "months", "expected"),
    [
        ("2026-01-31", 1, "2026-02-28"),
        ("2028-01-31", 1, "2028-02-29"),
        ("2026-03-31", 1, "2026-04-30"),
        ("2026-12-15", 1, "2027-01-15"),
        ("2026-01-15", -1, "2025-12-15"),
        ("2026-05-31", -3, "2026-02-28"),
    ],
)
def test_adding_months_clamps_to_the_month_end(start: str, months: int, expected: str) -> None:
    from datetime import date

    assert add_months(date.fromisoformat(start), months).isoformat() == expected


def resolved(expression: str, reference: str, week_start: int = MONDAY, weekend: tuple[int, int] = (5, 6)) -> Any:
    return resolve_expression(
        expression, reference=at("Europe/Vienna", reference), zone=VIENNA, week_start=week_start, weekend=weekend
    )


def days(start: datetime, end: datetime | None) -> tuple[str, str | None]:
    return start.date().isoformat(), None if end is None else end.date().isoformat()


# (expression, reference local time: 2026-11-23 is a Monday, 11-28 a Saturday, 11-29 a Sunday,
#  taken reading [first day, day after), other reading or None)
DOUBLE_READINGS = [
    ("next Tuesday", "2026-11-23T10:00", ("2026-11-24", "2026-11-25"), ("2026-12-01", "2026-12-02")),
    ("next Friday", "2026-11-23T10:00", ("2026-11-27", "2026-11-28"), ("2026-12-04", "2026-12-05")),
    ("nächsten Dienstag", "2026-11-23T10:00", ("2026-11-24", "2026-11-25"), ("2026-12-01", "2026-12-02")),
    ("mardi prochain", "2026-11-23T10:00", ("2026-11-24", "2026-11-25"), ("2026-12-01", "2026-12-02")),
    # "not this Tuesday, the next one": the Tuesday after the coming one, also when that one is in next week.
    ("next Tuesday", "2026-11-28T10:00", ("2026-12-01", "2026-12-02"), ("2026-12-08", "2026-12-09")),
    ("next Tuesday", "2026-11-26T10:00", ("2026-12-01", "2026-12-02"), ("2026-12-08", "2026-12-09")),  # Thursday
    ("next Monday", "2026-11-23T10:00", ("2026-11-30", "2026-12-01"), None),  # said on a Monday: a week later
    ("Tuesday", "2026-11-23T10:00", ("2026-11-24", "2026-11-25"), None),
    ("Tuesday next week", "2026-11-23T10:00", ("2026-12-01", "2026-12-02"), None),
    ("this weekend", "2026-11-28T10:00", ("2026-11-28", "2026-11-30"), ("2026-12-05", "2026-12-07")),
    ("this weekend", "2026-11-29T10:00", ("2026-11-28", "2026-11-30"), ("2026-12-05", "2026-12-07")),
    ("this weekend", "2026-11-23T10:00", ("2026-11-28", "2026-11-30"), None),
    ("the weekend", "2026-11-27T18:00", ("2026-11-28", "2026-11-30"), None),
    ("next weekend", "2026-11-23T10:00", ("2026-11-28", "2026-11-30"), ("2026-12-05", "2026-12-07")),
    ("next weekend", "2026-11-28T10:00", ("2026-12-05", "2026-12-07"), None),
    ("last weekend", "2026-11-23T10:00", ("2026-11-21", "2026-11-23"), None),
    ("last weekend", "2026-11-28T10:00", ("2026-11-21", "2026-11-23"), None),
    ("the weekend after next", "2026-11-23T10:00", ("2026-12-05", "2026-12-07"), None),
    ("dieses Wochenende", "2026-11-28T10:00", ("2026-11-28", "2026-11-30"), ("2026-12-05", "2026-12-07")),
    ("le week-end prochain", "2026-11-23T10:00", ("2026-11-28", "2026-11-30"), ("2026-12-05", "2026-12-07")),
    ("el fin de semana pasado", "2026-11-23T10:00", ("2026-11-21", "2026-11-23"), None),
    ("来週末", "2026-11-23T10:00", ("2026-12-05", "2026-12-07"), None),  # "next week's end": never the coming one
    ("次の週末", "2026-11-23T10:00", ("2026-11-28", "2026-11-30"), ("2026-12-05", "2026-12-07")),
    ("今週末", "2026-11-28T10:00", ("2026-11-28", "2026-11-30"), ("2026-12-05", "2026-12-07")),
]


@pytest.mark.parametrize(("expression", "reference", "taken", "other"), DOUBLE_READINGS)
def test_a_double_reading_names_the_reading_taken_and_the_other(
    expression: str, reference: str, taken: tuple[str, str], other: tuple[str, str] | None
) -> None:
    result = resolved(expression, reference)
    assert days(result.start, result.end) == taken
    if other is None:
        assert result.alternative is None
    else:
        assert result.alternative is not None
        assert days(result.alternative.start, result.alternative.end) == other
        assert "(" in result.interpretation.render()  # the reading taken is named, not only its dates


def test_next_tuesday_at_3pm_on_a_monday_offers_the_instant_a_week_later() -> None:
    result = resolved("next Tuesday at 3pm", "2026-11-23T10:00")
    assert result.kind == "instant" and result.start.isoformat() == "2026-11-24T15:00:00+01:00"
    assert result.alternative is not None and result.alternative.end is None
    assert result.alternative.start.isoformat() == "2026-12-01T15:00:00+01:00"
    assert result.alternative.interpretation.render() == "15:00 on 2026-12-01 (Tuesday of next week)"


def test_the_week_start_decides_how_the_other_reading_is_named() -> None:
    # On Sunday 2026-11-22, "next Tuesday" is the 24th, the other reading the 1st: "Tuesday of next week" when the
    # 24th is in this week (weeks from Sunday, en-US), "the Tuesday after the coming one" when it is in next week.
    for week_start, name in ((SUNDAY, "Tuesday of next week"), (MONDAY, "the Tuesday after the coming one")):
        result = resolved("next Tuesday", "2026-11-22T10:00", week_start=week_start)
        assert days(result.start, result.end) == ("2026-11-24", "2026-11-25")
        assert result.alternative is not None
        assert days(result.alternative.start, result.alternative.end) == ("2026-12-01", "2026-12-02")
        assert result.alternative.interpretation.render() == f"2026-12-01 ({name})"


def test_the_weekend_is_the_locales() -> None:
    # Friday-Saturday (he-IL): on Friday 2026-11-27 that weekend is in progress.
    result = resolved("this weekend", "2026-11-27T10:00", weekend=(4, 5))
    assert days(result.start, result.end) == ("2026-11-27", "2026-11-29")
    assert result.granularity == "weekend"
    one_day = resolved("this weekend", "2026-11-23T10:00", weekend=(6, 6))
    assert days(one_day.start, one_day.end) == ("2026-11-29", "2026-11-30")
    assert one_day.interpretation.render() == "the weekend 2026-11-29"


def test_a_weekend_across_a_dst_change_ends_at_the_local_midnight() -> None:
    result = resolved("this weekend", "2026-10-24T10:00")  # Vienna falls back on Sunday 2026-10-25
    assert result.end is not None
    assert (result.end.astimezone(UTC) - result.start.astimezone(UTC)) == timedelta(hours=49)


def test_a_repeated_expression_is_resolved_at_each_reference() -> None:
    # The parse of a text is kept; the answer never is: each call resolves at its own reference.
    night, summer = at("Europe/Vienna", "2026-03-29T00:30"), at("Europe/Vienna", "2026-07-01T10:00")
    assert instant("in 2 hours", night, "Europe/Vienna") == "2026-03-29T03:30:00+02:00"
    assert instant("in 2 hours", summer, "Europe/Vienna") == "2026-07-01T12:00:00+02:00"


@pytest.mark.parametrize(
    "expression",
    [
        "every other Friday at 4pm starting December 4",
        "every other Friday at 4pm, beginning on December 4",
        "every 2 weeks on Friday at 16:00 from December 4 on",
        "jeden zweiten Freitag um 16 Uhr ab dem 4. Dezember",
    ],
)
def test_a_schedule_starts_where_its_start_clause_says(expression: str) -> None:
    # 2026-12-04 is a Friday: the fortnights count from it, and the rule's DTSTART is its first occurrence.
    found = resolved(expression, "2026-11-28T10:00:00")
    assert found.kind == "recurrence"
    assert [moment.isoformat() for moment in found.occurrences[:3]] == [
        "2026-12-04T16:00:00+01:00",
        "2026-12-18T16:00:00+01:00",
        "2027-01-01T16:00:00+01:00",
    ]
    assert found.rule.startswith("DTSTART;TZID=Europe/Vienna:20261204T160000\n")
    assert "2026-12-04" in found.interpretation.render()


def test_a_schedule_from_a_day_it_does_not_fall_on_starts_at_its_next_occurrence() -> None:
    found = resolved("every Monday at 9 from January 5 on", "2026-11-28T10:00:00")  # 2027-01-05 is a Tuesday
    assert found.occurrences[0].isoformat() == "2027-01-11T09:00:00+01:00"


def test_a_start_that_is_not_understood_is_named_in_the_refusal() -> None:
    with pytest.raises(UnknownExpression) as caught:
        resolved("every other Friday at 4pm starting Decembr 4", "2026-11-28T10:00:00")
    message = caught.value.message
    assert "'every other Friday at 4pm' as a schedule" in message and "'Decembr 4'" in message


@pytest.mark.parametrize(
    ("offset", "zone"),
    [(timedelta(hours=5, minutes=30), "Asia/Colombo"), (timedelta(hours=-9, minutes=-30), "Pacific/Marquesas")],
)
def test_a_fractional_fixed_offsets_rule_is_written_on_a_zone_that_keeps_that_offset(
    offset: timedelta, zone: str
) -> None:
    fixed = timezone(offset)
    found = resolve_expression("every weekday at 9:30", reference=datetime(2026, 11, 28, 12, tzinfo=UTC), zone=fixed)
    assert found.rule is not None
    assert found.rule.startswith(f"DTSTART;TZID={zone}:20261130T093000\n")  # the wall clock of the listed times
    assert found.occurrences[0] == datetime(2026, 11, 30, 9, 30, tzinfo=fixed)


def test_a_fixed_offset_no_zone_keeps_gets_no_rule_string_rather_than_a_wrong_one() -> None:
    # +12:45 is only Chatham's winter offset (it has daylight time): a rule in UTC would move BYHOUR's hours.
    fixed = timezone(timedelta(hours=12, minutes=45))
    found = resolve_expression("every weekday at 9:30", reference=datetime(2026, 11, 28, 12, tzinfo=UTC), zone=fixed)
    assert found.rule is None and found.occurrences[0] == datetime(2026, 11, 30, 9, 30, tzinfo=fixed)
