"""Nim whose moves also whisper to the mover, to test that the local table shows the player's
own private log lines and nobody else's; it also offers two AI kinds, so the set-up asks."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Event, Game, Player, RandomPlayer
from tests.toy_game import Nim, NimState, Take


class TakeMostPlayer:
    """Always takes as many tokens as it may."""

    def choose(self, game: Game[Any, Any], state: Any, seat: int, rng: random.Random) -> Any:
        return max(game.legal_moves(state, seat), key=lambda move: move.count)


class SecretNim(Nim):
    name = "secretnim"
    title = "Secret Nim"

    def play(self, state: NimState, seat: int, move: Take) -> list[Event]:
        whisper = Event(text=f"Psst, {{p{seat}}}: your charm is {state.charms[seat]}.", visible_to=(seat,))
        return [*super().play(state, seat, move), whisper]

    def ai_players(self) -> Mapping[str, Callable[[], Player]]:
        return {"random": RandomPlayer, "greedy": TakeMostPlayer}


GAME = SecretNim()
