"""Resolving typed timezone input, listing zones and completing zone names."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from horologe.core import tzdb, zones
from horologe.core.errors import AmbiguousTimezone, InvalidArgument, InvalidTimezone
from horologe.core.gazetteer import fold
from horologe.core.zones import resolve_zone, search_zones, suggest_zones

# --- IANA names, aliases and case ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "kind", "canonical"),
    [
        ("Europe/Vienna", "Europe/Vienna", "iana", "Europe/Vienna"),
        ("  Europe/Vienna  ", "Europe/Vienna", "iana", "Europe/Vienna"),
        ("europe/vienna", "Europe/Vienna", "case_insensitive", "Europe/Vienna"),
        ("AMERICA/NEW_YORK", "America/New_York", "case_insensitive", "America/New_York"),
        ("America/Sao Paulo", "America/Sao_Paulo", "case_insensitive", "America/Sao_Paulo"),
        ("america/são_paulo", "America/Sao_Paulo", "case_insensitive", "America/Sao_Paulo"),
        # a legacy link answers with the zone it names; Europe/Stockholm, Sweden's own name, stays
        ("US/Eastern", "America/New_York", "alias", "America/New_York"),
        ("us/eastern", "America/New_York", "case_insensitive", "America/New_York"),
        ("Asia/Calcutta", "Asia/Kolkata", "alias", "Asia/Kolkata"),
        ("Japan", "Asia/Tokyo", "alias", "Asia/Tokyo"),
        ("Singapore", "Asia/Singapore", "alias", "Asia/Singapore"),
        ("Australia/Queensland", "Australia/Brisbane", "alias", "Australia/Brisbane"),
        ("Europe/Stockholm", "Europe/Stockholm", "alias", "Europe/Berlin"),
        ("Etc/GMT+3", "Etc/GMT+3", "iana", "Etc/GMT+3"),
        ("etc/gmt-14", "Etc/GMT-14", "case_insensitive", "Etc/GMT-14"),
        ("EST", "America/Panama", "alias", "America/Panama"),
        ("CET", "Europe/Brussels", "alias", "Europe/Brussels"),
    ],
)
def test_iana_names_resolve_exactly_or_ignoring_case(text: str, key: str, kind: str, canonical: str) -> None:
    resolved = resolve_zone(text, source="database")
    assert (resolved.key, resolved.kind, resolved.canonical, resolved.input) == (key, kind, canonical, text.strip())
    assert resolved.tz is tzdb.get_zone(key)


def test_posix_style_etc_names_keep_their_inverted_iana_meaning() -> None:
    zone = resolve_zone("Etc/GMT+3").tz
    assert datetime(2026, 1, 1, tzinfo=zone).utcoffset() == timedelta(hours=-3)


# --- UTC and fixed offsets -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["UTC", "utc", "Z", "z", "Etc/UTC", "etc/utc", "Zulu", "UCT", "Universal", "UT", "+00:00", "-00:00", "UTC+0",
     "+0"],
)  # fmt: skip
def test_utc_spellings_and_zero_offsets_resolve_to_utc(text: str) -> None:
    resolved = resolve_zone(text)
    assert (resolved.key, resolved.kind, resolved.canonical, resolved.tz) == ("UTC", "utc", "Etc/UTC", UTC)


@pytest.mark.parametrize("text", ["GMT", "gmt", "Etc/GMT", "GMT0", "Greenwich", "GMT-0"])
def test_gmt_names_keep_the_database_zone_etc_gmt_and_its_abbreviation(text: str) -> None:
    resolved = resolve_zone(text)
    assert (resolved.key, resolved.canonical) == ("Etc/GMT", "Etc/GMT")
    assert datetime(2026, 7, 1, tzinfo=resolved.tz).tzname() == "GMT"


@pytest.mark.parametrize(
    ("text", "label", "offset"),
    [
        ("+05:30", "+05:30", timedelta(hours=5, minutes=30)),
        ("+0530", "+05:30", timedelta(hours=5, minutes=30)),
        ("+05", "+05:00", timedelta(hours=5)),
        ("-3", "-03:00", timedelta(hours=-3)),
        ("UTC+2", "+02:00", timedelta(hours=2)),
        ("utc+2", "+02:00", timedelta(hours=2)),
        ("UTC-03:30", "-03:30", timedelta(hours=-3, minutes=-30)),
        ("GMT-3", "-03:00", timedelta(hours=-3)),
        ("GMT+5:45", "+05:45", timedelta(hours=5, minutes=45)),
        ("UTC +2", "+02:00", timedelta(hours=2)),
        ("UTC + 02:00", "+02:00", timedelta(hours=2)),
        ("\u221205:00", "-05:00", timedelta(hours=-5)),
        ("+14:00", "+14:00", timedelta(hours=14)),
        ("-14", "-14:00", timedelta(hours=-14)),
        ("+00:19:32", "+00:19:32", timedelta(minutes=19, seconds=32)),
    ],
)
def test_utc_offsets_resolve_to_fixed_zones_with_normalized_labels(text: str, label: str, offset: timedelta) -> None:
    resolved = resolve_zone(text)
    assert (resolved.key, resolved.kind, resolved.canonical) == (label, "fixed_offset", None)
    assert resolved.tz == timezone(offset)
    assert isinstance(resolved.tz, timezone)


@pytest.mark.parametrize("text", ["+14:30", "-15", "UTC+24", "+99:00", "+05:60", "+5:3", "+123456789", "GMT+", "+"])
def test_offsets_out_of_range_or_malformed_are_rejected_with_the_valid_form(text: str) -> None:
    with pytest.raises(InvalidTimezone, match=r"between -14:00 and \+14:00") as caught:
        resolve_zone(text)
    assert "+05:30" in caught.value.suggestions


# --- abbreviations -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "canonical"),
    [
        ("PST", "America/Los_Angeles", "America/Los_Angeles"),
        ("pdt", "America/Los_Angeles", "America/Los_Angeles"),
        ("EDT", "America/New_York", "America/New_York"),
        ("JST", "Asia/Tokyo", "Asia/Tokyo"),
        ("AEST", "Australia/Sydney", "Australia/Sydney"),
        ("NPT", "Asia/Kathmandu", "Asia/Kathmandu"),
        ("CEST", "Europe/Brussels", "Europe/Brussels"),
        ("MSK", "Europe/Moscow", "Europe/Moscow"),
    ],
)
def test_unambiguous_abbreviations_resolve_to_their_zone(text: str, key: str, canonical: str) -> None:
    resolved = resolve_zone(text)
    assert (resolved.key, resolved.kind, resolved.canonical) == (key, "abbreviation", canonical)


@pytest.mark.parametrize(
    ("text", "candidates"),
    [
        ("IST", ("Asia/Kolkata", "Europe/Dublin", "Asia/Jerusalem")),
        ("ist", ("Asia/Kolkata", "Europe/Dublin", "Asia/Jerusalem")),
        ("CST", ("America/Chicago", "Asia/Shanghai", "America/Havana")),
        ("BST", ("Europe/London", "Asia/Dhaka")),
        ("AST", ("America/Halifax", "America/Puerto_Rico", "Asia/Riyadh")),
    ],
)
def test_ambiguous_abbreviations_list_their_candidates(text: str, candidates: tuple[str, ...]) -> None:
    with pytest.raises(AmbiguousTimezone) as caught:
        resolve_zone(text)
    assert caught.value.suggestions == candidates
    assert all(name in caught.value.message for name in candidates)
    assert caught.value.kind == "ambiguous_timezone"


def test_an_ambiguous_abbreviation_message_lists_the_candidates_quoted() -> None:
    with pytest.raises(AmbiguousTimezone) as caught:
        resolve_zone("IST")
    assert caught.value.message == (
        "Abbreviation 'IST' is ambiguous: it can mean 'Asia/Kolkata', 'Europe/Dublin', 'Asia/Jerusalem'. "
        "Use the IANA name of the one you mean."
    )


@pytest.mark.parametrize(
    ("text", "hint", "key"),
    [
        ("IST", "IN", "Asia/Kolkata"),
        ("IST", "ie", "Europe/Dublin"),
        ("IST", "Israel", "Asia/Jerusalem"),
        ("CST", "China", "Asia/Shanghai"),
        ("CST", "US", "America/Chicago"),
        ("BST", "GB", "Europe/London"),
        ("Eastern", "CA", "America/Toronto"),
    ],
)
def test_a_country_hint_picks_one_of_several_candidates(text: str, hint: str, key: str) -> None:
    assert resolve_zone(text, country_hint=hint).key == key


@pytest.mark.parametrize("hint", ["FR", "Atlantis", ""])
def test_a_hint_that_picks_nothing_leaves_the_ambiguity(hint: str) -> None:
    with pytest.raises(AmbiguousTimezone):
        resolve_zone("IST", country_hint=hint)


WINTER = datetime(2026, 1, 15, 12, tzinfo=UTC)
SUMMER = datetime(2026, 7, 15, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "zone", "winter", "summer"),
    [
        ("EST", "America/New_York", ("-05:00", "EST"), ("-04:00", "EDT")),
        ("EDT", "America/New_York", ("-05:00", "EST"), ("-04:00", "EDT")),
        ("est", "America/New_York", ("-05:00", "EST"), ("-04:00", "EDT")),
        ("PST", "America/Los_Angeles", ("-08:00", "PST"), ("-07:00", "PDT")),
        ("PDT", "America/Los_Angeles", ("-08:00", "PST"), ("-07:00", "PDT")),
        ("MST", "America/Denver", ("-07:00", "MST"), ("-06:00", "MDT")),
        ("HST", "Pacific/Honolulu", ("-10:00", "HST"), ("-10:00", "HST")),
        ("CET", "Europe/Brussels", ("+01:00", "CET"), ("+02:00", "CEST")),
        ("CEST", "Europe/Brussels", ("+01:00", "CET"), ("+02:00", "CEST")),
        ("AEST", "Australia/Sydney", ("+11:00", "AEDT"), ("+10:00", "AEST")),
    ],
)
def test_a_typed_abbreviation_names_its_regions_clock_in_every_season(
    text: str, zone: str, winter: tuple[str, str], summer: tuple[str, str]
) -> None:
    resolved = resolve_zone(text)
    assert (resolved.key, resolved.kind) == (zone, "abbreviation")
    assert resolved.reading() == {"input": text, "timezone": zone, "read_as": "abbreviation"}
    for at, expected in ((WINTER, winter), (SUMMER, summer)):
        local = at.astimezone(resolved.tz)
        assert (tzdb.format_offset(local.utcoffset() or timedelta(0)), local.tzname()) == expected


@pytest.mark.parametrize(
    ("key", "summer"), [("EST", "-05:00"), ("MST", "-07:00"), ("HST", "-10:00"), ("CET", "+02:00")]
)
def test_a_database_key_keeps_its_database_meaning(key: str, summer: str) -> None:
    resolved = resolve_zone(key, source="database")
    assert (resolved.key, resolved.kind) == (tzdb.canonical_name(key), "alias")
    assert resolved.reading() == {"input": key, "timezone": resolved.key, "read_as": "alias"}
    assert tzdb.format_offset(SUMMER.astimezone(resolved.tz).utcoffset() or timedelta(0)) == summer


def test_abbreviation_table_names_only_real_zones() -> None:
    for candidates in zones.ABBREVIATIONS.values():
        assert set(candidates) <= tzdb.zone_names()


# --- cities and countries ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "canonical"),
    [
        ("Vienna", "Europe/Vienna", "Europe/Vienna"),
        ("new york", "America/New_York", "America/New_York"),
        ("New_York", "America/New_York", "America/New_York"),
        ("NEW-YORK", "America/New_York", "America/New_York"),
        ("Sao Paulo", "America/Sao_Paulo", "America/Sao_Paulo"),
        ("São Paulo", "America/Sao_Paulo", "America/Sao_Paulo"),
        ("Ho Chi Minh", "Asia/Ho_Chi_Minh", "Asia/Ho_Chi_Minh"),
        ("kolkata", "Asia/Kolkata", "Asia/Kolkata"),
        ("Calcutta", "Asia/Kolkata", "Asia/Kolkata"),
        ("Indianapolis", "America/Indiana/Indianapolis", "America/Indiana/Indianapolis"),
        ("Buenos Aires", "America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"),
        ("Nicosia", "Asia/Nicosia", "Asia/Nicosia"),
        ("Stockholm", "Europe/Stockholm", "Europe/Berlin"),
        ("Port au Prince", "America/Port-au-Prince", "America/Port-au-Prince"),
    ],
)
def test_city_names_resolve_with_case_spaces_and_accents_folded(text: str, key: str, canonical: str) -> None:
    resolved = resolve_zone(text)
    assert (resolved.key, resolved.kind, resolved.canonical) == (key, "city", canonical)


def test_a_clock_name_shared_by_legacy_links_is_the_us_clock_not_an_ambiguity() -> None:
    # US/Eastern and Canada/Eastern end in the same word; a person saying "Eastern" means their country's clock.
    assert resolve_zone("Eastern").key == "America/New_York"
    assert resolve_zone("Eastern", country_hint="CA").key == "America/Toronto"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("AT", "Europe/Vienna"),
        ("at", "Europe/Vienna"),
        ("Austria", "Europe/Vienna"),
        ("austria", "Europe/Vienna"),
        ("SE", "Europe/Stockholm"),
        ("Sweden", "Europe/Stockholm"),
        ("uk", "Europe/London"),
        ("United Kingdom", "Europe/London"),
        ("Britain", "Europe/London"),
        ("South Korea", "Asia/Seoul"),
        ("Samoa", "Pacific/Apia"),
        ("Bosnia and Herzegovina", "Europe/Sarajevo"),
        ("Côte d'Ivoire", "Africa/Abidjan"),
    ],
)
def test_countries_with_one_zone_resolve_to_it(text: str, key: str) -> None:
    resolved = resolve_zone(text)
    assert (resolved.key, resolved.kind) == (key, "country")


def test_a_legacy_key_named_like_a_country_keeps_its_iana_meaning() -> None:
    assert resolve_zone("Japan").canonical == "Asia/Tokyo"
    assert resolve_zone("Portugal").canonical == "Europe/Lisbon"


def test_a_country_with_several_zones_lists_the_first_five_in_database_order_without_places() -> None:
    with pytest.raises(AmbiguousTimezone) as caught:
        resolve_zone("US")
    message = caught.value.message
    assert caught.value.suggestions == ("America/New_York", "America/Detroit", "America/Kentucky/Louisville")
    assert "United States (US) has 29 timezones" in message
    assert "'America/Indiana/Indianapolis' and 24 more" in message
    assert "Pacific/Honolulu" not in message


def test_a_country_with_two_zones_names_both() -> None:
    with pytest.raises(AmbiguousTimezone, match="'Europe/Berlin', 'Europe/Busingen'"):
        resolve_zone("Germany")


def test_a_country_without_a_zone_says_so() -> None:
    with pytest.raises(InvalidTimezone, match="Bouvet Island"):
        resolve_zone("BV")


# --- unknown and bad input -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("Europe/Viena", "Europe/Vienna"),
        ("Amerca/New_York", "America/New_York"),
        ("Tokio", "Asia/Tokyo"),
        ("Viena", "Europe/Vienna"),
        ("asia/kolkatta", "Asia/Kolkata"),
    ],
)
def test_unknown_names_suggest_close_matches(text: str, first: str) -> None:
    with pytest.raises(InvalidTimezone) as caught:
        resolve_zone(text)
    assert not isinstance(caught.value, AmbiguousTimezone)
    assert caught.value.suggestions[0] == first
    assert len(caught.value.suggestions) <= 3


def test_the_unknown_message_names_the_input_a_suggestion_and_the_valid_forms() -> None:
    with pytest.raises(InvalidTimezone) as caught:
        resolve_zone("Europe/Viena")
    assert caught.value.message.startswith("Unknown timezone 'Europe/Viena'. Did you mean 'Europe/Vienna'")
    assert caught.value.message.endswith(
        "Use an IANA name such as 'Europe/Vienna', a UTC offset such as '+05:30', or 'UTC'."
    )
    assert type(caught.value) is InvalidTimezone
    assert caught.value.kind == "invalid_timezone"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("\t\n", "empty"),
        ("x" * 257, "too long"),
        ("Europe/Vienna" + " " * 250, "too long"),
        ("UTC\x00", "control characters"),
        ("Europe/\x00Vienna", "control characters"),
        ("Europe\x1bVienna", "control characters"),
    ],
)
def test_bad_input_is_rejected_with_a_clear_message(text: str, reason: str) -> None:
    with pytest.raises(InvalidTimezone, match=reason):
        resolve_zone(text)


def test_input_of_exactly_the_limit_is_still_considered() -> None:
    with pytest.raises(InvalidTimezone, match="Unknown timezone"):
        resolve_zone("x" * zones.MAX_INPUT_LENGTH)


@pytest.mark.parametrize(
    "text", ["../../etc/passwd", "/etc/passwd", "Europe/../Europe/Vienna", "..", "zone.tab", "tzdata.zi", "__init__.py"]
)
def test_path_like_input_is_simply_unknown_and_never_loaded(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    loaded: list[str] = []
    real = tzdb.get_zone

    def recording(key: str) -> ZoneInfo:
        loaded.append(key)
        return real(key)

    monkeypatch.setattr(tzdb, "get_zone", recording)
    with pytest.raises(InvalidTimezone, match="Unknown timezone"):
        resolve_zone(text)
    assert loaded == []


class Untouchable:
    """A places table that fails the test when anything of it is used."""

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"the places table was consulted ({name})")


def test_an_exact_name_is_answered_without_the_places_table() -> None:
    # The cheap path (how cheap is bench/city_names.py's to say): a key or an alias never reaches the gazetteer.
    for text in ("Europe/Vienna", "US/Eastern", "UTC", "+05:30"):
        assert resolve_zone(text, places=Untouchable()).key  # type: ignore[arg-type]


def test_resolving_the_longest_unknown_input_stays_cheap() -> None:
    started = time.perf_counter()
    with pytest.raises(InvalidTimezone):
        resolve_zone("Europe/" + "q" * (zones.MAX_INPUT_LENGTH - 7))
    assert time.perf_counter() - started < 10  # a hang guard (it takes milliseconds), not a speed target


# --- folding -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("São Paulo", "sao paulo"),
        ("Sao_Paulo", "sao paulo"),
        ("  NEW-york ", "new york"),
        ("Bosnia & Herzegovina", "bosnia and herzegovina"),
        ("C\u00f4te d\u2019Ivoire", "cote d ivoire"),
        ("", ""),
    ],
)
def test_fold_drops_accents_case_and_punctuation(text: str, folded: str) -> None:
    assert fold(text) == folded


# --- listing -------------------------------------------------------------------------------


def test_search_without_filters_lists_canonical_zones_sorted() -> None:
    names = search_zones()
    assert names == sorted(names)
    assert {"Europe/Vienna", "Asia/Kolkata", "Europe/Stockholm", "Etc/UTC"} <= set(names)
    assert not {"US/Eastern", "Asia/Calcutta", "Factory"} & set(names)


def test_search_with_aliases_lists_every_name() -> None:
    assert set(search_zones(include_aliases=True)) == tzdb.zone_names()


@pytest.mark.parametrize("region", ["Europe", "europe", " EUROPE/ "])
def test_search_by_region_matches_the_first_segment_ignoring_case(region: str) -> None:
    names = search_zones(region=region)
    assert "Europe/Vienna" in names
    assert all(name.startswith("Europe/") for name in names)


@pytest.mark.parametrize("country", ["AT", "at", "Austria", "AUSTRIA"])
def test_search_by_country_accepts_codes_and_names(country: str) -> None:
    assert search_zones(country=country) == ["Europe/Vienna"]


def test_search_by_country_with_aliases_adds_links() -> None:
    assert search_zones(country="IN", include_aliases=True) == ["Asia/Calcutta", "Asia/Kolkata"]
    assert len(search_zones(country="United States")) == 29


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("vienna", ["Europe/Vienna"]),
        ("São", ["Africa/Sao_Tome", "America/Sao_Paulo"]),
        ("sao paulo", ["America/Sao_Paulo"]),
        ("Newfoundland", ["America/St_Johns"]),
        ("most of Germany", ["Europe/Berlin"]),
    ],
)
def test_search_by_query_matches_names_cities_and_comments(query: str, expected: list[str]) -> None:
    assert search_zones(query=query) == expected


def test_search_filters_combine() -> None:
    assert search_zones(region="America", country="US", query="indiana")[0] == "America/Indiana/Indianapolis"
    assert search_zones(region="Asia", country="AT") == []


def test_search_rejects_an_unknown_region_or_country() -> None:
    with pytest.raises(InvalidArgument, match="Unknown region 'Eurpoe'") as caught:
        search_zones(region="Eurpoe")
    assert "Europe" in caught.value.suggestions
    with pytest.raises(InvalidArgument, match="Unknown country 'Austira'") as caught:
        search_zones(country="Austira")
    assert "Austria" in caught.value.suggestions


# --- completion ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("prefix", "expected"),
    [
        ("europe/vi", ["Europe/Vienna", "Europe/Vilnius"]),
        ("Europe/Vienna", ["Europe/Vienna"]),
        ("calc", ["Asia/Calcutta"]),
        ("sao", ["Africa/Sao_Tome", "America/Sao_Paulo"]),
        ("zzz", []),
    ],
)
def test_suggest_zones_completes_keys_and_cities(prefix: str, expected: list[str]) -> None:
    assert suggest_zones(prefix) == expected


def test_suggest_zones_puts_canonical_names_before_aliases() -> None:
    found = suggest_zones("new")
    assert found[0] == "America/New_York"
    assert found.index("America/New_York") < found.index("Canada/Newfoundland")


def test_suggest_zones_respects_the_limit() -> None:
    assert len(suggest_zones("America/", limit=5)) == 5
    assert suggest_zones("", limit=3) == sorted(suggest_zones("", limit=3))
    assert suggest_zones("Europe", limit=0) == []
    assert suggest_zones("x" * 300) == []


def test_resolved_zones_are_usable_datetimes_zones() -> None:
    for text in ["Vienna", "+05:30", "UTC", "PST", "AT", "US/Eastern"]:
        instant = datetime(2026, 7, 1, 12, tzinfo=resolve_zone(text).tz)
        assert instant.utcoffset() is not None
