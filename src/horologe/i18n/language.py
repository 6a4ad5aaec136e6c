"""The language of one request (SEP-2792), and the translation of our own text into it.

The pipeline chooses a `Language` for every request from `params._meta["io.modelcontextprotocol/acceptLanguage"]`
and hands it to the code that writes text for people, inside the request's context: nothing is ambient and
nothing is remembered between requests.

Rule for `contentLanguage`: it names the language actually used for the human-readable text of that answer:
the negotiated language, or English when some text of the answer could only be given in English (a message
without a translation records that itself), or the language of an explicit tool argument when that argument
decided the text.
"""

from __future__ import annotations

from dataclasses import dataclass

from horologe.core.messages import Message
from horologe.i18n import DEFAULT_LANGUAGE, LANGUAGES, SOURCE_LANGUAGE
from horologe.i18n.catalog import translations
from horologe.i18n.negotiate import is_valid_accept_language, negotiate_language


@dataclass(slots=True)
class Language:
    """The language selected for one request, whether the client asked for one, and what its answer used."""

    tag: str = DEFAULT_LANGUAGE
    requested: bool = False
    reported: str | None = None

    @property
    def content_language(self) -> str:
        """What the answer reports in `contentLanguage` (see the module docstring)."""
        return self.reported or self.tag

    @property
    def locale(self) -> str | None:
        """The tag as a formatting locale when it is not the source language (English needs no CLDR lookup)."""
        return None if self.tag == SOURCE_LANGUAGE else self.tag

    def fall_back(self, tag: str = SOURCE_LANGUAGE) -> None:
        """Some text of the answer is in `tag`, not the negotiated language (English fallback)."""
        if tag != self.tag:
            self.reported = tag

    def written_in(self, tag: str) -> None:
        """Some names of the answer are written in `tag` (data such as holiday names): when that is not the negotiated
        language in its script, the answer reports `tag` ('zh-Hant-TW' names are not the negotiated 'zh-Hans')."""
        from horologe.core.calendar import written_as

        if written_as(tag) != written_as(self.tag):
            self.fall_back(tag)

    def gettext(self, message: str) -> str:
        """`message` in this language; English, recorded as a fallback, when the catalog lacks it."""
        if self.tag == SOURCE_LANGUAGE:
            return message
        translated = translations(self.tag).gettext(message)
        if translated is message:  # gettext returns its argument itself when the catalog has no entry
            self.fall_back()
        return translated

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The singular or plural form of a message for `count`, in this language."""
        if self.tag == SOURCE_LANGUAGE:
            return singular if count == 1 else plural
        translated = translations(self.tag).ngettext(singular, plural, count)
        if translated is singular or translated is plural:
            self.fall_back()
        return translated

    def render(self, message: Message) -> str:
        """A message with every template translated into this language.

        A message with an `English` part (a library's own explanation) is given whole in English, and the answer
        says so: one language per message, never a mix. A `Written` name stays as its data write it, and the answer
        reports its language when that is not this one.
        """
        for tag in message.written_in():
            self.written_in(tag)
        if self.tag != SOURCE_LANGUAGE and message.has_english():
            self.fall_back()
            return message.render()
        return message.render(self.gettext)


def choose(accept_language: object, default: str = DEFAULT_LANGUAGE) -> Language:
    """The language for a raw `acceptLanguage` value: malformed or absent means no preference, never an error."""
    if not isinstance(accept_language, str) or not is_valid_accept_language(accept_language):
        return Language(default)
    return Language(negotiate_language(accept_language, LANGUAGES, default), requested=True)


def gettext(message: str, tag: str) -> str:
    """`message` in the language `tag` (English when the catalog lacks it), outside any request."""
    return message if tag == SOURCE_LANGUAGE else translations(tag).gettext(message)
