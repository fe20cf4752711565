"""State, moves, legality and scoring of Draft Cider (registry name ``orchard``).

Everything is public except the order of the undrawn deck. A turn is one move: take a card from
the pool and append it to one of the player's eight batches. When the pool runs dry the next round
is dealt inside the same move, so the only seat that ever acts is the current picker.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from engine.core import Event, Rng, SetupError

from .cards import (
    ALL_CARDS,
    BAD,
    BATCH_NAMES,
    BATCHES,
    CODE,
    COLOUR,
    COLOURS,
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
    picks_per_round,
    rounds_for,
)

Batches = list[list[int]]  # one player's orchard: eight batches, each in placement order


class Place(msgspec.Struct, frozen=True):
    """The only kind of move: take ``card`` from the pool and append it to ``batch`` (0..7)."""

    card: int
    batch: int


# Every possible move, made once: a Place is frozen, so lists of legal moves (built for every view's
# prompt) can share them instead of allocating a fresh one per card and batch.
PLACES: tuple[tuple[Place, ...], ...] = tuple(tuple(Place(card, batch) for batch in BATCHES) for card in ALL_CARDS)


class OrchardState(msgspec.Struct, kw_only=True):
    players: int
    easy: bool
    first_picker: int  # the seat that picks first in round 1; later rounds pass it on
    current_round: int  # 1-based; stays on the last round once the game is over
    picks_made: int  # picks already made in the current round
    pool: list[int]  # face-up cards, kept sorted (colour, height, sweetness)
    deck: list[int]  # undrawn cards, top first; never shown to anyone
    orchards: list[Batches]  # per seat, eight batches
    rng: Rng


# ----- set-up -------------------------------------------------------------------------------------


def new_state(players: int, seed: int, easy: bool, host_first: bool, stacked: Sequence[int] = ()) -> OrchardState:
    """A fresh game with the first pool dealt.

    ``stacked`` cards go on top of the deck in the given order; the rest are shuffled below them.
    """
    if len(set(stacked)) != len(stacked):
        raise SetupError("The stacked deck names a card twice; every apple exists only once.")
    rng = Rng(seed=seed)
    stacked_set = set(stacked)
    rest = [card for card in ALL_CARDS if card not in stacked_set]
    rng.shuffle(rest)
    first_picker = 0 if host_first else rng.randint(0, players - 1)
    state = OrchardState(
        players=players,
        easy=easy,
        first_picker=first_picker,
        current_round=1,
        picks_made=0,
        pool=[],
        deck=list(stacked) + rest,
        orchards=[[[] for _ in range(8)] for _ in range(players)],
        rng=rng,
    )
    deal_pool(state)
    return state


def deal_pool(state: OrchardState) -> None:
    size = picks_per_round(state.players) * state.players
    state.pool = sorted(state.deck[:size])
    del state.deck[:size]


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


def legal_placements(state: OrchardState, seat: int) -> list[Place]:
    if current_picker(state) != seat:
        return []
    orchard = state.orchards[seat]
    return [PLACES[card][batch] for card in state.pool for batch in BATCHES if can_place(orchard, card, batch)]


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
    text = (
        f"{{p{seat}}} put {CODE[move.card]} in {BATCH_NAMES[move.batch]} "
        f"(that batch now scores {points[move.batch]}, total {sum(points)})"
    )
    if tree_before and not tree_intact(orchard):
        text += "; the Special Colour Tree no longer scores"
    events = [Event(text=text + ".", actor=seat)]
    if state.pool:
        return events
    if state.current_round < rounds_for(state.players):
        state.current_round += 1
        state.picks_made = 0
        deal_pool(state)
        dealt = " ".join(CODE[card] for card in state.pool)
        events.append(
            Event(
                text=f"Round {state.current_round}: the pool is {dealt}; "
                f"{{p{round_first_picker(state)}}} picks first."
            )
        )
        return events
    totals = [total_score(each, state.easy) for each in state.orchards]
    if state.players == 1:
        events.append(Event(text=f"Game over: {{p0}} finishes with {totals[0]} points."))
    else:
        listing = ", ".join(f"{{p{seat}}} {total}" for seat, total in enumerate(totals))
        best = max(totals)
        winners = " and ".join(f"{{p{seat}}}" for seat, total in enumerate(totals) if total == best)
        verb = "win" if totals.count(best) > 1 else "wins"
        events.append(Event(text=f"Game over: {listing}. {winners} {verb}."))
    return events


def default_placement(state: OrchardState, seat: int) -> Place:
    """The timeout move: the first pool card in card order into BAD, which never spoils a plan."""
    return Place(state.pool[0], BAD)
