"""Nim whose moves also whisper to the mover, to test that the local table shows the player's
own private log lines and nobody else's."""

from __future__ import annotations

from engine.core import Event
from tests.toy_game import Nim, NimState, Take


class SecretNim(Nim):
    name = "secretnim"
    title = "Secret Nim"

    def play(self, state: NimState, seat: int, move: Take) -> list[Event]:
        whisper = Event(text=f"Psst, {{p{seat}}}: your charm is {state.charms[seat]}.", visible_to=(seat,))
        return [*super().play(state, seat, move), whisper]


GAME = SecretNim()
