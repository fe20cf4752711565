"""AI seats for Figures: "random" (any legal move), "greedy" (a simple shedding heuristic, also the
easy level) and the search levels normal and strong (engine.core.search, ``knowledge``)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Game, GreedyPlayer, Player, RandomPlayer
from engine.core.search import SearchPlayer

from .cards import FIGURES, KINGS, VALUE
from .knowledge import FiguresKit, FiguresKnowledge
from .model import BAR_AFTER, PAIRS, FiguresState, Single, ThreeKings
from .rollout import play_out


def _shed_value(card: str, keep_kings: bool) -> float:
    """How glad we are to be rid of a card: low numbers are the hardest to shed later."""
    if card in FIGURES:
        # Figures can be played on any turn, so they are worth keeping; kings most of all while
        # they still promise the three-kings play.
        return 0.5 if (card in KINGS and keep_kings) else 1.0
    return 8.0 - VALUE[card]


class FiguresGreedy(GreedyPlayer):
    """Sheds the hardest cards first and uses three kings at once.

    It reads only its own hand and public facts (the phase, the top card, who used three kings),
    never another seat's cards.
    """

    def choose(self, game: Any, state: FiguresState, seat: int, rng: random.Random) -> Any:
        moves = game.legal_moves(state, seat)
        if len(moves) == 1:
            return moves[0]
        hand = state.hands[seat]
        keep_kings = seat not in state.kings_used and sum(1 for card in hand if card in KINGS) >= 3
        best: list[Any] = []
        best_score = float("-inf")
        for move in moves:
            score = self._score(move, len(hand), keep_kings)
            if score > best_score:
                best, best_score = [move], score
            elif score == best_score:
                best.append(move)
        return rng.choice(best)

    @staticmethod
    def _score(move: Any, hand_size: int, keep_kings: bool) -> float:
        if isinstance(move, ThreeKings):
            if hand_size == 3:
                return 1000.0
            # Three cards gone in one turn beats any single; prefer dumping low cards and leaving
            # a high card for the next player to beat.
            return 100.0 + sum(_shed_value(card, False) for card in move.cards) + 0.3 * BAR_AFTER[move.cards[-1]]
        if isinstance(move, Single):
            if hand_size == 1:
                return 1000.0
            return _shed_value(move.card, keep_kings)
        return 0.0


class FiguresSearch(SearchPlayer[FiguresKnowledge, FiguresState]):
    """The shared search (engine.core.search) with Figures' fast playout: the candidate move is
    played by the rules, the rest of the hand on card counts (rollout.play_out), and the hand's
    points scored as the match chances they leave (FiguresKit.rewards). ``noise``: how often a
    rollout seat plays a random card instead of the greedy one; ``plans``: how many of the
    searching seat's own later choices in a playout look one move ahead (rollout.play_out's
    planner) rather than follow the greedy seat."""

    kit: FiguresKit

    def __init__(self, kit: FiguresKit, iterations: int, *, noise: float = 0.1, plans: int = 0, **options: Any) -> None:
        super().__init__(kit, iterations, horizon=1, **options)
        self.noise = noise
        self.plans = plans

    def _playout(self, game: Game[Any, Any], world: FiguresState, seat: int, move: Any, rng: random.Random) -> float:
        hand = world.hand_number
        game.play(world, seat, move)
        totals = world.totals
        if not game.is_over(world) and world.hand_number == hand:
            planner = seat if self.plans and world.mode != PAIRS else None
            points = play_out(world, rng, self.noise, planner, self.plans)
            totals = [total + gained for total, gained in zip(totals, points, strict=True)]
        return self.kit.rewards(world, totals)[seat]


# Search budgets (playouts per decision, to the end of this hand). Strong also trusts the play
# hints in every sample, lets its rollout seats play exactly as the greedy seat, and plans its own
# next two choices in each playout: together 47% against 41% on the same games (README). More
# playouts buy nothing: on 565 positions of its games, 600 and 1200 chose moves of the same value
# on the true hands as 300 (150 lost some). Deals weighed by how likely they make the greedy
# seats' random picks among 7s and figures won 46.0% of the same 400 games: no gain either.
NORMAL = 25
STRONG = 300
STRONG_PLANS = 2
KIT = FiguresKit(FiguresGreedy())
TRUSTING = FiguresKit(FiguresGreedy(), trust=1.0)


def _strong(clairvoyant: bool = False) -> Player:
    return FiguresSearch(TRUSTING, STRONG, noise=0.0, plans=STRONG_PLANS, clairvoyant=clairvoyant)


def ai_players() -> Mapping[str, Callable[[], Player]]:
    return {
        "random": RandomPlayer,
        "greedy": FiguresGreedy,
        "easy": FiguresGreedy,
        "normal": lambda: FiguresSearch(KIT, NORMAL),
        "strong": _strong,
    }


def test_players() -> Mapping[str, Callable[[], Player]]:
    # The ceiling of the README: the strong search itself, reading the true hands.
    return {"clairvoyant": lambda: _strong(clairvoyant=True)}
