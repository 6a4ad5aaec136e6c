"""The language of one request, and translation of our own strings into it.

Every request gets a `LanguageChoice` (the transport edge or the MCP middleware sets it in a context
variable for the duration of that request only: nothing is remembered between requests). Code that
produces text for people calls `gettext`/`ngettext`; code that cannot translate a text (an error that has
no template yet) calls `fall_back` so the answer's `contentLanguage` stays honest.

Rule for `contentLanguage`: it names the language actually used for the human-readable text of that
answer: the negotiated language, or English when some text of the answer could only be given in English,
or the language of an explicit tool argument when that argument decided the text.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextvars import ContextVar, Token
from dataclasses import dataclass
from typing import Any

from horologe.i18n import ACCEPT_LANGUAGE_META, DEFAULT_LANGUAGE, LANGUAGES, SOURCE_LANGUAGE
from horologe.i18n.catalog import translations
from horologe.i18n.negotiate import is_valid_accept_language, negotiate_language


@dataclass(slots=True)
class LanguageChoice:
    """The language selected for one request, and whether the client asked for one."""

    tag: str
    requested: bool = False
    reported: str | None = None

    @property
    def content_language(self) -> str:
        """What the answer reports in `contentLanguage` (see the module docstring)."""
        return self.reported or self.tag

    def fall_back(self, tag: str = SOURCE_LANGUAGE) -> None:
        """Some text of the answer is in `tag`, not the negotiated language (English fallback)."""
        if tag != self.tag:
            self.reported = tag


_CURRENT: ContextVar[LanguageChoice | None] = ContextVar("horologe_language", default=None)


def N_(message: str) -> str:
    """Mark a string for extraction without translating it here."""
    return message


def choose(accept_language: object, default: str = DEFAULT_LANGUAGE) -> LanguageChoice:
    """The choice for a raw `acceptLanguage` value: malformed or absent means no preference, never an error."""
    if not isinstance(accept_language, str) or not is_valid_accept_language(accept_language):
        return LanguageChoice(default)
    return LanguageChoice(negotiate_language(accept_language, LANGUAGES, default), requested=True)


def choose_from_meta(params: Mapping[str, Any] | None, default: str = DEFAULT_LANGUAGE) -> LanguageChoice:
    """The choice for a request's raw params (`params._meta[acceptLanguage]`)."""
    meta = params.get("_meta") if isinstance(params, Mapping) else None
    raw = meta.get(ACCEPT_LANGUAGE_META) if isinstance(meta, Mapping) else None
    return choose(raw, default)


class using:
    """Make `choice` the current request's language inside the block.

    A class rather than `@contextmanager`: it runs on every request, and a generator-based context manager
    costs several times more.
    """

    __slots__ = ("choice", "token")
    token: Token[LanguageChoice | None]

    def __init__(self, choice: LanguageChoice) -> None:
        self.choice = choice

    def __enter__(self) -> LanguageChoice:
        self.token = _CURRENT.set(self.choice)
        return self.choice

    def __exit__(self, *exc_info: object) -> None:
        _CURRENT.reset(self.token)


def current() -> LanguageChoice | None:
    """The current request's choice, if any request set one."""
    return _CURRENT.get()


def current_tag() -> str:
    """The current request's language tag (the default language outside a request)."""
    choice = _CURRENT.get()
    return choice.tag if choice is not None else DEFAULT_LANGUAGE


def fall_back(tag: str = SOURCE_LANGUAGE) -> None:
    """Record that some text of the current answer is in `tag` (English when a text has no translation)."""
    choice = _CURRENT.get()
    if choice is not None:
        choice.fall_back(tag)


def gettext(message: str, tag: str | None = None) -> str:
    """`message` in the current request's language (or `tag`)."""
    language = tag or current_tag()
    if language == SOURCE_LANGUAGE:
        return message
    return translations(language).gettext(message)


def ngettext(singular: str, plural: str, count: int, tag: str | None = None) -> str:
    """The singular or plural form of a message for `count`, in the current request's language (or `tag`)."""
    language = tag or current_tag()
    if language == SOURCE_LANGUAGE:
        return singular if count == 1 else plural
    return translations(language).ngettext(singular, plural, count)


_ = gettext
