"""A hypothesis fuzzer for the time grammar in every language: phrases built from each language's own words (and
text that is not), read at reference instants near DST changes.

Whatever the text, `resolve_expression` answers a resolution that holds together or refuses with a domain error
(`TimeError`) that says what to write instead; it never raises anything else and never runs past its budget.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from horologe.core import tzdb
from horologe.core.budget import Budget
from horologe.core.errors import TimeError
from horologe.core.relative import HORIZON_YEARS, MAX_COUNT, Resolution, resolve_expression
from horologe.holiday_index import holiday_index

ZONES = ("Europe/Vienna", "America/New_York", "Australia/Lord_Howe", "Asia/Tokyo", "America/Santiago")
REFERENCES = (
    datetime(2026, 3, 29, 0, 30, tzinfo=UTC),  # Vienna's spring-forward night
    datetime(2026, 11, 1, 5, 30, tzinfo=UTC),  # New York's fall-back hour
    datetime(2026, 11, 23, 9, 0, tzinfo=UTC),
    datetime(2027, 12, 31, 23, 59, tzinfo=UTC),
)
WORDS = {
    "en": "every each the of in on at next last this second first third 2nd 5th a fortnight ago from now day days "
    "week weeks month year weekday weekdays monday tuesday friday sunday mondays march february july end start "
    "beginning christmas easter thanksgiving new year tomorrow yesterday noon midnight and other 9:30 3pm 10 "
    "15th 2027 q3 since past hours minutes 21:05:59",
    "de": "jeden jede alle am im um der die des nächsten letzten letzte zweiten ersten Tag Tage Woche Wochen Monat "
    "Monats Jahr Werktag montags Montag Dienstag Freitag März Februar Juli Ende Anfang Weihnachten Ostern morgen "
    "gestern Mittag Uhr in vor vierzehn 9:30 15 4. 2027 seit 9:30:15",
    "fr": "tous les toutes chaque le la du de prochain dernier dernière deuxième premier jour jours semaine "
    "semaines mois an année ouvrés lundi mardi vendredi lundis mars février juillet fin début Noël Pâques demain "
    "hier midi à dans il y a quinze 9h30 15h 2027 depuis 9:30:15",
    "es": "cada todos los el la del de próximo último segundo primer día días semana semanas mes año laborables "
    "lunes martes viernes marzo febrero julio fin Navidad mañana ayer mediodía a las en hace quince 9:30 2027 "
    "desde 9:30:15",
    "ja": "毎 毎週 毎月 毎年 毎日 平日 隔週 ごと 第2 最終 来月 先月 今月 の 月曜日 火曜日 金曜日 3月 2月 "
    "末日 元日 こどもの日 明日 昨日 正午 9時 10時半 2週間 後 前 2027年 から 9:30:15",
}


@st.composite
def phrases(draw: st.DrawFn, language: str) -> str:
    """Two to seven of a language's words in any order (in Japanese without spaces), sometimes with stray text."""
    words = draw(st.lists(st.sampled_from(WORDS[language].split()), min_size=1, max_size=7))
    joiner = "" if language == "ja" else " "
    text = joiner.join(words)
    if draw(st.booleans()):
        text = text.upper() if draw(st.booleans()) else text.title()
    if draw(st.integers(0, 4)) == 0:
        text += draw(st.text(max_size=8))
    return text


def counting_budget() -> Budget:
    """A budget that runs out after a bounded amount of work, as a call's would after its seconds."""
    steps = iter(range(5_000))
    return Budget(lambda: next(steps, None) is None, seconds=1, every=16)


def check(result: Resolution, reference: datetime, count: int) -> None:
    start = result.start.astimezone(UTC)
    assert result.kind in ("instant", "period", "recurrence")
    assert result.interpretation.render()
    if result.kind == "period":
        assert result.end is not None and start < result.end.astimezone(UTC)
    elif result.kind == "instant":
        assert result.end is None
    else:
        instants = [o.astimezone(UTC) for o in result.occurrences]
        assert 1 <= len(instants) <= count and instants == sorted(set(instants))
        assert instants[0] == start
        assert instants[0] >= reference - timedelta(days=1)  # whole-day occurrences start at today's midnight
        assert instants[-1] <= reference + timedelta(days=366 * HORIZON_YEARS + 1)
        assert result.rule is not None and "RRULE:FREQ=" in result.rule
    if result.alternative is not None:
        other = result.alternative
        assert (other.start, other.end) != (result.start, result.end)


@pytest.mark.parametrize("language", list(WORDS))
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_phrase_of_a_language_resolves_soundly_or_is_refused(language: str, data: st.DataObject) -> None:
    text = data.draw(phrases(language))
    zone = tzdb.get_zone(data.draw(st.sampled_from(ZONES)))
    reference = data.draw(st.sampled_from(REFERENCES))
    count = data.draw(st.integers(1, MAX_COUNT))
    try:
        result = resolve_expression(
            text,
            reference=reference,
            zone=zone,
            week_start=data.draw(st.integers(0, 6)),
            languages=[language],
            country=data.draw(st.sampled_from([None, "AT", "US", "JP"])),
            count=count,
            budget=counting_budget(),
            holidays=holiday_index(),
        )
    except TimeError as error:
        assert error.message  # a sentence that says what to write instead
        return
    check(result, reference, count)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_any_text_at_all_resolves_soundly_or_is_refused(text: str) -> None:
    reference = REFERENCES[2]
    try:
        result = resolve_expression(
            text,
            reference=reference,
            zone=tzdb.get_zone("Europe/Vienna"),
            country="AT",
            budget=counting_budget(),
            holidays=holiday_index(),
        )
    except TimeError:
        return
    check(result, reference, 5)
