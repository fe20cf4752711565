"""How likely a seat's plays this hand were, given a hand it may hold now: the weight the strong
seat's sampler gives a deal (knowledge.deal_hidden), so that its deals follow what the plays
tell rather than only what they rule out.

The easy seat's plays are forced but for its ties: with no number 1-6 to play it picks a card at
random among its 7s and figures (kings kept while they promise three kings, in a giro where the
three-kings play is not allowed), and in a giro any of its figures. A seat that picked one card
out of many such cards did so with a smaller chance than one that picked it out of few: of the
deals that fit the passes and hints, those giving it many 7s and figures are the less likely.
Uniform deals overlooked that: on 565 positions of strong's own games they gave a seat that had
played a 7 about 0.18 sevens and 0.08 figures more than it held (weighed: 0.11 and 0.03; those
positions come from 16 games, so the figures are rough). Each tie of this hand multiplies a
deal's weight by 1 / (the tie's cards then in hand): the chance that the easy seat picked the
card it did.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .cards import FIGURES, KINGS
from .model import Entry


class Tie(NamedTuple):
    """A play picked at random among equals: the cards of the tie's kinds the seat has played
    since (this one included: they were in its hand then), split into kings and others; whether
    it was a giro turn; whether the seat could still use three kings then; whether it played a king."""

    others_since: int
    kings_since: int
    giro: bool
    kings_unused: bool
    played_king: bool


def _tie_card(card: str, giro: bool) -> bool:
    return card in FIGURES or (not giro and card.startswith("7"))


def ties(history: Iterable[tuple[Entry, int, bool]]) -> dict[int, list[Tie]]:
    """Per seat, the ties of its plays this hand, from the public history as knowledge.faced reads
    it (each move with the bar it faced and whether it was a giro turn)."""
    entries = list(history)
    found: dict[int, list[Tie]] = {}
    used: set[int] = set()
    for index, (entry, _, giro) in enumerate(entries):
        move = entry.move
        if move.startswith("kings"):
            used.add(entry.seat)
            continue
        if move == "pass" or not _tie_card(move, giro):
            continue
        since = [
            card
            for later, _, _ in entries[index:]
            if later.seat == entry.seat and later.move != "pass"
            for card in (later.move.split()[1:] if later.move.startswith("kings") else (later.move,))
        ]
        kings = sum(1 for card in since if card in KINGS)
        others = sum(1 for card in since if card not in KINGS and _tie_card(card, giro))
        tie = Tie(others, kings, giro, entry.seat not in used, move in KINGS)
        found.setdefault(entry.seat, []).append(tie)
    return found


def weight(hand: list[str], seat_ties: list[Tie]) -> float:
    """The chance that a seat now holding ``hand`` made its tied plays as it did (up to a factor
    common to every hand)."""
    if not seat_ties:
        return 1.0
    kings = sevens = figures = 0
    for card in hand:
        if card in KINGS:
            kings += 1
        elif card in FIGURES:
            figures += 1
        elif card.startswith("7"):
            sevens += 1
    chance = 1.0
    for tie in seat_ties:
        held_kings = kings + tie.kings_since
        others = figures + tie.others_since + (0 if tie.giro else sevens)
        if tie.giro and tie.kings_unused and held_kings >= 3:
            # Kings kept for the three-kings play: another figure if there is one.
            if others:
                if tie.played_king:
                    return 0.0
                chance /= others
            else:
                chance /= held_kings
        else:
            chance /= others + held_kings
    return chance
