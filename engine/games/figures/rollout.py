"""The Figures search's rollout policy: the easy seat's choice (ai.FiguresGreedy) made directly
from the hand, without scoring every legal move on a copy, since rollouts spend most of the
search's time; three-kings turns (rare) still ask the greedy seat itself."""

from __future__ import annotations

import random

from .cards import KINGS, VALUE
from .model import PASS, SINGLES, FiguresMove, FiguresState
from .rules import allowed_cards, kings_held, may_use_kings


def greedy_single(state: FiguresState, seat: int, rng: random.Random) -> FiguresMove | None:
    """What the greedy seat plays (the lowest number 1-6 it may, else a 7 or a figure, keeping
    kings while they promise three kings), or None where it might use three kings."""
    if may_use_kings(state, seat):
        return None
    hand = state.hands[seat]
    allowed = allowed_cards(state)
    playable = [card for card in hand if card in allowed]
    if not playable:
        return PASS
    if len(hand) == 1:
        return SINGLES[playable[0]]
    lowest = None
    for card in playable:
        value = VALUE[card]
        if 0 < value < 7 and (lowest is None or value < VALUE[lowest]):
            lowest = card
    if lowest is not None:
        return SINGLES[lowest]
    if seat not in state.kings_used and kings_held(hand) >= 3:
        others = [card for card in playable if card not in KINGS]
        playable = others or playable
    return SINGLES[rng.choice(playable)]

