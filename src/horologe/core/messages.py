"""Text for people, kept as a message id and its parameters until the edge renders it in the request's language.

A message id is its English template (the gettext convention: the source text is the catalog key), marked
with `N_` where it is written so `make i18n-extract` finds it. The core never translates: it builds
`Message` values; `horologe.i18n.language.Language.render` looks each template up in the catalog of the
negotiated language and fills in the parameters. A parameter may itself be a `Message` (a translated
fragment); `also` holds further sentences, rendered after the first and joined with a space. `joined` glues
messages together without a template of its own; `English` marks a parameter that is English text no catalog
can translate (a library's own explanation), so the answer can say its language honestly; `Written` marks a name as
a data source writes it (a holiday's name), in the language it names, which the answer reports when it is not the
request's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field


def N_(template: str) -> str:
    """Mark a template for extraction into the catalogs; it is translated where it is rendered."""
    return template


def _unchanged(template: str) -> str:
    return template


class English(str):
    """A parameter value that is English text no catalog can translate."""

    __slots__ = ()


class Written(str):
    """A parameter value that is a name as a data source writes it, in the language `language` (a BCP 47 tag)."""

    language: str

    def __new__(cls, text: str, language: str) -> Written:
        """The name `text`, written in `language`."""
        written = super().__new__(cls, text)
        written.language = language
        return written


@dataclass(frozen=True, slots=True)
class Message:
    """A template, its parameters, and any further sentences; `translatable=False` for glue such as "{a}; {b}"."""

    template: str
    params: Mapping[str, object] = field(default_factory=dict)
    also: tuple[Message, ...] = ()
    translatable: bool = True

    def render(self, translate: Callable[[str], str] = _unchanged) -> str:
        """The text, each template passed through `translate` (English when not given)."""
        values = {
            name: value.render(translate) if isinstance(value, Message) else value
            for name, value in self.params.items()
        }
        template = translate(self.template) if self.translatable else self.template
        text = template.format(**values)
        return " ".join([text, *(sentence.render(translate) for sentence in self.also)])

    def has_english(self) -> bool:
        """Whether some parameter, here or in a nested message, is `English` text."""
        return any(isinstance(value, English) for part in self.parts() for value in part.params.values())

    def written_in(self) -> list[str]:
        """The languages of the `Written` names among the parameters, here and in nested messages."""
        return [value.language for part in self.parts() for value in part.params.values() if isinstance(value, Written)]

    def templates(self) -> list[str]:
        """Every translatable template this message renders, its own first."""
        return [part.template for part in self.parts() if part.translatable]

    def parts(self) -> Iterator[Message]:
        """This message, then each message among its parameters and further sentences, depth first."""
        yield self
        for value in self.params.values():
            if isinstance(value, Message):
                yield from value.parts()
        for sentence in self.also:
            yield from sentence.parts()


def msg(template: str, /, **params: object) -> Message:
    """A message from a template and its parameters."""
    return Message(template, params)


def joined(parts: Sequence[Message], separator: str = "; ") -> Message:
    """Several messages as one, separated by `separator` (the glue itself is not translated)."""
    template = separator.join(f"{{part{index}}}" for index in range(len(parts)))
    return Message(template, {f"part{index}": part for index, part in enumerate(parts)}, translatable=False)
