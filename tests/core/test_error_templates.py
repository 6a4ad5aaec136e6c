"""Every text a domain error shows is a literal template, so `pybabel extract` finds it and catalogs translate it.

An AST scan over `src/horologe/core/*.py`: each construction of a TimeError subclass passes `N_("a literal")`
as its first argument and a keyword argument for every `{placeholder}`; so does each `msg(...)` (a hint, a
reason or another sentence of a message); `N_` only ever marks one string literal. The scan is shown to catch
bad code, and the messages whose ids the catalogs already translate are checked to keep those exact ids.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import string
from collections.abc import Callable, Iterable
from datetime import UTC
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

import horologe.core
from horologe.core import tzdb
from horologe.core.errors import (
    AmbiguousLocalTime,
    InvalidTimestamp,
    InvalidTimezone,
    NonexistentLocalTime,
    TimeError,
)
from horologe.core.messages import Message
from horologe.core.parse import parse_date, parse_timestamp
from horologe.core.zones import resolve_zone

CORE = Path(__file__).parents[2] / "src" / "horologe" / "core"
CORE_FILES = sorted(CORE.glob("*.py"))
ERROR_CLASSES = frozenset(
    {
        "TimeError",
        "InvalidTimezone",
        "AmbiguousTimezone",
        "InvalidTimestamp",
        "ConversionError",
        "NonexistentLocalTime",
        "AmbiguousLocalTime",
        "InvalidArgument",
        "InvalidArguments",
    }
)
MESSAGE_FACTORIES = frozenset({"msg"})
OPTIONS = frozenset({"suggestions", "details", "also"})
REMOVED = frozenset({"template", "params"})


# --- the scan ----------------------------------------------------------------------------------------------------


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def error_classes(trees: Iterable[ast.Module]) -> frozenset[str]:
    """The listed error classes plus every class the scanned code derives from one (such as UnknownExpression)."""
    names = set(ERROR_CLASSES)
    classes = [node for tree in trees for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    grown = True
    while grown:
        derived = {node.name for node in classes if any(_name(base) in names for base in node.bases)}
        grown = not derived <= names
        names |= derived
    return frozenset(names)


def is_marked_literal(node: ast.expr) -> bool:
    """Whether `node` is `N_("...")`: a call of N_ with exactly one string literal."""
    return (
        isinstance(node, ast.Call)
        and _name(node.func) == "N_"
        and len(node.args) == 1
        and not node.keywords
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    )


def placeholders(template: str) -> set[str]:
    """The names of a template's `{placeholders}` (a positional `{}` or `{0}` is named by its index)."""
    names: set[str] = set()
    for _, field, spec, _ in string.Formatter().parse(template):
        if field is not None:
            names.add(re.split(r"[.\[]", field, maxsplit=1)[0])
        if spec:
            names |= placeholders(spec)
    return names


def call_problems(call: ast.Call, options: frozenset[str]) -> list[str]:
    """What is wrong with one construction of an error (or one `msg`): template, removed keywords, placeholders."""
    found: list[str] = []
    keywords = {keyword.arg for keyword in call.keywords if keyword.arg is not None}
    spreads = any(keyword.arg is None for keyword in call.keywords)
    if keywords & REMOVED:
        found.append(f"passes {', '.join(sorted(f'{name}=' for name in keywords & REMOVED))}, which no longer exist")
    if not call.args or not is_marked_literal(call.args[0]):
        found.append("its first argument is not N_ of a string literal")
        return found
    if len(call.args) > 1:
        found.append("takes positional arguments after the template")
    marked = call.args[0]
    assert isinstance(marked, ast.Call) and isinstance(marked.args[0], ast.Constant)
    try:
        names = placeholders(str(marked.args[0].value))
    except ValueError as exc:
        return [*found, f"its template is not a format string ({exc})"]
    if spreads:
        return found
    if missing := sorted(name for name in names - keywords):
        found.append(f"placeholders without a keyword argument: {missing}")
    if unused := sorted(keywords - names - options - REMOVED):
        found.append(f"keyword arguments its template never uses: {unused}")
    return found


def scan(tree: ast.Module, classes: frozenset[str]) -> tuple[int, list[str]]:
    """How many error constructions a module has, and every problem found (line: callee: problem)."""
    constructions, found = 0, []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        callee = _name(node.func)
        if callee in classes:
            constructions += 1
            found += [f"line {node.lineno}: {callee}: {problem}" for problem in call_problems(node, OPTIONS)]
        elif callee in MESSAGE_FACTORIES:
            found += [f"line {node.lineno}: {callee}: {problem}" for problem in call_problems(node, frozenset())]
        elif callee == "N_" and not is_marked_literal(node):
            found.append(f"line {node.lineno}: N_ must mark exactly one string literal")
    return constructions, found


def scan_source(source: str) -> list[str]:
    """The problems of a snippet, with the classes it derives itself counted as errors too."""
    tree = ast.parse(source)
    return scan(tree, error_classes([tree]))[1]


TREES = {path.name: ast.parse(path.read_text(encoding="utf-8")) for path in CORE_FILES}
CLASSES = error_classes(TREES.values())


# --- the core passes it ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(TREES))
def test_every_core_error_has_a_literal_template_with_its_parameters(name: str) -> None:
    assert scan(TREES[name], CLASSES)[1] == []


def test_the_scan_sees_every_raise_site_and_every_error_class() -> None:
    assert sum(scan(tree, CLASSES)[0] for tree in TREES.values()) >= 50
    for module in pkgutil.iter_modules(horologe.core.__path__):
        importlib.import_module(f"horologe.core.{module.name}")
    assert {cls.__name__ for cls in _subclasses(TimeError)} == CLASSES


def _subclasses(cls: type[TimeError]) -> set[type[TimeError]]:
    found = {cls}
    for sub in cls.__subclasses__():
        if sub.__module__.startswith("horologe.core."):
            found |= _subclasses(sub)
    return found


# --- the scan catches bad code -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "problem"),
    [
        ("raise InvalidArgument(f'Unknown unit {unit!r}.')", "first argument is not N_ of a string literal"),
        ("raise InvalidArgument('Unknown unit.')", "first argument is not N_ of a string literal"),
        ("raise InvalidArgument(N_(TEMPLATE), unit=u)", "first argument is not N_ of a string literal"),
        ("raise InvalidArgument(N_(f'Unknown {unit}'))", "first argument is not N_ of a string literal"),
        ("raise InvalidArgument(N_('Unknown ' + unit))", "first argument is not N_ of a string literal"),
        ("raise InvalidArgument(_UNKNOWN.template)", "first argument is not N_ of a string literal"),
        ("raise InvalidArgument(suggestions=['s'])", "first argument is not N_ of a string literal"),
        ("raise InvalidArgument(N_('Unknown unit {unit}.'))", "placeholders without a keyword argument: ['unit']"),
        ("raise errors.InvalidTimestamp(N_('{input} is odd.'), inptu='x')", "without a keyword argument: ['input']"),
        ("raise InvalidArgument(N_('Year {0}.'), 2026)", "positional arguments after the template"),
        ("raise InvalidArgument(N_('Unknown unit.'), unit='s')", "its template never uses: ['unit']"),
        ("raise TimeError(N_('Unknown timezone {input}.'), template='timezone.unknown', input='x')", "template="),
        ("raise InvalidTimezone(N_('Unknown timezone {input}.'), params={'input': 'x'})", "params="),
        ("raise InvalidArgument(N_('Broken {unit'), unit='s')", "not a format string"),
        ("class Custom(InvalidArgument): ...\nclass Deeper(Custom): ...\nraise Deeper('text')", "first argument"),
        ("hint = msg(f'Did you mean {names}?')", "first argument is not N_ of a string literal"),
        ("hint = msg(N_('Did you mean {candidates}?'))", "placeholders without a keyword argument: ['candidates']"),
        ("HELP = N_(text)", "N_ must mark exactly one string literal"),
        ("HELP = N_('a', 'b')", "N_ must mark exactly one string literal"),
    ],
)
def test_the_scan_catches_bad_code(source: str, problem: str) -> None:
    found = scan_source(source)
    assert any(problem in line for line in found), found


@pytest.mark.parametrize(
    "source",
    [
        "raise InvalidArgument(N_('Unknown unit {unit}. Use: {known}.'), unit='x', known='s', suggestions=['s'])",
        "raise InvalidArgument(N_('Unknown unit {unit}.'), **params)",
        "raise InvalidTimezone(N_('Timezone is empty.'), also=(msg(N_('Use {zone}.'), zone='UTC'),), details={})",
        "raise InvalidArgument(N_('Implicitly ' 'concatenated {unit}.'), unit='s')",
        "raise InvalidArgument(N_('{nested.name} and {items[0]}'), nested=a, items=b)",
        "isinstance(error, InvalidArgument) or pytest.raises(InvalidArgument)",
    ],
)
def test_the_scan_passes_good_code(source: str) -> None:
    assert scan_source(source) == []


# --- the catalogs' message ids stay as they are ------------------------------------------------------------------

HELP = "Use an IANA name such as 'Europe/Vienna', a UTC offset such as '+05:30', or 'UTC'."


def _raises(call: Callable[[], object]) -> TimeError:
    with pytest.raises(TimeError) as caught:
        call()
    return caught.value


@pytest.mark.parametrize(
    ("call", "error", "templates", "english"),
    [
        (
            lambda: resolve_zone("Asia/Tokio"),
            InvalidTimezone,
            ["Unknown timezone {input}.", "Did you mean {candidates}?", HELP],
            f"Unknown timezone 'Asia/Tokio'. Did you mean 'Asia/Tokyo'? {HELP}",
        ),
        (
            lambda: resolve_zone("Xyzzy"),
            InvalidTimezone,
            ["Unknown timezone {input}.", HELP],
            f"Unknown timezone 'Xyzzy'. {HELP}",
        ),
        (
            lambda: tzdb.canonical_name("Mars/Base"),
            InvalidTimezone,
            ["Unknown timezone {input}."],
            "Unknown timezone 'Mars/Base'.",
        ),
        (lambda: resolve_zone("  "), InvalidTimezone, ["Timezone is empty.", HELP], f"Timezone is empty. {HELP}"),
        (
            lambda: parse_timestamp("garbage", UTC),
            InvalidTimestamp,
            [
                "Could not read {input} as a timestamp. Use ISO 8601 like '2025-08-17T10:30:00Z', Unix seconds like "
                "1755426600, RFC 2822 or an HTTP date."
            ],
            "Could not read 'garbage' as a timestamp. Use ISO 8601 like '2025-08-17T10:30:00Z', Unix seconds like "
            "1755426600, RFC 2822 or an HTTP date.",
        ),
        (
            lambda: parse_date("yesterday"),
            InvalidTimestamp,
            ["Could not read {input} as a date. Use an ISO 8601 date like '2025-08-17'."],
            "Could not read 'yesterday' as a date. Use an ISO 8601 date like '2025-08-17'.",
        ),
        (
            lambda: parse_timestamp("0000-01-01", UTC),
            InvalidTimestamp,
            ["{input} is outside the supported range: years 1 to 9999."],
            "'0000-01-01' is outside the supported range: years 1 to 9999.",
        ),
        (
            lambda: parse_timestamp("2026-03-29T02:30", ZoneInfo("Europe/Vienna"), disambiguation="reject"),
            NonexistentLocalTime,
            [
                "{wall} does not exist in {zone} (clocks skip it). Nearest readings: {first} or {second}. Pass "
                "disambiguation 'earlier', 'later' or 'compatible' to choose one."
            ],
            "2026-03-29T02:30:00 does not exist in Europe/Vienna (clocks skip it). Nearest readings: "
            "2026-03-29T01:30:00+01:00 or 2026-03-29T03:30:00+02:00. Pass disambiguation 'earlier', 'later' or "
            "'compatible' to choose one.",
        ),
        (
            lambda: parse_timestamp("2026-11-01T01:30", ZoneInfo("America/New_York"), disambiguation="reject"),
            AmbiguousLocalTime,
            [
                "{wall} happens twice in {zone} (clocks go back): {first} or {second}. Pass disambiguation 'earlier' "
                "or 'later' to choose, or give an explicit UTC offset."
            ],
            "2026-11-01T01:30:00 happens twice in America/New_York (clocks go back): 2026-11-01T01:30:00-04:00 or "
            "2026-11-01T01:30:00-05:00. Pass disambiguation 'earlier' or 'later' to choose, or give an explicit UTC "
            "offset.",
        ),
    ],
    ids=["unknown-suggested", "unknown", "unknown-key", "empty", "timestamp", "date", "range", "gap", "fold"],
)
def test_messages_the_catalogs_translate_keep_their_ids(
    call: Callable[[], object], error: type[TimeError], templates: list[str], english: str
) -> None:
    raised = _raises(call)
    assert type(raised) is error
    assert isinstance(raised.text, Message)
    assert raised.text.templates() == templates
    assert str(raised) == raised.message == english


def test_an_error_keeps_its_parameters_for_rendering_in_another_language() -> None:
    raised = _raises(lambda: resolve_zone("Asia/Tokio"))
    assert raised.text.params == {"input": "'Asia/Tokio'"}
    german = {
        "Unknown timezone {input}.": "Unbekannte Zeitzone {input}.",
        "Did you mean {candidates}?": "Meintest du {candidates}?",
        HELP: "Verwende einen IANA-Namen wie 'Europe/Vienna', einen UTC-Versatz wie '+05:30' oder 'UTC'.",
    }
    assert raised.text.render(german.__getitem__) == (
        "Unbekannte Zeitzone 'Asia/Tokio'. Meintest du 'Asia/Tokyo'? "
        "Verwende einen IANA-Namen wie 'Europe/Vienna', einen UTC-Versatz wie '+05:30' oder 'UTC'."
    )
    assert raised.suggestions == ("Asia/Tokyo",)  # Tomsk and Omsk only look alike, hours away


def test_no_error_attribute_of_the_old_design_is_left() -> None:
    raised = _raises(lambda: parse_timestamp("garbage", UTC))
    for removed in ("code", "template", "params", "to_dict"):
        assert not hasattr(raised, removed), removed
