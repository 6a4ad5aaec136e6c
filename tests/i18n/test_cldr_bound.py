"""The CLDR locales a client can make the process load are bounded in number (issue 38): the least recently used
locale is dropped with Babel's copy of its data."""

from __future__ import annotations

from datetime import UTC, datetime

from babel import localedata

from horologe.i18n import cldr


def test_every_locale_a_client_asks_for_is_answered_and_at_most_a_bounded_number_is_kept() -> None:
    identifiers = sorted(localedata.locale_identifiers())[:300]
    for identifier in identifiers:
        tag = identifier.replace("_", "-")
        assert cldr.human_datetime(datetime(2026, 1, 1, tzinfo=UTC), tag)
        cldr.first_week_day(tag)
    assert len(cldr._loaded) <= cldr.MAX_LOCALES
    kept = set(localedata._cache)
    assert len(kept) <= cldr.MAX_LOCALES + 24, sorted(kept)  # the kept locales, and parents read on the way
    assert cldr.human_datetime(datetime(2026, 1, 1, tzinfo=UTC), "de-AT") == "Donnerstag, 1. Jänner 2026, 00:00 UTC"


def test_a_locale_whose_likely_territory_babel_lacks_still_has_a_week() -> None:
    assert cldr.first_week_day("no") == 0  # CLDR's likely 'no_Latn_NO' is no locale Babel ships
