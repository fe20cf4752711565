"""A tiny game for testing the referee and front ends without depending on a real game's rules.

Nim with a secret: players take 1 to 3 tokens in turn; whoever takes the last token wins. Each
seat also holds a private "charm" word, so tests can check private text never goes public.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from engine.core import BadNotation, Event, Game, IllegalMove, Option, Outcome, Rng

CHARMS = ("acorn", "bramble", "clover", "daisy", "elder", "fennel")


class NimState(msgspec.Struct, kw_only=True):
    players: int
    tokens: int
    turn: int = 0
    winner: int | None = None
    charms: list[str] = []
    rng: Rng


class Take(msgspec.Struct, frozen=True):
    count: int


class Nim(Game[NimState, Take]):
    name = "nim"
    title = "Nim"
    min_players = 2
    max_players = 4
    options = (Option(name="tokens", kind="int", default=10, description="Tokens on the table", minimum=1),)
    state_type = NimState
    summary = "Take 1 to 3 tokens; whoever takes the last token wins."
    notation_help = "Write `take 2`."

    def setup(self, players: int, seed: int, options: Mapping[str, Any]) -> NimState:
        rng = Rng(seed=seed)
        charms = list(CHARMS)
        rng.shuffle(charms)
        return NimState(players=players, tokens=options["tokens"], charms=charms[:players], rng=rng)

    def to_act(self, state: NimState) -> tuple[int, ...]:
        return () if state.winner is not None else (state.turn,)

    def legal_moves(self, state: NimState, seat: int) -> list[Take]:
        if seat not in self.to_act(state):
            return []
        return [Take(n) for n in range(1, min(3, state.tokens) + 1)]

    def why_illegal(self, state: NimState, seat: int, move: Take) -> str | None:
        if move in self.legal_moves(state, seat):
            return None
        raise_if = min(3, state.tokens)
        return f"You may take 1 to {raise_if} tokens."

    def play(self, state: NimState, seat: int, move: Take) -> list[Event]:
        state.tokens -= move.count
        events = [Event(text=f"{{p{seat}}} takes {move.count}.", actor=seat)]
        if state.tokens == 0:
            state.winner = seat
            events.append(Event(text=f"{{p{seat}}} takes the last token and wins."))
        else:
            state.turn = (seat + 1) % state.players
        return events

    def view(self, state: NimState, seat: int | None) -> dict[str, Any]:
        public = {"players": state.players, "tokens": state.tokens, "turn": state.turn, "winner": state.winner}
        if seat is not None:
            public["charm"] = state.charms[seat]
        return public

    def is_over(self, state: NimState) -> bool:
        return state.winner is not None

    def outcome(self, state: NimState) -> Outcome:
        if state.winner is None:
            raise IllegalMove("The game is not over.")
        scores = [1.0 if seat == state.winner else 0.0 for seat in range(state.players)]
        return Outcome(scores=scores, ranks=[1 if s else 2 for s in scores])

    def parse_move(self, text: str) -> Take:
        return Take(verb_and_number(text, "take", "Write `take N` with N from 1 to 3."))

    def format_move(self, move: Take) -> str:
        return f"take {move.count}"

    def render_board(self, public_view: dict[str, Any], names: Sequence[str]) -> str:
        if public_view["winner"] is not None:
            return f"Tokens: 0. {names[public_view['winner']]} wins."
        return f"Tokens: {public_view['tokens']}. {names[public_view['turn']]} to take."

    def render_private(self, seat_view: dict[str, Any], names: Sequence[str]) -> str:
        return f"Your charm: {seat_view['charm']}"



def verb_and_number(text: str, verb: str, hint: str) -> int:
    """The N of a move written ``<verb> N`` (any case), or BadNotation with ``hint``: the notation of
    the toy games (Nim's ``take N``, Sealed Bids' ``bid N``)."""
    words = text.lower().split()
    if len(words) == 2 and words[0] == verb and words[1].isdigit():
        return int(words[1])
    raise BadNotation(hint)


GAME = Nim()
