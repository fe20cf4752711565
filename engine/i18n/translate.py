"""Reading the catalogues and translating one message into the reader's language.

The language is the reader's, set by the front end around the work it does for them
(``use_language``): a context variable, so that two Discord interactions handled at once, each
in its own asyncio task, each keep their own language, and the engine stays a pure function of
what it is given (the language is an input like the names of the seats). Nothing a game stores
depends on it: only the texts read out of a position do.

Messages are English with ``{named}`` fields, filled after translation so that a translator can
put them in the order of their language:

    tr("{name} to play.", name=names[seat])
    tr_n("{n} giro turn left.", "{n} giro turns left.", left)
    tr_ctx("button", "Play your turn")       # the context tells translators (and limits) where it goes
    SUMMARY = N_("Four players, ...")         # marked for the catalogue, translated where shown: tr(SUMMARY)
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from .languages import CODES, SOURCE, language_or_source

CATALOGS = Path(__file__).with_name("catalogs")

_language: ContextVar[str] = ContextVar("language", default=SOURCE)


def catalog_path(code: str) -> Path:
    return CATALOGS / f"{code}.po"


@cache
def _translations(code: str) -> gettext.NullTranslations:
    """The compiled catalogue of a language, read once per process.

    The ``.po`` file is the only form kept in the repository: it is compiled in memory here
    (Babel), so no build step can leave a stale binary catalogue behind.
    """
    if code == SOURCE or code not in CODES:
        return gettext.NullTranslations()
    with catalog_path(code).open("rb") as source:
        catalog = read_po(source, locale=code)
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def language() -> str:
    """The code of the language texts are written in now."""
    return _language.get()


def set_language(tag: object) -> Token[str]:
    """Switch the current context to the language serving ``tag`` (English when none does);
    the token undoes it (``reset_language``). For a process with one reader, such as the local
    table; a front end serving many readers uses ``use_language``."""
    return _language.set(language_or_source(tag))


def reset_language(token: Token[str]) -> None:
    _language.reset(token)


@contextmanager
def use_language(tag: object) -> Iterator[str]:
    """Write texts in the language serving ``tag`` inside the block; yields its code."""
    token = set_language(tag)
    try:
        yield _language.get()
    finally:
        _language.reset(token)


def _filled(translated: str, source: str, fields: dict[str, Any]) -> str:
    if not fields:
        return translated
    try:
        return translated.format(**fields)
    except (KeyError, IndexError, ValueError):
        # A broken translation (the tests check every placeholder) must not cost a reply.
        return source.format(**fields)


def tr(message: str, /, **fields: Any) -> str:
    """``message`` in the current language, its ``{fields}`` filled."""
    return _filled(_translations(_language.get()).gettext(message), message, fields)


def tr_n(singular: str, plural: str, n: int, /, **fields: Any) -> str:
    """The form of a message for the count ``n`` (each language has its own plural rules);
    ``{n}`` is filled with ``n`` unless a field says otherwise."""
    fields.setdefault("n", n)
    translated = _translations(_language.get()).ngettext(singular, plural, n)
    return _filled(translated, singular if n == 1 else plural, fields)


def tr_ctx(context: str, message: str, /, **fields: Any) -> str:
    """``message`` in the current language, in a context that tells short words apart
    ("button", "command", a game's name for its own vocabulary)."""
    return _filled(_translations(_language.get()).pgettext(context, message), message, fields)


def tr_ctx_n(context: str, singular: str, plural: str, n: int, /, **fields: Any) -> str:
    fields.setdefault("n", n)
    translated = _translations(_language.get()).npgettext(context, singular, plural, n)
    return _filled(translated, singular if n == 1 else plural, fields)


def N_(message: str) -> str:  # noqa: N802 - the conventional gettext marker name
    """Marks a message for the catalogue where it is defined (a constant); it is translated
    where it is shown, with ``tr(CONSTANT)``."""
    return message


__all__ = [
    "CATALOGS",
    "N_",
    "catalog_path",
    "language",
    "reset_language",
    "set_language",
    "tr",
    "tr_ctx",
    "tr_ctx_n",
    "tr_n",
    "use_language",
]
