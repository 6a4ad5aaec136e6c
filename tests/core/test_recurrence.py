"""RRULE and cron expansion on the wall clock, checked against RFC 5545 §3.8.5.3 examples."""

from __future__ import annotations

import time as clock
from datetime import UTC, datetime
from itertools import islice

import pytest

from horologe.core import tzdb
from horologe.core.budget import Budget
from horologe.core.errors import InvalidArgument, OutOfTime
from horologe.core.localtime import Disambiguation
from horologe.core.recurrence import expand, parse_rule

NEW_YORK = tzdb.get_zone("America/New_York")
SEPT_1997 = datetime(1997, 9, 1, tzinfo=UTC)


def local_times(
    rule: str, after: datetime = SEPT_1997, count: int = 30, policy: Disambiguation = "compatible"
) -> list[str]:
    occurrences = expand(parse_rule(rule), NEW_YORK, after, policy=policy)
    return [o.resolution.instant.astimezone(NEW_YORK).isoformat() for o in islice(occurrences, count)]


def test_daily_for_10_occurrences() -> None:
    got = local_times("DTSTART;TZID=America/New_York:19970902T090000\nRRULE:FREQ=DAILY;COUNT=10")
    assert got == [f"1997-09-{day:02d}T09:00:00-04:00" for day in range(2, 12)]


def test_weekly_on_tuesday_and_thursday_for_five_weeks() -> None:
    got = local_times("DTSTART;TZID=America/New_York:19970902T090000\nRRULE:FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH")
    days = ["09-02", "09-04", "09-09", "09-11", "09-16", "09-18", "09-23", "09-25", "09-30", "10-02"]
    assert got == [f"1997-{day}T09:00:00-04:00" for day in days]


def test_weekly_until_in_utc_gives_the_same_five_weeks() -> None:
    rule = "DTSTART;TZID=America/New_York:19970902T090000\nRRULE:FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH"
    assert len(local_times(rule)) == 10


def test_monthly_on_the_first_friday_keeps_nine_across_the_october_change() -> None:
    got = local_times("DTSTART;TZID=America/New_York:19970905T090000\nRRULE:FREQ=MONTHLY;COUNT=10;BYDAY=1FR")
    assert got == [
        "1997-09-05T09:00:00-04:00", "1997-10-03T09:00:00-04:00", "1997-11-07T09:00:00-05:00",
        "1997-12-05T09:00:00-05:00", "1998-01-02T09:00:00-05:00", "1998-02-06T09:00:00-05:00",
        "1998-03-06T09:00:00-05:00", "1998-04-03T09:00:00-05:00", "1998-05-01T09:00:00-04:00",
        "1998-06-05T09:00:00-04:00",
    ]  # fmt: skip


def test_daily_across_1997_10_26_stays_at_nine_local() -> None:
    got = local_times("DTSTART;TZID=America/New_York:19971024T090000\nRRULE:FREQ=DAILY;COUNT=4")
    assert got == [
        "1997-10-24T09:00:00-04:00", "1997-10-25T09:00:00-04:00",
        "1997-10-26T09:00:00-05:00", "1997-10-27T09:00:00-05:00",
    ]  # fmt: skip


def test_exdate_removes_and_rdate_adds_occurrences() -> None:
    rule = (
        "DTSTART;TZID=America/New_York:19970902T090000\nRRULE:FREQ=DAILY;COUNT=3\n"
        "EXDATE;TZID=America/New_York:19970903T090000\nRDATE:19970910T130000Z"
    )
    assert local_times(rule) == ["1997-09-02T09:00:00-04:00", "1997-09-04T09:00:00-04:00", "1997-09-10T09:00:00-04:00"]


def test_listing_starts_at_the_requested_instant() -> None:
    rule = "DTSTART;TZID=America/New_York:19970902T090000\nRRULE:FREQ=DAILY"
    assert local_times(rule, after=datetime(1997, 9, 20, 14, tzinfo=UTC), count=1) == ["1997-09-21T09:00:00-04:00"]


def test_a_gap_occurrence_is_moved_forward_and_flagged() -> None:
    occurrences = list(
        islice(expand(parse_rule("FREQ=DAILY;BYHOUR=2;BYMINUTE=30"), NEW_YORK, datetime(2026, 3, 7, tzinfo=UTC)), 3)
    )
    gap = occurrences[1]
    assert gap.wall.isoformat() == "2026-03-08T02:30:00"
    assert gap.resolution.status == "gap"
    assert gap.resolution.instant.isoformat() == "2026-03-08T03:30:00-04:00"
    assert [o.resolution.status for o in occurrences] == ["unique", "gap", "unique"]


def test_a_fold_occurrence_follows_the_policy_and_is_flagged() -> None:
    got = local_times(
        "FREQ=DAILY;BYHOUR=1;BYMINUTE=30", after=datetime(2026, 11, 1, tzinfo=UTC), count=1, policy="later"
    )
    assert got == ["2026-11-01T01:30:00-05:00"]


def test_cron_mondays_at_nine_stay_at_nine_across_dst() -> None:
    got = local_times("0 9 * * MON", after=datetime(2026, 3, 1, tzinfo=UTC), count=3)
    assert got == ["2026-03-02T09:00:00-05:00", "2026-03-09T09:00:00-04:00", "2026-03-16T09:00:00-04:00"]


def test_cron_that_never_matches_ends_without_occurrences() -> None:
    assert local_times("0 0 30 2 *", after=datetime(2026, 1, 1, tzinfo=UTC)) == []


@pytest.mark.parametrize(
    "rule",
    [
        "",
        "FREQ=BOGUS",
        "61 * * * *",
        "hello",
        "X-FOO:bar",
        "DTSTART:99999999T000000\nRRULE:FREQ=DAILY",
        "FREQ=DAILY;" + "BYHOUR=1;" * 200,
        "FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30",
    ],
)
def test_invalid_rules_are_refused_quickly_with_examples(rule: str) -> None:
    started = clock.perf_counter()
    with pytest.raises(InvalidArgument) as caught:
        list(islice(expand(parse_rule(rule), NEW_YORK, datetime(2026, 1, 1, tzinfo=UTC)), 5))
    assert clock.perf_counter() - started < 10  # a hang guard (refusals take milliseconds), not a speed target
    assert caught.value.suggestions


@pytest.mark.parametrize(
    ("rule", "reason"),
    [
        ("DTSTART:20250230T090000\nRRULE:FREQ=DAILY", "'20250230T090000': day is out of range for month."),
        ("DTSTART:20251301T090000\nRRULE:FREQ=DAILY", "'20251301T090000': month must be in 1..12."),
        ("DTSTART:20250101T250000\nRRULE:FREQ=DAILY", "'20250101T250000': hour must be in 0..23."),
        ("RRULE:FREQ=DAILY\nRDATE:2025010", "'2025010' is not a date-time such as 19970902T090000 or 1997"),
        ("RRULE:FREQ=DAILY\nX-FOO:bar", "X-FOO is not supported (use DTSTART, RRULE, RDATE, EXDATE)."),
        ("FREQ=BOGUS", "it is not a valid RFC 5545 rule ("),
        ("61 * * * *", "it is not a valid cron expression ("),
    ],
)
def test_invalid_rules_say_why(rule: str, reason: str) -> None:
    with pytest.raises(InvalidArgument) as caught:
        list(islice(expand(parse_rule(rule), NEW_YORK, datetime(2026, 1, 1, tzinfo=UTC)), 5))
    assert caught.value.message.startswith("Cannot read the recurrence rule ")
    assert reason in caught.value.message
    assert caught.value.message.endswith(
        "Write an RFC 5545 RRULE such as 'FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=9;BYMINUTE=0' (optionally with DTSTART:, "
        "RDATE: and EXDATE: lines) or a cron expression such as '0 9 * * MON-FRI'."
    )


def test_a_far_away_dtstart_with_a_fine_rule_is_refused_instead_of_hanging() -> None:
    with pytest.raises(InvalidArgument, match="DTSTART"):
        local_times("DTSTART:19970902T090000\nRRULE:FREQ=MINUTELY", after=datetime(2026, 1, 1, tzinfo=UTC), count=1)


def test_dtstart_tzid_is_reported() -> None:
    rule = parse_rule("DTSTART;TZID=Europe/Vienna:20260101T090000\nRRULE:FREQ=DAILY")
    assert (rule.kind, rule.tzid) == ("rrule", "Europe/Vienna")
    assert parse_rule("*/5 * * * *").kind == "cron"


@pytest.mark.parametrize(
    "after", [datetime(2026, 11, 22, 3, 11, 30, tzinfo=UTC), datetime(2026, 11, 22, 23, 59, 59, 999999, tzinfo=UTC)]
)
def test_without_dtstart_unset_hours_minutes_and_seconds_are_zero_not_the_clocks(after: datetime) -> None:
    # RFC 5545 §3.3.10 takes what BYHOUR/BYMINUTE/BYSECOND leave open from DTSTART: midnight when there is none.
    weekly = expand(parse_rule("FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=9;BYMINUTE=0"), UTC, after)
    assert [o.wall.isoformat() for o in islice(weekly, 2)] == ["2026-11-23T09:00:00", "2026-11-25T09:00:00"]
    daily = expand(parse_rule("FREQ=DAILY;BYHOUR=9"), UTC, after)
    assert next(daily).wall.time().isoformat() == "09:00:00"
    quarterly = expand(parse_rule("FREQ=MINUTELY;INTERVAL=15"), UTC, after)
    assert next(quarterly).wall.minute % 15 == 0 and next(quarterly).wall.second == 0


def stops_after(checks: int) -> Budget:
    """A budget whose caller says time is up at its `checks`-th question (no clock: the core reads none)."""
    asked = iter(range(checks))
    return Budget(lambda: next(asked, None) is None, seconds=1.5, every=1)


def test_an_exrule_equal_to_its_rrule_ends_at_the_budget_saying_what_to_narrow() -> None:
    rule = parse_rule("RRULE:FREQ=SECONDLY\nEXRULE:FREQ=SECONDLY")
    with pytest.raises(OutOfTime) as caught:
        list(islice(expand(rule, UTC, datetime(2026, 1, 1, tzinfo=UTC), budget=stops_after(5000)), 10))
    assert caught.value.message == (
        "This call needed more computation than the server allows for one call (1.5 s) and was stopped. "
        "Ask for fewer occurrences, move DTSTART closer to the start, or use a rule that matches more often."
    )
    assert caught.value.details == {"budget_seconds": 1.5}


def test_every_wall_time_a_rule_produces_is_a_step_of_the_budget() -> None:
    counted = Budget(every=1)
    list(islice(expand(parse_rule("FREQ=DAILY"), UTC, datetime(2026, 1, 1, tzinfo=UTC), budget=counted), 10))
    with pytest.raises(OutOfTime):  # ten occurrences cannot be had in five steps
        list(islice(expand(parse_rule("FREQ=DAILY"), UTC, datetime(2026, 1, 1, tzinfo=UTC), budget=stops_after(5)), 10))


@pytest.mark.parametrize(
    ("rule", "reason"),
    [
        ("FREQ=SECONDLY;BYSETPOS=366", "BYSETPOS asks for position 366 in a period that holds at most 1 candidates"),
        ("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=6", "BYSETPOS asks for position 6 in a period that holds at most 5"),
        ("FREQ=WEEKLY;BYDAY=MO,TU;BYSETPOS=-3", "BYSETPOS asks for position 3 in a period that holds at most 2"),
        ("FREQ=DAILY;BYHOUR=9,17;BYSETPOS=3", "BYSETPOS asks for position 3 in a period that holds at most 2"),
        ("FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30", "its BYMONTH/BYMONTHDAY/BYYEARDAY parts never match a real date"),
        ("FREQ=YEARLY;BYYEARDAY=367", "never match a real date"),
        ("FREQ=DAILY;BYSETPOS=0", "it is not a valid RFC 5545 rule ("),
        ("RRULE:FREQ=DAILY\nEXRULE:FREQ=MINUTELY;BYMONTH=4;BYMONTHDAY=31", "never match a real date"),
        (
            "DTSTART:20260105T000001\nRRULE:FREQ=SECONDLY;INTERVAL=7;BYSECOND=0;BYMINUTE=0;BYHOUR=0;BYDAY=MO",
            "counted from DTSTART in steps of INTERVAL=7, it never reaches the times its BY parts allow",
        ),
        ("DTSTART:20260105T000100\nRRULE:FREQ=MINUTELY;INTERVAL=7;BYMINUTE=0;BYHOUR=0;BYDAY=MO", "INTERVAL=7, it"),
        ("DTSTART:20260105T010000\nRRULE:FREQ=HOURLY;INTERVAL=168;BYDAY=TU", "INTERVAL=168, it never reaches"),
    ],
)
def test_rules_that_can_never_produce_an_occurrence_are_refused_at_once(rule: str, reason: str) -> None:
    with pytest.raises(InvalidArgument) as caught:
        list(islice(expand(parse_rule(rule), UTC, datetime(2026, 1, 1, tzinfo=UTC), budget=stops_after(100)), 5))
    assert reason in caught.value.message


def test_bysetpos_within_the_period_still_works() -> None:
    got = local_times(
        "DTSTART;TZID=America/New_York:19970904T090000\nRRULE:FREQ=MONTHLY;BYDAY=TU,WE,TH;BYSETPOS=3;COUNT=3"
    )
    assert got == ["1997-09-04T09:00:00-04:00", "1997-10-07T09:00:00-04:00", "1997-11-06T09:00:00-05:00"]


@pytest.mark.parametrize(
    "rule",
    [
        "FREQ=DAILY;BYMONTHDAY=29;BYMONTH=2;BYDAY=MO",
        "FREQ=DAILY;BYMONTH=2",
        "FREQ=DAILY;BYMONTH=2,3;BYHOUR=8,20",
        "FREQ=DAILY;BYYEARDAY=1,-1;COUNT=5",
        "FREQ=DAILY;BYWEEKNO=1;BYDAY=MO,FR",
    ],
)
def test_a_daily_rule_with_date_filters_gives_dateutils_daily_occurrences(rule: str) -> None:
    from dateutil.rrule import rrulestr

    start = datetime(2026, 1, 1)
    expected = [wall.isoformat() for wall in islice(rrulestr(rule, dtstart=start), 40)]
    got = [o.wall.isoformat() for o in islice(expand(parse_rule(rule), UTC, start.replace(tzinfo=UTC)), 40)]
    assert got == expected


def test_rdate_exdate_and_exrule_merge_in_order_once_each() -> None:
    rule = (
        "DTSTART:20260105T090000Z\nRRULE:FREQ=DAILY;COUNT=6\nRDATE:20260105T090000Z,20260104T120000Z\n"
        "EXDATE:20260107T090000Z\nEXRULE:FREQ=WEEKLY;BYDAY=FR"
    )
    got = [o.wall.isoformat() for o in expand(parse_rule(rule), UTC, datetime(2026, 1, 1, tzinfo=UTC))]
    assert got == [
        "2026-01-04T12:00:00",
        "2026-01-05T09:00:00",
        "2026-01-06T09:00:00",
        "2026-01-08T09:00:00",
        "2026-01-10T09:00:00",
    ]


def test_a_series_that_runs_into_year_9999_ends_there() -> None:
    rule = parse_rule("DTSTART:99991231T000000\nRRULE:FREQ=HOURLY")
    got = list(expand(rule, UTC, datetime(9999, 12, 31, 20, tzinfo=UTC)))
    assert [o.wall.hour for o in got] == [20, 21, 22, 23]


@pytest.mark.parametrize(
    ("rule", "first"),
    [
        ("DTSTART:20260105T000000\nRRULE:FREQ=SECONDLY;INTERVAL=7;BYSECOND=0;BYMINUTE=0;BYHOUR=0;BYDAY=MO", "01-05"),
        ("DTSTART:20260105T000000\nRRULE:FREQ=MINUTELY;INTERVAL=7;BYMINUTE=0;BYHOUR=0;BYDAY=MO", "01-05"),
        ("DTSTART:20260105T010000\nRRULE:FREQ=HOURLY;INTERVAL=14;BYHOUR=3", "01-09"),
        ("DTSTART:20260105T000000\nRRULE:FREQ=MINUTELY;INTERVAL=15;BYSECOND=10,20", "01-05"),
    ],
)
def test_sub_daily_steps_that_reach_their_by_parts_are_expanded(rule: str, first: str) -> None:
    occurrences = expand(parse_rule(rule), UTC, datetime(2026, 1, 1, tzinfo=UTC), budget=stops_after(10_000))
    assert next(occurrences).wall.isoformat()[5:10] == first
