"""Public holidays and business days, from the `holidays` package (imported lazily: it is heavy).

Semantics:

- A business day is a date that is neither a weekend day nor a public holiday of the country (and
  subdivision), nor one of the caller's extra holidays.
- Counting walks from the start date (always counted) toward the end date (counted only with
  ``include_end``): business days d with start <= d < end, or, with end before start, end < d <= start
  counted negatively (numpy's ``busday_count`` shifts a reversed range the same way). So counts add up over
  adjacent ranges walked in one direction: count(a, b) + count(b, c) == count(a, c) for a <= b <= c and for
  a >= b >= c.
- Adding N business days moves to the N-th business day after the start (before it for N < 0); the start
  itself is never counted. Adding 0 rolls a non-business start forward to the next business day.
- Holiday names come in the requested language when the package has it, else in American English when it
  has that, else in the country's own language. A language the package has in several variants is matched by
  script first: 'zh-Hans' (or 'zh', 'zh-SG') takes the Simplified names (zh_CN), 'zh-Hant' (or 'zh-HK' in Taiwan)
  the Traditional ones (zh_TW, zh_HK, zh_MO); another script of the language only when the country has no other.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Final

from horologe.core.budget import UNLIMITED, Budget
from horologe.core.errors import InvalidArgument
from horologe.core.gazetteer import fold
from horologe.core.messages import N_, Message, msg
from horologe.core.tzdb import countries

if TYPE_CHECKING:
    from holidays import HolidayBase

MAX_BUSINESS_DAYS: Final = 100_000
MAX_RANGE_YEARS: Final = 200
MAX_LISTED: Final = 1000
MAX_SUBDIVISION: Final = 64
SUBDIVISION_LIKENESS: Final = 0.5
"""How alike (difflib's ratio) a subdivision's code or name must be to what was typed to be suggested."""
WEEKDAY_CODES: Final = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
DEFAULT_LANGUAGE: Final = "en_US"


@dataclass(frozen=True, slots=True)
class HolidayCalendar:
    """A country's (and subdivision's) public holidays, plus the caller's extra holidays and weekend."""

    country: str
    subdivision: str | None
    language: str | None
    weekend: frozenset[int]
    extra: Mapping[date, str]
    source: HolidayBase

    def names(self, day: date) -> list[str]:
        """Names of the holidays on `day` (several when they coincide), extra holidays last."""
        found = list(self.source.get_list(day)) if day in self.source else []
        if day in self.extra:
            found.append(self.extra[day])
        return found

    def estimated(self, name: str) -> bool:
        """Whether the data mark this holiday's date as estimated (a lunar calendar's date beyond its tables): its
        name is written with the package's estimated label, in the calendar's language ('... (estimated)')."""
        for attribute in ("estimated_label", "observed_estimated_label"):
            label = getattr(self.source, attribute, None)  # only countries with estimated dates have the labels
            if not isinstance(label, str) or "%s" not in label:
                continue
            before, after = self.source.tr(label).split("%s", 1)
            if name.startswith(before) and name.endswith(after) and len(name) > len(before) + len(after):
                return True
        return False

    def hit(self, day: date) -> HolidayHit:
        """The holidays on `day`, as a count or listing meets them."""
        names = tuple(self.names(day))
        estimated = any(self.estimated(name) for name in names)
        return HolidayHit(day, names, day.weekday() in self.weekend, estimated)

    def is_business_day(self, day: date) -> bool:
        """Neither a weekend day nor a holiday."""
        return day.weekday() not in self.weekend and day not in self.extra and day not in self.source


@dataclass(frozen=True, slots=True)
class HolidayHit:
    """A holiday met while counting or listing."""

    day: date
    names: tuple[str, ...]
    on_weekend: bool
    estimated: bool = False


def supported_countries() -> Mapping[str, tuple[str, ...]]:
    """ISO 3166-1 alpha-2 codes (and aliases) the holidays package knows, with their subdivision codes."""
    import holidays

    supported: Mapping[str, tuple[str, ...]] = {
        code.upper(): tuple(subdivisions)
        for code, subdivisions in holidays.list_supported_countries(include_aliases=True).items()
    }
    return supported


SubdivisionNames = Callable[[str], Sequence[tuple[str, str, tuple[str, ...]]]]
"""A country's subdivisions by name: (code, display name, folded names in many languages), e.g. the places table's."""
CountryNames = Mapping[str, tuple[str, ...]]
"""Folded country name -> the ISO codes it names (several for a shared name, 'Korea'), e.g. `zones.country_names`."""
PartsNamed = Callable[[str], Sequence[tuple[str, str, str]]]
"""A folded name -> the subdivisions with holidays of their own it names, in any country: (country, code, display
name), e.g. the places table's `subdivisions_named`."""


def holiday_calendar(
    country: str,
    subdivision: str | None = None,
    *,
    language: str | None = None,
    weekend: Iterable[int] | None = None,
    extra: Mapping[date, str] | None = None,
    names: SubdivisionNames | None = None,
    countries: CountryNames | None = None,
    parts: PartsNamed | None = None,
) -> HolidayCalendar:
    """Holidays of a country, by ISO code (case-insensitive; an alias the package knows, 'UK', answers as 'GB') or,
    with `countries`, by name ('Germany', 'Deutschland'), and an optional subdivision, by code or, with `names`, by
    name in any of their languages ('Bavaria', 'Bayern', 'Baviera' -> BY); with `parts`, a subdivision with holidays
    of its own given as the country is that country and subdivision ('England': GB, ENG; 'Bavaria': DE, BY; a
    country's own name stays the country: 'Georgia' is GE); weekend from the package."""
    import holidays

    country, subdivision = _part_named(country, subdivision, countries, parts)
    base = holidays.country_holidays(_checked_country(country, countries))
    code = base.country
    subdiv = _checked_subdivision(code, subdivision, base, names(code) if names else ()) if subdivision else None
    chosen = _language(language, tuple(base.supported_languages), base.default_language)
    source = holidays.country_holidays(code, subdiv=subdiv, language=chosen)
    show_estimated(source)
    days = frozenset(weekend) if weekend is not None else frozenset(getattr(base, "weekend", {5, 6}))
    return HolidayCalendar(code, subdiv, chosen, days, dict(extra or {}), source)


def show_estimated(source: HolidayBase) -> None:
    """Label the Islamic holidays the data estimate (a date the sighting of the moon can move, past a country's
    published tables): some countries' classes turn the label off (Saudi Arabia's), and a date a person may plan
    around must say it can move. The Chinese calendar's dates, which the package flags in every year but computes
    exactly, keep each country's choice. Set before any year is loaded (the package expands years on first lookup)."""
    if hasattr(source, "_islamic_calendar_show_estimated"):
        source._islamic_calendar_show_estimated = True


def holidays_in_year(calendar: HolidayCalendar, year: int) -> list[HolidayHit]:
    """Every holiday of a year, in date order (coinciding holidays share one entry)."""
    if not 1 <= year <= 9999:
        raise InvalidArgument(N_("Year {year} is outside 1..9999. Pass a year such as 2026."), year=year)
    _ = date(year, 1, 1) in calendar.source  # loads the year (the package expands years on first lookup)
    days = sorted({d for d in calendar.source if d.year == year} | {d for d in calendar.extra if d.year == year})
    return [calendar.hit(d) for d in days]


def count_business_days(
    calendar: HolidayCalendar, start: date, end: date, *, include_end: bool = False, budget: Budget = UNLIMITED
) -> tuple[int, list[HolidayHit]]:
    """Business days from start (counted) to end (counted with `include_end`), negative when end < start; each day
    a step of `budget`.

    Returns the count and the holidays met on the way.
    """
    forward = end >= start
    low, high = (start, end) if forward else (end, start)
    _check_span(low, high)
    count, hits = 0, []
    for day in _days(low, high, first=forward or include_end, last=not forward or include_end):
        budget.spend()
        if calendar.is_business_day(day):
            count += 1
        elif calendar.names(day):
            hits.append(calendar.hit(day))
    return count if forward else -count, hits


def add_business_days(
    calendar: HolidayCalendar, start: date, count: int, budget: Budget = UNLIMITED
) -> tuple[date, list[HolidayHit]]:
    """The `count`-th business day after `start` (before it when negative), and the holidays skipped; each day a step
    of `budget`."""
    if abs(count) > MAX_BUSINESS_DAYS:
        raise InvalidArgument(
            N_("count {count} is beyond the limit of {limit} business days. Use a smaller count."),
            count=count,
            limit=MAX_BUSINESS_DAYS,
            details={"limit": MAX_BUSINESS_DAYS},
        )
    step = timedelta(days=-1 if count < 0 else 1)
    day, remaining, hits = start, abs(count), []
    if count == 0:
        remaining = 0 if calendar.is_business_day(start) else 1
    while remaining:
        budget.spend()
        day = _step(day, step, start)
        if calendar.is_business_day(day):
            remaining -= 1
        elif calendar.names(day):
            hits.append(calendar.hit(day))
    return day, hits


def parse_weekend(days: Iterable[str]) -> frozenset[int]:
    """Weekday codes ('sat', 'Sunday', 'fri') as Python weekday numbers (Monday 0)."""
    numbers = set()
    for text in days:
        key = str(text).strip().casefold()[:3]
        if key not in WEEKDAY_CODES or len(str(text).strip()) < 2:
            raise InvalidArgument(
                N_("Unknown weekday {weekday} in weekend. Use three-letter English names: {known}."),
                weekday=repr(text),
                known=", ".join(WEEKDAY_CODES),
                suggestions=difflib.get_close_matches(key, WEEKDAY_CODES, n=3, cutoff=0.3) or ["sat", "sun"],
            )
        numbers.add(WEEKDAY_CODES.index(key))
    if len(numbers) == 7:
        raise InvalidArgument(N_("A weekend of all seven days leaves no business days. Leave at least one day out."))
    return frozenset(numbers)


def _step(day: date, step: timedelta, start: date) -> date:
    try:
        moved = day + step
    except OverflowError:
        raise InvalidArgument(N_("The business day count runs past year 1 or 9999. Use a smaller count.")) from None
    if abs((moved - start).days) > MAX_RANGE_YEARS * 366:
        raise InvalidArgument(
            N_("The result would be more than {limit} years from the start. Use a smaller count."),
            limit=MAX_RANGE_YEARS,
            details={"limit_years": MAX_RANGE_YEARS},
        )
    return moved


def _days(low: date, high: date, *, first: bool, last: bool) -> Iterator[date]:
    """The days from `low` to `high`, each end only when asked for."""
    for offset in range(0 if first else 1, (high - low).days + (1 if last else 0)):
        yield low + timedelta(days=offset)


def _check_span(low: date, high: date) -> None:
    if (high - low).days > MAX_RANGE_YEARS * 366:
        raise InvalidArgument(
            N_(
                "The range {start}..{end} is longer than {limit} years. "
                "Split it into shorter ranges (counts add up over adjacent ranges)."
            ),
            start=low.isoformat(),
            end=high.isoformat(),
            limit=MAX_RANGE_YEARS,
            details={"limit_years": MAX_RANGE_YEARS},
        )


@cache
def _country_codes() -> tuple[str, ...]:
    return tuple(supported_countries())


def shared_country_name(country: str, codes: Sequence[str]) -> InvalidArgument:
    """The error for a country's name several countries share ("Korea": KP, KR), naming each with its code."""
    return InvalidArgument(
        N_("{country} names several countries: {codes}. Pass one of their ISO codes."),
        country=repr(country[:60]),
        codes=", ".join(f"{code} ({countries().get(code, code)})" for code in codes),
        suggestions=list(codes),
    )


def _checked_country(country: str, named: CountryNames | None) -> str:
    """The package's code for a country given by code or by a name in `named` (the tz database's English names
    without it); refused with the codes a shared name fits, or the nearest by spelling."""
    code = country.strip().upper()
    if code in _country_codes():
        return code
    names = named if named is not None else {fold(name): (c,) for c, name in countries().items()}
    folded = fold(country)
    found = [c for c in names.get(folded, ()) if c in _country_codes()]
    if len(found) == 1:
        return found[0]
    if found:
        raise shared_country_name(country, found)
    close = [c for n in difflib.get_close_matches(folded, names, n=3, cutoff=0.7) for c in names[n]]
    if len(code) <= 3:
        close += difflib.get_close_matches(code, [c for c in _country_codes() if len(c) == 2], n=3, cutoff=0.5)
    suggestions = list(dict.fromkeys(c for c in close if c in _country_codes()))[:3]
    hint = (msg(N_("Did you mean {candidates}?"), candidates=", ".join(suggestions)),) if suggestions else ()
    use = msg(
        N_("Use an ISO 3166-1 alpha-2 code such as 'US', 'AT' or 'GB' ({count} codes are supported)."),
        count=len(_country_codes()),
    )
    raise InvalidArgument(
        N_("No public holiday data for country {country}."),
        country=repr(country[:60]),
        also=(*hint, use),
        suggestions=suggestions,
    )


def _part_named(
    country: str, subdivision: str | None, known: CountryNames | None, parts: PartsNamed | None
) -> tuple[str, str | None]:
    """The country and subdivision meant when `country` names a subdivision with its own holidays ('Scotland': GB,
    SCT); refused naming them when the name is several such parts, or naming both when `subdivision` names another."""
    if parts is None or country.strip().upper() in _country_codes():
        return country, subdivision
    folded = fold(country[:MAX_SUBDIVISION])
    found = list(
        dict.fromkeys(part for part in parts(folded) if part[0] in _country_codes() and part[0] in countries())
    )
    named = (known or {}).get(folded, ())
    if named:  # a country's name: only a part of that country ('England' is GB's), else the country ('Georgia')
        found = [part for part in found if part[0] in named]
    if not found:
        return country, subdivision
    if len({(c, code) for c, code, _ in found}) > 1:
        raise InvalidArgument(
            N_(
                "{name} names several places with holidays of their own: {parts}. Pass the country's ISO code as "
                "country and the part you mean as subdivision."
            ),
            name=repr(country[:60]),
            parts=", ".join(f"{name} ({c}-{code})" for c, code, name in found),
            suggestions=[f"{c}-{code}" for c, code, _ in found],
        )
    code, part, _ = found[0]
    given = (subdivision or "").strip()
    if given and given.casefold() != part.casefold() and fold(given[:MAX_SUBDIVISION]) != folded:
        raise InvalidArgument(
            N_(
                "{name} is a part of {country} ({code}-{part}), and subdivision {subdivision} names another. Pass "
                "country {code} with the subdivision you mean."
            ),
            name=repr(country[:60]),
            country=countries().get(code, code),
            code=code,
            part=part,
            subdivision=repr(given[:60]),
            suggestions=[f"{code}-{part}"],
        )
    return code, part


def _checked_subdivision(
    code: str, subdivision: str, base: HolidayBase, named: Sequence[tuple[str, str, tuple[str, ...]]]
) -> str:
    """The package's code for a subdivision given by code, by the package's own name for it, or by a name in
    `named`; refused with the nearest subdivisions by spelling."""
    known = tuple(base.subdivisions)
    names = _subdivision_names(known, getattr(base, "subdivisions_aliases", {}), named)
    text = subdivision.strip()
    for candidate in known:
        if candidate.casefold() == text.casefold():
            return candidate
    found = names.get(fold(text[:MAX_SUBDIVISION]), ())
    if len(found) == 1:
        return found[0]
    nearest = _nearest_subdivisions(fold(text[:MAX_SUBDIVISION]), known, names)
    labels = {sub: display for sub, display, _ in named}
    hints: list[Message] = []
    if nearest:
        shown = ", ".join(f"{sub} ({labels[sub]})" if sub in labels else sub for sub in nearest)
        hints.append(msg(N_("Did you mean {candidates}?"), candidates=shown))
    hints.append(
        msg(N_("Known subdivisions: {known}."), known=", ".join(known))
        if known
        else msg(N_("{country} has no subdivisions."), country=code)
    )
    raise InvalidArgument(
        N_("Unknown subdivision {subdivision} for {country}."),
        subdivision=repr(subdivision[:60]),
        country=code,
        also=tuple(hints),
        suggestions=nearest,
    )


def _subdivision_names(
    known: tuple[str, ...], aliases: Mapping[str, str], named: Sequence[tuple[str, str, tuple[str, ...]]]
) -> dict[str, tuple[str, ...]]:
    """Folded name -> the known codes it names (the package's own names, then the names given)."""
    found: dict[str, list[str]] = {}
    entries = [(fold(alias), str(sub)) for alias, sub in aliases.items()]
    entries += [(name, sub) for sub, display, folded in named for name in (fold(display), *folded)]
    for name, sub in entries:
        if sub in known and sub not in found.setdefault(name, []):
            found[name].append(sub)
    return {name: tuple(subs) for name, subs in found.items()}


def _nearest_subdivisions(folded: str, known: tuple[str, ...], names: Mapping[str, tuple[str, ...]]) -> list[str]:
    """Up to three codes whose code or a name is spelled most like `folded`, nearest first."""
    if not folded:
        return []
    score: dict[str, float] = {}
    for sub in known:
        score[sub] = difflib.SequenceMatcher(None, folded, fold(sub)).ratio()
    for name, subs in names.items():
        ratio = difflib.SequenceMatcher(None, folded, name).ratio()
        for sub in subs:
            score[sub] = max(score[sub], ratio)
    ranked = sorted(known, key=lambda sub: -score[sub])
    return [sub for sub in ranked[:3] if score[sub] >= SUBDIVISION_LIKENESS]


def _language(requested: str | None, supported: tuple[str, ...], default: str | None) -> str | None:
    """The package's language code for a requested tag: itself, else the same language in the same script, else
    the same language in another script, else American English, else the country's own language."""
    if requested:
        wanted = requested.replace("-", "_").casefold()
        for language in supported:
            if language.casefold() == wanted:
                return language
        same_language = [code for code in supported if code.casefold().split("_")[0] == wanted.split("_")[0]]
        script = written_as(requested)
        ranked = [code for code in same_language if written_as(code) == script] + same_language
        if ranked:
            return ranked[0]
    return DEFAULT_LANGUAGE if DEFAULT_LANGUAGE in supported else default


@lru_cache(maxsize=256)  # the package's codes and the request's tags, plus the few a `language` argument adds
def written_as(tag: str) -> tuple[str, str | None]:
    """The language and the script a tag's text is written in, the script from CLDR's likely subtags when the tag
    does not name it: 'zh_TW' and 'zh-Hant' are ('zh', 'Hant'), 'zh' and 'zh_CN' ('zh', 'Hans'), 'en-US' ('en',
    'Latn'); None as the script of a language CLDR does not know."""
    from babel.core import get_global

    language, *rest = tag.replace("-", "_").split("_")
    language = language.casefold()
    script = next((part.title() for part in rest if len(part) == 4 and part.isalpha()), None)
    region = next((part.upper() for part in rest if len(part) == 2 or (len(part) == 3 and part.isdigit())), None)
    if script is not None:
        return language, script
    likely: Mapping[str, str] = get_global("likely_subtags")
    found = (region and likely.get(f"{language}_{region}")) or likely.get(language)
    return language, next((part for part in (found or "").split("_")[1:] if len(part) == 4), None)


@lru_cache(maxsize=256)
def language_tag(code: str) -> str:
    """The BCP 47 tag of a package language code, with its script where CLDR has the language in several scripts
    (its text is told apart by script first): 'zh_TW' is 'zh-Hant-TW', 'zh_CN' 'zh-Hans-CN', 'en_US' 'en-US'."""
    from babel import localedata

    language, script = written_as(code)
    parts = code.replace("-", "_").split("_")
    if script is None or any(len(part) == 4 for part in parts[1:]) or not localedata.exists(f"{language}_{script}"):
        return "-".join(parts)
    return "-".join([parts[0], script, *parts[1:]])
