"""Helpers for the Granja tests: hand-built positions and moves written in the game's notation.

Positions start from a real set-up and are then edited in place; cards are always moved from
wherever they are (deck, a hand, the discard pile), so the 60 cards stay conserved.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core import Event, IllegalMove
from engine.games.granja import GAME
from engine.games.granja.cards import CARDS
from engine.games.granja.model import (
    F1_PLAY,
    SEQUENTIAL_PHASES,
    Barrow,
    Field,
    GranjaState,
    Helper,
    Move,
    Roof,
)
from engine.games.granja.notation import format_move, parse_move
from engine.games.granja.rules import start_turn


def new(players: int = 2, seed: int = 1) -> GranjaState:
    return GAME.new_game(players, seed)


def take_card(state: GranjaState, card: str) -> None:
    """Remove a card from wherever it is (deck, hand, discard pile, a farm)."""
    if card in state.deck:
        state.deck.remove(card)
        return
    if card in state.discard:
        state.discard.remove(card)
        return
    for farm in state.farms:
        if card in farm.hand:
            farm.hand.remove(card)
            return
        for cards in (farm.fields, farm.barrows, farm.helpers):
            for placed in cards:
                if placed.card == card:
                    cards.remove(placed)
                    return
        if card in farm.extensions:
            farm.extensions.remove(card)
            return
    raise AssertionError(f"{card} is nowhere")


def set_hand(state: GranjaState, seat: int, cards: Iterable[str]) -> None:
    """Give a seat exactly these cards; its old hand goes back under the deck."""
    farm = state.farms[seat]
    old, farm.hand = farm.hand, []
    state.deck.extend(old)
    for card in cards:
        take_card(state, card)
        farm.hand.append(card)


def add_field(state: GranjaState, seat: int, card: str, crop: bool = False) -> None:
    take_card(state, card)
    state.farms[seat].fields.append(Field(card=card, crop=crop))


def add_barrow(state: GranjaState, seat: int, card: str, covered: Iterable[bool] | None = None) -> None:
    take_card(state, card)
    flags = list(covered) if covered is not None else [False] * len(CARDS[card].barrow)
    state.farms[seat].barrows.append(Barrow(card=card, covered=flags))


def add_helper(state: GranjaState, seat: int, card: str, used: bool = False) -> None:
    take_card(state, card)
    state.farms[seat].helpers.append(Helper(card=card, used=used))


def add_extension(state: GranjaState, seat: int, card: str) -> None:
    take_card(state, card)
    state.farms[seat].extensions.append(card)


def add_roof(state: GranjaState, seat: int, roof: str, used: bool = False) -> None:
    state.farms[seat].roofs.append(Roof(id=roof, used=used))


def card_with(helper: str | None = None, extension: str | None = None, field: str | None = None,
              param: str | None = None, avoid: Iterable[str] = ()) -> str:
    """The first card id (C009 on, unless nothing else fits) with the given faces."""
    avoided = set(avoid)
    candidates = [
        card.id
        for card in CARDS.values()
        if (helper is None or card.helper == helper)
        and (extension is None or card.extension == extension)
        and (field is None or card.field == field)
        and (param is None or card.param == param)
        and card.id not in avoided
    ]
    later = [card for card in candidates if card > "C008"]
    return (later or candidates)[0]


def goods(state: GranjaState, seat: int, **counts: int) -> None:
    """Set store counts (GR=2, PG=1, TG=0...) and silver/vp via silver=, vp=."""
    farm = state.farms[seat]
    for name, count in counts.items():
        if name == "silver":
            farm.silver = count
        elif name == "vp":
            farm.vp = count
        else:
            farm.goods[name] = count


def at_sequential(state: GranjaState, phase: str, seat: int, round_number: int | None = None) -> GranjaState:
    """Make ``seat`` the active seat of a sequential phase (its turn just begun)."""
    assert phase in SEQUENTIAL_PHASES
    if round_number is not None:
        state.round = round_number
    state.phase = phase
    from engine.games.granja.rules import phase_order

    state.turn = phase_order(state).index(seat)
    state.acted = False
    start_turn(state)
    return state


def at_f1(state: GranjaState, round_number: int) -> GranjaState:
    state.round = round_number
    state.phase = F1_PLAY
    state.roofs_offer = list(state.roofs_future[round_number - 1])
    for choice in state.choices:
        choice.plays = []
        choice.waiting = True  # as when F1 begins: every seat has a window
    return state


def do(state: GranjaState, seat: int, *texts: str) -> tuple[GranjaState, list[Event]]:
    """Apply moves written in notation, all by ``seat``; returns the new state and all events."""
    events: list[Event] = []
    for text in texts:
        state, new_events = GAME.apply(state, seat, parse_move(text))
        events.extend(new_events)
    return state, events


def refused(state: GranjaState, seat: int, text: str) -> str:
    """The refusal message of an illegal move (fails if the move is legal)."""
    move = parse_move(text)
    reason = GAME.why_illegal(state, seat, move)
    assert reason is not None, f"{text} was accepted"
    try:
        GAME.apply(state, seat, move)
    except IllegalMove as error:
        return str(error)
    raise AssertionError(f"{text} was applied")


def options(state: GranjaState, seat: int) -> list[str]:
    return [format_move(move) for move in GAME.legal_moves(state, seat)]


def kinds(state: GranjaState, seat: int) -> set[str]:
    return {move.kind for move in GAME.legal_moves(state, seat)}


def texts(events: Iterable[Event], seat: int | None = None) -> list[str]:
    """Event texts visible to ``seat`` (None = public only)."""
    return [event.text for event in events if event.visible_for(seat)]


def all_cards(state: GranjaState) -> list[str]:
    cards = list(state.deck) + list(state.discard)
    for farm in state.farms:
        cards += farm.hand + [f.card for f in farm.fields] + [b.card for b in farm.barrows]
        cards += [h.card for h in farm.helpers] + list(farm.extensions)
    return cards


def secrets(state: GranjaState, seat: int) -> list[str]:
    """Strings private to a seat: the ids of the cards in its hand."""
    return list(state.farms[seat].hand)


def move(text: str) -> Move:
    return parse_move(text)


def public(state: GranjaState) -> dict[str, Any]:
    return GAME.view(state, None)
