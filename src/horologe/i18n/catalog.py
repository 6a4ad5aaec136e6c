"""gettext catalogs: `locales/<dir>/LC_MESSAGES/horologe.mo`, loaded lazily, once per language.

Sources are the `.po` files next to the `.mo` files; `make i18n-extract i18n-update i18n-compile` keeps them
in step with the code (Babel's `pybabel`). English is the source language: its catalog maps every message
to itself, so no language ever needs a fallback.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path
from typing import Final

LOCALE_DIR: Final = Path(__file__).parent / "locales"
DOMAIN: Final = "horologe"


def catalog_dir(tag: str) -> str:
    """The directory name of a language's catalog: BCP 47 'zh-Hans' is gettext's 'zh_Hans'."""
    return tag.replace("-", "_")


@cache
def translations(tag: str) -> gettext.NullTranslations:
    """The compiled catalog of a language; a pass-through when it is missing (English text)."""
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[catalog_dir(tag)], fallback=True)


def has_catalog(tag: str) -> bool:
    """Whether a compiled catalog ships for the language."""
    return (LOCALE_DIR / catalog_dir(tag) / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file()
