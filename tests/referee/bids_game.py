"""A tiny game with simultaneous secret choices, ties, teams and a solo mode, for clock and
rating tests (the toy Nim game is strictly one seat at a time and never ties).

Sealed bids: each round every seat secretly bids 0 to 3; once all have bid, the bids are revealed
and added to the scores. With ``pairs`` (4 players), seats 0+2 and 1+3 score as teams.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from engine.core import Event, IllegalMove, Option, Outcome, SetupError, ranks_from_keys
from tests.toy_game import ToyGame, scored_outcome, seat_values, verb_and_number


class BidsState(msgspec.Struct, kw_only=True):
    players: int
    rounds: int
    pairs: bool = False
    round: int = 0
    scores: list[int] = []
    bids: list[int | None] = []


class Bid(msgspec.Struct, frozen=True):
    amount: int


class Bids(ToyGame[BidsState, Bid]):
    name = "bids"
    title = "Sealed Bids"
    min_players = 1  # a solo mode, for clock tests
    options = (
        Option(name="rounds", kind="int", default=2, description="Rounds", minimum=1),
        Option(name="pairs", kind="bool", default=False, description="Play in pairs (4 players)"),
    )
    state_type = BidsState

    def check_players(self, players: int, options: Mapping[str, Any]) -> None:
        super().check_players(players, options)
        if options.get("pairs") and players != 4:
            raise SetupError("Pairs need exactly 4 players.")

    def setup(self, players: int, seed: int, options: Mapping[str, Any]) -> BidsState:
        return BidsState(
            players=players,
            rounds=options["rounds"],
            pairs=options["pairs"],
            scores=[0] * players,
            bids=[None] * players,
        )

    def to_act(self, state: BidsState) -> tuple[int, ...]:
        if state.round >= state.rounds:
            return ()
        return tuple(seat for seat in range(state.players) if state.bids[seat] is None)

    def legal_moves(self, state: BidsState, seat: int) -> list[Bid]:
        return [Bid(n) for n in range(4)] if seat in self.to_act(state) else []

    def play(self, state: BidsState, seat: int, move: Bid) -> list[Event]:
        state.bids[seat] = move.amount
        events = [Event(text=f"{{p{seat}}} bids.", actor=seat)]
        if all(bid is not None for bid in state.bids):
            for index, bid in enumerate(state.bids):
                state.scores[index] += bid or 0
            events.append(Event(text="Bids revealed: " + ", ".join(str(b) for b in state.bids)))
            state.bids = [None] * state.players
            state.round += 1
        return events

    def view(self, state: BidsState, seat: int | None) -> dict[str, Any]:
        public: dict[str, Any] = {"round": state.round, "scores": list(state.scores)}
        public["waiting"] = list(self.to_act(state))
        if seat is not None:
            public["my_bid"] = state.bids[seat]
        return public

    def is_over(self, state: BidsState) -> bool:
        return state.round >= state.rounds

    def outcome(self, state: BidsState) -> Outcome:
        if not self.is_over(state):
            raise IllegalMove("The game is not over.")
        scores = [float(s) for s in state.scores]
        if state.pairs:
            teams = [[0, 2], [1, 3]]
            team_score = {seat: scores[a] + scores[b] for a, b in teams for seat in (a, b)}
            ranks = ranks_from_keys([team_score[seat] for seat in range(4)])
            return Outcome(scores=scores, ranks=ranks, teams=teams)
        return scored_outcome(scores)

    def parse_move(self, text: str) -> Bid:
        return Bid(verb_and_number(text, "bid", "Write `bid N` with N from 0 to 3."))

    def format_move(self, move: Bid) -> str:
        return f"bid {move.amount}"

    def render_board(self, public_view: dict[str, Any], names: Sequence[str]) -> str:
        return f"Round {public_view['round'] + 1}. Scores: {seat_values(names, public_view['scores'])}."

    def render_private(self, seat_view: dict[str, Any], names: Sequence[str]) -> str:
        return f"Your bid: {seat_view['my_bid']}"


GAME = Bids()
