"""Client context (SEP-1809): every field validated alone, bad ones ignored and reported, never raised."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from horologe.core.client_context import NO_CONTEXT, read_client_context
from horologe.places import from_text
from horologe.wire import CLIENT_CONTEXT_META, normalize_request
from tests.sep1809 import EXAMPLE_3

FULL = EXAMPLE_3  # the proposal's third example: every field


def test_a_full_context_is_applied_field_by_field() -> None:
    context = read_client_context(FULL)
    assert context.zone is not None and context.zone.key == "America/Los_Angeles"
    assert context.now == datetime(2025, 11, 12, 14, 23, tzinfo=UTC)
    assert context.locale == "en-US"
    assert context.country == "US"
    assert context.report() == {
        "applied": {
            "timezone": "America/Los_Angeles",
            "currentTimestamp": "2025-11-12T06:23:00-08:00",
            "locale": "en-US",
            "userLocation": {
                "city": "Los Angeles",
                "region": "California",
                "country": "US",
                "coordinates": {"latitude": 34.0522, "longitude": -118.2437},
            },
        },
        "ignored": {},
    }


def test_no_context_reports_nothing() -> None:
    assert read_client_context(None) is NO_CONTEXT
    assert NO_CONTEXT.report() == {"applied": {}, "ignored": {}}


INVALID: list[tuple[dict[str, Any], str, str]] = [
    ({"timezone": "Mars/Base"}, "timezone", "unknown timezone 'Mars/Base'"),
    ({"timezone": 42}, "timezone", "timezone must be a string, not number"),
    ({"timezone": ""}, "timezone", "timezone is empty"),
    ({"timezone": "Vienna"}, "timezone", "not an IANA timezone identifier 'Vienna' (did you mean 'Europe/Vienna'?)"),
    ({"timezone": "+01:00"}, "timezone", "not an IANA timezone identifier"),
    ({"timezone": "x" * 300}, "timezone", "too long"),
    ({"currentTimestamp": "2025-11-12T14:23:00"}, "currentTimestamp", "has no UTC offset"),
    ({"currentTimestamp": "yesterday"}, "currentTimestamp", "not an RFC 3339 timestamp"),
    ({"currentTimestamp": "2025-13-45T10:00:00Z"}, "currentTimestamp", "not an RFC 3339 timestamp"),
    ({"currentTimestamp": 1762953780}, "currentTimestamp", "must be a string"),
    ({"currentTimestamp": "Wed, 12 Nov 2025 14:23:00 +0100"}, "currentTimestamp", "not an RFC 3339"),
    ({"locale": "en_US"}, "locale", "malformed BCP 47 language tag 'en_US' (did you mean 'en-US'?)"),
    ({"locale": "not a locale"}, "locale", "malformed BCP 47"),
    ({"locale": ["de-AT"]}, "locale", "must be a string, not array"),
    ({"userLocation": "Vienna"}, "userLocation", "must be an object, not string"),
    ({"userLocation": {"country": "Austria"}}, "userLocation.country", "not an ISO 3166-1 alpha-2"),
    ({"userLocation": {"country": "XQ"}}, "userLocation.country", "unknown ISO 3166-1 alpha-2 country code 'XQ'"),
    ({"userLocation": {"coordinates": {"latitude": 91, "longitude": 0}}}, "userLocation.coordinates", "out of range"),
    ({"userLocation": {"coordinates": {"latitude": 0, "longitude": -181}}}, "userLocation.coordinates", "range"),
    ({"userLocation": {"coordinates": {"latitude": "48.2", "longitude": 16.4}}}, "userLocation.coordinates", "number"),
    ({"userLocation": {"coordinates": {"latitude": True, "longitude": 16.4}}}, "userLocation.coordinates", "number"),
    ({"userLocation": {"coordinates": {"latitude": 48.2}}}, "userLocation.coordinates", "longitude is missing"),
    ({"userLocation": {"coordinates": [48.2, 16.4]}}, "userLocation.coordinates", "must be an object"),
    ({"userLocation": {"city": 7}}, "userLocation.city", "must be a string"),
    ({"userLocation": {"planet": "Earth"}}, "userLocation.planet", "unknown field"),
    ({"mood": "happy"}, "mood", "unknown field"),
]


@pytest.mark.parametrize(("raw", "field", "reason"), INVALID)
def test_each_bad_field_is_ignored_with_a_reason(raw: dict[str, Any], field: str, reason: str) -> None:
    context = read_client_context(raw)
    assert reason in context.ignored[field]
    assert context.zone is None and context.now is None and context.locale is None


def test_bad_fields_do_not_spoil_good_ones() -> None:
    context = read_client_context({"timezone": "Mars/Base", "locale": "de-AT", "currentTimestamp": "soon"})
    assert context.locale == "de-AT"
    assert context.report()["applied"] == {"locale": "de-AT"}
    assert set(context.ignored) == {"timezone", "currentTimestamp"}


@pytest.mark.parametrize("raw", ["Europe/Vienna", 3, ["timezone"], True])
def test_a_context_that_is_not_an_object_is_ignored_whole(raw: object) -> None:
    context = read_client_context(raw)
    assert set(context.ignored) == {"clientContext"}
    assert context.applied == {}


@pytest.mark.parametrize(
    ("tag", "normalized"),
    [("de-at", "de-AT"), ("EN-us", "en-US"), ("zh-hant-tw", "zh-Hant-TW"), ("es-419", "es-419"), ("ja", "ja")],
)
def test_locales_are_normalized_to_conventional_case(tag: str, normalized: str) -> None:
    assert read_client_context({"locale": tag}).locale == normalized


def test_a_locale_without_data_is_ignored_when_a_checker_is_given() -> None:
    context = read_client_context({"locale": "qq-ZZ"}, locale_known=lambda tag: False)
    assert context.ignored == {"locale": "no locale data for 'qq-ZZ'"}


def test_timezone_and_timestamp_that_disagree_are_reported_and_both_used() -> None:
    context = read_client_context({"timezone": "Europe/Vienna", "currentTimestamp": "2025-07-01T12:00:00+01:00"})
    assert context.zone is not None and context.zone.key == "Europe/Vienna"
    assert context.now == datetime(2025, 7, 1, 11, 0, tzinfo=UTC)
    (conflict,) = context.report()["conflicts"]
    assert conflict["fields"] == ["timezone", "currentTimestamp"]
    assert conflict["timestamp_offset"] == "+01:00" and conflict["timezone_offset"] == "+02:00"


def test_timezone_and_timestamp_that_agree_have_no_conflict() -> None:
    context = read_client_context({"timezone": "Europe/Vienna", "currentTimestamp": "2025-07-01T12:00:00+02:00"})
    assert "conflicts" not in context.report()


def test_top_level_context_is_lifted_into_meta() -> None:
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x"}, "clientContext": {"a": 1}}
    lifted = normalize_request(message)
    assert lifted is message
    assert "clientContext" not in lifted
    assert lifted["params"] == {"name": "x", "_meta": {CLIENT_CONTEXT_META: {"a": 1}}}


def test_lifting_creates_params_when_missing() -> None:
    lifted = normalize_request({"jsonrpc": "2.0", "id": 1, "method": "ping", "clientContext": {"a": 1}})
    assert lifted["params"] == {"_meta": {CLIENT_CONTEXT_META: {"a": 1}}}


def test_an_explicit_meta_context_wins_over_the_top_level_one() -> None:
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "x", "_meta": {CLIENT_CONTEXT_META: {"from": "meta"}}},
        "clientContext": {"from": "top"},
    }
    lifted = normalize_request(message)
    assert "clientContext" not in lifted
    assert lifted["params"]["_meta"] == {CLIENT_CONTEXT_META: {"from": "meta"}}


def test_responses_and_odd_params_are_left_alone() -> None:
    response = {"jsonrpc": "2.0", "id": 1, "result": {}, "clientContext": {}}
    assert normalize_request(dict(response)) == response
    odd = normalize_request({"jsonrpc": "2.0", "id": 1, "method": "m", "params": [1], "clientContext": {}})
    assert odd == {"jsonrpc": "2.0", "id": 1, "method": "m", "params": [1]}


# --- the user's zone from userLocation (SEP-1809) ----------------------------------------------------------------

PLACES = from_text(
    "c\tValencia\tvalencia\t\tVE\t07\t1600000\tAmerica/Caracas\n"
    "c\tValencia\tvalencia\t\tES\t60\t800000\tEurope/Madrid\n"
)


def at_vienna(latitude: float, longitude: float) -> str | None:
    return "Europe/Vienna" if (round(latitude), round(longitude)) == (48, 16) else None


def located(location: dict[str, Any], **extra: Any) -> Any:
    return read_client_context({"userLocation": location, **extra}, places=PLACES, zone_at=at_vienna)


def test_coordinates_give_the_users_zone_and_the_report_says_so() -> None:
    context = located({"coordinates": {"latitude": 48.2, "longitude": 16.4}})
    assert context.zone is not None and context.zone.key == "Europe/Vienna"
    assert context.applied["userLocation"]["timezone"] == "Europe/Vienna"
    assert "timezone" not in context.applied


def test_a_timezone_sent_wins_over_the_location() -> None:
    context = located({"coordinates": {"latitude": 48.2, "longitude": 16.4}}, timezone="Asia/Tokyo")
    assert context.zone is not None and context.zone.key == "Asia/Tokyo"
    assert "timezone" not in context.applied["userLocation"]


def test_without_coordinates_the_city_in_its_country_gives_the_zone() -> None:
    context = located({"city": "Valencia", "country": "ES"})
    assert context.zone is not None and context.zone.key == "Europe/Madrid"


def test_an_ambiguous_city_gives_no_zone_and_says_why() -> None:
    context = located({"city": "Valencia"})
    assert context.zone is None
    assert "names no single zone" in context.ignored["userLocation.city"]


def test_a_country_of_one_zone_gives_it_and_one_of_many_gives_none() -> None:
    assert located({"country": "JP"}).zone.key == "Asia/Tokyo"
    assert located({"country": "US"}).zone is None


def test_coordinates_where_the_lookup_names_nothing_fall_back_to_the_country() -> None:
    context = located({"coordinates": {"latitude": 0, "longitude": 0}, "country": "AT"})
    assert context.zone is not None and context.zone.key == "Europe/Vienna"


def test_a_typed_abbreviation_is_not_an_iana_timezone_but_a_database_key_is() -> None:
    assert read_client_context({"timezone": "EST"}).zone.key == "America/Panama"  # type: ignore[union-attr]
    assert "not an IANA timezone identifier" in read_client_context({"timezone": "PST"}).ignored["timezone"]
