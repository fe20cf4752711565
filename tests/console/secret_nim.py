"""Nim whose moves also whisper to the mover, to test that the local table shows the player's
own private log lines and nobody else's. It also offers two AI kinds (so the set-up asks which)
and a house rule without which four cannot play (so a count can depend on an option)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Event, Game, Option, Player, RandomPlayer, SetupError
from tests.toy_game import Nim, NimState, Take


class TakeMostPlayer:
    """Always takes as many tokens as it may."""

    def choose(self, game: Game[Any, Any], state: Any, seat: int, rng: random.Random) -> Any:
        return max(game.legal_moves(state, seat), key=lambda move: move.count)


class SecretNim(Nim):
    name = "secretnim"
    title = "Secret Nim"
    options = (
        *Nim.options,
        Option(
            name="crowd",
            kind="bool",
            default=False,
            description="Let four play",
            house_rule=True,
            for_players=(4,),
            needed_for_players=(4,),
        ),
    )

    def check_players(self, players: int, options: Mapping[str, Any]) -> None:
        super().check_players(players, options)
        if players == 4 and not options.get("crowd"):
            raise SetupError("Four players need the crowd house rule: set crowd=yes.")

    def play(self, state: NimState, seat: int, move: Take) -> list[Event]:
        whisper = Event(text=f"Psst, {{p{seat}}}: your charm is {state.charms[seat]}.", visible_to=(seat,))
        return [*super().play(state, seat, move), whisper]

    def ai_players(self) -> Mapping[str, Callable[[], Player]]:
        return {"random": RandomPlayer, "greedy": TakeMostPlayer}


GAME = SecretNim()
