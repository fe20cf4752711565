"""Sprint: a tiny game for testing the Discord front end without depending on a real game.

Each seat holds numbered cards (seat 1 holds a01, a02...; seat 2 b01...) and a secret word. In
turn, a seat plays a card (scoring its number, and the card goes to the public pile) or, with
more verbs switched on, does something else with it (no score, the card stays secret). The game
ends after ``rounds`` turns per seat. Options change how many moves there are, so every control
layout (buttons, one select, several selects, two steps) can be reached. With ``gifts`` a seat
may instead give a card to the next seat: another player's hand changes by someone else's move.

Nothing here is public but the scores, the pile and the hand sizes; the hands and the secret
words must never appear in a public Discord message, which the tests check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from engine.core import BadNotation, Event, Game, GreedyPlayer, Option, Outcome
from tests.toy_game import ToyGame, scored_outcome, seat_values

VERBS = ("play", "discard", "flip", "toss", "stack", "spin")
LETTERS = "abcd"


class Move(msgspec.Struct, frozen=True):
    verb: str
    card: str


class SprintState(msgspec.Struct, kw_only=True):
    players: int
    rounds: int
    verbs: int
    hands: list[list[str]]
    chatter: int = 0
    bulk: int = 0
    anytime: bool = False
    gifts: bool = False
    secrets: list[str]
    scores: list[int]
    pile: list[str] = []
    turn: int = 0
    turns_played: int = 0


def secret_word(seat: int, seed: int) -> str:
    return f"secret{LETTERS[seat]}{seed % 100_000:05d}"


class HighestCard(GreedyPlayer):
    def value(self, game: Game[Any, Any], before: Any, after: Any, seat: int) -> float:
        return float(after.scores[seat])


def _extra_lines(name: str, description: str) -> Option:
    """An option adding 0 to 500 lines of filler somewhere: the way to make a text long."""
    return Option(name=name, kind="int", default=0, minimum=0, maximum=500, description=description)


def _switch(name: str, description: str) -> Option:
    """An option turning on a kind of move the plain sprint does not have."""
    return Option(name=name, kind="bool", default=False, description=description)


class Sprint(ToyGame[SprintState, Move]):
    name = "sprint"
    title = "Sprint"
    options = (
        Option(name="cards", kind="int", default=3, minimum=1, maximum=40, description="Cards in each hand"),
        Option(name="rounds", kind="int", default=2, minimum=1, maximum=40, description="Turns per seat"),
        Option(
            name="verbs", kind="int", default=1, minimum=1, maximum=len(VERBS), description="Kinds of move"
        ),
        _extra_lines("bulk", "Extra lines in the board and in each hand (a long text)"),
        _switch("anytime", "A seat not on turn may already toss a card (an optional move out of turn)"),
        _switch("gifts", "On your turn you may give a card to the next seat instead (give a03)"),
        _extra_lines("chatter", "Extra public log lines after each move (a long log)"),
    )
    state_type = SprintState
    summary = "Play your cards one at a time; a played card scores its number. Highest score wins."
    notation_help = "`play a03` plays card a03; with more verbs: `discard a03`, `flip a03`..."

    def setup(self, players: int, seed: int, options: Mapping[str, Any]) -> SprintState:
        cards = int(options["cards"])
        return SprintState(
            players=players,
            rounds=min(int(options["rounds"]), cards),
            verbs=int(options["verbs"]),
            chatter=int(options.get("chatter", 0)),
            bulk=int(options.get("bulk", 0)),
            anytime=bool(options.get("anytime", False)),
            gifts=bool(options.get("gifts", False)),
            hands=[
                [f"{LETTERS[seat]}{number:02d}" for number in range(1, cards + 1)] for seat in range(players)
            ],
            secrets=[secret_word(seat, seed) for seat in range(players)],
            scores=[0] * players,
        )

    def may_act(self, state: SprintState) -> tuple[int, ...]:
        if state.anytime and not self.is_over(state):
            return tuple(range(state.players))
        return self.to_act(state)

    def legal_moves(self, state: SprintState, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            if seat in self.may_act(state):
                return [Move("toss", card) for card in state.hands[seat]]
            return []
        moves = [Move(verb, card) for verb in VERBS[: state.verbs] for card in state.hands[seat]]
        if state.gifts:
            moves += [Move("give", card) for card in state.hands[seat]]
        return moves

    def play(self, state: SprintState, seat: int, move: Move) -> list[Event]:
        state.hands[seat].remove(move.card)
        if seat != state.turn:  # an optional move out of turn: the turn stays where it is
            return [Event(text=f"{{p{seat}}} tosses a card out of turn.", actor=seat)]
        state.turns_played += 1
        state.turn = (seat + 1) % state.players
        chatter = [
            Event(text=f"Line {line + 1} of the chatter after {{p{seat}}}'s move {state.turns_played}.")
            for line in range(state.chatter)
        ]
        if move.verb == "give":
            state.hands[state.turn].append(move.card)  # the next seat's hand: changed by this move
            return [Event(text=f"{{p{seat}}} gives a card to {{p{state.turn}}}.", actor=seat), *chatter]
        if move.verb == "play":
            points = int(move.card[1:])
            state.scores[seat] += points
            state.pile.append(move.card)
            return [Event(text=f"{{p{seat}}} plays {move.card} (+{points}).", actor=seat), *chatter]
        return [
            Event(text=f"{{p{seat}}} does something secret with a card.", actor=seat),
            Event(
                text=f"You {move.verb} {move.card}; nobody else knows which.", actor=seat, visible_to=(seat,)
            ),
            *chatter,
        ]

    def view(self, state: SprintState, seat: int | None) -> dict[str, Any]:
        public = {
            "players": state.players,
            "scores": list(state.scores),
            "pile": list(state.pile),
            "hand_sizes": [len(hand) for hand in state.hands],
            "turn": None if self.is_over(state) else state.turn,
            "bulk": state.bulk,
        }
        if seat is None:
            return public
        return {**public, "seat": seat, "hand": list(state.hands[seat]), "secret": state.secrets[seat]}

    def is_over(self, state: SprintState) -> bool:
        return state.turns_played >= state.rounds * state.players

    def outcome(self, state: SprintState) -> Outcome:
        return scored_outcome(state.scores)

    def parse_move(self, text: str) -> Move:
        words = text.strip().lower().split()
        if len(words) != 2 or words[0] not in (*VERBS, "give"):
            raise BadNotation(f"Write a verb and a card, like `play a03` (not {text.strip()!r}).")
        return Move(words[0], words[1])

    def format_move(self, move: Move) -> str:
        return f"{move.verb} {move.card}"

    def render_board(self, public_view: dict[str, Any], names: Sequence[str]) -> str:
        turn = public_view["turn"]
        lines = [
            f"Scores: {seat_values(names, public_view['scores'])}",
            f"Pile: {' '.join(public_view['pile']) or '(empty)'}",
            f"Cards left: {seat_values(names, public_view['hand_sizes'])}",
            f"Turn: {names[turn]}" if turn is not None else "Game over",
        ]
        lines += [
            f"Board filler line {n:03d}: nothing to see here, just length."
            for n in range(public_view["bulk"])
        ]
        return "\n".join(lines)

    def render_private(self, seat_view: dict[str, Any], names: Sequence[str]) -> str:
        filler = [
            f"Hand filler line {n:03d}: nothing to see here, just length." for n in range(seat_view["bulk"])
        ]
        return "\n".join(
            [
                f"Your hand: {' '.join(seat_view['hand']) or '(empty)'}",
                *filler,
                f"Your secret word: {seat_view['secret']}",
            ]
        )

    def ai_players(self) -> Mapping[str, Any]:
        from engine.core import RandomPlayer

        return {"random": RandomPlayer, "greedy": HighestCard}


GAME = Sprint()
