"""AI levels at a table: what a player chooses (easy, normal, strong), what plays a seat, and
what the lobby shows.

A seat stores the level chosen for it (``Seat.ai_kind``: "easy", "normal" or "strong"); tables
stored before the levels keep their kinds ("greedy", "random"), which stay valid. What plays a
seat is the game's AI of that name (``Game.ai_players``) when the game offers it, else the
nearest weaker one it has: a game without search players plays normal and strong with its
greedy player. Absent players are taken over at ``TAKEOVER_LEVEL``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import Game
from engine.core.text import quote
from engine.i18n import N_, tr, tr_ctx

from .model import LobbyError

LEVELS: tuple[str, ...] = ("easy", "normal", "strong")
DEFAULT_LEVEL = "normal"  # the lobby's Add AI and /game new's AI seats, unless another is chosen
TAKEOVER_LEVEL = "normal"  # what plays a skipped or forfeited seat
# In words, for the lobby's menu and the local table's question.
# Marked for the catalogue; shown as ``tr(LEVEL_HELP[level])`` (and a level's name as
# ``tr_ctx("AI level", level)``: ``level_name``).
LEVEL_HELP: dict[str, str] = {
    "easy": N_("plays the best move right now"),
    "normal": N_("looks a little ahead (about 0.1 s a move)"),
    "strong": N_("searches deeper (about 1 s a move)"),
}
# Where each level falls back when a game does not offer it (the weaker kinds, in order).
_FALLBACK: dict[str, tuple[str, ...]] = {
    "easy": ("greedy", "random"),
    "normal": ("greedy", "easy", "random"),
    "strong": ("normal", "greedy", "easy", "random"),
    "greedy": ("easy", "random"),
}
# Kinds stored before the levels, and the level they are shown as.
_LEGACY_LABELS = {"greedy": "easy"}
# Kinds cheap enough to choose in the referee's own process (a few legal moves weighed once);
# every other kind searches and is handed to the thinker's worker processes.
CHEAP_KINDS: frozenset[str] = frozenset({"random", "greedy", "easy"})


def player_kind(game: Game[Any, Any], kind: str) -> str:
    """The key of ``game.ai_players()`` that plays a seat stored as ``kind``."""
    offered = game.ai_players()
    for candidate in (kind, *_FALLBACK.get(kind, ())):
        if candidate in offered:
            return candidate
    return "random" if "random" in offered else next(iter(offered))


def checked_level(game: Game[Any, Any], kind: str) -> str:
    """A kind a lobby may seat: a level, or any AI kind the game offers by name; LobbyError else."""
    wanted = kind.strip().lower()
    if wanted in LEVELS or wanted in game.ai_players():
        return wanted
    raise LobbyError(tr("Unknown AI level {kind}; choose {levels}.", kind=quote(kind), levels=", ".join(LEVELS)))


def level_label(kind: str | None) -> str:
    """The level shown for a seat's stored kind ("greedy", from before the levels, is easy)."""
    if kind is None:
        return ""
    return _LEGACY_LABELS.get(kind, kind)


# The levels' names in words (the keys stay the same in every language: commands take them).
_LEVEL_NAMES: dict[str, Callable[[], str]] = {
    "easy": lambda: tr_ctx("AI level", "easy"),
    "normal": lambda: tr_ctx("AI level", "normal"),
    "strong": lambda: tr_ctx("AI level", "strong"),
}


def level_name(kind: str | None) -> str:
    """A seat's level in the reader's language ("normale", "ふつう"); "" for no kind. The key
    (``level_label``) is what commands take; this is what a sentence says."""
    label = level_label(kind)
    named = _LEVEL_NAMES.get(label)
    return named() if named is not None else label
