"""Bounds on the text players send, and how a refusal quotes it back.

Everything a player types reaches the engine and the referee as text of any length and, through
a buggy or hostile front end, as any value at all. Two rules keep that harmless:

- a refusal quotes at most a short prefix of what was written (``quote``), so that its length
  does not depend on the input (Discord refuses a message over 2,000 characters);
- every text that is kept (names, ids, options, a stacked deck) has a bound, all set here, and
  is refused (or, for names, cut) beyond it before anything is computed or stored.
"""

from __future__ import annotations

import reprlib
from typing import Any

from engine.i18n import number, tr

from .errors import BadNotation

QUOTE_CHARS = 40  # of a player's text quoted in a refusal
MAX_MOVE_CHARS = 200  # a move's text (the longest notation of any game is about 40 characters)
MAX_NAME_CHARS = 32  # a seat's shown name: Discord's longest display name, which boards are measured with
MAX_ID_CHARS = 64  # a user, server, channel or message id (Discord snowflakes have 20 digits)
MAX_KEY_CHARS = 40  # a game, option, speed or AI kind name
MAX_OPTIONS = 32  # options given at once (a game has a handful)
MAX_OPTION_CHARS = 2_000  # one option's value as text: a whole stacked deck of long card codes
MAX_DECK_CARDS = 150  # cards in a stacked deck (the largest deck has 89)
MAX_CARD_CHARS = 32  # one card code of a stacked deck
MAX_STACKED_HANDS = 64  # decks in a per-hand stacking option (a long Figures match has about 20 hands)
MAX_OPTION_INT = 2**53  # an integer option without bounds of its own (exact in JSON everywhere)

_SHORT_REPR = reprlib.Repr()
_SHORT_REPR.maxstring = QUOTE_CHARS
_SHORT_REPR.maxother = QUOTE_CHARS


def quote(text: Any, limit: int = QUOTE_CHARS) -> str:
    """``repr`` of what a player wrote, cut to its first ``limit`` characters ("…" marks the cut):
    ``quote("7x")`` is ``'7x'``, a 6,000-character text gives about 45 characters."""
    if not isinstance(text, str):
        try:  # not text at all: a short description (reprlib bounds containers and numbers)
            return _SHORT_REPR.repr(text)[: limit + 5]
        except Exception:  # an integer too long to print, an object whose repr fails...
            return f"a {type(text).__name__}"
    if len(text) <= limit:
        return repr(text)
    shown = repr(text[:limit])
    return shown[:-1] + "…" + shown[-1]


def check_move_text(text: Any) -> str:
    """The move text itself, if it can be read at all: a string of bounded length. Raises
    BadNotation otherwise, before any game reads it."""
    if not isinstance(text, str):
        raise BadNotation(tr("A move is written as text, like the examples of the game's notation."))
    if len(text) > MAX_MOVE_CHARS:
        raise BadNotation(
            tr(
                "That is {count} characters; a move is at most {limit}, like the examples of the "
                "game's notation.",
                count=number(len(text)),
                limit=MAX_MOVE_CHARS,
            )
        )
    return text


__all__ = [
    "MAX_CARD_CHARS",
    "MAX_DECK_CARDS",
    "MAX_ID_CHARS",
    "MAX_KEY_CHARS",
    "MAX_MOVE_CHARS",
    "MAX_NAME_CHARS",
    "MAX_OPTIONS",
    "MAX_OPTION_CHARS",
    "MAX_OPTION_INT",
    "QUOTE_CHARS",
    "check_move_text",
    "quote",
]
