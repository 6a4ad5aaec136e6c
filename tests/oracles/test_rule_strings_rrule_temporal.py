"""The rule strings resolve_time_expression returns, expanded by an RFC 5545 library nobody here wrote.

rrule-temporal (npm, on the Temporal API and its own zone data) reads each DTSTART/RRULE pair as a calendar would;
its first occurrences must be the ones we list beside the rule: the same instants, on the same wall clocks. So a
rule's DTSTART is its first occurrence, and it carries its zone (a TZID, or UTC).
"""

from __future__ import annotations

import json
import subprocess
from datetime import UTC, datetime, timezone, tzinfo
from datetime import timedelta as td
from itertools import islice
from zoneinfo import ZoneInfo

import pytest

from horologe.core.recurrence import expand, parse_rule
from horologe.core.relative import resolve_expression
from tests.interop.conftest import NODE_BIN, NODE_MODULES, in_ci

pytestmark = pytest.mark.e2e  # Node is a process

COUNT = 8
EXPRESSIONS = (
    "every weekday at 9:30",
    "every other Friday at 4pm",
    "every day at 8",
    "every day at 2:30",  # a time the spring change skips in New York and Vienna
    "every day at 1:30",  # a time the autumn change repeats in New York
    "every Monday",
    "every 2 weeks on Monday",
    "every second Tuesday of the month at 10:00",
    "every last Friday of the month at 17:00",
    "every month on the 15th at 12:00",
    "every year on March 10",
    "every 3 days at 7:15",
)
ZONES: tuple[tuple[str, tzinfo], ...] = (
    ("America/New_York", ZoneInfo("America/New_York")),
    ("Europe/Vienna", ZoneInfo("Europe/Vienna")),
    ("Australia/Lord_Howe", ZoneInfo("Australia/Lord_Howe")),  # a half-hour DST change
    ("Asia/Kolkata", ZoneInfo("Asia/Kolkata")),
    ("UTC", UTC),
    ("+05:00", timezone(td(hours=5))),
    ("+05:30", timezone(td(hours=5, minutes=30))),  # written as a zone that keeps +05:30
    ("-09:30", timezone(-td(hours=9, minutes=30))),
)
REFERENCES = (
    datetime(2026, 11, 28, 15, 0, tzinfo=UTC),  # a Saturday: "every weekday" must not start on it
    datetime(2026, 3, 5, 12, 0, tzinfo=UTC),  # the week before the US spring change
    datetime(2026, 10, 22, 12, 0, tzinfo=UTC),  # before the European and US autumn changes
)
EXPAND = """
import { RRuleTemporal } from "rrule-temporal";
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const answers = JSON.parse(input).map(({ rule, count }) =>
    new RRuleTemporal({ rruleString: rule })
      .all((_, i) => i < count)
      .map((at) => at.toString({ timeZoneName: "never" }))
  );
  process.stdout.write(JSON.stringify(answers));
});
"""


def expanded(rules: list[str]) -> list[list[str]]:
    """Each rule's first COUNT occurrences as rrule-temporal expands them (ISO 8601 with the offset)."""
    if not (NODE_BIN / "node").exists() or not (NODE_MODULES / "rrule-temporal").exists():
        message = "rrule-temporal missing; run tests/interop/install.sh"
        if in_ci():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    script = NODE_MODULES.parent / "expand_rules.mjs"  # beside node_modules, where its import resolves
    script.write_text(EXPAND)
    done = subprocess.run(
        [str(NODE_BIN / "node"), str(script)],
        input=json.dumps([{"rule": rule, "count": COUNT} for rule in rules]),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    answers: list[list[str]] = json.loads(done.stdout)
    return answers


def skipped_wall_times(rule: str, zone: tzinfo, occurrences: tuple[datetime, ...]) -> set[datetime]:
    """The occurrences whose wall time a DST change skips (placed by RFC 5545 section 3.3.5: the time read with the
    offset before the gap, which our own expansion reports as a gap)."""
    after = occurrences[0]
    found = islice(expand(parse_rule(rule), zone, after), len(occurrences))
    return {item.resolution.instant.astimezone(UTC) for item in found if item.resolution.status == "gap"}


def test_our_rule_strings_expand_to_the_occurrences_we_list() -> None:
    cases = []
    for expression in EXPRESSIONS:
        for name, zone in ZONES:
            for reference in REFERENCES:
                found = resolve_expression(expression, reference=reference, zone=zone, count=COUNT)
                assert found.rule is not None
                where = f"{expression!r} in {name} from {reference:%Y-%m-%d}"
                cases.append((where, found.rule, found.occurrences, zone))
    theirs = expanded([rule for _, rule, _, _ in cases])
    mismatches, gaps = [], 0
    for (where, rule, ours, zone), listed in zip(cases, theirs, strict=True):
        dtstart = rule.split("\n", 1)[0]
        assert ";TZID=" in dtstart or dtstart.endswith("Z"), f"{where}: {dtstart} names no zone"
        # rrule-temporal leaves out an instance whose wall time does not exist; RFC 5545 (3.3.10, 3.3.5) places it
        # with the offset before the gap, as we list it. Those instances aside, the two lists must be the same.
        skipped = skipped_wall_times(rule, zone, ours)
        gaps += len(skipped)
        mine = [instant for instant in ours if instant.astimezone(UTC) not in skipped]
        kept = min(len(mine), len(listed))
        # Compared in UTC (PEP 495: a time in a fold never equals one in another zone) and as written (wall clock).
        same = [datetime.fromisoformat(text).astimezone(UTC) for text in listed[:kept]] == [
            instant.astimezone(UTC) for instant in mine[:kept]
        ] and [text[:19] for text in listed[:kept]] == [instant.isoformat()[:19] for instant in mine[:kept]]
        if not same or kept < COUNT - len(skipped):
            shown = [instant.isoformat() for instant in ours[:3]]
            mismatches.append(f"{where}:\n  {rule!r}\n  ours   {shown}\n  theirs {listed[:3]}")
    assert len(cases) == len(EXPRESSIONS) * len(ZONES) * len(REFERENCES)
    assert not mismatches, f"{len(mismatches)} of {len(cases)} differ:\n" + "\n".join(mismatches[:10])
    assert 0 < gaps < 10  # the few spring-forward days the cases cross, no more


def test_a_floating_rule_would_be_caught() -> None:
    # What the tool returned before for "every weekday at 9:30" in New York on a Saturday: no zone, and a DTSTART
    # the rule does not produce. A calendar reads it on its own clock (here UTC), hours away from New York's.
    floating = "DTSTART:20261128T093000\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=30;BYSECOND=0"
    (listed,) = expanded([floating])
    assert listed[0] == "2026-11-30T09:30:00+00:00"
    new_york = resolve_expression(
        "every weekday at 9:30", reference=REFERENCES[0], zone=ZoneInfo("America/New_York"), count=1
    )
    assert new_york.occurrences[0].isoformat() == "2026-11-30T09:30:00-05:00"
    assert new_york.rule is not None and new_york.rule.startswith("DTSTART;TZID=America/New_York:20261130T093000\n")
