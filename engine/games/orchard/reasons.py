"""Why a Draft Cider move is refused, in the player's words (and language)."""

from __future__ import annotations

from engine.i18n import N_, tr

from .cards import (
    CODE,
    COLOUR,
    CONST,
    FEATHER,
    FORTE,
    HEIGHT,
    MONO,
    SPECIAL,
    SWEET,
    SWEETNESS,
    TREE_RIVALS,
    batch_name,
    colour_name,
)
from .model import Batches, OrchardState, Place
from .rules import can_place, current_picker

# The batches where a card is refused for how it compares with the last card already there:
# Fortepiano Height and Sweet Couple pair it with the open card, Constant Height steps from the top.
_AGAINST_LAST = {
    FORTE: N_(
        "{card} would pair with {partner} in Fortepiano Height, but both have height {height}; "
        "the two heights of a pair must differ."
    ),
    SWEET: N_(
        "{card} would pair with {partner} in Sweet Couple, but its sweetness is {sweetness}, not "
        "{wanted}; a couple must share sweetness."
    ),
    CONST: N_(
        "{card} has height {height}, but the last Constant Height card {last} has height {last_height}; "
        "each new card must be within 1 of the last one."
    ),
}


def placement_problem(orchard: Batches, card: int, batch: int) -> str | None:
    """None when the placement is legal, else why not, in a player's words."""
    if can_place(orchard, card, batch):
        return None
    cards = orchard[batch]
    code = CODE[card]
    if batch == MONO:
        first = cards[0]
        return tr(
            "Your Monochrome batch is {colour} (its first card is {first}); {card} is {card_colour}.",
            colour=colour_name(COLOUR[first]),
            first=CODE[first],
            card=code,
            card_colour=colour_name(COLOUR[card]),
        )
    if batch == FEATHER:
        return _feather_problem(cards, card)
    if batch == SPECIAL:
        if cards:
            return tr("Your Special Colour Tree already holds {card}; it takes a single card.", card=CODE[cards[0]])
        colour = COLOUR[card]
        for rival in TREE_RIVALS:
            for other in orchard[rival]:
                if COLOUR[other] == colour:
                    return tr(
                        "{card} cannot be your Special Colour Tree: your {batch} batch already holds "
                        "{other}, a {colour} card (only cards in the Bad Batch do not count).",
                        card=code,
                        batch=batch_name(rival),
                        other=CODE[other],
                        colour=colour_name(colour),
                    )
    if batch in _AGAINST_LAST:
        # Each message shows only the fields it needs; ``partner`` and ``last`` both name the card
        # the new one is measured against (a pair's first card, Constant Height's last card).
        last = cards[-1]
        return tr(
            _AGAINST_LAST[batch],
            card=code,
            height=HEIGHT[card],
            sweetness=SWEETNESS[card],
            partner=CODE[last],
            last=CODE[last],
            last_height=HEIGHT[last],
            wanted=SWEETNESS[last],
        )
    # Not reached: every rule is covered above.
    return tr("{card} cannot go in {batch} now.", card=code, batch=batch_name(batch))


def _feather_problem(cards: list[int], card: int) -> str:
    """Explain a Feather refusal through the values still open after the batch's cards: both,
    or only one once a card has closed the other (its ``closer``)."""
    first = cards[0]
    sweetness, height = SWEETNESS[first], HEIGHT[first]
    height_closer = next((other for other in cards if HEIGHT[other] != height), None)
    sweetness_closer = next((other for other in cards if SWEETNESS[other] != sweetness), None)
    if height_closer is not None:
        closer: int | None = height_closer
        message = N_(
            "Apples of a Feather only takes sweetness {sweetness} now (height closed when {closer} went "
            "in); {card} has sweetness {card_sweetness}."
        )
    elif sweetness_closer is not None:
        closer = sweetness_closer
        message = N_(
            "Apples of a Feather only takes height {height} now (sweetness closed when {closer} went in); "
            "{card} has height {card_height}."
        )
    else:
        closer = None
        message = N_(
            "Apples of a Feather takes sweetness {sweetness} or height {height} now; {card} has "
            "sweetness {card_sweetness} and height {card_height}."
        )
    return tr(
        message,
        sweetness=sweetness,
        height=height,
        closer="" if closer is None else CODE[closer],
        card=CODE[card],
        card_sweetness=SWEETNESS[card],
        card_height=HEIGHT[card],
    )


def move_problem(state: OrchardState, seat: int, move: object) -> str | None:
    """None exactly for the moves in ``legal_placements``; otherwise the reason."""
    if not isinstance(move, Place):
        return tr("That is not a Draft Cider move; name a pool card and a batch, e.g. Gold-h2-s5 mono.")
    picker = current_picker(state)
    if picker is None:
        return tr("The game is over.")
    if picker != seat:
        return tr("It is not your turn; seat {number} is picking.", number=picker + 1)
    if not 0 <= move.batch < 8:
        return tr("There are only eight batches, numbered 1 to 8.")
    if move.card not in state.pool:
        if not 0 <= move.card < len(CODE):
            return tr("There is no such card.")
        pool = ", ".join(CODE[card] for card in state.pool)
        return tr("{card} is not in the pool. The pool holds: {pool}.", card=CODE[move.card], pool=pool)
    return placement_problem(state.orchards[seat], move.card, move.batch)
