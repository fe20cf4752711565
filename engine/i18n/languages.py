"""The languages the bot speaks, and how a locale tag from anywhere finds one of them.

Adding a language is one catalogue file (``catalogs/<code>.po``) and one line below.
English is the source language: the messages in the code are English, so it needs no catalogue.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    code: str  # the catalogue's name and Babel's locale ("pt_BR")
    name: str  # the language's own name, as a menu shows it
    discord: tuple[str, ...]  # the Discord client locales it serves ("pt-BR")


SOURCE = "en"

LANGUAGES: tuple[Language, ...] = (
    Language("en", "English", ("en-US", "en-GB")),
    Language("it", "Italiano", ("it",)),
    Language("pt_BR", "Português (Brasil)", ("pt-BR",)),
    Language("ja", "日本語", ("ja",)),
)

CODES: tuple[str, ...] = tuple(language.code for language in LANGUAGES)
_BY_CODE = {language.code.lower(): language for language in LANGUAGES}


def resolve_language(tag: object) -> str | None:
    """The code of the language serving a locale tag, or None when none does.

    Takes our codes and what Discord, POSIX and browsers write: ``pt-BR``, ``pt_BR``,
    ``it_IT.UTF-8``, ``ja-JP``, ``en-US``, ``C``. A regional variant finds its language, and a
    language without the exact region finds its only variant (``pt`` is Brazilian Portuguese).
    """
    if not isinstance(tag, str) or not tag or len(tag) > 40:
        return None
    cleaned = tag.split(".", 1)[0].split("@", 1)[0].replace("-", "_").strip().lower()
    if cleaned in _BY_CODE:
        return _BY_CODE[cleaned].code
    base = cleaned.split("_", 1)[0]
    matches = [language.code for language in LANGUAGES if language.code.lower().split("_", 1)[0] == base]
    return matches[0] if len(matches) == 1 or base == SOURCE else None


def language_or_source(tag: object) -> str:
    """``resolve_language``, English for a tag that no language serves."""
    return resolve_language(tag) or SOURCE


def language_name(code: str) -> str:
    """A language's own name ("Italiano"); the code itself for an unknown one."""
    language = _BY_CODE.get(code.lower())
    return language.name if language else code


# Where a terminal says its language, most telling first (POSIX: LANGUAGE is a list).
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def terminal_language(argv: Sequence[str], environ: Mapping[str, str]) -> str | None:
    """The language a terminal's user asked for: ``--lang`` among the command's words (its last
    use), else the environment's (the first of its languages that the bot speaks); None when
    neither names one. The environment is handed in: this module reads nothing itself."""
    asked: str | None = None
    for position, word in enumerate(argv):
        if word == "--lang" and position + 1 < len(argv):
            asked = argv[position + 1]
        elif word.startswith("--lang="):
            asked = word.partition("=")[2]
    if asked is not None:
        return resolve_language(asked)
    for variable in LANGUAGE_VARIABLES:
        for tag in environ.get(variable, "").split(":"):
            found = resolve_language(tag)
            if found is not None:
                return found
        if environ.get(variable) and variable != "LANGUAGE":
            return None  # set to a language the bot does not speak (or C): the source language
    return None


__all__ = [
    "CODES",
    "LANGUAGES",
    "LANGUAGE_VARIABLES",
    "SOURCE",
    "Language",
    "language_name",
    "language_or_source",
    "resolve_language",
    "terminal_language",
]
