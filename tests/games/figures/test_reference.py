"""An independent, deliberately plain reading of section 2, checked against the engine move by move.

The reference below shares no code with the ``engine.games.figures`` package: it works on the card codes
directly and recomputes, for every position reached in whole random matches, the set of legal moves
(singles, the forced pass and every ordered three-kings play) and the state each move leads to.
"""

from __future__ import annotations

import itertools
import random

import pytest

from engine.games.figures import GAME
from engine.games.figures.model import FiguresState, Pass, Single, ThreeKings


def _number(card: str) -> int | None:
    return int(card[0]) if card[0].isdigit() else None


def _is_figure(card: str) -> bool:
    return card[0] in "JNK"


def _may_follow(card: str, phase: str, top: str | None) -> bool:
    """Outside a giro: a figure always; a number card in FREE or OPEN, or when strictly higher in BEAT."""
    if _is_figure(card) or phase in ("FREE", "OPEN"):
        return True
    return _number(card) > _number(top)


def _left_by(card: str) -> str:
    number = _number(card)
    return "BEAT" if number is not None and number <= 6 else "OPEN"


def reference_moves(state: FiguresState, seat: int) -> set[tuple[str, ...]]:
    hand = state.hands[seat]
    if state.phase == "GIRO":
        return {("card", card) for card in hand if _is_figure(card)} or {("pass",)}
    moves = {("card", card) for card in hand if _may_follow(card, state.phase, state.top)}
    if not moves:
        return {("pass",)}
    if seat not in state.kings_used and sum(card[0] == "K" for card in hand) >= 3:
        for cards in itertools.permutations(hand, 3):
            phase, top, fine = state.phase, state.top, True
            for card in cards:
                fine = fine and _may_follow(card, phase, top)
                phase, top = _left_by(card), card
            if fine:
                moves.add(("kings", *cards))
    return moves


def _as_tuple(move) -> tuple[str, ...]:
    if isinstance(move, Single):
        return ("card", move.card)
    if isinstance(move, Pass):
        return ("pass",)
    assert isinstance(move, ThreeKings)
    return ("kings", *move.cards)


def _after(state: FiguresState, seat: int, move: tuple[str, ...]):
    """(phase, top, owner, passes, giro_starter, giro_left, turn) after a move that does not end the hand."""
    following = state.table[(state.table.index(seat) + 1) % 4]
    if move[0] == "pass":
        if state.phase == "GIRO":
            if state.giro_left == 1:
                return ("FREE", None, None, 0, None, 0, following)
            return ("GIRO", state.top, state.owner, 0, state.giro_starter, state.giro_left - 1, following)
        if state.passes == 2:
            assert following == state.owner  # the third pass hands the lead back to the owner
            return ("FREE", None, None, 0, None, 0, following)
        return ("BEAT", state.top, state.owner, state.passes + 1, None, 0, following)
    last = move[-1]
    if state.phase == "GIRO":
        if state.giro_left == 1:
            assert following == state.giro_starter
            return ("FREE", None, None, 0, None, 0, following)
        return ("GIRO", last, seat, 0, state.giro_starter, state.giro_left - 1, following)
    if move[0] == "card" and _is_figure(last):
        return ("GIRO", last, seat, 0, seat, 3, following)
    return (_left_by(last), last, seat, 0, None, 0, following)


@pytest.mark.parametrize("mode", ["individual", "pairs"])
def test_engine_agrees_with_an_independent_reading_of_the_rules(mode):
    rng = random.Random(mode)
    checked = kings_played = 0
    for seed in range(12):
        state = GAME.new_game(4, seed, {"mode": mode, "target_score": 25})
        while not GAME.is_over(state):
            seat = state.turn
            moves = GAME.legal_moves(state, seat)
            assert {_as_tuple(move) for move in moves} == reference_moves(state, seat)
            assert all(GAME.legal_moves(state, other) == [] for other in range(4) if other != seat)
            kings = [move for move in moves if isinstance(move, ThreeKings)]
            move = rng.choice(kings) if kings and rng.random() < 0.5 else rng.choice(moves)
            kings_played += bool(kings) and isinstance(move, ThreeKings)
            ends_hand = len(state.hands[seat]) == len(_as_tuple(move)) - 1
            expected = None if ends_hand else _after(state, seat, _as_tuple(move))
            after, _ = GAME.apply(state, seat, move)
            if ends_hand:
                assert after.results[-1].winner == seat and len(after.results) == len(state.results) + 1
            else:
                got = (after.phase, after.top, after.owner, after.passes, after.giro_starter, after.giro_left, after.turn)
                assert got == expected
                assert (seat in after.kings_used) == (seat in state.kings_used or isinstance(move, ThreeKings))
            state = after
            checked += 1
    assert checked > 2000 and kings_played > 5
