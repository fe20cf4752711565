"""The registry of games. Adding a game is one line here plus its package under engine/games/."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from engine.core import Game, SetupError

# name -> module that defines GAME (an instance of engine.core.Game)
REGISTRY: dict[str, str] = {
    "figures": "engine.games.figures",
    "granja": "engine.games.granja",
    "orchard": "engine.games.orchard",
    "vegetables": "engine.games.vegetables",
}


@cache
def get_game(name: str) -> Game[Any, Any]:
    """The game object for a registered name; raises SetupError for an unknown name."""
    module_name = REGISTRY.get(name.strip().lower())
    if module_name is None:
        raise SetupError(f"Unknown game {name!r}. Games: {', '.join(sorted(REGISTRY))}.")
    return importlib.import_module(module_name).GAME


def all_games() -> list[Game[Any, Any]]:
    return [get_game(name) for name in REGISTRY]
