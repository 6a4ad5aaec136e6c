"""Reading timestamps: every accepted form, every refused one, DST placement and round trips."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings

from horologe.core.errors import AmbiguousLocalTime, InvalidArgument, InvalidTimestamp, NonexistentLocalTime
from horologe.core.format import format_instant
from horologe.core.parse import parse_date, parse_timestamp
from tests.core.test_duration import near_transition

VIENNA = ZoneInfo("Europe/Vienna")


def utc_text(value: str | int | float, zone: ZoneInfo = VIENNA, **options: str) -> str:
    return parse_timestamp(value, zone, **options).instant.astimezone(UTC).isoformat()  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2025-08-17T10:30:00Z", "2025-08-17T10:30:00+00:00"),
        ("2025-08-17T10:30:00z", "2025-08-17T10:30:00+00:00"),
        ("2025-08-17t10:30:00Z", "2025-08-17T10:30:00+00:00"),
        ("2025-08-17 10:30:00Z", "2025-08-17T10:30:00+00:00"),
        ("2025-08-17T10:30Z", "2025-08-17T10:30:00+00:00"),
        ("2025-08-17T10Z", "2025-08-17T10:00:00+00:00"),
        ("2025-08-17T06:30:00-04:00", "2025-08-17T10:30:00+00:00"),
        ("2025-08-17T16:15:00+05:45", "2025-08-17T10:30:00+00:00"),
        ("2025-08-17T12:30:00+0200", "2025-08-17T10:30:00+00:00"),
        ("2025-08-17T12:30+02", "2025-08-17T10:30:00+00:00"),
        ("2025-08-17T10:30:00-00:00", "2025-08-17T10:30:00+00:00"),
        ("2025-08-17T10:30:00+00:00", "2025-08-17T10:30:00+00:00"),
        ("1900-01-01T05:41:16+05:41:16", "1900-01-01T00:00:00+00:00"),
        ("20250817T103000Z", "2025-08-17T10:30:00+00:00"),
        ("20250817T1030Z", "2025-08-17T10:30:00+00:00"),
        ("20250817T123000+0200", "2025-08-17T10:30:00+00:00"),
        ("2025-W33-7T10:30:00Z", "2025-08-17T10:30:00+00:00"),
        ("2025W337T103000Z", "2025-08-17T10:30:00+00:00"),
        ("2025-229T10:30Z", "2025-08-17T10:30:00+00:00"),
        ("2025229T1030Z", "2025-08-17T10:30:00+00:00"),
        ("2024-366T00:00Z", "2024-12-31T00:00:00+00:00"),
        ("2025-08-17T10:30:00.5Z", "2025-08-17T10:30:00.500000+00:00"),
        ("2025-08-17T10:30:00,5Z", "2025-08-17T10:30:00.500000+00:00"),
        ("2025-08-17T10:30:00.123456Z", "2025-08-17T10:30:00.123456+00:00"),
        ("2025-08-17T10:30:00.1234569Z", "2025-08-17T10:30:00.123456+00:00"),
        ("2025-08-17T10:30:00.999999999Z", "2025-08-17T10:30:00.999999+00:00"),
        ("  2025-08-17T10:30:00Z\n", "2025-08-17T10:30:00+00:00"),
        ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00+00:00"),
        ("9999-12-31T23:59:59.999999Z", "9999-12-31T23:59:59.999999+00:00"),
        ("+2025-08-17T10:30Z", "2025-08-17T10:30:00+00:00"),
    ],
)
def test_iso_8601_with_an_offset_is_an_absolute_instant(value, expected):
    parsed = parse_timestamp(value, VIENNA)
    assert parsed.instant.astimezone(UTC).isoformat() == expected
    assert (parsed.source_format, parsed.explicit_offset, parsed.resolution) == ("iso8601", True, None)


def test_iso_8601_keeps_the_written_offset():
    assert parse_timestamp("2025-08-17T16:15:00+05:45", VIENNA).instant.isoformat() == "2025-08-17T16:15:00+05:45"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2025-08-17 10:30", "2025-08-17T10:30:00+02:00"),
        ("2025-08-17T10:30:00", "2025-08-17T10:30:00+02:00"),
        ("2025-08-17t10:30", "2025-08-17T10:30:00+02:00"),
        ("2025-08-17T10:30:00.250", "2025-08-17T10:30:00.250000+02:00"),
        ("2025-08-17", "2025-08-17T00:00:00+02:00"),
        ("2025-W33-7", "2025-08-17T00:00:00+02:00"),
        ("2025W337", "2025-08-17T00:00:00+02:00"),
        ("2025-W33", "2025-08-11T00:00:00+02:00"),
        ("2025-229", "2025-08-17T00:00:00+02:00"),
        ("2025-01-17 10:30", "2025-01-17T10:30:00+01:00"),
    ],
)
def test_iso_8601_without_an_offset_is_read_in_the_source_zone(value, expected):
    parsed = parse_timestamp(value, VIENNA)
    assert parsed.instant.isoformat() == expected
    assert parsed.explicit_offset is False
    assert parsed.resolution is not None and parsed.resolution.status == "unique"


@pytest.mark.parametrize(
    ("value", "zone", "policy", "expected", "status"),
    [
        ("2026-03-29T02:30", "Europe/Vienna", "compatible", "2026-03-29T03:30:00+02:00", "gap"),
        ("2026-03-29T02:30", "Europe/Vienna", "earlier", "2026-03-29T01:30:00+01:00", "gap"),
        ("2026-03-29T02:30", "Europe/Vienna", "later", "2026-03-29T03:30:00+02:00", "gap"),
        ("2026-11-01T01:30", "America/New_York", "compatible", "2026-11-01T01:30:00-04:00", "fold"),
        ("2026-11-01T01:30", "America/New_York", "earlier", "2026-11-01T01:30:00-04:00", "fold"),
        ("2026-11-01T01:30", "America/New_York", "later", "2026-11-01T01:30:00-05:00", "fold"),
        ("2026-04-05T01:45", "Australia/Lord_Howe", "compatible", "2026-04-05T01:45:00+11:00", "fold"),
        ("2026-04-05T01:45", "Australia/Lord_Howe", "later", "2026-04-05T01:45:00+10:30", "fold"),
        ("2026-10-04T02:15", "Australia/Lord_Howe", "compatible", "2026-10-04T02:45:00+11:00", "gap"),
        ("2026-10-04T02:15", "Australia/Lord_Howe", "earlier", "2026-10-04T01:45:00+10:30", "gap"),
        ("2011-12-30T12:00", "Pacific/Apia", "compatible", "2011-12-31T12:00:00+14:00", "gap"),
        ("2011-12-30T12:00", "Pacific/Apia", "earlier", "2011-12-29T12:00:00-10:00", "gap"),
        ("2025-08-17T10:30", "Asia/Kathmandu", "compatible", "2025-08-17T10:30:00+05:45", "unique"),
        ("1986-01-01T00:10", "Asia/Kathmandu", "compatible", "1986-01-01T00:25:00+05:45", "gap"),
        ("1986-01-01T00:10", "Asia/Kathmandu", "earlier", "1985-12-31T23:55:00+05:30", "gap"),
        ("2026-03-29T01:30", "Europe/Dublin", "compatible", "2026-03-29T02:30:00+01:00", "gap"),
        ("2026-10-25T01:30", "Europe/Dublin", "compatible", "2026-10-25T01:30:00+01:00", "fold"),
        ("2026-10-25T01:30", "Europe/Dublin", "later", "2026-10-25T01:30:00+00:00", "fold"),
        ("Sun, 01 Nov 2026 01:30:00", "America/New_York", "later", "2026-11-01T01:30:00-05:00", "fold"),
    ],
)
def test_naive_input_in_a_dst_transition_follows_the_disambiguation(value, zone, policy, expected, status):
    parsed = parse_timestamp(value, ZoneInfo(zone), disambiguation=policy)
    assert parsed.instant.isoformat() == expected
    assert parsed.resolution is not None
    assert (parsed.resolution.status, parsed.resolution.policy) == (status, policy)
    assert parsed.resolution.report()["dst_gap"] is (status == "gap")


@pytest.mark.parametrize(
    ("value", "zone", "error"),
    [
        ("2026-03-29T02:30", "Europe/Vienna", NonexistentLocalTime),
        ("2026-11-01T01:30", "America/New_York", AmbiguousLocalTime),
        ("2011-12-30", "Pacific/Apia", NonexistentLocalTime),
    ],
)
def test_reject_policy_refuses_gap_and_fold_times(value, zone, error):
    with pytest.raises(error):
        parse_timestamp(value, ZoneInfo(zone), disambiguation="reject")


def test_an_explicit_offset_ignores_the_dst_policy():
    parsed = parse_timestamp("2026-03-29T02:30:00+01:00", VIENNA, disambiguation="reject")
    assert parsed.instant.astimezone(UTC).isoformat() == "2026-03-29T01:30:00+00:00"


@pytest.mark.parametrize(
    ("value", "unit", "expected", "source_format"),
    [
        (1755426600, "auto", "2025-08-17T10:30:00+00:00", "unix_seconds"),
        ("1755426600", "auto", "2025-08-17T10:30:00+00:00", "unix_seconds"),
        (" 1755426600 ", "auto", "2025-08-17T10:30:00+00:00", "unix_seconds"),
        ("1755426600.5", "auto", "2025-08-17T10:30:00.500000+00:00", "unix_seconds"),
        (1755426600.5, "auto", "2025-08-17T10:30:00.500000+00:00", "unix_seconds"),
        (1755426600.1, "auto", "2025-08-17T10:30:00.100000+00:00", "unix_seconds"),
        ("+1755426600", "auto", "2025-08-17T10:30:00+00:00", "unix_seconds"),
        ("-1", "auto", "1969-12-31T23:59:59+00:00", "unix_seconds"),
        (-1.5, "auto", "1969-12-31T23:59:58.500000+00:00", "unix_seconds"),
        (0, "auto", "1970-01-01T00:00:00+00:00", "unix_seconds"),
        ("20250817", "auto", "1970-08-23T09:13:37+00:00", "unix_seconds"),
        (99_999_999_999, "auto", "5138-11-16T09:46:39+00:00", "unix_seconds"),
        (100_000_000_000, "auto", "5138-11-16T09:46:40+00:00", "unix_seconds"),
        # The largest Unix seconds value (the one the range message names) is seconds; one more is milliseconds.
        (253402300799, "auto", "9999-12-31T23:59:59+00:00", "unix_seconds"),
        (-62135596800, "auto", "0001-01-01T00:00:00+00:00", "unix_seconds"),
        (253402300800, "auto", "1978-01-11T21:31:40.800000+00:00", "unix_milliseconds"),
        (1755426600123, "auto", "2025-08-17T10:30:00.123000+00:00", "unix_milliseconds"),
        ("-1755426600000", "auto", "1914-05-17T13:30:00+00:00", "unix_milliseconds"),
        (1755426600123456, "auto", "2025-08-17T10:30:00.123456+00:00", "unix_microseconds"),
        ("1755426600123456.7", "auto", "2025-08-17T10:30:00.123456+00:00", "unix_microseconds"),
        (1755426600, "s", "2025-08-17T10:30:00+00:00", "unix_seconds"),
        (1755426600, "ms", "1970-01-21T07:37:06.600000+00:00", "unix_milliseconds"),
        ("1755426600", "us", "1970-01-01T00:29:15.426600+00:00", "unix_microseconds"),
        (253402300799, "s", "9999-12-31T23:59:59+00:00", "unix_seconds"),
        ("-62135596800", "s", "0001-01-01T00:00:00+00:00", "unix_seconds"),
        (10**17, "us", "5138-11-16T09:46:40+00:00", "unix_microseconds"),
    ],
)
def test_unix_time_is_read_by_magnitude_or_explicit_unit(value, unit, expected, source_format):
    parsed = parse_timestamp(value, VIENNA, unit=unit)
    assert parsed.instant.isoformat() == expected
    assert (parsed.source_format, parsed.explicit_offset, parsed.resolution) == (source_format, True, None)


def test_unix_time_too_large_to_guess_asks_for_an_explicit_unit():
    with pytest.raises(InvalidTimestamp, match="explicit unit") as caught:
        parse_timestamp(10**17, VIENNA)
    assert "years 1..9999" in caught.value.message


@pytest.mark.parametrize(
    ("value", "expected", "source_format"),
    [
        ("Sat, 17 Aug 2025 10:30:00 +0000", "2025-08-17T10:30:00+00:00", "rfc2822"),
        ("Sun, 17 Aug 2025 06:30:00 -0400", "2025-08-17T10:30:00+00:00", "rfc2822"),
        ("Sun, 17 Aug 2025 16:15:00 +0545", "2025-08-17T10:30:00+00:00", "rfc2822"),
        ("Sun, 17 Aug 2025 05:30:00 EST", "2025-08-17T10:30:00+00:00", "rfc2822"),
        ("Sun, 17 Aug 2025 06:30:00 EDT", "2025-08-17T10:30:00+00:00", "rfc2822"),
        ("Sun, 17 Aug 2025 03:30:00 PDT", "2025-08-17T10:30:00+00:00", "rfc2822"),
        ("Sun, 17 Aug 2025 10:30:00 UT", "2025-08-17T10:30:00+00:00", "rfc2822"),
        ("Sun, 17 Aug 2025 10:30:00 -0000", "2025-08-17T10:30:00+00:00", "rfc2822"),
        ("Sun, 17 Aug 2025 10:30 GMT", "2025-08-17T10:30:00+00:00", "rfc2822"),
        ("17 Aug 2025 10:30:00 +0000", "2025-08-17T10:30:00+00:00", "rfc2822"),
        ("Sunday, 17 August 2025 10:30:00 +0000", "2025-08-17T10:30:00+00:00", "rfc2822"),
        ("Sun, 7 Aug 2025 10:30:00 +0000", "2025-08-07T10:30:00+00:00", "rfc2822"),
        ("Sun, 17 Aug 25 10:30:00 +0000", "2025-08-17T10:30:00+00:00", "rfc2822"),
        ("Sun, 17 Aug 75 10:30:00 +0000", "1975-08-17T10:30:00+00:00", "rfc2822"),
        ("Sun, 17 Aug 2025 10:30:00 +0000 (UTC)", "2025-08-17T10:30:00+00:00", "rfc2822"),
        ("Sun, 17 Aug 2025 10:30:00 GMT", "2025-08-17T10:30:00+00:00", "http_date"),
        ("sun, 17 aug 2025 10:30:00 gmt", "2025-08-17T10:30:00+00:00", "http_date"),
        ("Sunday, 17-Aug-25 10:30:00 GMT", "2025-08-17T10:30:00+00:00", "http_date"),
        ("Sun Aug 17 10:30:00 2025", "2025-08-17T10:30:00+00:00", "http_date"),
        ("Sun Aug  7 10:30:00 2025", "2025-08-07T10:30:00+00:00", "http_date"),
    ],
)
def test_rfc_2822_and_http_dates_are_absolute_instants(value, expected, source_format):
    parsed = parse_timestamp(value, VIENNA)
    assert parsed.instant.astimezone(UTC).isoformat() == expected
    assert (parsed.source_format, parsed.explicit_offset) == (source_format, True)


def test_rfc_2822_without_a_zone_is_read_in_the_source_zone():
    parsed = parse_timestamp("Sun, 17 Aug 2025 10:30:00", VIENNA)
    assert parsed.instant.isoformat() == "2025-08-17T10:30:00+02:00"
    assert (parsed.source_format, parsed.explicit_offset) == ("rfc2822", False)


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("", "it is empty"),
        ("   ", "it is empty"),
        ("garbage", "as a timestamp. Use ISO 8601"),
        ("2025-13-01", "month must be in 1..12"),
        ("2025-02-30", "day is out of range for month"),
        ("2025-00-10", "month must be in 1..12"),
        ("2025-08-17T25:00", "hour must be in 0..23"),
        ("25:00", "as a timestamp. Use ISO 8601"),
        ("10:30", "as a timestamp. Use ISO 8601"),
        ("2025-08-17T10:60", "minute must be in 0..59"),
        ("2025-08-17T23:59:60Z", "leap seconds"),
        ("2025-08-17T24:00", "hour 24 is not accepted"),
        ("2025-08-17T10.5", "fractions only on seconds"),
        ("2025-08-17T10:30.5", "fractions only on seconds"),
        ("2025-08-17X10:30", "as a timestamp. Use ISO 8601"),
        ("2025-08-17T10:30:00+24:00", "strictly between"),
        ("2025-08-17T10:30:00+05:3", "not ±HH:MM"),
        ("2025-08-17T10:30:00 +02:00", "as a timestamp. Use ISO 8601"),
        ("2025-08", "as a timestamp. Use ISO 8601"),
        ("2025-W54-1", "week must be in 1..52 for 2025"),
        ("2025-W33-8", "day of the week must be in 1..7"),
        ("2025-366", "day of year must be in 1..365"),
        ("2025-000", "day of year must be in 1..365"),
        ("1e9", "as a timestamp. Use ISO 8601"),
        ("nan", "as a timestamp. Use ISO 8601"),
        ("1_000", "as a timestamp. Use ISO 8601"),
        ("Sun, 17 Aug 2025 10:30:00 XYZ", "unknown zone name 'XYZ'"),
        ("Sun, 17 Aug 2025 10:30:00 A", "unknown zone name 'A'"),
        ("Foo, 17 Aug 2025 10:30:00 GMT", "'Foo' is not a day of the week"),
        ("Sun, 17 Foo 2025 10:30:00 GMT", "'Foo' is not a month name"),
        ("Sun, 31 Feb 2025 10:30:00 GMT", "day is out of range for month"),
        ("Sun, 17 Aug 2025 23:59:60 GMT", "leap seconds"),
        ("Sun, 17 Aug 2025 10:30:00 +2400", "strictly between"),
        ("Sun, 17 Aug 2025", "as a timestamp. Use ISO 8601"),
    ],
)
def test_unreadable_strings_are_invalid_timestamps_naming_the_accepted_forms(value, reason):
    with pytest.raises(InvalidTimestamp) as caught:
        parse_timestamp(value, VIENNA)
    message = caught.value.message
    assert reason in message
    assert "Use ISO 8601 like '2025-08-17T10:30:00Z'" in message
    assert "RFC 2822" in message and "HTTP date" in message
    assert type(caught.value) is InvalidTimestamp
    assert caught.value.kind == "invalid_timestamp"


def test_the_brief_example_message_reads_naturally():
    with pytest.raises(InvalidTimestamp) as caught:
        parse_timestamp("2025-13-01", VIENNA)
    assert caught.value.message.startswith("Could not read '2025-13-01' as a timestamp: month must be in 1..12. Use ")


def test_overlong_input_is_refused_before_parsing():
    with pytest.raises(InvalidTimestamp, match="101 characters long, the limit is 100"):
        parse_timestamp("1" * 101, VIENNA)


@pytest.mark.parametrize(
    ("value", "zone", "unit"),
    [
        ("0000-01-01", "UTC", "auto"),
        ("0000-12-31T23:59:59Z", "UTC", "auto"),
        ("10000-01-01", "UTC", "auto"),
        ("10000-01-01T00:00:00Z", "UTC", "auto"),
        ("-0001-01-01", "UTC", "auto"),
        ("0001-01-01T00:00:00+01:00", "UTC", "auto"),
        ("9999-12-31T23:59:59-01:00", "UTC", "auto"),
        ("0001-01-01T00:30", "Asia/Kathmandu", "auto"),
        ("0001-01-01", "Europe/Vienna", "auto"),
        ("9999-12-31T23:30", "America/New_York", "auto"),
        ("Sun, 17 Aug 0000 10:30:00 GMT", "UTC", "auto"),
        (253402300800, "UTC", "s"),
        ("-62135596801", "UTC", "s"),
        (253402300800000, "UTC", "ms"),
        (10**30, "UTC", "us"),
        (1e300, "UTC", "s"),
    ],
)
def test_instants_outside_years_1_to_9999_name_the_supported_range(value, zone, unit):
    with pytest.raises(InvalidTimestamp, match=r"is outside the supported range: years 1 to 9999\.") as caught:
        parse_timestamp(value, ZoneInfo(zone), unit=unit)
    assert caught.value.details == {"min": "0001-01-01T00:00:00Z", "max": "9999-12-31T23:59:59.999999Z"}


def test_unix_time_out_of_range_also_names_the_range_in_seconds():
    with pytest.raises(InvalidTimestamp) as caught:
        parse_timestamp(253402300800, ZoneInfo("UTC"), unit="s")
    assert caught.value.message == (
        "253402300800 is outside the supported range: years 1 to 9999. "
        "In Unix seconds that is -62135596800..253402300799."
    )


def test_naive_times_at_the_edges_stay_in_range_when_the_zone_allows():
    assert utc_text("0001-01-01T00:30", ZoneInfo("UTC")) == "0001-01-01T00:30:00+00:00"
    assert utc_text("9999-12-31T23:30", ZoneInfo("Asia/Kathmandu")) == "9999-12-31T17:45:00+00:00"


@pytest.mark.parametrize("value", [True, False, None, float("nan"), float("inf"), float("-inf"), b"1755426600", [1]])
def test_non_numbers_and_non_finite_floats_are_refused(value):
    with pytest.raises(InvalidTimestamp):
        parse_timestamp(value, VIENNA)


def test_an_unknown_unit_is_an_invalid_argument():
    with pytest.raises(InvalidArgument, match="auto, s, ms, us"):
        parse_timestamp(1, VIENNA, unit="ns")  # type: ignore[arg-type]


def test_an_unknown_disambiguation_is_an_invalid_argument():
    with pytest.raises(InvalidArgument, match="disambiguation"):
        parse_timestamp("2025-08-17", VIENNA, disambiguation="nearest")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2025-08-17", date(2025, 8, 17)),
        (" 2025-08-17 ", date(2025, 8, 17)),
        ("20250817", date(2025, 8, 17)),
        ("2025-W33-7", date(2025, 8, 17)),
        ("2025W337", date(2025, 8, 17)),
        ("2025-229", date(2025, 8, 17)),
        ("2025229", date(2025, 8, 17)),
        ("2024-02-29", date(2024, 2, 29)),
        ("0001-01-01", date(1, 1, 1)),
        ("9999-12-31", date(9999, 12, 31)),
    ],
)
def test_parse_date_reads_calendar_week_and_ordinal_dates(value, expected):
    assert parse_date(value) == expected


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("2025-13-01", "month must be in 1..12"),
        ("2025-02-29", "day is out of range for month"),
        ("2025-08-17T10:30", "ISO 8601 date"),
        ("", "it is empty"),
        ("yesterday", "ISO 8601 date"),
        ("0000-01-01", "years 1 to 9999"),
        ("10000-01-01", "years 1 to 9999"),
    ],
)
def test_parse_date_refuses_anything_but_a_date(value, reason):
    with pytest.raises(InvalidTimestamp, match=reason):
        parse_date(value)


def test_parse_date_names_the_date_form_after_the_reason():
    with pytest.raises(InvalidTimestamp) as caught:
        parse_date(" ")
    assert caught.value.message == "Could not read ' ' as a date: it is empty. Use an ISO 8601 date like '2025-08-17'."
    with pytest.raises(InvalidTimestamp) as caught:
        parse_date("2025-W54-1")
    assert caught.value.message == (
        "Could not read '2025-W54-1' as a date: week must be in 1..52 for 2025. Use an ISO 8601 date like '2025-08-17'."
    )


def test_a_week_date_reads_week_53_only_in_years_that_have_one():
    assert parse_date("2026-W53-7") == date(2027, 1, 3)
    with pytest.raises(InvalidTimestamp, match=r"week must be in 1\.\.52 for 2025"):
        parse_date("2025-W53-1")


def test_a_reason_and_the_accepted_forms_are_separate_sentences():
    with pytest.raises(InvalidTimestamp) as caught:
        parse_timestamp("2025-08-17T10:30:00+05:3", VIENNA)
    assert caught.value.message == (
        "Could not read '2025-08-17T10:30:00+05:3' as a timestamp: the UTC offset '+05:3' is not ±HH:MM. "
        "Use ISO 8601 like '2025-08-17T10:30:00Z', Unix seconds like 1755426600, RFC 2822 or an HTTP date."
    )


@settings(max_examples=200, deadline=None)
@given(near_transition())
def test_iso_output_parses_back_to_the_same_instant_near_transitions(instant):
    for fmt in ("iso8601", "rfc3339"):
        text = format_instant(instant, fmt)
        assert isinstance(text, str)
        assert parse_timestamp(text, ZoneInfo("UTC")).instant.astimezone(UTC) == instant.astimezone(UTC)


@settings(max_examples=200, deadline=None)
@given(near_transition())
def test_rfc_2822_and_http_output_parse_back_to_the_same_second(instant):
    expected = instant.replace(microsecond=0).astimezone(UTC)
    for fmt in ("rfc2822", "http"):
        text = format_instant(instant, fmt)
        assert isinstance(text, str)
        assert parse_timestamp(text, ZoneInfo("UTC")).instant.astimezone(UTC) == expected


@settings(max_examples=200, deadline=None)
@given(near_transition())
def test_a_wall_time_read_in_its_zone_offers_the_original_instant(instant):
    wall = instant.replace(tzinfo=None, fold=0).isoformat()
    policy = "later" if instant.fold else "earlier"
    parsed = parse_timestamp(wall, instant.tzinfo, disambiguation=policy)  # type: ignore[arg-type]
    assert parsed.instant.astimezone(UTC) == instant.astimezone(UTC)
    assert parsed.resolution is not None and parsed.resolution.status != "gap"


# --- RFC 850 two-digit years (RFC 9110 §5.6.7) ---------------------------------------------------------------

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("value", "year"),
    [
        ("Sunday, 06-Nov-94 08:49:37 GMT", 1994),
        ("Saturday, 01-May-76 12:00:00 GMT", 2076),  # exactly 50 years ahead: not more than 50
        ("Saturday, 01-May-76 12:00:01 GMT", 1976),  # one second more than 50 years ahead
        ("Monday, 01-Jun-76 00:00:00 GMT", 1976),
        ("Thursday, 01-Jan-70 00:00:00 GMT", 2070),
        ("Friday, 01-Jan-26 00:00:00 GMT", 2026),
        ("Friday, 31-Dec-99 23:59:59 GMT", 1999),
        ("Saturday, 01-Jan-00 00:00:00 GMT", 2000),
    ],
)
def test_rfc_850_years_more_than_50_years_ahead_are_the_most_recent_past_year(value: str, year: int) -> None:
    parsed = parse_timestamp(value, UTC, now=NOW)
    assert (parsed.instant.year, parsed.source_format) == (year, "http_date")


def test_rfc_850_years_look_back_a_century_from_a_late_clock_and_forward_from_an_early_one() -> None:
    late, early = datetime(2090, 1, 1, tzinfo=UTC), datetime(1950, 1, 1, tzinfo=UTC)
    assert parse_timestamp("Monday, 01-Jan-05 00:00:00 GMT", UTC, now=late).instant.year == 2105
    assert parse_timestamp("Monday, 01-Jan-05 00:00:00 GMT", UTC, now=early).instant.year == 1905
    assert parse_timestamp("Monday, 01-Jan-99 00:00:00 GMT", UTC, now=early).instant.year == 1999


def test_rfc_850_years_that_leave_the_calendar_are_refused() -> None:
    with pytest.raises(InvalidTimestamp, match=r"year must be in 1\.\.9999"):
        parse_timestamp("Monday, 01-Jan-99 00:00:00 GMT", UTC, now=datetime(20, 1, 1, tzinfo=UTC))


def test_without_a_clock_rfc_850_years_read_like_rfc_5322() -> None:
    assert parse_timestamp("Thursday, 01-Jan-70 00:00:00 GMT", UTC).instant.year == 1970
    assert parse_timestamp("Thursday, 01-Jan-49 00:00:00 GMT", UTC).instant.year == 2049


def test_rfc_2822_two_digit_years_keep_rfc_5322s_reading_whatever_the_clock() -> None:
    assert parse_timestamp("Thu, 01 Jan 70 00:00:00 +0000", UTC, now=NOW).instant.year == 1970
