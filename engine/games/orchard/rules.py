"""Turn order, legal moves, playing a move and scoring of Draft Cider (registry name ``orchard``).

Everything is public except the order of the undrawn deck. A turn is one move: take a card from
the pool and append it to one of the player's eight batches. When the pool runs dry the next round
is dealt inside the same move, so the only seat that ever acts is the current picker.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Event
from engine.i18n import join_and, tr, tr_n

from .cards import (
    BAD,
    BATCHES,
    CODE,
    COLOUR,
    CONST,
    CONST_POINTS,
    FEATHER,
    FORTE,
    FORTE_POINTS_PER_STEP,
    HEIGHT,
    MONO,
    SPECIAL,
    SPECIAL_POINTS,
    SWEET,
    SWEET_PAIR_POINTS,
    SWEETNESS,
    TREE_RIVALS,
    UNLUCKY,
    UNLUCKY_TARGET,
    batch_name,
    rounds_for,
)
from .model import PLACES, Batches, OrchardState, Place
from .setup import deal_pool

# ----- turn order ---------------------------------------------------------------------------------


def round_first_picker(state: OrchardState) -> int:
    return (state.first_picker + state.current_round - 1) % state.players


def is_over(state: OrchardState) -> bool:
    # The pool is refilled in the move that empties it, except after the last round.
    return not state.pool


def current_picker(state: OrchardState) -> int | None:
    if is_over(state):
        return None
    return (round_first_picker(state) + state.picks_made) % state.players


# ----- legality -----------------------------------------------------------------------------------


def can_place(orchard: Batches, card: int, batch: int) -> bool:
    """Whether the placement rules of ``batch`` accept ``card`` now (scoring conditions aside)."""
    cards = orchard[batch]
    if batch == MONO:
        return not cards or COLOUR[cards[0]] == COLOUR[card]
    if batch == FEATHER:
        # All cards must keep sharing one sweetness, or all one height. Most cards already differ
        # from the first card on both, which settles it without walking the batch.
        if not cards:
            return True
        first = cards[0]
        sweetness, height = SWEETNESS[card], HEIGHT[card]
        return (SWEETNESS[first] == sweetness and all(SWEETNESS[other] == sweetness for other in cards)) or (
            HEIGHT[first] == height and all(HEIGHT[other] == height for other in cards)
        )
    if batch == SPECIAL:
        return not cards and not colour_outside_bad(orchard, COLOUR[card])
    if batch == FORTE:
        return len(cards) % 2 == 0 or HEIGHT[cards[-1]] != HEIGHT[card]
    if batch == SWEET:
        return len(cards) % 2 == 0 or SWEETNESS[cards[-1]] == SWEETNESS[card]
    if batch == CONST:
        return not cards or abs(HEIGHT[cards[-1]] - HEIGHT[card]) <= 1
    return True  # UNLUCKY and BAD take anything


def legal_placements(state: OrchardState, seat: int) -> list[Place]:
    if current_picker(state) != seat:
        return []
    orchard = state.orchards[seat]
    return [PLACES[card][batch] for card in state.pool for batch in BATCHES if can_place(orchard, card, batch)]


# ----- scoring ------------------------------------------------------------------------------------


def colour_outside_bad(orchard: Batches, colour: int) -> bool:
    """Whether a batch that spoils the Special Colour Tree (any but BAD) holds a card of ``colour``."""
    for rival in TREE_RIVALS:  # plain loops: this runs for every card and batch a view weighs
        for other in orchard[rival]:
            if COLOUR[other] == colour:
                return True
    return False


def tree_intact(orchard: Batches) -> bool:
    """Whether the Special Colour Tree is planted and no batch but BAD shares its colour."""
    special = orchard[SPECIAL]
    return bool(special) and not colour_outside_bad(orchard, COLOUR[special[0]])


def unlucky_sum(orchard: Batches) -> int:
    return sum(map(SWEETNESS.__getitem__, orchard[UNLUCKY]))


def score_cards(batch: int, cards: Sequence[int], easy: bool) -> int:
    """Points of a batch from its own cards; SPECIAL needs the whole orchard (see batch_scores)."""
    n = len(cards)
    if batch == MONO:
        return n * (n + 1) // 2
    if batch == FEATHER:
        return n * (n - 1)
    if batch == UNLUCKY:
        return n * n if sum(map(SWEETNESS.__getitem__, cards)) == UNLUCKY_TARGET else 0
    if batch == FORTE:
        steps = 0
        for index in range(0, n - 1, 2):
            steps += abs(HEIGHT[cards[index]] - HEIGHT[cards[index + 1]])
        return FORTE_POINTS_PER_STEP * steps
    if batch == SWEET:
        return SWEET_PAIR_POINTS * (n // 2)
    if batch == CONST:
        return CONST_POINTS[n]
    if batch == BAD:
        return n * bad_card_value(easy)
    raise ValueError(f"score_cards does not score batch {batch}")


def bad_card_value(easy: bool) -> int:
    """What one card in the Bad Batch is worth: a penalty normally, nothing in easy mode."""
    return 0 if easy else -1


def batch_scores(orchard: Batches, easy: bool) -> list[int]:
    scores = [0 if batch == SPECIAL else score_cards(batch, cards, easy) for batch, cards in enumerate(orchard)]
    if tree_intact(orchard):
        scores[SPECIAL] = SPECIAL_POINTS
    return scores


def total_score(orchard: Batches, easy: bool) -> int:
    return sum(batch_scores(orchard, easy))


def score_gain(batch: int, cards: Sequence[int], card: int, easy: bool) -> int:
    """``score_cards`` of the batch with ``card`` added, minus its score now, without rescoring
    the batch (a seat's view weighs every pool card in every batch)."""
    n = len(cards)
    if batch == MONO:
        return n + 1
    if batch == FEATHER:
        return 2 * n
    if batch == UNLUCKY:
        total = sum(map(SWEETNESS.__getitem__, cards))
        after = (n + 1) * (n + 1) if total + SWEETNESS[card] == UNLUCKY_TARGET else 0
        return after - (n * n if total == UNLUCKY_TARGET else 0)
    if batch == FORTE:  # the card completes a pair only after an odd count
        return FORTE_POINTS_PER_STEP * abs(HEIGHT[cards[-1]] - HEIGHT[card]) if n % 2 else 0
    if batch == SWEET:
        return SWEET_PAIR_POINTS if n % 2 else 0
    if batch == CONST:
        return CONST_POINTS[n + 1] - CONST_POINTS[n]
    if batch == BAD:
        return bad_card_value(easy)
    raise ValueError(f"score_gain does not score batch {batch}")


def placement_gain(orchard: Batches, card: int, batch: int, easy: bool) -> int:
    """How the orchard's total would change if ``card`` went into ``batch`` now.

    Only the target batch and the Special Colour Tree can change, so only they are weighed.
    """
    if batch == SPECIAL:
        # A legal tree always stands alone in its colour outside BAD.
        return SPECIAL_POINTS if can_place(orchard, card, SPECIAL) else 0
    gain = score_gain(batch, orchard[batch], card, easy)
    if batch != BAD and orchard[SPECIAL] and COLOUR[orchard[SPECIAL][0]] == COLOUR[card] and tree_intact(orchard):
        gain -= SPECIAL_POINTS
    return gain


# ----- play ---------------------------------------------------------------------------------------


def play_move(state: OrchardState, seat: int, move: Place) -> list[Event]:
    """Carry out a legal move in place; deal the next round when the pool runs out."""
    orchard = state.orchards[seat]
    tree_before = tree_intact(orchard)
    state.pool.remove(move.card)
    orchard[move.batch].append(move.card)
    state.picks_made += 1
    points = batch_scores(orchard, state.easy)
    fields = {
        "player": f"{{p{seat}}}",
        "card": CODE[move.card],
        "batch": batch_name(move.batch),
        "points": points[move.batch],
        "total": sum(points),
    }
    if tree_before and not tree_intact(orchard):
        text = tr(
            "{player} put {card} in {batch} (that batch now scores {points}, total {total}); "
            "the Special Colour Tree no longer scores.",
            **fields,
        )
    else:
        text = tr("{player} put {card} in {batch} (that batch now scores {points}, total {total}).", **fields)
    events = [Event(text=text, actor=seat)]
    if state.pool:
        return events
    if state.current_round < rounds_for(state.players):
        state.current_round += 1
        state.picks_made = 0
        deal_pool(state)
        dealt = " ".join(CODE[card] for card in state.pool)
        events.append(
            Event(
                text=tr(
                    "Round {round}: the pool is {cards}; {player} picks first.",
                    round=state.current_round,
                    cards=dealt,
                    player=f"{{p{round_first_picker(state)}}}",
                )
            )
        )
        return events
    totals = [total_score(each, state.easy) for each in state.orchards]
    if state.players == 1:
        events.append(
            Event(
                text=tr_n(
                    "Game over: {player} finishes with {n} points.",
                    "Game over: {player} finishes with {n} points.",
                    totals[0],
                    player="{p0}",
                )
            )
        )
    else:
        listing = ", ".join(f"{{p{seat}}} {total}" for seat, total in enumerate(totals))
        best = max(totals)
        winners = join_and([f"{{p{seat}}}" for seat, total in enumerate(totals) if total == best])
        events.append(
            Event(
                text=tr_n(
                    "Game over: {scores}. {winners} wins.",
                    "Game over: {scores}. {winners} win.",
                    totals.count(best),
                    scores=listing,
                    winners=winners,
                )
            )
        )
    return events


def default_placement(state: OrchardState, seat: int) -> Place:
    """The timeout move: the first pool card in card order into BAD, which never spoils a plan."""
    return Place(state.pool[0], BAD)
