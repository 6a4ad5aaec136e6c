"""Every zone's transitions 1970-2037 and its standard offsets, against zdump on zones compiled by Debian's zic."""

from __future__ import annotations

from pathlib import Path

import pytest

from horologe.core.tzrules import Database, changes_between, state_at
from tests.core.test_tzrules import SOURCE
from tests.oracles import comparisons, zic

pytestmark = pytest.mark.e2e  # zic and zdump are processes

Dumps = tuple[dict[str, list[zic.Period]], dict[str, list[zic.Period]]]


def test_every_transition_and_state_agrees_with_zdump(dumps: Dumps) -> None:
    result = comparisons.zdump_transitions(dumps[0])
    assert result.cases > 30_000
    assert not result.mismatches, result.summary()


def test_standard_offsets_agree_with_zdump_of_the_rules_without_save(dumps: Dumps) -> None:
    result = comparisons.zdump_standard_offsets(*dumps)
    assert result.cases > 60_000
    assert not result.mismatches, result.summary()


def test_the_answers_kept_are_what_zdump_answers_now(dumps: Dumps, tmp_path: Path) -> None:
    # `dumps` may read zdump's output back from pytest's cache: a sample of zones asked afresh must be answered the
    # same, in both compilations (this fails if the cache's digest ever misses something the output depends on).
    sample = comparisons.names()[::25]
    for directory, kept in zip(zic.compile_both(zic.source(), tmp_path), dumps, strict=True):
        assert zic.dump(directory, sample, *comparisons.WINDOW) == {name: kept[name] for name in sample}


def test_the_hand_written_zones_compile_as_zic_compiles_them(tmp_path: Path) -> None:
    # The unit tests' made-up zone uses every field form; zic must read it the way horologe does.
    directory = zic.compile_source(SOURCE, tmp_path / "hand")
    periods = zic.dump(directory, ["Test/Zone"], 1850, 2100)["Test/Zone"]
    zone = Database.parse(line.split() for line in SOURCE.splitlines()).compile("Test/Zone")
    low, high = periods[0], periods[1:]
    first = state_at(zone, -3786825600)  # 1850-01-01
    assert (first.utoff, first.abbreviation, first.isdst) == (low.utoff, low.abbreviation, low.isdst)
    ours = [(at, s.utoff, s.abbreviation, s.isdst) for at, _, s in changes_between(zone, -3786825600, 4102444799)]
    assert ours == [(p.start, p.utoff, p.abbreviation, p.isdst) for p in high]
