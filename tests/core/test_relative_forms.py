"""The grammar's newer forms in all five languages: weekdays and days of a month, fortnights, holidays by name and
recurrences in words; each refused clearly when only part of it is understood.

Reference: Monday 2026-11-23 10:00 in Vienna (Thanksgiving is on the 26th, the first Advent Sunday on the 29th).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest

from horologe.core import tzdb
from horologe.core.budget import Budget
from horologe.core.errors import InvalidArgument, OutOfTime
from horologe.core.relative import MAX_COUNT, Resolution, UnknownExpression, resolve_expression
from horologe.holiday_index import holiday_index

VIENNA = tzdb.get_zone("Europe/Vienna")
REFERENCE = datetime(2026, 11, 23, 10, 0, tzinfo=VIENNA)


def resolve(expression: str, country: str | None = "AT", **options: object) -> Resolution:
    return resolve_expression(
        expression,
        reference=REFERENCE,
        zone=VIENNA,
        country=country,
        holidays=holiday_index(),
        **options,  # type: ignore[arg-type]
    )


def day_of(result: Resolution) -> str:
    return result.start.astimezone(VIENNA).date().isoformat()


# (expression in every language, the day it names, the other reading's day or None)
DAYS_OF_A_MONTH = [
    (
        [
            "the second Tuesday of next month",
            "der zweite Dienstag im nächsten Monat",
            "le deuxième mardi du mois prochain",
            "el segundo martes del próximo mes",
            "来月の第2火曜日",
        ],
        "2026-12-08",
        None,
    ),
    (
        [
            "first Monday of next month",
            "am ersten Montag des nächsten Monats",
            "le premier lundi du mois prochain",
            "el primer lunes del próximo mes",
            "来月の第1月曜日",
        ],
        "2026-12-07",
        None,
    ),
    (
        [
            "last Friday in March",
            "der letzte Freitag im März",
            "le dernier vendredi de mars",
            "el último viernes de marzo",
            "3月の最終金曜日",
        ],
        "2027-03-26",
        "2026-03-27",  # said in November without a year: the coming one, the past one the other reading
    ),
    (
        [
            "last day of February",
            "der letzte Tag im Februar",
            "le dernier jour de février",
            "el último día de febrero",
            "2月の末日",
        ],
        "2027-02-28",
        "2026-02-28",
    ),
    (["the last day of February 2028", "Ende Februar 2028", "fin février 2028", "2028年2月の末日"], "2028-02-29", None),
    (["end of next month", "Ende des nächsten Monats", "fin du mois prochain", "来月末"], "2026-12-31", None),
    (["July 4", "4. Juli", "le 4 juillet", "el 4 de julio", "7月4日"], "2027-07-04", "2026-07-04"),
    (
        ["4th of July 2027", "4. Juli 2027", "le 4 juillet 2027", "el 4 de julio de 2027", "2027年7月4日"],
        "2027-07-04",
        None,
    ),
    (["the first Monday of May 2027", "the 1st Monday in May 2027"], "2027-05-03", None),
    (["the last Thursday of this month"], "2026-11-26", None),
]


@pytest.mark.parametrize(
    ("expression", "day", "other"),
    [(expression, day, other) for texts, day, other in DAYS_OF_A_MONTH for expression in texts],
)
def test_a_day_of_a_month_in_every_language(expression: str, day: str, other: str | None) -> None:
    result = resolve(expression)
    assert result.kind == "period" and day_of(result) == day
    if other is None:
        assert result.alternative is None
    else:
        assert result.alternative is not None
        assert result.alternative.start.astimezone(VIENNA).date().isoformat() == other


def test_a_day_of_a_month_takes_a_time_of_day() -> None:
    result = resolve("the second Tuesday of next month at 10:00")
    assert result.kind == "instant" and result.start.isoformat() == "2026-12-08T10:00:00+01:00"
    assert resolve("来月の第2火曜日の10時").start == result.start


@pytest.mark.parametrize(
    ("expression", "instant", "said"),
    [
        ("09:00:00", "2026-11-23T09:00:00+01:00", "09:00 on 2026-11-23"),
        ("tomorrow at 9:30:15 pm", "2026-11-24T21:30:15+01:00", "21:30:15 on 2026-11-24"),
        ("morgen um 09:30:15", "2026-11-24T09:30:15+01:00", "09:30:15 on 2026-11-24"),
        ("demain à 9:30:15", "2026-11-24T09:30:15+01:00", "09:30:15 on 2026-11-24"),
        ("mañana a las 9:30:15", "2026-11-24T09:30:15+01:00", "09:30:15 on 2026-11-24"),
        ("明日の9:30:15", "2026-11-24T09:30:15+01:00", "09:30:15 on 2026-11-24"),
    ],
)
def test_a_time_of_day_may_carry_its_seconds(expression: str, instant: str, said: str) -> None:
    # What a model copies from a timestamp ("15:00:00") is a time of day like "15:00".
    result = resolve(expression)
    assert result.kind == "instant" and result.start.isoformat() == instant
    assert result.interpretation.render() == said


def test_a_recurrence_keeps_the_seconds_of_its_time_and_refuses_a_61st() -> None:
    result = resolve("every day at 9:30:15", count=2)
    assert [o.isoformat() for o in result.occurrences] == ["2026-11-24T09:30:15+01:00", "2026-11-25T09:30:15+01:00"]
    assert result.rule is not None and "BYSECOND=15" in result.rule and "T093015" in result.rule
    assert result.interpretation.render() == "every day at 09:30:15"
    with pytest.raises(UnknownExpression):
        resolve("tomorrow at 9:30:61")


@pytest.mark.parametrize(
    ("expression", "problem"),
    [
        ("the fifth Tuesday of February 2027", "no fifth Tuesday"),
        ("the 31st of April", "has 30 days"),
        ("day 30 of February 2027", None),
    ],
)
def test_a_day_a_month_does_not_have_is_an_error_never_another_day(expression: str, problem: str | None) -> None:
    with pytest.raises(InvalidArgument) as raised:
        resolve(expression)
    if problem is not None:
        assert problem in raised.value.message and raised.value.suggestions


@pytest.mark.parametrize(
    "expression", ["in a fortnight", "a fortnight from now", "dans quinze jours", "en quince días", "in vierzehn Tagen"]
)
def test_a_fortnight_is_two_weeks(expression: str) -> None:
    result = resolve(expression)
    assert result.kind == "instant" and result.start == REFERENCE + timedelta(weeks=2)


def test_a_fortnight_ago_and_the_last_fortnight() -> None:
    assert resolve("a fortnight ago").start == REFERENCE - timedelta(weeks=2)
    rolling = resolve("the last fortnight")
    assert rolling.kind == "period" and rolling.end == REFERENCE and rolling.start == REFERENCE - timedelta(weeks=2)


# --- holidays by name ---------------------------------------------------------------------------------------------

HOLIDAYS = [
    ("Christmas", "AT", "2026-12-25"),
    ("next Christmas", "AT", "2026-12-25"),
    ("Weihnachten", "AT", "2026-12-25"),
    ("Noël", "FR", "2026-12-25"),
    ("Navidad", "ES", "2026-12-25"),
    ("Easter 2027", "AT", "2027-03-28"),  # not Easter Monday, Austria's holiday: Easter is its Sunday
    ("Ostern 2027", "DE", "2027-03-28"),
    ("Pâques 2027", "FR", "2027-03-28"),
    ("Thanksgiving", "US", "2026-11-26"),
    ("Thanksgiving in Canada", "AT", "2027-10-11"),
    ("Thanksgiving CA", "US", "2027-10-11"),
    ("New Year", "US", "2027-01-01"),
    ("Año Nuevo 2027", "ES", "2027-01-01"),
    ("元日", "JP", "2027-01-01"),
    ("2027年のこどもの日", "JP", "2027-05-05"),
    ("Diwali", "IN", "2027-10-29"),  # 2026's fell on November 8, before the reference day
    ("last Christmas", "AT", "2025-12-25"),
]


@pytest.mark.parametrize(("expression", "country", "day"), HOLIDAYS)
def test_a_holiday_by_name_comes_from_the_holidays_data(expression: str, country: str, day: str) -> None:
    result = resolve(expression, country=country)
    assert result.kind == "period" and day_of(result) == day
    assert result.end is not None and result.end - result.start >= timedelta(hours=23)


def test_a_holiday_the_country_lacks_is_what_most_countries_data_say_with_the_other_reading() -> None:
    thanksgiving = resolve("Thanksgiving", country="AT")
    assert day_of(thanksgiving) == "2026-11-26" and "US" in thanksgiving.interpretation.render()
    easter = resolve("Easter 2027", country="AT")
    assert easter.alternative is not None  # the Orthodox date
    assert easter.alternative.start.astimezone(VIENNA).date() == date(2027, 5, 2)


def test_a_holiday_the_data_disagree_on_is_refused_with_the_candidates() -> None:
    with pytest.raises(UnknownExpression) as raised:
        resolve("Independence Day", country="AT")
    assert "different days" in raised.value.message
    assert all(" in " in suggestion for suggestion in raised.value.suggestions)


def test_a_name_no_data_has_is_refused_with_close_names_or_examples() -> None:
    with pytest.raises(UnknownExpression) as raised:
        resolve("Christmes", country="AT")
    assert "Christmas Day" in raised.value.suggestions
    with pytest.raises(UnknownExpression) as unknown:
        resolve("Blorptag", country="AT")
    assert "no holiday in any country's holidays data" in unknown.value.message
    assert "now" in unknown.value.suggestions and "Christmas" in unknown.value.suggestions


def test_a_holiday_takes_a_time_of_day() -> None:
    result = resolve("Christmas at 6pm")
    assert result.kind == "instant" and result.start.isoformat() == "2026-12-25T18:00:00+01:00"


# --- recurrences in words -----------------------------------------------------------------------------------------

RECURRENCES = [
    (
        [
            "every weekday at 9:30",
            "jeden Werktag um 9:30",
            "tous les jours ouvrés à 9h30",
            "todos los días laborables a las 9:30",
            "平日の9時半",
            "weekdays at 9:30",
        ],
        ["2026-11-24T09:30", "2026-11-25T09:30", "2026-11-26T09:30", "2026-11-27T09:30", "2026-11-30T09:30"],
    ),
    (
        [
            "every second Tuesday of the month at 10:00",
            "jeden zweiten Dienstag im Monat um 10 Uhr",
            "le deuxième mardi de chaque mois à 10h",
            "el segundo martes de cada mes a las 10:00",
            "毎月第2火曜日の10時",
        ],
        ["2026-12-08T10:00", "2027-01-12T10:00", "2027-02-09T10:00", "2027-03-09T10:00", "2027-04-13T10:00"],
    ),
    (
        [
            "every 2 weeks on Monday",
            "alle 2 Wochen am Montag",
            "toutes les 2 semaines le lundi",
            "cada 2 semanas el lunes",
            "2週間ごとの月曜日",
        ],
        ["2026-11-23T00:00", "2026-12-07T00:00", "2026-12-21T00:00", "2027-01-04T00:00", "2027-01-18T00:00"],
    ),
    (
        ["every Monday and Thursday at 8am", "montags und donnerstags um 8 Uhr", "毎週月曜日と木曜日の8時"],
        ["2026-11-26T08:00", "2026-11-30T08:00", "2026-12-03T08:00", "2026-12-07T08:00", "2026-12-10T08:00"],
    ),
    (
        ["every month on the 15th", "jeden Monat am 15.", "tous les mois le 15", "cada mes el día 15", "毎月15日"],
        ["2026-12-15T00:00", "2027-01-15T00:00", "2027-02-15T00:00", "2027-03-15T00:00", "2027-04-15T00:00"],
    ),
    (
        [
            "every year on March 3",
            "jedes Jahr am 3. März",
            "tous les ans le 3 mars",
            "cada año el 3 de marzo",
            "毎年3月3日",
        ],
        ["2027-03-03T00:00", "2028-03-03T00:00", "2029-03-03T00:00", "2030-03-03T00:00", "2031-03-03T00:00"],
    ),
    (
        ["every day at noon", "täglich um 12 Uhr", "tous les jours à midi", "todos los días al mediodía", "毎日正午"],
        ["2026-11-23T12:00", "2026-11-24T12:00", "2026-11-25T12:00", "2026-11-26T12:00", "2026-11-27T12:00"],
    ),
]


@pytest.mark.parametrize(
    ("expression", "walls"),
    [(expression, walls) for texts, walls in RECURRENCES for expression in texts],
)
def test_a_recurrence_in_every_language_lists_its_next_occurrences(expression: str, walls: list[str]) -> None:
    result = resolve(expression)
    assert result.kind == "recurrence" and result.rule is not None
    assert [o.astimezone(VIENNA).strftime("%Y-%m-%dT%H:%M") for o in result.occurrences] == walls
    assert result.start == result.occurrences[0]


def test_every_second_tuesday_is_every_other_one_or_the_second_of_each_month() -> None:
    result = resolve("every second Tuesday")
    assert [day_of_instant(o) for o in result.occurrences[:3]] == ["2026-11-24", "2026-12-08", "2026-12-22"]
    assert result.alternative is not None
    assert "second Tuesday of every month" in result.alternative.interpretation.render()
    assert day_of_instant(result.alternative.start) == "2026-12-08"


def day_of_instant(instant: datetime) -> str:
    return instant.astimezone(VIENNA).date().isoformat()


def test_weekdays_are_the_locales_working_days() -> None:
    israel = resolve_expression(
        "every weekday", reference=REFERENCE, zone=VIENNA, weekend=(4, 5), count=6
    )  # Friday-Saturday weekend: Sunday to Thursday
    assert sorted({o.astimezone(VIENNA).weekday() for o in israel.occurrences}) == [0, 1, 2, 3, 6]


def test_a_recurrence_keeps_its_wall_clock_across_dst() -> None:
    march = resolve_expression(
        "every Sunday at 9:00", reference=datetime(2026, 3, 20, tzinfo=VIENNA), zone=VIENNA, count=3
    )
    assert [o.isoformat() for o in march.occurrences] == [
        "2026-03-22T09:00:00+01:00",
        "2026-03-29T09:00:00+02:00",
        "2026-04-05T09:00:00+02:00",
    ]


def test_a_recurrence_is_bounded_in_count_and_horizon() -> None:
    assert len(resolve("every minute", count=MAX_COUNT).occurrences) == MAX_COUNT
    with pytest.raises(InvalidArgument):
        resolve("every day", count=MAX_COUNT + 1)
    leap = resolve("every year on February 29", count=10)
    assert [o.year for o in leap.occurrences] == [2028, 2032, 2036, 2040, 2044]  # 20 years ahead, no further


def test_a_recurrence_runs_under_the_budget() -> None:
    calls = iter(range(1_000_000))
    budget = Budget(lambda: next(calls) > 2, seconds=1, every=1)
    with pytest.raises(OutOfTime):
        resolve("every minute", count=MAX_COUNT, budget=budget)


# --- what is understood, said when the rest is not ------------------------------------------------------------------

PARTLY_UNDERSTOOD = [
    ("every blue moon at 9", "recurring event", "every weekday at 9:30"),
    ("jeden Blaumond", "recurring event", "jeden Werktag um 9:30"),
    ("tous les lunes bleues", "recurring event", "tous les jours ouvrés à 9h30"),
    ("cada luna azul", "recurring event", "todos los días laborables a las 9:30"),
    ("毎ブルームーン", "recurring event", "平日の9時半"),
    ("the second Tuesday of the blue moon", "weekday of a month", "the second Tuesday of next month"),
    ("der zweite Dienstag im Blaumond", "weekday of a month", "der zweite Dienstag im nächsten Monat"),
    ("le deuxième mardi de la lune", "weekday of a month", "le deuxième mardi du mois prochain"),
    ("el segundo martes de la luna", "weekday of a month", "el segundo martes del próximo mes"),
    ("満月の第2火曜日", "weekday of a month", "来月の第2火曜日"),
    ("the last day of the moon", "day of a month", "the last day of February"),
    ("der letzte Tag im Mondjahr", "day of a month", "der letzte Tag im Februar"),
]


@pytest.mark.parametrize(("expression", "form", "example"), PARTLY_UNDERSTOOD)
def test_a_form_understood_in_part_is_named_with_accepted_phrasings(expression: str, form: str, example: str) -> None:
    with pytest.raises(UnknownExpression) as raised:
        resolve(expression)
    assert form in raised.value.message
    assert example in raised.value.suggestions and 2 <= len(raised.value.suggestions) <= 3
