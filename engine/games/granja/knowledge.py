"""What a Granja seat knows, and the hidden cards and choices dealt anew for the search
(engine.core.search).

Hidden from a seat (docs/rules/granja.md 1.14): the other hands, the deck's order, the roofs of
the rounds to come, and the other seats' pending secret choices (F1 card plays with the tasks
that belong to them, T1 donkey markers, F3 harvest answers). Public: every farm but its hand,
the market, buildings, dice, discard pile, roofs on offer, hand and deck sizes, and who is still
to answer a simultaneous step. The knowledge is the state with the other hands and the deck
pooled (sorted: their deal is not known), the other seats' secret answers forgotten (in a sample
they are still to choose, and the rollout chooses for them: a simultaneous choice is never made
knowing another's) and the roofs to come forgotten (a sample draws them again, as the set-up
does). Rollouts are cut after a few phases and scored by each seat's ``worth``.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from engine.core import Game, Rng
from engine.core.search import BaseKit, margin_rewards, outcome_rewards, reseed

from .config import CONFIG
from .model import (
    BACK,
    END_WINDOW,
    F1_PLAY,
    F3_PROMPT,
    F4_ROOFS,
    OVER,
    R2_PICK,
    R3_PICK,
    R4_SHARED,
    T1_DONKEY,
    T4_DELIVER,
    T5_EXTRA,
    GranjaState,
    Move,
    copy_state,
    state_copier,
)
from .rules import f3_needs_prompt

PHASES = (F1_PLAY, F3_PROMPT, F4_ROOFS, R2_PICK, R3_PICK, R4_SHARED, T1_DONKEY, T4_DELIVER, T5_EXTRA, END_WINDOW, OVER)
PHASE_INDEX = {phase: index for index, phase in enumerate(PHASES)}
WORTH_SCALE = 4.0  # a lead of this many VP of worth makes a win about 73% likely
GAIN = 1e-9  # what an exchange must add to the seat's worth (EXCHANGES)
ROLLOUT_MOVES = 8  # legal moves a rollout seat weighs (a random few, always with done/pass)
CANDIDATES = 5  # root moves searched by default: the greedy seat's favourites
# Exchanges a seat may make any number of times in a window (1.11), back and forth: buy a grain,
# upgrade it, sell the feed is a loss of 1 $, or none with the upgrade discount (H01). The search
# and its rollouts make one only when it raises the seat's worth, so a run of them can never come
# back to where it began: without that, a search whose playouts scored the cycle no worse than
# ending the turn went round it for ever at the table (an AI seat's turn that never ended).
EXCHANGES = frozenset({"buy", "sell", "upgrade"})


class GranjaKnowledge(msgspec.Struct):
    state: GranjaState  # other hands and the deck empty, secret answers and future roofs blanked
    unknown: list[str]  # the cards of the other hands and the deck, sorted
    hands: dict[int, int]  # other seat -> hand size
    deck: int  # cards in the deck


class GranjaKit(BaseKit[GranjaKnowledge, GranjaState]):
    """The search's view of La Granja; ``policy`` (the greedy seat) picks the root candidates, its
    ``candidates`` favourite moves, and ``worth`` scores a cut rollout."""

    def __init__(self, policy: Any, worth: Any, candidates: int = CANDIDATES) -> None:
        super().__init__(policy)
        self.greedy: Any = policy  # the greedy seat: its move_value weighs the candidates
        self.worth = worth
        self.candidate_count = candidates

    def observe(self, state: GranjaState, seat: int) -> GranjaKnowledge:
        known = copy_state(state)
        known.rng = Rng(seed=0)
        unknown = list(known.deck)
        known.deck = []
        hands: dict[int, int] = {}
        for other, farm in enumerate(known.farms):
            if other == seat:
                continue
            unknown.extend(farm.hand)
            hands[other] = len(farm.hand)
            farm.hand = []
            _forget_answers(known, other)
        for index in range(known.round, len(known.roofs_future)):
            known.roofs_future[index] = []
        return GranjaKnowledge(state=known, unknown=sorted(unknown), hands=hands, deck=len(state.deck))

    def sample(self, knowledge: GranjaKnowledge, seat: int, rng: random.Random) -> GranjaState:
        state = copy_state(knowledge.state)
        state.rng = Rng(seed=reseed(rng))
        cards = list(knowledge.unknown)
        rng.shuffle(cards)
        for other, size in knowledge.hands.items():
            state.farms[other].hand = [cards.pop() for _ in range(size)]
        state.deck = cards
        for index in range(state.round, len(state.roofs_future)):
            ids = sorted(roof for roof, (number, _) in CONFIG.roofs.items() if number == index + 1)
            state.roofs_future[index] = sorted(rng.sample(ids, state.players))
        return state

    def candidates(self, game: Game[Any, Any], state: GranjaState, seat: int, moves: list[Any]) -> list[Any]:
        """The greedy seat's best few moves, each judged one step ahead without its follow-ups
        (following them for every legal move cost seconds in a crowded turn)."""
        moves = [move for move in moves if move != BACK] or moves
        moves = self.without_idle_exchanges(game, state, seat, moves)
        if state.tasks[seat]:
            # The follow-up of a move already searched (a payment, a die's option...): the greedy
            # seat settles it, which keeps the search for the decisions that shape the game.
            return [self.greedy.choose(game, state, seat, random.Random(0))]
        if len(moves) <= self.candidate_count:
            return moves
        values = [(self.greedy.move_value(game, state, seat, move, 0), index) for index, move in enumerate(moves)]
        values.sort(key=lambda pair: -pair[0])
        return [moves[index] for _, index in values[: self.candidate_count]]

    def rollout_move(self, game: Game[Any, Any], state: GranjaState, seat: int, rng: random.Random) -> Move:
        """Greedy one step ahead (no follow-up tasks) among a few random legal moves: the greedy
        seat's judgement at a fraction of its cost."""
        moves: list[Move] = [move for move in game.legal_moves(state, seat) if move != BACK]
        if len(moves) == 1:
            return moves[0]
        if len(moves) > ROLLOUT_MOVES:
            closing = [move for move in moves if move.kind in ("done", "pass")]
            moves = closing + rng.sample(moves, ROLLOUT_MOVES)
        best = moves[0]
        best_value = float("-inf")
        copy = state_copier(state)
        tried: set[Move] = set()
        base: float | None = None
        for move in moves:
            if move in tried:
                continue  # a closing move drawn again: the same value, which never beats itself
            tried.add(move)
            after = copy()
            game.play(after, seat, move)
            value = self.worth(after, seat) + (1e-6 if move.kind in ("done", "pass") else 0.0)
            if move.kind in EXCHANGES:
                base = self.worth(state, seat) if base is None else base
                if value <= base + GAIN:
                    continue  # an exchange that gains nothing (EXCHANGES)
            if value > best_value:
                best, best_value = move, value
        return best

    def without_idle_exchanges(
        self, game: Game[Any, Any], state: GranjaState, seat: int, moves: list[Move]
    ) -> list[Move]:
        """``moves`` without the exchanges that do not raise the seat's worth (EXCHANGES); all of
        them if nothing else is left."""
        if not any(move.kind in EXCHANGES for move in moves):
            return moves
        base = self.worth(state, seat)
        copy = state_copier(state)
        kept: list[Move] = []
        for move in moves:
            if move.kind in EXCHANGES:
                after = copy()
                game.play(after, seat, move)
                if self.worth(after, seat) <= base + GAIN:
                    continue
            kept.append(move)
        return kept or moves

    def progress(self, state: GranjaState) -> int:
        return state.round * len(PHASES) + PHASE_INDEX[state.phase]

    def evaluate(self, game: Game[Any, Any], state: GranjaState) -> list[float]:
        if game.is_over(state):
            return outcome_rewards(game.outcome(state), state.players)
        return margin_rewards([self.worth(state, seat) for seat in range(state.players)], WORTH_SCALE)

    def seats(self, state: GranjaState) -> int:
        return state.players


def _forget_answers(state: GranjaState, seat: int) -> None:
    """The seat's secret answers in the current simultaneous step, undone: it is still to choose.
    (Outside those steps the answers are revealed already and stay.)"""
    choice = state.choices[seat]
    state.tasks[seat] = [task for task in state.tasks[seat] if not task.secret]
    if state.phase == F1_PLAY:
        choice.plays = []
    elif state.phase == T1_DONKEY and choice.donkey:
        choice.donkey, choice.push, choice.waiting = "", 0, True
    elif state.phase == F3_PROMPT and (choice.resource or choice.flex or not choice.waiting):
        choice.resource, choice.flex = "", []
        choice.waiting = f3_needs_prompt(state, seat)
