"""Finding English left in a text that should be in another language.

A word counts as English when the English messages of the catalogue template (or a short list of
everyday English words) use it and no translation into the text's language does: "turn" in an
Italian board is English left behind, "come" is not (Italian uses it). Names and notation are the
caller's to allow (a seat called "Bob", the move "pass").

    assert english_fragments(board, "it", allowed={"alice", "bob", "pass"}) == []
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from babel.messages.pofile import read_po

from engine.i18n import SOURCE, catalog_path
from tools.messages import TEMPLATE

WORD = re.compile(r"[A-Za-z]+")
# Discord markup and links carry no words of a language: mentions, timestamps, custom emoji, URLs;
# nor do code spans and slash commands, the same in every language (`/play 7c`, /settings turn-dms):
# a translation quoting them does not make their words words of its language.
MARKUP = re.compile(r"<[@#/:a-zA-Z!&][^>\s]*>|https?://\S+|`[^`\n]*`|(?<![\w/])/[a-z][\w-]*(?: [a-z][\w-]*)?")
# A message's {fields} are names for the code, not words a reader sees in that language.
FIELD = re.compile(r"\{[^{}]*\}")
MIN_LETTERS = 3
EVERYDAY = set(
    """the and you your not turn turns play plays played player players card cards table seat seats
    score scores points point wins win won left hand hands move moves pass passed game games round
    rounds waiting for with from this that their there here must may can cannot will none no yes
    take takes took draw draws drew give gives next first last over out time clock clocks rating
    rated unrated board private public hint hints level easy normal strong season seasons vacation
    undo vote votes abandon rematch settings language server user stats history records share
    which what when who why how one two three four five six seven eight nine ten each every only
    just still already until after before between into onto about again more less most least""".split()
)


def _words(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(text) if len(word) >= MIN_LETTERS}


def _strings(value: object) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, (list, tuple)):
        yield from (item for item in value if isinstance(item, str))


@cache
def english_words() -> frozenset[str]:
    with TEMPLATE.open("rb") as source:
        template = read_po(source)
    words = set(EVERYDAY)
    for message in template:
        for text in _strings(message.id):
            words |= _words(FIELD.sub(" ", MARKUP.sub(" ", text)))
    return frozenset(words)


@cache
def words_of(language: str) -> frozenset[str]:
    """Every word the translations into ``language`` use (Latin-letter words only)."""
    with catalog_path(language).open("rb") as source:
        catalog = read_po(source, locale=language)
    words: set[str] = set()
    for message in catalog:
        if message.id:
            for text in _strings(message.string):
                words |= _words(FIELD.sub(" ", MARKUP.sub(" ", text)))
    return frozenset(words)


def english_fragments(text: str, language: str, allowed: Iterable[str] = ()) -> list[str]:
    """The English words of ``text`` that ``language`` does not use, in order of first sight."""
    if language == SOURCE:
        return []
    allowed_words = {word.lower() for item in allowed for word in WORD.findall(item)}
    foreign = english_words() - words_of(language) - allowed_words
    found: list[str] = []
    for word in WORD.findall(MARKUP.sub(" ", text)):
        lowered = word.lower()
        if len(word) >= MIN_LETTERS and lowered in foreign and lowered not in found:
            found.append(lowered)
    return found


__all__ = ["english_fragments", "english_words", "words_of"]
