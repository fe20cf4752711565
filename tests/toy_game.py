"""A tiny game for testing the referee and front ends without depending on a real game's rules,
and what the toy games share (``ToyGame``: Nim here, Sealed Bids in tests/referee, Sprint in
tests/discord).

Nim with a secret: players take 1 to 3 tokens in turn; whoever takes the last token wins. Each
seat also holds a private "charm" word, so tests can check private text never goes public.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, TypeVar

import msgspec

from engine.core import BadNotation, Event, Game, IllegalMove, Option, Outcome, Rng, ranks_from_keys

S = TypeVar("S", bound=msgspec.Struct)
M = TypeVar("M", bound=Hashable)

CHARMS = ("acorn", "bramble", "clover", "daisy", "elder", "fennel")


class NimState(msgspec.Struct, kw_only=True):
    players: int
    tokens: int
    turn: int = 0
    winner: int | None = None
    charms: list[str] = []
    rng: Rng


class ToyGame(Game[S, M]):
    """A toy game: two to four seats unless it says otherwise, and one seat at a time, the state's
    ``turn``, unless it overrides ``to_act`` (Sealed Bids' simultaneous bids)."""

    min_players = 2
    max_players = 4

    def to_act(self, state: Any) -> tuple[int, ...]:
        return () if self.is_over(state) else (state.turn,)


def scored_outcome(scores: Sequence[int | float]) -> Outcome:
    """The outcome of a toy game won on points: the larger score ranks first, ties share a rank."""
    return Outcome(scores=[float(score) for score in scores], ranks=ranks_from_keys(scores))


def seat_values(names: Sequence[str], values: Sequence[Any]) -> str:
    """One number per seat in a toy board's words: "Ann 3, Bob 0"."""
    return ", ".join(f"{name} {value}" for name, value in zip(names, values, strict=True))


class Take(msgspec.Struct, frozen=True):
    count: int


class Nim(ToyGame[NimState, Take]):
    name = "nim"
    title = "Nim"
    options = (Option(name="tokens", kind="int", default=10, description="Tokens on the table", minimum=1),)
    state_type = NimState
    summary = "Take 1 to 3 tokens; whoever takes the last token wins."
    notation_help = "Write `take 2`."

    def setup(self, players: int, seed: int, options: Mapping[str, Any]) -> NimState:
        rng = Rng(seed=seed)
        charms = list(CHARMS)
        rng.shuffle(charms)
        return NimState(players=players, tokens=options["tokens"], charms=charms[:players], rng=rng)

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
