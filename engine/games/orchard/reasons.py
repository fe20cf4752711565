"""Why a Draft Cider move is refused, in the player's words."""

from __future__ import annotations

from .cards import (
    BATCH_NAMES,
    CODE,
    COLOUR,
    COLOURS,
    CONST,
    FEATHER,
    FORTE,
    HEIGHT,
    MONO,
    SPECIAL,
    SWEET,
    SWEETNESS,
    TREE_RIVALS,
)
from .model import Batches, OrchardState, Place
from .rules import can_place, current_picker


def placement_problem(orchard: Batches, card: int, batch: int) -> str | None:
    """None when the placement is legal, else why not, in a player's words."""
    if can_place(orchard, card, batch):
        return None
    cards = orchard[batch]
    code = CODE[card]
    if batch == MONO:
        first = cards[0]
        return (
            f"Your Monochrome batch is {COLOURS[COLOUR[first]]} (its first card is {CODE[first]}); "
            f"{code} is {COLOURS[COLOUR[card]]}."
        )
    if batch == FEATHER:
        return _feather_problem(cards, card)
    if batch == SPECIAL:
        if cards:
            return f"Your Special Colour Tree already holds {CODE[cards[0]]}; it takes a single card."
        colour = COLOUR[card]
        for rival in TREE_RIVALS:
            for other in orchard[rival]:
                if COLOUR[other] == colour:
                    return (
                        f"{code} cannot be your Special Colour Tree: your {BATCH_NAMES[rival]} batch "
                        f"already holds {CODE[other]}, a {COLOURS[colour]} card "
                        "(only cards in the Bad Batch do not count)."
                    )
    if batch == FORTE:
        partner = cards[-1]
        return (
            f"{code} would pair with {CODE[partner]} in Fortepiano Height, but both have height "
            f"{HEIGHT[card]}; the two heights of a pair must differ."
        )
    if batch == SWEET:
        partner = cards[-1]
        return (
            f"{code} would pair with {CODE[partner]} in Sweet Couple, but its sweetness is "
            f"{SWEETNESS[card]}, not {SWEETNESS[partner]}; a couple must share sweetness."
        )
    if batch == CONST:
        last = cards[-1]
        return (
            f"{code} has height {HEIGHT[card]}, but the last Constant Height card {CODE[last]} has "
            f"height {HEIGHT[last]}; each new card must be within 1 of the last one."
        )
    return f"{code} cannot go in {BATCH_NAMES[batch]} now."  # not reached: every rule is covered above


def _feather_problem(cards: list[int], card: int) -> str:
    """Explain a Feather refusal through the values still open after the batch's cards."""
    first = cards[0]
    code = CODE[card]
    sweetness, height = SWEETNESS[first], HEIGHT[first]
    height_closer = next((other for other in cards if HEIGHT[other] != height), None)
    sweetness_closer = next((other for other in cards if SWEETNESS[other] != sweetness), None)
    if height_closer is None and sweetness_closer is None:
        return (
            f"Apples of a Feather takes sweetness {sweetness} or height {height} now; {code} has "
            f"sweetness {SWEETNESS[card]} and height {HEIGHT[card]}."
        )
    if height_closer is not None:
        return (
            f"Apples of a Feather only takes sweetness {sweetness} now (height closed when "
            f"{CODE[height_closer]} went in); {code} has sweetness {SWEETNESS[card]}."
        )
    assert sweetness_closer is not None
    return (
        f"Apples of a Feather only takes height {height} now (sweetness closed when "
        f"{CODE[sweetness_closer]} went in); {code} has height {HEIGHT[card]}."
    )


def move_problem(state: OrchardState, seat: int, move: object) -> str | None:
    """None exactly for the moves in ``legal_placements``; otherwise the reason."""
    if not isinstance(move, Place):
        return "That is not a Draft Cider move; name a pool card and a batch, e.g. Gold-h2-s5 mono."
    picker = current_picker(state)
    if picker is None:
        return "The game is over."
    if picker != seat:
        return f"It is not your turn; seat {picker + 1} is picking."
    if not 0 <= move.batch < 8:
        return "There are only eight batches, numbered 1 to 8."
    if move.card not in state.pool:
        if not 0 <= move.card < len(CODE):
            return "There is no such card."
        pool = ", ".join(CODE[card] for card in state.pool)
        return f"{CODE[move.card]} is not in the pool. The pool holds: {pool}."
    return placement_problem(state.orchards[seat], move.card, move.batch)
