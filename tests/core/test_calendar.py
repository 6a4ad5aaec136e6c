"""Holidays and business days against government-published dates."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from horologe.core.calendar import (
    add_business_days,
    count_business_days,
    holiday_calendar,
    holidays_in_year,
    language_tag,
    parse_weekend,
    written_as,
)
from horologe.core.errors import InvalidArgument

# OPM federal holidays 2025 (opm.gov/policy-data-oversight/pay-leave/federal-holidays).
US_FEDERAL_2025 = [
    "2025-01-01", "2025-01-20", "2025-02-17", "2025-05-26", "2025-06-19", "2025-07-04",
    "2025-09-01", "2025-10-13", "2025-11-11", "2025-11-27", "2025-12-25",
]  # fmt: skip
# Austrian statutory public holidays 2025 (Feiertagsruhegesetz; oesterreich.gv.at).
AUSTRIA_2025 = [
    "2025-01-01", "2025-01-06", "2025-04-21", "2025-05-01", "2025-05-29", "2025-06-09", "2025-06-19",
    "2025-08-15", "2025-10-26", "2025-11-01", "2025-12-08", "2025-12-25", "2025-12-26",
]  # fmt: skip
# Bank holidays in England and Wales 2025 (gov.uk/bank-holidays).
ENGLAND_2025 = [
    "2025-01-01", "2025-04-18", "2025-04-21", "2025-05-05", "2025-05-26", "2025-08-25", "2025-12-25", "2025-12-26",
]  # fmt: skip


@pytest.mark.parametrize(
    ("country", "subdivision", "expected"),
    [("US", None, US_FEDERAL_2025), ("at", None, AUSTRIA_2025), ("GB", "eng", ENGLAND_2025)],
)
def test_holidays_of_2025_match_the_governments_lists(
    country: str, subdivision: str | None, expected: list[str]
) -> None:
    calendar = holiday_calendar(country, subdivision)
    assert [hit.day.isoformat() for hit in holidays_in_year(calendar, 2025)] == expected


def test_holiday_names_come_in_the_requested_language_when_available() -> None:
    calendar = holiday_calendar("AT", language="de")
    assert holidays_in_year(calendar, 2025)[0].names == ("Neujahr",)
    assert holiday_calendar("AT").language == "en_US"
    assert holiday_calendar("AT", language="xx").language == "en_US"


def test_a_chinese_variant_is_matched_by_script_before_any_other_variant() -> None:
    assert holiday_calendar("CN", language="zh-Hant").language == "zh_TW"
    assert holiday_calendar("HK", language="zh-TW").language == "zh_HK"
    assert holiday_calendar("MO", language="zh").language == "zh_CN"  # bare 'zh' is written in Simplified
    assert holiday_calendar("RU", language="zh-TW").language == "zh_CN"  # another script only when none matches


@pytest.mark.parametrize(
    ("tag", "written", "reported"),
    [
        ("zh_TW", ("zh", "Hant"), "zh-Hant-TW"),
        ("zh_HK", ("zh", "Hant"), "zh-Hant-HK"),
        ("zh_CN", ("zh", "Hans"), "zh-Hans-CN"),
        ("zh-hans", ("zh", "Hans"), "zh-hans"),
        ("en_US", ("en", "Latn"), "en-US"),
        ("th", ("th", "Thai"), "th"),
        ("qaa", ("qaa", None), "qaa"),  # a private-use language CLDR knows nothing of
    ],
)
def test_a_language_tag_says_its_script_where_the_language_has_several(
    tag: str, written: tuple[str, str | None], reported: str
) -> None:
    assert (written_as(tag), language_tag(tag)) == (written, reported)


def test_an_unknown_country_is_refused_with_suggestions() -> None:
    with pytest.raises(InvalidArgument) as caught:
        holiday_calendar("Austrai")
    assert "AT" in caught.value.suggestions
    assert "ISO 3166-1" in caught.value.message


def test_an_unknown_subdivision_lists_the_valid_ones() -> None:
    with pytest.raises(InvalidArgument) as caught:
        holiday_calendar("US", "Californa")
    assert caught.value.suggestions[0] == "CA"
    assert "NY" in caught.value.message


def test_an_unknown_country_message_suggests_codes_and_the_accepted_form() -> None:
    with pytest.raises(InvalidArgument) as caught:
        holiday_calendar("Austrai")
    assert caught.value.message.startswith(
        "No public holiday data for country 'Austrai'. Did you mean AU, AT? Use an ISO 3166-1 alpha-2 code such as "
        "'US', 'AT' or 'GB' ("
    )


def test_a_subdivision_of_a_country_without_any_says_there_are_none() -> None:
    with pytest.raises(InvalidArgument) as caught:
        holiday_calendar("IS", "Reykjavik")
    assert caught.value.message == "Unknown subdivision 'Reykjavik' for IS. IS has no subdivisions."
    assert caught.value.suggestions == ()


def test_alpha_3_codes_aliases_and_english_names_are_accepted_as_the_alpha_2_code() -> None:
    assert holiday_calendar("AUT").country == "AT"
    assert holiday_calendar("UK").country == "GB"
    assert holiday_calendar("Austria").country == "AT"


def test_a_subdivision_name_alias_is_accepted() -> None:
    assert holiday_calendar("GB", "England").subdivision == "ENG"


NAMED = {"DE": (("BY", "Bayern", ("bayern", "bavaria", "baviere", "バイエルン", "巴伐利亚", "бавария")),
                ("BE", "Berlin", ("berlin",)), ("BB", "Brandenburg", ("brandenburg",)))}  # fmt: skip


def names(country: str) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    return NAMED.get(country, ())


@pytest.mark.parametrize("text", ["Bavaria", "Bayern", "Bavière", "バイエルン", "巴伐利亚", "Бавария", "by", " BY "])
def test_a_subdivision_is_taken_by_name_in_many_languages(text: str) -> None:
    assert holiday_calendar("DE", text, names=names).subdivision == "BY"


def test_subdivision_suggestions_are_the_nearest_by_spelling_first() -> None:
    with pytest.raises(InvalidArgument) as caught:
        holiday_calendar("DE", "Bavria", names=names)
    assert caught.value.suggestions[0] == "BY"
    assert "Did you mean BY (Bayern)" in caught.value.message


def test_a_name_like_no_subdivision_suggests_none_and_lists_them_all() -> None:
    with pytest.raises(InvalidArgument) as caught:
        holiday_calendar("DE", "Qwxz", names=names)
    assert caught.value.suggestions == ()
    assert "Known subdivisions: BB, BE, BW, BY" in caught.value.message


def test_us_business_days_in_2025_are_weekdays_minus_eleven_holidays() -> None:
    counted, hits = count_business_days(holiday_calendar("US"), date(2025, 1, 1), date(2026, 1, 1))
    assert counted == 261 - 11
    assert len([hit for hit in hits if not hit.on_weekend]) == 11


def test_counting_is_half_open_and_signed() -> None:
    calendar = holiday_calendar("AT")
    monday, friday = date(2025, 3, 3), date(2025, 3, 7)
    assert count_business_days(calendar, monday, friday)[0] == 4
    assert count_business_days(calendar, monday, friday, include_end=True)[0] == 5
    assert count_business_days(calendar, friday, monday)[0] == -4


def test_adding_business_days_skips_christmas_in_austria() -> None:
    reached, hits = add_business_days(holiday_calendar("AT"), date(2025, 12, 23), 3)
    assert reached == date(2025, 12, 30)
    assert [hit.day for hit in hits] == [date(2025, 12, 25), date(2025, 12, 26)]


def test_zero_business_days_rolls_a_weekend_forward() -> None:
    assert add_business_days(holiday_calendar("US"), date(2025, 3, 8), 0)[0] == date(2025, 3, 10)
    assert add_business_days(holiday_calendar("US"), date(2025, 3, 10), -1)[0] == date(2025, 3, 7)


def test_a_friday_saturday_weekend_is_honoured() -> None:
    calendar = holiday_calendar("US", weekend=parse_weekend(["fri", "sat"]))
    assert add_business_days(calendar, date(2025, 3, 6), 1)[0] == date(2025, 3, 9)


def test_the_package_weekend_is_the_default() -> None:
    assert holiday_calendar("SA").weekend == frozenset({4, 5})


@pytest.mark.parametrize("days", [["funday"], ["x"], ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]])
def test_bad_weekends_are_refused(days: list[str]) -> None:
    with pytest.raises(InvalidArgument):
        parse_weekend(days)


def test_huge_counts_and_ranges_are_refused_quickly() -> None:
    calendar = holiday_calendar("US")
    with pytest.raises(InvalidArgument):
        add_business_days(calendar, date(2025, 1, 1), 10**9)
    with pytest.raises(InvalidArgument):
        add_business_days(calendar, date(9999, 12, 1), 100)
    with pytest.raises(InvalidArgument):
        count_business_days(calendar, date(1, 1, 1), date(9999, 12, 31))


def test_years_1_and_9999_can_be_listed_and_others_cannot() -> None:
    calendar = holiday_calendar("US")
    assert isinstance(holidays_in_year(calendar, 1), list)
    assert isinstance(holidays_in_year(calendar, 9999), list)
    with pytest.raises(InvalidArgument):
        holidays_in_year(calendar, 10000)


@settings(max_examples=60, deadline=None)
@given(
    start=st.dates(min_value=date(2020, 1, 1), max_value=date(2030, 12, 31)),
    first=st.integers(min_value=0, max_value=400),
    second=st.integers(min_value=0, max_value=400),
    backwards=st.booleans(),
)
def test_business_day_counts_add_up_over_adjacent_ranges_walked_one_way(
    start: date, first: int, second: int, backwards: bool
) -> None:
    calendar = holiday_calendar("AT", extra={date(2025, 7, 1): "Company day"})
    step = -1 if backwards else 1
    middle, end = start + timedelta(days=step * first), start + timedelta(days=step * (first + second))
    left = count_business_days(calendar, start, middle)[0]
    right = count_business_days(calendar, middle, end)[0]
    assert left + right == count_business_days(calendar, start, end)[0]


@settings(max_examples=120, deadline=None)
@given(
    start=st.dates(min_value=date(2024, 12, 1), max_value=date(2026, 1, 31)),
    span=st.integers(min_value=-30, max_value=30),
    include_end=st.booleans(),
)
def test_business_day_count_is_the_signed_walk_from_start_to_end(start: date, span: int, include_end: bool) -> None:
    # The schema's definition: start counted, end counted only with include_end, negative when end < start.
    calendar = holiday_calendar("AT")
    end = start + timedelta(days=span)
    step = 1 if span >= 0 else -1
    walked = [start + timedelta(days=step * offset) for offset in range(abs(span) + (1 if include_end else 0))]
    expected = step * sum(1 for day in walked if calendar.is_business_day(day))
    assert count_business_days(calendar, start, end, include_end=include_end)[0] == expected


def test_a_reversed_range_counts_its_start_and_its_end_only_when_asked() -> None:
    calendar = holiday_calendar("AT")
    friday, monday = date(2025, 3, 7), date(2025, 3, 3)
    assert count_business_days(calendar, friday, monday)[0] == -4  # Fri, Thu, Wed, Tue
    assert count_business_days(calendar, friday, monday, include_end=True)[0] == -5
    saturday = date(2025, 3, 8)
    assert count_business_days(calendar, saturday, monday, include_end=True)[0] == -5
    assert count_business_days(calendar, saturday, monday)[0] == -4
    assert count_business_days(calendar, monday, monday, include_end=True)[0] == 1
    assert count_business_days(calendar, monday, monday)[0] == 0
