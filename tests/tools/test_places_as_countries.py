"""A UK nation, or any subdivision with holidays of its own, given as the country (issue 36, item 3): read as the
country and that subdivision, or refused naming both."""

from __future__ import annotations

import pytest
from mcp.client import Client

from tests.calls import error_of, structured

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    ("country", "code", "part", "april", "year"),
    [
        # April 2026: 22 weekdays, Good Friday everywhere in the UK, Easter Monday but in Scotland
        ("England", "GB", "ENG", 20, 253),
        ("Wales", "GB", "WLS", 20, 253),
        ("Scotland", "GB", "SCT", 21, 251),
        ("Schottland", "GB", "SCT", 21, 251),
        ("Northern Ireland", "GB", "NIR", 20, 251),
        ("Bavaria", "DE", "BY", 20, 252),
    ],
)
async def test_a_nation_or_state_as_the_country_is_the_country_with_that_subdivision(
    client: Client, country: str, code: str, part: str, april: int, year: int
) -> None:
    args = {"country": country, "start_date": "2026-04-01", "end_date": "2026-05-01"}
    body = await structured(client, "business_days", args)
    assert (body["country"], body["subdivision"], body["business_days"]) == (code, part, april)
    body = await structured(client, "business_days", {**args, "start_date": "2026-01-01", "end_date": "2027-01-01"})
    assert body["business_days"] == year


async def test_list_holidays_of_england_has_easter_monday_and_scotland_has_st_andrews_day(client: Client) -> None:
    england = await structured(client, "list_holidays", {"country": "England", "year": 2026})
    scotland = await structured(client, "list_holidays", {"country": "Scotland", "year": 2026})
    assert (england["country"], england["subdivision"], scotland["subdivision"]) == ("GB", "ENG", "SCT")
    assert "2026-04-06" in {entry["date"] for entry in england["holidays"]}
    assert "2026-04-06" not in {entry["date"] for entry in scotland["holidays"]}
    assert "2026-11-30" in {entry["date"] for entry in scotland["holidays"]}


async def test_a_countrys_own_name_stays_the_country(client: Client) -> None:
    body = await structured(client, "list_holidays", {"country": "Georgia", "year": 2026})
    assert (body["country"], body.get("subdivision")) == ("GE", None)
    body = await structured(client, "list_holidays", {"country": "UK", "year": 2026})
    assert (body["country"], body.get("subdivision")) == ("GB", None)


async def test_a_nation_with_another_subdivision_is_refused_naming_both(client: Client) -> None:
    error = await error_of(client, "list_holidays", {"country": "England", "subdivision": "SCT", "year": 2026})
    assert error["kind"] == "invalid_argument"
    assert "'England' is a part of" in error["message"] and "(GB-ENG)" in error["message"]
    assert "'SCT'" in error["message"] and error["suggestions"] == ["GB-ENG"]
    same = await structured(client, "list_holidays", {"country": "England", "subdivision": "ENG", "year": 2026})
    assert same["subdivision"] == "ENG"


async def test_a_name_of_several_subdivisions_is_refused_naming_them(client: Client) -> None:
    error = await error_of(client, "list_holidays", {"country": "Washington", "year": 2026})
    assert "'Washington' names several places with holidays of their own" in error["message"]
    assert error["suggestions"] == ["US-DC", "US-WA"]
