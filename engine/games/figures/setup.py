"""Figures: the deal of a match and of each hand (stacked decks for tests and puzzles)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Rng, SetupError
from engine.core.text import quote
from engine.i18n import tr

from .cards import DECK, normalize_card, sorted_hand
from .model import BY_TARGET, FREE, INDIVIDUAL, PAIRS, PLAYERS, FiguresState, next_seat

# ----- set-up -----------------------------------------------------------------------------------


def read_deck(codes: list[Any]) -> list[str]:
    """Check a stacked deck: distinct card codes, all 40 or the first few (the rest is shuffled)."""
    deck: list[str] = []
    for raw in codes:
        card = normalize_card(str(raw))
        if card is None:
            raise SetupError(tr("deck: {text} is not a card code (examples: 1d, 7c, Jd, Nb, Ks).", text=quote(raw)))
        if card in deck:
            raise SetupError(tr("deck: {card} appears twice.", card=card))
        deck.append(card)
    return deck


def stacked_decks(options: Mapping[str, Any]) -> list[list[str]] | None:
    """The decks the options stack, one per hand from the first (None when nothing is stacked).
    ``deck`` stacks the first hand only; ``decks`` one hand after another, the later hands
    shuffled once the list runs out."""
    if "deck" in options and "decks" in options:
        raise SetupError(tr("Stack with deck (the first hand) or decks (one per hand), not both."))
    if "decks" in options:
        decks = [read_deck(list(deck)) for deck in options["decks"]]
        if not decks:
            raise SetupError(tr("decks: give at least one deck (decks separated by |)."))
        return decks
    if "deck" in options:
        return [read_deck(list(options["deck"]))]
    return None


def new_match(seed: int, options: Mapping[str, Any]) -> FiguresState:
    rng = Rng(seed=seed)
    mode = options.get("mode", INDIVIDUAL)
    decks = stacked_decks(options)
    first_dealer = options.get("first_dealer")
    if first_dealer is not None and not 1 <= int(first_dealer) <= PLAYERS:
        raise SetupError(tr("first_dealer is a seat number from 1 to {players}, not {value}.", players=PLAYERS, value=first_dealer))
    if decks is not None or first_dealer is not None:
        # A stacked deal must land in known hands, so the seating is not drawn: seat n sits at
        # table seat n + 1 (tutorials and tests rely on it).
        table = list(range(PLAYERS))
    elif mode == PAIRS:
        # Partners (seats 0 and 2, seats 1 and 3) always sit opposite; the draw decides which pair
        # holds table seats 1 and 3, and so deals first.
        table = [0, 1, 2, 3] if rng.randint(0, 1) == 0 else [1, 0, 3, 2]
    else:
        table = list(range(PLAYERS))
        rng.shuffle(table)
    state = FiguresState(
        mode=mode,
        match_end=options.get("match_end", BY_TARGET),
        target_score=int(options.get("target_score", 31)),
        number_of_hands=int(options.get("number_of_hands", 8)),
        rng=rng,
        table=table,
        hand_number=0,
        # The seat before the first dealer (table seat 1 unless stacked), as the deal moves on first.
        dealer=table[(int(first_dealer or 1) - 2) % PLAYERS],
        hands=[[] for _ in range(PLAYERS)],
        phase=FREE,
        turn=table[0],
        totals=[0] * PLAYERS,
        decks=decks or [],
    )
    deal_hand(state)
    return state


def deal_hand(state: FiguresState) -> None:
    """Start the next hand: pass the deal on, shuffle (or take the next stacked deck), deal one
    card at a time, starting after the dealer."""
    state.hand_number += 1
    state.dealer = next_seat(state, state.dealer)
    stacked = state.decks.pop(0) if state.decks else None
    if stacked is not None and len(stacked) == len(DECK):
        deck = list(stacked)
    else:
        given = stacked or []
        rest = [card for card in DECK if card not in given]
        state.rng.shuffle(rest)
        deck = given + rest
    table = state.table
    first = (table.index(state.dealer) + 1) % PLAYERS
    hands: list[list[str]] = [[] for _ in range(PLAYERS)]
    for index, card in enumerate(deck):
        hands[table[(first + index) % PLAYERS]].append(card)
    state.hands = [sorted_hand(hand) for hand in hands]
    state.phase = FREE
    state.turn = table[first]
    state.top = None
    state.owner = None
    state.passes = 0
    state.giro_starter = None
    state.giro_left = 0
    state.kings_used = []
    state.history = []
