"""The calendar tools through the SDK's in-process client (fixed clock: 2026-11-22T03:11:30Z, default zone UTC)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from mcp.client import Client

from horologe.wire import ACCEPT_LANGUAGE_META, CONTENT_LANGUAGE_META
from tests.calls import error_of, structured

pytestmark = pytest.mark.anyio
CALENDAR_TOOLS = {
    "add_time",
    "business_days",
    "list_holidays",
    "date_info",
    "next_occurrences",
    "timezone_history",
    "find_meeting_time",
}


async def test_one_calendar_day_in_vienna_across_dst_is_23_hours(client: Client) -> None:
    body = await structured(
        client, "add_time", {"timestamp": "2026-03-28T12:00", "amount": "P1D", "timezone": "Europe/Vienna"}
    )
    assert body["result"] == "2026-03-29T12:00:00+02:00" and body["day_of_week"] == "Sunday"
    assert body["elapsed_seconds"] == 23 * 3600  # said because it is not the day's 24 hours
    assert "23 hours elapsed" in body["explanation"]


async def test_twenty_four_hours_in_vienna_across_dst_is_13_00(client: Client) -> None:
    body = await structured(
        client, "add_time", {"timestamp": "2026-03-28T12:00", "amount": "PT24H", "timezone": "Europe/Vienna"}
    )
    assert body["result"] == "2026-03-29T13:00:00+02:00"
    assert "elapsed_seconds" not in body and "explanation" not in body  # exact time: nothing to explain


async def test_january_31_plus_one_month_states_the_clamping(client: Client) -> None:
    body = await structured(client, "add_time", {"timestamp": "2026-01-31", "amount": "1 month", "timezone": "UTC"})
    assert body["result"] == "2026-02-28T00:00:00Z"
    assert body["clamped"] == {"from": "2026-02-31", "to": "2026-02-28"}
    assert "clamped" in body["explanation"]


async def test_a_calendar_step_into_a_gap_is_flagged(client: Client) -> None:
    body = await structured(
        client, "add_time", {"timestamp": "2026-03-28T02:30", "amount": "P1D", "timezone": "Europe/Vienna"}
    )
    assert body["dst"]["dst_gap"] is True
    assert body["dst"]["disambiguation"] == "compatible"
    assert body["result"] == "2026-03-29T03:30:00+02:00"


async def test_a_gap_is_explained_with_the_wall_time_that_does_not_exist(client: Client) -> None:
    body = await structured(
        client, "add_time", {"timestamp": "2026-03-28T02:30", "amount": "P1D", "timezone": "Europe/Vienna"}
    )
    assert "The wall time 2026-03-29T02:30:00 falls in a DST gap" in body["explanation"]
    assert "placed it at 2026-03-29T03:30:00+02:00" in body["explanation"]


@pytest.mark.parametrize(
    ("amount", "echo", "result"),
    [
        ("1 month -1 day", "P1M-1D", "2026-02-27T10:00:00Z"),
        ("-1 month 1 day", "P-1M1D", "2025-12-29T10:00:00Z"),
        ("1 day -90 minutes", "P1DT-1H-30M", "2026-01-29T08:30:00Z"),
        ("-P1M1D", "-P1M1D", "2025-12-27T10:00:00Z"),
    ],
)
async def test_an_amount_of_mixed_sign_is_echoed_with_its_meaning(
    client: Client, amount: str, echo: str, result: str
) -> None:
    arguments = {"timestamp": "2026-01-28T10:00:00Z", "amount": amount, "timezone": "UTC"}
    body = await structured(client, "add_time", arguments)
    assert (body["amount"], body["result"]) == (echo, result)
    again = await structured(client, "add_time", {**arguments, "amount": echo})
    assert again["result"] == result


async def test_business_days_counts_a_reversed_range_from_its_start(client: Client) -> None:
    arguments = {
        "country": "AT",
        "start_date": "2025-03-09",
        "end_date": "2025-03-03",
        "include_end": True,
    }  # Sunday, Monday
    body = await structured(client, "business_days", arguments)
    assert (body["business_days"], body["calendar_days"]) == (-5, -7)
    body = await structured(client, "business_days", {**arguments, "include_end": False})
    assert (body["business_days"], body["calendar_days"]) == (-4, -6)


async def test_business_days_counts_us_2025_and_lists_holidays_by_name(client: Client) -> None:
    body = await structured(
        client, "business_days", {"country": "us", "start_date": "2025-01-01", "end_date": "2026-01-01"}
    )
    assert body["business_days"] == 250
    names = [hit["names"][0] for hit in body["holidays"]]
    assert "Thanksgiving Day" in names and len(names) == 11


async def test_business_days_adds_across_austrian_christmas(client: Client) -> None:
    body = await structured(client, "business_days", {"country": "AT", "start_date": "2025-12-23", "count": 3})
    assert (body["mode"], body["result"], body["result_day_of_week"]) == ("add", "2025-12-30", "Tuesday")


async def test_business_days_accepts_a_sunday_only_weekend_and_extra_holidays(client: Client) -> None:
    arguments = {
        "country": "US",
        "start_date": "2025-03-03",
        "end_date": "2025-03-10",
        "weekend": ["sun"],
        "extra_holidays": ["2025-03-04"],
    }
    body = await structured(client, "business_days", arguments)
    assert body["business_days"] == 5
    assert body["weekend"] == ["Sunday"]  # results name days in full, as every result spells them


@pytest.mark.parametrize(
    ("arguments", "kind"),
    [
        ({"country": "XX", "count": 1}, "invalid_argument"),
        ({"country": "US", "subdivision": "ZZ", "count": 1}, "invalid_argument"),
        ({"country": "US", "count": 10**9}, "invalid_arguments"),
        ({"country": "US"}, "invalid_argument"),
        ({"country": "US", "end_date": "2025-01-01", "count": 1}, "invalid_argument"),
        ({"country": "US", "start_date": "2025-13-01", "count": 1}, "invalid_timestamp"),
        ({"country": "US", "start_date": "0001-01-01", "end_date": "9999-12-31"}, "invalid_argument"),
        ({"country": "US", "weekend": ["caturday"], "count": 1}, "invalid_arguments"),
        ({"country": "US", "extra_holidays": ["soon"], "count": 1}, "unknown_expression"),
    ],
)
async def test_business_days_refuses_bad_input(client: Client, arguments: dict[str, Any], kind: str) -> None:
    assert (await error_of(client, "business_days", arguments))["kind"] == kind


async def test_list_holidays_gives_england_2025_bank_holidays(client: Client) -> None:
    body = await structured(client, "list_holidays", {"country": "GB", "subdivision": "ENG", "year": 2025})
    assert [h["date"] for h in body["holidays"]] == [
        "2025-01-01", "2025-04-18", "2025-04-21", "2025-05-05", "2025-05-26", "2025-08-25", "2025-12-25", "2025-12-26",
    ]  # fmt: skip


async def test_list_holidays_defaults_to_the_current_year_and_speaks_german_on_request(client: Client) -> None:
    body = await structured(client, "list_holidays", {"country": "AT", "language": "de"})
    assert body["year"] == 2026
    assert body["holidays"][0]["names"] == ["Neujahr"]


@pytest.mark.parametrize(
    "arguments",
    [
        {"country": "AT", "year": 0},
        {"country": "AT", "year": 10000},
        {"country": "Atlantis"},
        {"country": "GB", "subdivision": "Englnd"},
    ],
)
async def test_list_holidays_refuses_bad_input(client: Client, arguments: dict[str, Any]) -> None:
    await error_of(client, "list_holidays", arguments)


COUNTRY_NAMES = [
    ("Germany", "DE"),
    ("Deutschland", "DE"),
    ("Allemagne", "DE"),
    ("Alemania", "DE"),
    ("ドイツ", "DE"),
    ("德国", "DE"),
    ("United States", "US"),
    ("Estados Unidos", "US"),
    ("USA", "US"),
    ("UK", "GB"),  # the package's alias, answered by its ISO code
    ("the Netherlands", "NL"),
    ("South Korea", "KR"),
]


@pytest.mark.parametrize(("name", "code"), COUNTRY_NAMES)
async def test_a_country_is_named_in_english_or_a_catalog_language(client: Client, name: str, code: str) -> None:
    listed = await structured(client, "list_holidays", {"country": name, "year": 2026})
    counted = await structured(
        client, "business_days", {"country": name, "start_date": "2026-12-21", "end_date": "2026-12-31"}
    )
    assert (listed["country"], counted["country"]) == (code, code)
    assert listed == await structured(client, "list_holidays", {"country": code, "year": 2026})


@pytest.mark.parametrize(("name", "codes"), [("Korea", ["KP", "KR"]), ("Congo", ["CD", "CG"])])
async def test_a_name_countries_share_is_refused_with_their_codes(client: Client, name: str, codes: list[str]) -> None:
    error = await error_of(client, "list_holidays", {"country": name})
    assert error["suggestions"] == codes
    assert f"{name!r} names several countries: {codes[0]} (" in error["message"]


async def test_an_unknown_country_name_is_refused_with_the_nearest_codes(client: Client) -> None:
    error = await error_of(client, "business_days", {"country": "Deutchland", "count": 1})
    assert error["suggestions"][0] == "DE"
    assert "ISO 3166-1 alpha-2 code" in error["message"]


async def test_list_holidays_works_for_years_1_and_9999(client: Client) -> None:
    for year in (1, 9999):
        assert (await structured(client, "list_holidays", {"country": "US", "year": year}))["year"] == year


async def test_date_info_describes_today_by_default(client: Client) -> None:
    body = await structured(client, "date_info", {})
    assert (body["date"], body["day_of_week"], body["iso_week_date"]) == ("2026-11-22", "Sunday", "2026-W47-7")
    assert body["iso_week_monday"] == "2026-11-16"
    assert "locale_week" not in body  # no locale known: the ISO week is the week
    american = await structured(client, "date_info", {"locale": "en-US"})
    assert american["locale_week"]["week"] == 48  # en_US weeks start on Sunday


async def test_date_info_reads_a_timestamp_in_the_given_zone(client: Client) -> None:
    body = await structured(client, "date_info", {"date": "2025-09-22T23:30:00Z", "timezone": "Asia/Tokyo"})
    assert body["date"] == "2025-09-23"
    assert body["calendars"]["hebrew"] == "1 Tishri 5786"


@pytest.mark.parametrize(
    "arguments", [{"date": "2025-02-30"}, {"date": "yesterday-ish"}, {"locale": "zz_ZZ_ZZ"}, {"date": True}]
)
async def test_date_info_refuses_bad_input(client: Client, arguments: dict[str, Any]) -> None:
    await error_of(client, "date_info", arguments)


async def test_next_occurrences_follows_rfc_5545_daily_for_10(client: Client) -> None:
    rule = "DTSTART;TZID=America/New_York:19970902T090000\nRRULE:FREQ=DAILY;COUNT=10"
    body = await structured(
        client, "next_occurrences", {"rule": rule, "start_time": "1997-01-01T00:00:00Z", "count": 20}
    )
    assert body["timezone"] == "America/New_York"
    assert [o["timestamp"] for o in body["occurrences"]] == [f"1997-09-{d:02d}T09:00:00-04:00" for d in range(2, 12)]
    assert body["exhausted"] is True


async def test_next_occurrences_flags_a_gap_occurrence(client: Client) -> None:
    arguments = {"rule": "30 2 * * *", "timezone": "America/New_York", "start_time": "2026-03-07T12:00:00Z", "count": 2}
    body = await structured(client, "next_occurrences", arguments)
    gap, plain = body["occurrences"]
    assert (gap["wall_time"], gap["timestamp"], gap["dst"]["dst_gap"]) == (
        "2026-03-08T02:30:00",
        "2026-03-08T03:30:00-04:00",
        True,
    )
    assert set(plain) == {"timestamp", "day_of_week"}  # nothing to say about an ordinary occurrence


@pytest.mark.parametrize(
    ("rule", "times"),
    [
        ("FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=9;BYMINUTE=0", ["2026-11-23T09:00:00Z", "2026-11-25T09:00:00Z"]),
        ("FREQ=DAILY;BYHOUR=9", ["2026-11-22T09:00:00Z", "2026-11-23T09:00:00Z"]),
        ("FREQ=HOURLY;INTERVAL=6", ["2026-11-22T06:00:00Z", "2026-11-22T12:00:00Z"]),
    ],
)
async def test_a_rule_without_dtstart_starts_at_midnight_not_at_the_clock(
    client: Client, rule: str, times: list[str]
) -> None:
    # The fixed clock reads 03:11:30: none of its minutes or seconds may leak into the occurrences.
    body = await structured(client, "next_occurrences", {"rule": rule, "count": 2})
    assert [o["timestamp"] for o in body["occurrences"]] == times


async def test_an_explicit_timezone_shows_a_tzid_series_without_moving_it(client: Client) -> None:
    rule = "DTSTART;TZID=America/New_York:20260105T090000\nRRULE:FREQ=WEEKLY;COUNT=3"
    arguments = {"rule": rule, "timezone": "Europe/Vienna", "start_time": "2026-01-01T00:00:00Z"}
    body = await structured(client, "next_occurrences", arguments)
    assert (body["timezone"], body["rule_timezone"]) == ("Europe/Vienna", "America/New_York")
    assert [o["timestamp"] for o in body["occurrences"]] == [
        "2026-01-05T15:00:00+01:00",
        "2026-01-12T15:00:00+01:00",
        "2026-01-19T15:00:00+01:00",
    ]
    assert all("wall_time" not in o for o in body["occurrences"])  # the wall time only differs in a gap


async def test_a_utc_dtstart_is_an_instant_whatever_the_timezone(client: Client) -> None:
    rule = "DTSTART:20260305T140000Z\nRRULE:FREQ=WEEKLY;COUNT=3"
    arguments = {"rule": rule, "timezone": "America/New_York", "start_time": "2026-03-01T00:00:00Z"}
    body = await structured(client, "next_occurrences", arguments)
    assert body["rule_timezone"] == "UTC"
    # 14:00 UTC every week: 09:00 in New York before its DST change on March 8, 10:00 after it.
    assert [datetime.fromisoformat(o["timestamp"]) for o in body["occurrences"]] == [
        datetime(2026, 3, day, 14, tzinfo=UTC) for day in (5, 12, 19)
    ]
    assert [o["timestamp"][11:19] for o in body["occurrences"]] == ["09:00:00", "10:00:00", "10:00:00"]


async def test_a_floating_dtstart_is_read_in_the_timezone(client: Client) -> None:
    rule = "DTSTART:20260305T090000\nRRULE:FREQ=DAILY;COUNT=2"
    arguments = {"rule": rule, "timezone": "Asia/Tokyo", "start_time": "2026-03-01T00:00:00Z"}
    body = await structured(client, "next_occurrences", arguments)
    assert body["timezone"] == "Asia/Tokyo" and "rule_timezone" not in body  # the same zone: said once
    assert [o["timestamp"] for o in body["occurrences"]] == ["2026-03-05T09:00:00+09:00", "2026-03-06T09:00:00+09:00"]


@pytest.mark.parametrize(
    "arguments",
    [
        {"rule": "FREQ=SOMETIMES"},
        {"rule": "99 * * * *"},
        {"rule": "FREQ=DAILY", "count": 10**9},
        {"rule": "FREQ=DAILY", "count": 0},
        {"rule": "FREQ=DAILY;" * 200},
        {"rule": "FREQ=DAILY", "timezone": "Mars/Olympus"},
        {
            "rule": "FREQ=DAILY;BYHOUR=2",
            "timezone": "America/New_York",
            "start_time": "2026-03-07T12:00:00Z",
            "disambiguation": "reject",
        },
    ],
)
async def test_next_occurrences_refuses_bad_input(client: Client, arguments: dict[str, Any]) -> None:
    await error_of(client, "next_occurrences", arguments)


async def test_timezone_history_shows_samoa_skipping_2011_12_30(client: Client) -> None:
    body = await structured(
        client, "timezone_history", {"timezone": "Pacific/Apia", "start_time": "2011-12-01", "end_time": "2012-01-31"}
    )
    (jump,) = body["transitions"]
    assert (jump["before"], jump["after"]) == ("2011-12-30T00:00:00-10:00", "2011-12-31T00:00:00+14:00")
    assert jump["change"] == "+24:00"


async def test_timezone_history_shows_lord_howe_moving_half_an_hour(client: Client) -> None:
    body = await structured(
        client,
        "timezone_history",
        {"timezone": "Australia/Lord_Howe", "start_time": "2025-01-01", "end_time": "2026-01-01"},
    )
    assert [t["change"] for t in body["transitions"]] == ["-00:30", "+00:30"]
    assert [t["kind"] for t in body["transitions"]] == ["dst_end", "dst_start"]


async def test_timezone_history_follows_the_dst_flag_of_the_data_in_dublin(client: Client) -> None:
    body = await structured(
        client, "timezone_history", {"timezone": "Europe/Dublin", "start_time": "1968-01-01", "end_time": "1972-12-31"}
    )
    summary = [(t["after"][:10], t["abbreviation"], t["kind"], t["change"]) for t in body["transitions"]]
    assert summary == [
        ("1968-02-18", "IST", "dst_start", "+01:00"),
        ("1968-10-27", "IST", "dst_end", "+00:00"),  # IST becomes standard time: only the DST flag changes
        ("1971-10-31", "GMT", "dst_start", "-01:00"),  # winter GMT is negative DST in the data
        ("1972-03-19", "IST", "dst_end", "+01:00"),
        ("1972-10-29", "GMT", "dst_start", "-01:00"),
    ]
    assert "only the abbreviation or DST flag changes" in body["transitions"][1]["local_effect"]


async def test_timezone_history_shows_british_double_summer_time(client: Client) -> None:
    body = await structured(
        client, "timezone_history", {"timezone": "Europe/London", "start_time": "1941-01-01", "end_time": "1942-01-01"}
    )
    assert "+02:00" in [t["after"][-6:] for t in body["transitions"]]


@pytest.mark.parametrize(
    "arguments",
    [
        {"timezone": "Europe/Vienna", "start_time": "1800-01-01", "end_time": "2100-01-01"},
        {"timezone": "Europe/Vienna", "start_time": "2020-01-01", "end_time": "2019-01-01"},
        {"timezone": "Europe/Viena"},
        {"timezone": "Europe/Vienna", "limit": 5000},
    ],
)
async def test_timezone_history_refuses_bad_input(client: Client, arguments: dict[str, Any]) -> None:
    await error_of(client, "timezone_history", arguments)


async def test_find_meeting_time_shows_each_participant_in_their_zone(client: Client) -> None:
    arguments = {
        "participants": [{"timezone": "Europe/Vienna"}, {"timezone": "America/New_York"}],
        "duration": 60,
        "start_date": "2026-11-23",
        "end_date": "2026-11-23",
    }
    body = await structured(client, "find_meeting_time", arguments)
    assert body["found"] is True
    first = body["slots"][0]
    assert [entry["timezone"] for entry in first["local"]] == ["Europe/Vienna", "America/New_York"]
    assert first["start_utc"] == "2026-11-23T14:30:00Z"  # the middle of the 14:00-16:00 UTC overlap ranks first
    assert [(entry["start"], entry["end"], entry["source"]) for entry in body["working_hours"]] == [
        ("09:00", "17:00", "default"),
        ("09:00", "17:00", "default"),
    ]


async def test_find_meeting_time_without_overlap_says_so_and_shows_partial_slots(client: Client) -> None:
    arguments = {
        "participants": [
            {"timezone": "America/Los_Angeles"},
            {"timezone": "Asia/Kolkata"},
            {"timezone": "Europe/Vienna"},
        ],
        "duration": 120,
        "start_date": "2026-11-23",
        "end_date": "2026-11-24",
    }
    body = await structured(client, "find_meeting_time", arguments)
    assert body["found"] is False
    assert body["slots"] and body["slots"][0]["unavailable"]
    assert "No slot" in body["summary"]


@pytest.mark.parametrize(
    "arguments",
    [
        {"participants": [], "duration": 30, "start_date": "2026-11-23"},
        {
            "participants": [{"timezone": "UTC"}],
            "duration": 30,
            "start_date": "2026-01-01",
            "end_date": "2026-03-01",
        },
        {"participants": [{"timezone": "UTC"}], "duration": "P1M", "start_date": "2026-11-23"},
        {
            "participants": [{"timezone": "UTC", "working_hours": {"start": "25:00"}}],
            "duration": 30,
            "start_date": "2026-11-23",
        },
        {
            "participants": [{"timezone": "UTC"}],
            "duration": 30,
            "start_date": "2026-11-23",
            "end_date": "2026-11-20",
        },
    ],
)
async def test_find_meeting_time_refuses_bad_input(client: Client, arguments: dict[str, Any]) -> None:
    await error_of(client, "find_meeting_time", arguments)


@pytest.mark.parametrize(
    ("arguments", "kind"),
    [
        ({"timestamp": "2026-01-01", "amount": "P1Q"}, "invalid_argument"),
        ({"timestamp": "9999-12-31T00:00:00Z", "amount": "P1D"}, "invalid_timestamp"),
        ({"timestamp": "0001-01-01T00:00:00Z", "amount": "-P1D"}, "invalid_timestamp"),
        ({"timestamp": "not a time", "amount": "P1D"}, "unknown_expression"),
        ({"timestamp": "2026-01-01", "amount": "P1D", "timezone": "Nowhere/City"}, "invalid_timezone"),
        (
            {
                "timestamp": "2026-03-29T02:30",
                "amount": "PT1H",
                "timezone": "Europe/Vienna",
                "disambiguation": "reject",
            },
            "nonexistent_local_time",
        ),
        ({"timestamp": "2026-01-01", "amount": 5}, "invalid_arguments"),
    ],
)
async def test_add_time_refuses_bad_input(client: Client, arguments: dict[str, Any], kind: str) -> None:
    assert (await error_of(client, "add_time", arguments))["kind"] == kind


async def test_holidays_default_to_the_country_in_the_client_context(client: Client) -> None:
    context = {"io.modelcontextprotocol/clientContext": {"userLocation": {"country": "AT"}}}
    result = await client.call_tool("list_holidays", {"year": 2025}, meta=context)  # type: ignore[arg-type]
    assert result.structured_content is not None and result.structured_content["country"] == "AT"
    explicit = await client.call_tool("list_holidays", {"year": 2025, "country": "US"}, meta=context)  # type: ignore[arg-type]
    assert explicit.structured_content is not None and explicit.structured_content["country"] == "US"


async def test_holidays_default_to_the_country_of_the_users_zone(client: Client) -> None:
    # The country holiday names are read for: 'business days until Christmas' counts the Christmas it found.
    oslo = {"io.modelcontextprotocol/clientContext": {"timezone": "Europe/Oslo"}}
    listed = await client.call_tool("list_holidays", {"year": 2027}, meta=oslo)  # type: ignore[arg-type]
    assert listed.structured_content is not None and listed.structured_content["country"] == "NO"
    vienna = {"io.modelcontextprotocol/clientContext": {"timezone": "Europe/Vienna"}}
    arguments = {"start_date": "2026-12-07", "end_date": "2026-12-10"}
    counted = await client.call_tool("business_days", arguments, meta=vienna)  # type: ignore[arg-type]
    assert counted.structured_content is not None
    assert counted.structured_content["country"] == "AT"
    assert counted.structured_content["business_days"] == 2  # 8 December is a holiday in Austria


async def test_holidays_without_country_or_context_say_what_is_missing(client: Client) -> None:
    result = await client.call_tool("list_holidays", {"year": 2025})
    assert result.is_error is True
    assert "userLocation.country" in result.content[0].text  # type: ignore[union-attr]


async def test_holiday_names_follow_the_negotiated_language(client: Client) -> None:
    meta = {"io.modelcontextprotocol/acceptLanguage": "de"}
    result = await client.call_tool("list_holidays", {"country": "AT", "year": 2025}, meta=meta)  # type: ignore[arg-type]
    assert result.structured_content is not None
    names = [name for day in result.structured_content["holidays"] for name in day["names"]]
    assert "Neujahr" in names
    assert (result.meta or {}).get("io.modelcontextprotocol/contentLanguage") == "de"
    english = await client.call_tool("list_holidays", {"country": "AT", "year": 2025, "language": "en"}, meta=meta)  # type: ignore[arg-type]
    assert english.structured_content is not None
    assert "New Year's Day" in [name for day in english.structured_content["holidays"] for name in day["names"]]


@pytest.mark.parametrize(
    ("tag", "country", "label", "weekday"),
    [
        ("de", "AT", "Zusätzlicher Feiertag", "Freitag"),
        ("fr", "FR", "Jour férié supplémentaire", "vendredi"),
        ("es", "ES", "Festivo adicional", "viernes"),
        ("ja", "JP", "追加の休日", "金曜日"),
        ("zh-Hans", "CN", "额外假日", "星期五"),
        ("en", "US", "Extra holiday", "Friday"),
    ],
)
async def test_business_days_label_extra_holidays_and_name_the_weekday_in_the_negotiated_language(
    client: Client, tag: str, country: str, label: str, weekday: str
) -> None:
    # SEP-2792: contentLanguage names the language the text is in, so no label of ours may stay English beside it.
    arguments = {"country": country, "start_date": "2025-03-03", "count": 3, "extra_holidays": ["2025-03-04"]}
    meta = {ACCEPT_LANGUAGE_META: tag}
    result = await client.call_tool("business_days", arguments, meta=meta)  # type: ignore[arg-type]
    body = result.structured_content
    assert body is not None and (result.meta or {}).get(CONTENT_LANGUAGE_META) == tag
    assert body["holidays"] == [{"date": "2025-03-04", "names": [label], "day_of_week": "Tuesday"}]
    assert (body["result"], body["result_day_of_week"]) == ("2025-03-07", "Friday")  # values keep one spelling
    assert weekday in body["summary"] and (tag == "en" or "Friday" not in body["summary"])


@pytest.mark.parametrize(
    ("arguments", "content_language", "language", "name"),
    [
        ({}, "zh-Hans", "zh_CN", "中华民国开国纪念日"),  # names in the negotiated script: Simplified
        ({"language": "zh-TW"}, "zh-Hant-TW", "zh_TW", "中華民國開國紀念日"),
        ({"language": "zh-Hant"}, "zh-Hant-TW", "zh_TW", "中華民國開國紀念日"),  # the script asked for, not zh_CN
        ({"language": "zh-HK"}, "zh-Hant-TW", "zh_TW", "中華民國開國紀念日"),  # Taiwan has no zh_HK: same script
        ({"language": "zh-CN"}, "zh-Hans", "zh_CN", "中华民国开国纪念日"),
    ],
)
async def test_taiwans_holiday_names_report_the_script_they_are_written_in(
    client: Client, arguments: dict[str, Any], content_language: str, language: str, name: str
) -> None:
    meta = {ACCEPT_LANGUAGE_META: "zh"}
    result = await client.call_tool("list_holidays", {"country": "TW", "year": 2025, **arguments}, meta=meta)  # type: ignore[arg-type]
    body = result.structured_content
    assert body is not None and (body["language"], body["holidays"][0]["names"]) == (language, [name])
    assert (result.meta or {}).get(CONTENT_LANGUAGE_META) == content_language


async def test_hong_kong_names_follow_the_negotiated_script_unless_the_argument_asks_for_another(
    client: Client,
) -> None:
    # The package's own language for Hong Kong is zh_HK (Traditional); a zh-Hans answer takes its zh_CN names.
    meta = {ACCEPT_LANGUAGE_META: "zh-Hans"}
    arguments = {"country": "HK", "start_date": "2025-01-28", "count": 1}
    simplified = await client.call_tool("business_days", arguments, meta=meta)  # type: ignore[arg-type]
    assert simplified.structured_content is not None
    assert simplified.structured_content["holidays"][0]["names"] == ["农历年初一"]
    assert (simplified.meta or {}).get(CONTENT_LANGUAGE_META) == "zh-Hans"
    listed = await client.call_tool("list_holidays", {"country": "HK", "year": 2025, "language": "zh-Hant"}, meta=meta)  # type: ignore[arg-type]
    assert listed.structured_content is not None
    assert listed.structured_content["holidays"][1]["names"] == ["農曆年初一"]
    assert (listed.meta or {}).get(CONTENT_LANGUAGE_META) == "zh-Hant-HK"


async def test_next_occurrences_reports_progress_when_asked(client: Client) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    arguments = {"rule": "FREQ=DAILY;BYHOUR=9", "timezone": "Europe/Vienna", "count": 5}
    result = await client.call_tool("next_occurrences", arguments, progress_callback=on_progress)
    assert result.is_error is False
    assert [(progress, total) for progress, total, _ in seen] == [(0, 1), (1, 1)]
    assert seen[0][2] == "Expanding the recurrence rule" and seen[1][2] == "Expanded 5 occurrences"


@pytest.mark.anyio
@pytest.mark.parametrize(
    "subdivision", ["Bavaria", "Bayern", "Bavière", "Baviera", "バイエルン", "バイエルン自由州", "巴伐利亚", "Бавария"]
)
async def test_holidays_of_a_subdivision_named_in_any_language(client: Client, subdivision: str) -> None:
    body = await structured(client, "list_holidays", {"country": "DE", "subdivision": subdivision, "year": 2026})
    assert body["subdivision"] == "BY"
    assert "2026-06-04" in [holiday["date"] for holiday in body["holidays"]]  # Corpus Christi, a holiday in Bavaria


@pytest.mark.parametrize(
    "subdivision", ["Catalonia", "Katalonien", "Catalogne", "Cataluña", "カタルーニャ州", "カタルーニャ", "加泰罗尼亚"]
)
async def test_business_days_of_a_subdivision_named_in_the_six_languages(client: Client, subdivision: str) -> None:
    arguments = {"country": "ES", "subdivision": subdivision, "start_date": "2026-09-01", "end_date": "2026-10-01"}
    body = await structured(client, "business_days", arguments)
    assert body["subdivision"] == "CT"
    assert body["business_days"] == 21  # 22 weekdays less the 11th, Catalonia's national day


@pytest.mark.anyio
async def test_an_unknown_subdivision_suggests_the_nearest_first(client: Client) -> None:
    error = await error_of(client, "business_days", {"country": "DE", "subdivision": "Bavria", "count": 1})
    assert error["suggestions"][0] == "BY"
    assert "Did you mean BY (Bayern)" in error["message"]


async def test_holidays_the_data_estimate_say_so(client: Client) -> None:
    body = await structured(client, "list_holidays", {"country": "SA", "year": 2027})
    by_date = {entry["date"]: entry for entry in body["holidays"]}
    assert by_date["2027-03-09"]["names"] == ["Eid al-Fitr Holiday (estimated)"] and by_date["2027-03-09"]["estimated"]
    assert "estimated" not in by_date["2027-02-22"]  # Founding Day: a fixed date
    arabic = await structured(client, "list_holidays", {"country": "SA", "year": 2027, "language": "ar"})
    assert next(entry for entry in arabic["holidays"] if entry["date"] == "2027-03-09")["estimated"] is True
    resolved = await structured(client, "resolve_time_expression", {"expression": "Eid al-Fitr 2027 in Saudi Arabia"})
    assert resolved["interpretation"] == "2027-03-09 (Eid al-Fitr Holiday (estimated): SA)"
    # The Chinese calendar's dates are exact: Hong Kong's Lunar New Year is not called an estimate.
    hong_kong = await structured(client, "list_holidays", {"country": "HK", "year": 2027})
    assert not any(entry.get("estimated") for entry in hong_kong["holidays"])


async def test_a_holiday_many_countries_keep_names_them_from_the_data(client: Client) -> None:
    body = await structured(client, "resolve_time_expression", {"expression": "Orthodox Easter 2027"})
    # The four that write "Orthodox", and those whose data call that day "Easter" or "Easter Sunday".
    assert body["interpretation"] == (
        "2027-05-02 (Orthodox Easter Sunday: AL, BG, BY, CY, ER, ET, GE, MD, PS, RO, RS, UA, ... (13 countries in all))"
    )
