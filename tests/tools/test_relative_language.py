"""`resolve_time_expression` says what it understood in the request's language, and `contentLanguage` names the
language its text is actually in (SEP-2792)."""

from __future__ import annotations

from typing import Any

import pytest
from mcp.client import Client

from horologe.wire import ACCEPT_LANGUAGE_META, CONTENT_LANGUAGE_META

pytestmark = pytest.mark.anyio

REFERENCE = "2026-11-25T10:00:00+01:00"  # a Wednesday


async def resolve_in(client: Client, tag: str, expression: str) -> tuple[dict[str, Any], object]:
    """The structured result and its contentLanguage for an expression asked for in the language `tag`."""
    arguments = {"expression": expression, "timezone": "Europe/Berlin", "reference_time": REFERENCE}
    meta = {ACCEPT_LANGUAGE_META: tag}
    result = await client.call_tool("resolve_time_expression", arguments, meta=meta)  # type: ignore[arg-type]
    body = result.structured_content
    assert body is not None and not result.is_error
    return body, (result.meta or {}).get(CONTENT_LANGUAGE_META)


def readings(body: dict[str, Any]) -> tuple[str, str | None]:
    """The interpretation and the alternative's, if any."""
    alternative = body.get("alternative")
    return body["interpretation"], alternative["interpretation"] if alternative else None


@pytest.mark.parametrize(
    ("tag", "expression", "interpretation", "alternative"),
    [
        (
            "de",
            "nächstes Wochenende",
            "das Wochenende 2026-11-28 bis 2026-11-29 (das kommende Wochenende)",
            "das Wochenende 2026-12-05 bis 2026-12-06 (das Wochenende danach)",
        ),
        ("de", "nächste Woche", "die nächste Kalenderwoche", None),
        (
            "de",
            "der letzte Freitag im März",
            "2027-03-26 (der letzte Freitag des Monats)",
            "2026-03-27 (der letzte vor heute)",
        ),
        ("de", "Weihnachten", "2026-12-25 (Erster Weihnachtstag: DE)", None),
        ("de", "jeden Werktag um 9:30", "jeden Montag bis Freitag um 09:30", None),
        (
            "de",
            "nächsten Dienstag um 15 Uhr",
            "15:00 am 2026-12-01 (der erste Dienstag nach heute)",
            "15:00 am 2026-12-08 (der Dienstag nach dem kommenden)",
        ),
        ("de", "in 3 Tagen", "der Bezugszeitpunkt +3 Tag(e)", None),
        (
            "fr",
            "le week-end prochain",
            "le week-end du 2026-11-28 au 2026-11-29 (le week-end à venir)",
            "le week-end du 2026-12-05 au 2026-12-06 (le week-end suivant)",
        ),
        ("fr", "la semaine prochaine", "la semaine civile suivante", None),
        (
            "fr",
            "le dernier vendredi de mars",
            "2027-03-26 (le dernier vendredi du mois)",
            "2026-03-27 (le plus récent avant aujourd'hui)",
        ),
        ("fr", "tous les jours ouvrables à 9h30", "chaque jour du lundi au vendredi à 09:30", None),
        ("ja", "来週末", "週末 2026-12-05〜2026-12-06", None),
        ("ja", "来週", "翌週", None),
        ("ja", "3月の最終金曜日", "2027-03-26 (その月の最終金曜日)", "2026-03-27 (今日より前の直近のもの)"),
        ("ja", "元日", "2027-01-01 (元日: JP)", None),
        ("ja", "毎週月曜日 9時30分", "毎週月曜日 09:30", None),
        (
            "es",
            "el próximo fin de semana",
            "el fin de semana del 2026-11-28 al 2026-11-29 (el próximo fin de semana)",
            "el fin de semana del 2026-12-05 al 2026-12-06 (el fin de semana siguiente)",
        ),
        ("zh-Hans", "next week", "下一个日历周", None),
    ],
)
async def test_what_was_understood_is_said_in_the_requests_language(
    client: Client, tag: str, expression: str, interpretation: str, alternative: str | None
) -> None:
    body, content_language = await resolve_in(client, tag, expression)
    assert readings(body) == (interpretation, alternative)
    assert content_language == tag


async def test_an_english_expression_is_answered_in_the_requests_language(client: Client) -> None:
    body, content_language = await resolve_in(client, "de", "every second Tuesday of the month at 10:00")
    assert readings(body) == ("der zweite Dienstag jedes Monats um 10:00", None)
    assert content_language == "de"


async def test_a_holiday_named_as_english_data_write_it_is_reported_as_english(client: Client) -> None:
    # The name is the holidays data's, in the language the text matched: German words around an English name.
    body, content_language = await resolve_in(client, "de", "Christmas")
    assert readings(body) == ("2026-12-25 (Christmas Day: DE)", None)
    assert content_language == "en-US"


@pytest.mark.parametrize(
    ("timestamp", "read_as"),
    [
        (
            "nächsten Dienstag um 16 Uhr",
            {
                "understood": "16:00 le 2026-11-24 (le premier mardi après aujourd'hui)",
                "alternative": {
                    "timestamp": "2026-12-01T16:00:00+01:00",
                    "understood": "16:00 le 2026-12-01 (le mardi après le prochain)",
                },
            },
        ),
        ("nächstes Wochenende", {"understood": "début : le week-end du 2026-11-28 au 2026-11-29"}),
        ("jeden Montag um 9 Uhr", {"understood": "prochaine occurrence : chaque lundi à 09:00"}),
    ],
)
async def test_a_phrase_read_by_another_tool_is_said_back_in_the_requests_language(
    client: Client, timestamp: str, read_as: dict[str, Any]
) -> None:
    arguments = {"timestamp": timestamp, "to_timezone": "Asia/Tokyo", "from_timezone": "Europe/Berlin"}
    meta = {ACCEPT_LANGUAGE_META: "fr"}
    result = await client.call_tool("convert_timezone", arguments, meta=meta)  # type: ignore[arg-type]
    body = result.structured_content
    assert body is not None and body["original"]["read_as"] == read_as
    assert (result.meta or {}).get(CONTENT_LANGUAGE_META) == "fr"
