"""A stand-in for the English-fragment detector (``tests/i18n/english.py``, being written on
another branch) with its signature: ``english_fragments(text, language, allowed)``.

``allowed`` holds what may stay as written in any language: names, card codes, move notation
(each removed from the text, as whole words, before it is read). What is left is read word by word:
- in Japanese, any word in Latin letters is a fragment;
- in Italian and Portuguese, a word is a fragment when English uses it (a word of the English
  messages of the catalogues, or a common English word) and the language's own translations
  never do (so "total", "giro" or "individual", words of both languages, are not flagged).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from tools import messages

_WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ']+")
_FIELD = re.compile(r"\{[^{}]*\}")
COMMON_ENGLISH = set(
    """the a an and or of to in on is are was be your you yours it its this that with for not no
    card cards play plays played pass passes turn turns table hand hands points point player players
    seat seats pick picks picked round rounds pool batch batches deck game over match wins win
    left earlier moves move clear open beat giro figure figures three kings king dealer used empty
    playable ticked now total totals score scores height sweetness colour color sum easy mode
    final share nothing place cards change if must may cannot only any every first second third""".split()
)


def _words(text: str) -> set[str]:
    return {word.lower() for word in _WORD.findall(_FIELD.sub(" ", text))}


@cache
def _language_words(language: str) -> frozenset[str]:
    found: set[str] = set()
    for message in messages.read(language):
        if message.id:
            strings = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
            for text in strings:
                found |= _words(text or "")
    return frozenset(found)


@cache
def _english_words() -> frozenset[str]:
    found: set[str] = set(COMMON_ENGLISH)
    for message in messages.extract():
        if message.id:
            ids = message.id if isinstance(message.id, (list, tuple)) else (message.id,)
            for text in ids:
                found |= _words(text)
    return frozenset(word for word in found if len(word) > 1)


@cache
def _allowed_pattern(allowed: frozenset[str]) -> re.Pattern[str]:
    # Whole words only ("re", the Italian king, is allowed; "reis" is not cut), longest first;
    # a word may touch Japanese text ("Aliceの番です").
    alternatives = "|".join(re.escape(token) for token in sorted(allowed, key=len, reverse=True) if token)
    return re.compile(rf"(?<![A-Za-z0-9_\-])(?:{alternatives or '(?!)'})(?![A-Za-z0-9_\-])")


def english_fragments(text: str, language: str, allowed: Iterable[str] = ()) -> list[str]:
    text = _allowed_pattern(frozenset(allowed)).sub(" ", text)
    words = [word for word in _WORD.findall(text) if len(word) > 1]
    if language == "ja":
        return [word for word in words if word.isascii()]
    english = _english_words() - _language_words(language)
    return [word for word in words if word.lower() in english]
