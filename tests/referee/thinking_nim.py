"""Nim with searching levels, for the thinker's tests: its "normal" and "strong" players have the
attributes of a search player (``iterations``, ``deadline``, ``last_iterations``) and spend a
little CPU per playout, checking the deadline between playouts as the real search does."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Game, Player, RandomPlayer

from ..toy_game import Nim, NimState

NORMAL_PLAYOUTS = 5
STRONG_PLAYOUTS = 9


class NimKit:
    """What the search's kit tells about Nim (nothing is hidden): for the hint's estimate."""

    def observe(self, state: NimState, seat: int) -> NimState:
        return GAME.copy_state(state)

    def sample(self, knowledge: NimState, seat: int, rng: random.Random) -> NimState:
        return GAME.copy_state(knowledge)

    def rollout_move(self, game: Game[Any, Any], state: NimState, seat: int, rng: random.Random) -> Any:
        return rng.choice(game.legal_moves(state, seat))

    def progress(self, state: NimState) -> int:
        return 0

    def evaluate(self, game: Game[Any, Any], state: NimState) -> list[float]:
        return [1.0 if state.winner == seat else 0.0 for seat in range(state.players)]


class CountingSearch:
    def __init__(self, iterations: int) -> None:
        self.iterations = iterations
        self.deadline: Callable[[], bool] | None = None
        self.last_iterations = 0
        self.kit = NimKit()
        self.horizon: int | None = None

    def choose(self, game: Game[Any, Any], state: NimState, seat: int, rng: random.Random) -> Any:
        moves = game.legal_moves(state, seat)
        spent = 0
        for _ in range(self.iterations):
            if self.deadline is not None and spent and self.deadline():
                break
            sum(range(2_000))  # a playout's worth of CPU (tens of microseconds)
            spent += 1
        self.last_iterations = spent
        return moves[rng.randrange(len(moves))]


class TakeMost:
    """The easy player: takes as many tokens as it may."""

    def choose(self, game: Game[Any, Any], state: NimState, seat: int, rng: random.Random) -> Any:
        return game.legal_moves(state, seat)[-1]


class ThinkingNim(Nim):
    name = "thinking-nim"
    title = "Thinking Nim"

    def ai_players(self) -> Mapping[str, Callable[[], Player]]:
        return {
            "random": RandomPlayer,
            "easy": TakeMost,
            "normal": lambda: CountingSearch(NORMAL_PLAYOUTS),
            "strong": lambda: CountingSearch(STRONG_PLAYOUTS),
        }


GAME = ThinkingNim()
