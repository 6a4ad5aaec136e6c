"""Ranking the places a typed name can mean: cities, first-level divisions (states, provinces, regions) and countries,
and the qualifiers that narrow them ('Portland, Oregon', 'Vienna, AT').

Ranking rules (`horologe.core.zones` turns the ranked candidates into an answer or a refusal):

1. Every place a name names is a candidate with a weight: a city its people, a division the people of its cities, a
   country its people, and by its own name at least `CITY_RIVAL`. A name that is not the place's own (a former or
   foreign name, a country's name in another language than English, a country's ISO code) weighs a twentieth
   (`ALTERNATE_WEIGHT`): 'Salvador' is Salvador, Brazil (2.7 M) before El Salvador (French 'Salvador'), 'Islamabad'
   the capital before Chattogram's old name. The floor keeps a small country or territory from being answered as a
   foreign town of its name: 'Palau' is the island state, not Palaú, Mexico; 'Saint Barthélemy' the island, not the
   Marseille quarter (a town of 250,000+ ties it, rule 3).
2. A place in the client's country weighs `HOME_WEIGHT` times more: 'Armenia' from Colombia is Armenia, Quindío;
   'Granada' from Spain the Andalusian city, not Grenada; 'LA' from the United States Los Angeles, not Laos.
3. The heaviest wins, unless a place of another clock weighs at least half as much (`AMBIGUOUS_SHARE`, in
   `horologe.core.zones`), or a tenth for a city of 500,000+ by its own name against a division or country
   (`OTHER_SHARE`, `CITY_RIVAL`; people type big cities far more often): then the name is refused with the
   candidates ('Georgia': the country or the US state; 'Washington': the state or the capital).
   So a state- or country-sized name never resolves to a same-named small place elsewhere ('Arizona' is the state,
   not the Honduran town), and a tie is never guessed.
4. A city inside a division or country of its name stands for it when it has a tenth of its people, and is ranked
   as that area, with its weight ('Chihuahua' is the city, not the state of two clocks; 'New York' the city, not
   the state; 'Armavir' the Armenian province and its town, tied with Armavir, Russia; 'Valencia' the Spanish city
   and region, tied with Valencia, Venezuela, a city of 500,000+); an area of several clocks only by the city's own
   name (Tepic, once 'Nayarit', does not stand for the state). Of places of one clock, a city is named before a
   division or country that weighs less than twice as much ('Seoul' is the city).

5. Beside the answer, the reading names (`other_zones`) up to two smaller places of the name in other zones with a
   tenth of its weight (`OTHER_SHARE`, in `horologe.core.zones`): 'Portland' also names America/New_York (Maine),
   'Birmingham' America/Chicago (Alabama). A place the name calls only by another of its names (a former or foreign
   one) is named only when its own name is a longer or shorter form of the name (`namesake`): 'Santiago' names
   Santiago de los Caballeros, 'Salvador' El Salvador, but 'Cancún' (also a foreign name of Changchun, 4.7 M) names
   no Chinese zone and 'Islamabad' (Chattogram's old name) no Bangladeshi one. Of the 29 such places the names of the
   cities of 100,000+ listed, the 7 kept are short or long forms; the 22 dropped are mostly other languages' names of
   unrelated cities (Quito for 'Kita', Tijuana for 'Zaragoza', Pune for 'Puno'), with a few variant spellings lost
   alongside ('Jalapa' for Xalapa).

6. A name typed with marks (accents, strokes: 'Münster', 'Åland') is the place of that name with those marks when the
   table has one: a namesake in another country whose own name differs only by its marks is left out ('Münster' is
   the German city, not Munster, Ireland; 'Åland' the islands, by their Swedish name, not Aland, India; 'San José'
   Costa Rica's capital, not San Jose, California). In the country of such a place every namesake stays (GeoNames
   writes some divisions without their marks: 'Córdoba' is still the Argentine city standing for its province
   'Cordoba'). Typed without marks, a name is every place it folds to ('Munster' is both).

A division's codes ('OR', 'NSW') name it only as a qualifier ('Portland, OR'); alone, 'OR' is no place.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Final, Literal

from horologe.core import tzdb
from horologe.core.gazetteer import ALTERNATE_WEIGHT, Division, Gazetteer, Place, fold, mark_fold

HOME_WEIGHT: Final = 30
"""A place in the client's country counts thirty times its people: 'Armenia' from Colombia is the Colombian city
(272,000 people against Armenia's 3 million), 'Paris' from the United States is still Paris, France (Paris, Texas has
25,000), and 'London' from Canada is refused with both Londons."""
CITY_RIVAL: Final = 500_000
"""A city of this many people ties a division or country of its name of up to ten times its weight; a country by its own
name weighs at least this much."""
ONE_CLOCK_SHARE: Final = 0.95
"""A division whose cities keep one clock for this share of their people answers that clock and names the others
(Texas: America/Chicago, and America/Denver for El Paso); below it, the division is refused with its clocks."""

Kind = Literal["city", "region", "country"]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A place a name may mean: how to call it, what it is, where it lies, its clocks (one zone each, the most
    populous first), its weight in the ranking, whether the name is its own (not a former or foreign one), its
    people, and whether it is a city ranked as the area of its name it stands for (rule 4)."""

    label: str
    kind: Kind
    country: str
    division: str
    zones: tuple[str, ...]
    weight: float
    own: bool = True
    people: int = 0
    area: bool = False  # a city standing for the division or country of its name, with its weight

    @property
    def clock(self) -> str:
        """What tells two candidates' answers apart: the canonical zone of a one-zone place, else the place itself."""
        return tzdb.canonical_name(self.zones[0]) if len(self.zones) == 1 else f"{self.kind}:{self.label}"


Scope = tuple[str, str | None]
"""Where a qualifier puts a place: a country, or a country and one of its divisions (GeoNames admin-1 code)."""


def candidates(places: Gazetteer, text: str, hint: str | None = None, country: str | None = None) -> list[Candidate]:
    """Every city, division and country `text` names, heaviest first (the client's country `hint` weighs more);
    `country` is the country the text names by the tz database's own names and synonyms ('UK'), if any."""
    folded = fold(text)
    found = [*_cities(places, folded), *_divisions(places, folded)]
    named = _country(places, text, folded, country)
    if named is not None:
        found.append(named)
    found = by_marks(places, text, found)
    if hint is not None:
        found = [_at_home(candidate) if candidate.country == hint else candidate for candidate in found]
    return sorted(found, key=lambda candidate: -candidate.weight)


def named_places(places: Gazetteer, text: str) -> list[Candidate]:
    """The cities and divisions `text` names (a qualified place's first part), and the zones whose exemplar city it
    is, heaviest first."""
    folded = fold(text)
    found = by_marks(places, text, [*_cities(places, folded), *_divisions(places, folded)])
    seen = {candidate.zones[0] for candidate in found}
    for zone in places.exemplars(folded):
        if zone not in seen:
            for country in tzdb.zone_countries(zone):
                found.append(Candidate(f"{text.strip()}, {country}", "city", country, "", (zone,), 0.0))
    return sorted(found, key=lambda candidate: -candidate.weight)


def qualifier_scopes(places: Gazetteer, text: str, country: str | None = None) -> set[Scope]:
    """Where a qualifier ('Austria', 'AT', 'Österreich', 'Oregon', 'OR', 'D.C.') puts a place; empty if unknown.
    `country` is the country the qualifier names by the tz database's own names and synonyms ('UK'), if any."""
    folded = fold(text)
    compact = folded.replace(" ", "")
    scopes: set[Scope] = {(country, None)} if country else set()
    code = text.strip().upper()
    if len(code) == 2 and code.isalpha() and tzdb.country_name(code) is not None:
        scopes.add((code, None))
    by_name = places.country(folded)
    if by_name is not None:
        scopes.add((by_name.code, None))
    scopes |= {(division.country, division.code) for division, _ in places.divisions(folded)}
    scopes |= {(division.country, division.code) for division in places.divisions_coded(compact)}
    return scopes


def by_marks(places: Gazetteer, text: str, found: list[Candidate]) -> list[Candidate]:
    """The candidates of a name typed with marks, without the namesakes in other countries that differ from it only by
    their marks, when the table has a place of the name as typed (rule 6)."""
    if mark_fold(text) == fold(text):
        return found
    hits = places.marked(text)
    if not hits:
        return found
    folded, countries = fold(text), {country for _, country, _, _ in hits}
    return [c for c in found if _identity(c) in hits or c.country in countries or fold(_own_name(c)) != folded]


def _identity(candidate: Candidate) -> tuple[str, str, str, str]:
    if candidate.kind == "country":
        return ("country", candidate.country, "", "")
    return (candidate.kind, candidate.country, candidate.division, _own_name(candidate))


def _own_name(candidate: Candidate) -> str:
    """A candidate's own name: a country's label, a city's or division's label without its country."""
    return candidate.label if candidate.kind == "country" else candidate.label.rsplit(", ", 1)[0]


def namesake(candidate: Candidate, name: str) -> bool:
    """Whether a place is one a reader of `name` may mean (rule 5): by its own name, or by another whose words are all
    in its own name or the other way round ('Santiago' for Santiago de los Caballeros, 'Al Madinah' for Madinah)."""
    if candidate.own:
        return True
    own = _own_name(candidate)
    typed, words = set(fold(name).split()), set(fold(own).split())
    return typed <= words or words <= typed


def within(candidate: Candidate, area: Candidate) -> bool:
    """Whether a city lies in a division or country candidate."""
    return candidate.country == area.country and (area.kind == "country" or candidate.division == area.division)


def in_scope(candidate: Candidate, scopes: Iterable[Scope]) -> bool:
    """Whether the candidate lies in one of the scopes."""
    return any(
        candidate.country == country and (division is None or candidate.division == division)
        for country, division in scopes
    )


def city_label(place: Place, division: Division | None = None) -> str:
    """'Mumbai, IN', or 'Portland, Oregon, US' when the division tells namesakes apart."""
    return f"{place.name}, {division.name}, {place.country}" if division else f"{place.name}, {place.country}"


def division_label(division: Division) -> str:
    """'Arizona, US'."""
    return f"{division.name}, {division.country}"


def _cities(places: Gazetteer, folded: str) -> list[Candidate]:
    found = []
    for match in places.matches(folded):
        place = match.place
        own = not match.alternate
        found.append(
            Candidate(
                city_label(place),
                "city",
                place.country,
                place.division,
                (place.zone,),
                match.weight,
                own,
                place.population,
            )
        )
    return found


def _divisions(places: Gazetteer, folded: str) -> list[Candidate]:
    found = []
    for division, other in places.divisions(folded):
        weight = division.people * (ALTERNATE_WEIGHT if other else 1.0)
        zones = main_clocks(division.zones)
        label = division_label(division)
        found.append(
            Candidate(label, "region", division.country, division.code, zones, weight, not other, division.people)
        )
    return found


def main_clocks(clocks: tuple[tuple[str, int], ...]) -> tuple[str, ...]:
    """A place's clocks to answer with: its main one alone when it keeps `ONE_CLOCK_SHARE` of the people, else all."""
    total = sum(people for _, people in clocks) or 1
    if clocks and clocks[0][1] >= total * ONE_CLOCK_SHARE:
        return (clocks[0][0],)
    return tuple(zone for zone, _ in clocks)


def _country(places: Gazetteer, text: str, folded: str, named: str | None) -> Candidate | None:
    code = text.strip().upper()
    if len(code) == 2 and code.isalpha() and tzdb.country_name(code) is not None:
        country, weight = places.country_coded(code), ALTERNATE_WEIGHT
    elif named is not None:
        country, weight = places.country_coded(named), 1.0
    else:
        found = places.country(folded)
        if found is None:
            return None
        country, weight = found, 1.0 if found.primary else ALTERNATE_WEIGHT
    zones = main_clocks(country.zones) or tzdb.zones_for_country(country.code)
    if not zones:
        return None
    name = tzdb.country_name(country.code) or country.code
    weighed = max(country.people, CITY_RIVAL) if weight == 1.0 else max(country.people * weight, 1.0)
    return Candidate(name, "country", country.code, "", zones, weighed, weight == 1.0, country.people)


def _at_home(candidate: Candidate) -> Candidate:
    return replace(candidate, weight=candidate.weight * HOME_WEIGHT)
