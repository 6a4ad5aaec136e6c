"""The shipped catalogs: complete, not fuzzy, placeholders intact, compiled, and covering every title we serve."""

from __future__ import annotations

import gettext
import string

import pytest
from babel.messages.pofile import read_po

from horologe.i18n import LANGUAGES
from horologe.i18n.catalog import DOMAIN, LOCALE_DIR, catalog_dir, has_catalog
from horologe.i18n.messages import SERVER_TITLE, TITLES
from horologe.protocol import prompts, resources
from horologe.tools.registry import TOOLS

SAME_IN_SOME_LANGUAGES = {"Question", "Timer", "minute(s)"}
"""Messages whose translation may equal the English text ("Question" and "minute(s)" in French, "Timer" in German)."""


def template_ids() -> set[str]:
    with (LOCALE_DIR / f"{DOMAIN}.pot").open("rb") as handle:
        return {message.id for message in read_po(handle) if message.id and isinstance(message.id, str)}


def read_catalog(tag: str) -> dict[str, str]:
    """Every message of a language's .po source, msgid to msgstr."""
    with (LOCALE_DIR / catalog_dir(tag) / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as handle:
        return {
            str(message.id): str(message.string)
            for message in read_po(handle)
            if isinstance(message.id, str) and message.id
        }


def placeholders(template: str) -> list[tuple[str, str, str]]:
    """Each replacement field of a str.format template as (name, conversion, format spec), sorted."""
    fields = string.Formatter().parse(template)
    return sorted((name, conversion or "", spec or "") for _, name, spec, conversion in fields if name is not None)


def has_words(template: str) -> bool:
    """Whether a template has text besides its placeholders and punctuation ("{reason}" has none)."""
    literal = "".join(text for text, *_ in string.Formatter().parse(template))
    return any(char.isalpha() for char in literal)


def dummy_values(template: str) -> dict[str, object]:
    """A value for every placeholder name of a template: a number where a format spec (such as ':g') asks for one."""
    return {name: 1 if spec else "x" for _, name, spec, _ in string.Formatter().parse(template) if name is not None}


@pytest.mark.parametrize("tag", LANGUAGES)
def test_every_catalog_is_complete_and_not_fuzzy(tag: str) -> None:
    path = LOCALE_DIR / catalog_dir(tag) / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as handle:
        catalog = read_po(handle)
    messages = {message.id: message for message in catalog if message.id}
    missing = template_ids() - set(messages)
    assert not missing, f"{tag}: messages missing from the catalog: {sorted(missing)}"
    for message in messages.values():
        assert isinstance(message.id, str) and isinstance(message.string, str)
        assert message.string, f"{tag}: untranslated {message.id!r}"
        assert not message.fuzzy, f"{tag}: fuzzy {message.id!r}"
        assert placeholders(message.string) == placeholders(message.id), f"{tag}: placeholders of {message.id!r}"
        assert message.string.startswith(" ") == message.id.startswith(" "), message.id
        if tag != "en":
            untranslatable = message.id in SAME_IN_SOME_LANGUAGES or not has_words(message.id)
            assert message.string != message.id or untranslatable, f"{tag}: {message.id!r} left English"


@pytest.mark.parametrize("tag", LANGUAGES)
def test_every_translation_formats_with_the_placeholders_of_its_msgid(tag: str) -> None:
    for message_id, translation in read_catalog(tag).items():
        values = dummy_values(message_id)
        message_id.format(**values)
        try:
            translation.format(**values)
        except (KeyError, IndexError, ValueError) as exc:
            pytest.fail(f"{tag}: {translation!r} (for {message_id!r}) does not format: {exc!r}")


@pytest.mark.parametrize("tag", LANGUAGES)
def test_the_compiled_catalog_matches_its_source(tag: str) -> None:
    assert has_catalog(tag)
    compiled = gettext.translation(DOMAIN, LOCALE_DIR, languages=[catalog_dir(tag)])
    with (LOCALE_DIR / catalog_dir(tag) / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as handle:
        for message in read_po(handle):
            if message.id:
                assert compiled.gettext(str(message.id)) == message.string, f"{tag}: stale .mo, run make i18n-compile"


def test_every_served_title_is_in_the_catalogs() -> None:
    served = {spec.title for spec in TOOLS}
    served |= {entry["title"] for entry in (*resources.STATIC_RESOURCES, *resources.TEMPLATES, *prompts.PROMPTS)}
    served |= {argument["title"] for prompt in prompts.PROMPTS for argument in prompt.get("arguments", [])}
    assert served <= set(TITLES), sorted(served - set(TITLES))
    assert set(TITLES) | {SERVER_TITLE} <= template_ids()
