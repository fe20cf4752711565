"""The registry of games. Adding a game is one line here plus its package under engine/games/."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from engine.core import Game, SetupError
from engine.core.text import MAX_KEY_CHARS, quote

# name -> module that defines GAME (an instance of engine.core.Game)
REGISTRY: dict[str, str] = {
    "figures": "engine.games.figures",
    "granja": "engine.games.granja",
    "orchard": "engine.games.orchard",
    "vegetables": "engine.games.vegetables",
}


def get_game(name: str) -> Game[Any, Any]:
    """The game object for a registered name (any case, spaces around it); raises SetupError for
    an unknown name."""
    if isinstance(name, str) and len(name) <= MAX_KEY_CHARS:
        try:
            return _registered(name.strip().lower())
        except KeyError:
            pass
    raise SetupError(f"Unknown game {quote(name)}. Games: {', '.join(sorted(REGISTRY))}.")


@cache
def _registered(key: str) -> Game[Any, Any]:
    # Cached by the normalised name only, not every spelling a player may type; an unknown name
    # raises KeyError, which is not cached.
    game: Game[Any, Any] = importlib.import_module(REGISTRY[key]).GAME  # every game module's GAME
    return game


# Tests register games of their own and clear the cache around them.
get_game.cache_clear = _registered.cache_clear  # type: ignore[attr-defined]


def all_games() -> list[Game[Any, Any]]:
    return [get_game(name) for name in REGISTRY]
