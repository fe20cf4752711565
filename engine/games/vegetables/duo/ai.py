"""The greedy AI seat for the 2-player Vege tables (docs/rules/vegetables-2p.md).

Like the 4-player greedy seat it looks one move ahead: close a sequence (more when it completes
a family), play a sequence card, lay a Ground taking the Silo card that fits the board best, use a
Tractor when it closes a sequence (a kill of an opponent's card is a bonus), else draw or end the
turn; discard dead cards only when that lets it go out. Its legal moves are those the game offers
(Board Game Arena offers the legal Tractor moves too).
"""

from __future__ import annotations

import random
from typing import Any

from ..cards import SEQUENCE, SLOT, SLOTS, is_tractor
from ..model import MUST_PASS, Discard, Done, Pass, Play, UseTractor
from ..scoring import family_complete
from .model import MUST_DRAW_BELOW, Draw, DuoMove, DuoState, PlayGround, TractorGround
from .rules import legal_moves


def choose(state: DuoState, seat: int, rng: random.Random) -> DuoMove:
    moves = legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    player = state.seats[seat]
    dead = state.dead
    held = player.grounds + player.hand + player.exposed
    if not player.tractors and not player.locked and held and all(card in dead for card in held):
        for move in moves:
            if isinstance(move, Discard):
                return move  # only dead cards left: discarding them is how this seat goes out
    if state.phase == MUST_PASS:
        return Pass()
    best: list[DuoMove] = []
    best_value = float("-inf")
    for move in moves:
        value = _value(state, seat, move)
        if value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    return rng.choice(best)


def _fits(state: DuoState, card: str) -> bool:
    return not is_tractor(card) and len(state.stacks[SEQUENCE[card]]) == SLOT[card] - 1


def _value(state: DuoState, seat: int, move: Any) -> float:
    played = state.plays >= 1
    if isinstance(move, PlayGround):
        return 50 + (5 if _fits_after_base(state, move.card, move.take) else 0)
    if isinstance(move, Play):
        if SLOT[move.card] == SLOTS:
            return 100 + (30 if _completes_family(state, move.card) else 0)
        return 60
    if isinstance(move, (UseTractor, TractorGround)):
        following = move.following
        assert following is not None
        if SLOT[following] == SLOTS:
            return 90 + (30 if _completes_family(state, following) else 0)
        return 30 if not played else 25  # it kills an opponent's card and places one of ours
    if isinstance(move, Discard):
        return 1 if not played and is_tractor(move.card) else -10
    if isinstance(move, Draw):
        drawn = [pick for pick in move.picks if pick[0] != "W"]
        fitting = sum(1 for card in drawn if _fits(state, card))
        size = len(state.seats[seat].hand)
        small = 2 if size < MUST_DRAW_BELOW and len(drawn) + size <= MUST_DRAW_BELOW else 0
        return 8 + fitting + small
    if isinstance(move, Done):
        return 10
    return -100


def _fits_after_base(state: DuoState, ground: str, take: str) -> bool:
    """Whether the Silo card taken fits the board once the base is down."""
    if SEQUENCE[take] == SEQUENCE[ground]:
        return SLOT[take] == 2
    return _fits(state, take)


def _completes_family(state: DuoState, closing_card: str) -> bool:
    family = closing_card[0]
    stacks = state.stacks
    others = [f"{family}{base}" for base in range(1, 5) if f"{family}{base}" != SEQUENCE[closing_card]]
    return not family_complete(state, family) and all(len(stacks[seq]) == SLOTS for seq in others)
