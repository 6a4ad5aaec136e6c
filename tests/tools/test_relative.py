"""`resolve_time_expression` through the SDK's in-process client."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator
from mcp.client import Client

pytestmark = pytest.mark.anyio


async def resolve(client: Client, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool("resolve_time_expression", arguments)
    dumped: dict[str, Any] = result.model_dump(by_alias=True, mode="json", exclude_none=True)
    return dumped


async def test_the_tool_is_listed_with_schemas(client: Client) -> None:
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    tool = tools["resolve_time_expression"]
    assert tool.input_schema["required"] == ["expression"]
    assert set(tool.input_schema["properties"]) == {"expression", "timezone", "locale", "reference_time", "count"}
    assert tool.output_schema is not None
    Draft202012Validator.check_schema(tool.output_schema)


async def test_yesterday_in_vienna_after_the_spring_change_is_23_hours(client: Client) -> None:
    body = (
        await resolve(
            client, expression="yesterday", timezone="Europe/Vienna", reference_time="2026-03-30T09:00:00+02:00"
        )
    )["structuredContent"]
    assert body == {
        "kind": "period",
        "interpretation": "2026-03-29",
        "start": "2026-03-29T00:00:00+01:00",
        "end": "2026-03-30T00:00:00+02:00",
        "day_of_week": "Sunday",
        "timezone": "Europe/Vienna",
    }


async def test_an_instant_is_answered_in_the_zone_with_its_weekday(client: Client) -> None:
    body = (await resolve(client, expression="next Friday at 3pm", timezone="Europe/Vienna"))["structuredContent"]
    assert body["kind"] == "instant"
    assert body["instant"] == "2026-11-27T15:00:00+01:00" and body["day_of_week"] == "Friday"
    assert "start" not in body and "end" not in body


async def test_a_dst_gap_instant_reports_what_was_chosen(client: Client) -> None:
    body = (
        await resolve(
            client, expression="tomorrow at 2:30", timezone="Europe/Vienna", reference_time="2026-03-28T12:00:00+01:00"
        )
    )["structuredContent"]
    assert body["instant"] == "2026-03-29T03:30:00+02:00"
    assert body["dst"]["dst_gap"] is True and body["dst"]["disambiguation"] == "compatible"


@pytest.mark.parametrize(("locale", "week_start"), [("de-AT", "Monday"), ("en-US", "Sunday"), ("ja-JP", "Sunday")])
async def test_the_week_start_follows_the_locale_argument(client: Client, locale: str, week_start: str) -> None:
    body = (await resolve(client, expression="this week", locale=locale))["structuredContent"]
    assert body["week_start"] == week_start


async def test_the_week_start_is_said_only_where_it_decides_the_answer(client: Client) -> None:
    for expression in ("tomorrow", "in a fortnight", "in 2 weeks"):  # counted in weeks, not calendar weeks
        body = (await resolve(client, expression=expression, locale="en-US"))["structuredContent"]
        assert "week_start" not in body, expression


async def test_the_locale_language_is_tried_first(client: Client) -> None:
    body = (await resolve(client, expression="hier", locale="fr-FR", timezone="UTC"))["structuredContent"]
    assert body["start"] == "2026-11-21T00:00:00Z"


async def test_unknown_expressions_are_errors_with_examples(client: Client) -> None:
    result = await resolve(client, expression="when pigs fly")
    assert result["isError"] is True
    error = result["_meta"]["dev.horologe/error"]
    assert error["kind"] == "unknown_expression" and error["code"] == -32602
    assert "next Friday at 3pm" in result["content"][0]["text"]


async def test_bad_arguments_are_tool_errors(client: Client) -> None:
    bad_locale = await resolve(client, expression="today", locale="en_US")
    assert bad_locale["isError"] is True
    assert "en-US" in bad_locale["content"][0]["text"]
    bad_zone = await resolve(client, expression="today", timezone="Mars/Base")
    assert bad_zone["_meta"]["dev.horologe/error"]["kind"] == "invalid_timezone"
    too_many = await resolve(client, expression="every Monday", count=51)
    assert too_many["isError"] is True


async def test_a_double_reading_is_reported_with_the_other_one(client: Client) -> None:
    arguments = {"timezone": "Europe/Vienna", "reference_time": "2026-11-23T10:00:00+01:00"}
    body = (await resolve(client, expression="next Tuesday", **arguments))["structuredContent"]
    assert body["start"] == "2026-11-24T00:00:00+01:00"
    assert body["interpretation"] == "2026-11-24 (the first Tuesday after today)"
    assert body["alternative"] == {
        "interpretation": "2026-12-01 (Tuesday of next week)",
        "start": "2026-12-01T00:00:00+01:00",
        "end": "2026-12-02T00:00:00+01:00",
        "day_of_week": "Tuesday",
    }
    plain = (await resolve(client, expression="tomorrow", **arguments))["structuredContent"]
    assert "alternative" not in plain


async def test_next_tuesday_said_on_a_thursday_offers_the_tuesday_after(client: Client) -> None:
    arguments = {"timezone": "Europe/Vienna", "reference_time": "2026-11-26T10:00:00+01:00"}
    body = (await resolve(client, expression="next Tuesday", **arguments))["structuredContent"]
    assert body["start"] == "2026-12-01T00:00:00+01:00"
    assert body["alternative"]["start"] == "2026-12-08T00:00:00+01:00"


async def test_the_weekend_follows_the_locale(client: Client) -> None:
    arguments = {"expression": "this weekend", "timezone": "Asia/Jerusalem", "reference_time": "2026-11-23T10:00:00Z"}
    israel = (await resolve(client, locale="he-IL", **arguments))["structuredContent"]
    assert (israel["start"][:10], israel["end"][:10]) == ("2026-11-27", "2026-11-29")
    austria = (await resolve(client, locale="de-AT", **arguments))["structuredContent"]
    assert (austria["start"][:10], austria["end"][:10]) == ("2026-11-28", "2026-11-30")


async def test_a_recurrence_lists_its_next_occurrences_and_its_rule(client: Client) -> None:
    arguments = {"timezone": "Europe/Vienna", "reference_time": "2026-11-23T10:00:00+01:00"}
    body = (await resolve(client, expression="every weekday at 9:30", count=3, **arguments))["structuredContent"]
    assert body["kind"] == "recurrence"
    assert body["interpretation"] == "every Monday to Friday at 09:30"
    assert body["occurrences"] == [
        {"timestamp": "2026-11-24T09:30:00+01:00", "day_of_week": "Tuesday"},
        {"timestamp": "2026-11-25T09:30:00+01:00", "day_of_week": "Wednesday"},
        {"timestamp": "2026-11-26T09:30:00+01:00", "day_of_week": "Thursday"},
    ]
    assert body["rule"].endswith("RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=30;BYSECOND=0")


async def test_a_recurrence_without_a_time_lists_days(client: Client) -> None:
    arguments = {"timezone": "Europe/Vienna", "reference_time": "2026-11-23T10:00:00+01:00"}
    body = (await resolve(client, expression="jeden Montag", count=2, **arguments))["structuredContent"]
    assert body["occurrences"] == [
        {"date": "2026-11-23", "day_of_week": "Monday"},
        {"date": "2026-11-30", "day_of_week": "Monday"},
    ]


async def test_a_holiday_is_the_countrys_of_the_zone_when_the_client_names_none(client: Client) -> None:
    arguments = {"reference_time": "2026-11-23T10:00:00Z"}
    us = await resolve(client, expression="Thanksgiving", timezone="America/New_York", **arguments)
    canada = await resolve(client, expression="Thanksgiving", timezone="America/Toronto", **arguments)
    assert us["structuredContent"]["start"] == "2026-11-26T00:00:00-05:00"
    assert canada["structuredContent"]["start"] == "2027-10-11T00:00:00-04:00"
    assert "Thanksgiving" in us["structuredContent"]["interpretation"]


async def test_a_holiday_is_the_country_of_the_zones_own_name_not_of_the_zone_it_links_to(client: Client) -> None:
    # tzdata links Europe/Oslo to Europe/Berlin and Europe/Amsterdam to Europe/Brussels; the user's country is the
    # one their zone is named for.
    arguments = {"reference_time": "2026-11-23T10:00:00Z"}
    oslo = await resolve(client, expression="Constitution Day", timezone="Europe/Oslo", **arguments)
    amsterdam = await resolve(client, expression="Easter Monday 2027", timezone="Europe/Amsterdam", **arguments)
    assert oslo["structuredContent"]["start"] == "2027-05-17T00:00:00+02:00"
    assert "NO" in oslo["structuredContent"]["interpretation"]
    assert "NL" in amsterdam["structuredContent"]["interpretation"]


@pytest.mark.parametrize(
    ("expression", "start", "country"),
    [
        ("Weihnachten in Deutschland", "2026-12-25", "DE"),
        ("Thanksgiving in Kanada", "2027-10-11", "CA"),
        ("Noël en Belgique", "2026-12-25", "BE"),
        ("Navidad en España", "2026-12-25", "ES"),  # Spain's data call it 'Natividad del Señor': its day is taken
        ("Christmas in Deutschland", "2026-12-25", "DE"),
        ("Thanksgiving aux États-Unis", "2026-11-26", "US"),
    ],
)
async def test_a_holiday_phrase_names_its_country_in_any_language_of_the_places_table(
    client: Client, expression: str, start: str, country: str
) -> None:
    arguments = {"timezone": "Asia/Tokyo", "reference_time": "2026-11-23T10:00:00Z"}
    body = (await resolve(client, expression=expression, **arguments))["structuredContent"]
    assert body["start"] == f"{start}T00:00:00+09:00"
    assert body["interpretation"].endswith(f": {country})")


async def test_a_holiday_phrase_with_a_name_countries_share_is_refused_naming_them(client: Client) -> None:
    result = await resolve(client, expression="Christmas in Korea", timezone="UTC")
    assert result["isError"] is True
    text = result["content"][0]["text"]
    assert "names several countries" in text and "KP" in text and "KR" in text


async def test_a_timestamp_reads_a_holiday_with_a_foreign_country_name_in_the_zone_given(client: Client) -> None:
    result = await client.call_tool(
        "convert_timezone",
        {"timestamp": "Christmas in Deutschland", "from_timezone": "Asia/Tokyo", "to_timezone": "UTC"},
    )
    original = result.model_dump(by_alias=True, mode="json")["structuredContent"]["original"]
    assert original["timestamp"] == "2026-12-25T00:00:00+09:00" and original["timezone"] == "Asia/Tokyo"
    assert original["read_as"]["understood"].endswith("(Christmas Day: DE)")
