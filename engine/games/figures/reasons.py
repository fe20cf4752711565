"""Figures: why a move is refused, in the player's words (and language)."""

from __future__ import annotations

from typing import Any

from engine.i18n import tr

from .cards import CARD_SET, FIGURES, VALUE
from .model import ALLOWED_OVER_BAR, BAR_AFTER, FREE, GIRO, OPEN, OVER, FiguresState, Pass, Single, ThreeKings
from .rules import allowed_cards, current_bar, kings_held, legal_singles


def _kings_not_playable(position: int, card: str, bar: int, before: str | None) -> str:
    """Why the ``position``-th card of a three-kings play cannot follow the card before it (or the
    bar on the table for the first one)."""
    equal = VALUE[card] == bar
    if before is None:
        if equal:
            return tr(
                "Three kings refused (nothing was played): the first card, {card}, only equals the "
                "{number} on the table; a card must be strictly higher.",
                card=card,
                number=bar,
            )
        return tr(
            "Three kings refused (nothing was played): the first card, {card}, does not beat the {number} on the table.",
            card=card,
            number=bar,
        )
    if position == 1:
        if equal:
            return tr(
                "Three kings refused (nothing was played): the second card, {card}, only equals the "
                "{before} played before it; a card must be strictly higher.",
                card=card,
                before=before,
            )
        return tr(
            "Three kings refused (nothing was played): the second card, {card}, does not beat the {before} played before it.",
            card=card,
            before=before,
        )
    if equal:
        return tr(
            "Three kings refused (nothing was played): the third card, {card}, only equals the "
            "{before} played before it; a card must be strictly higher.",
            card=card,
            before=before,
        )
    return tr(
        "Three kings refused (nothing was played): the third card, {card}, does not beat the {before} played before it.",
        card=card,
        before=before,
    )


def why_illegal(state: FiguresState, seat: int, move: Any) -> str | None:
    """None for exactly the moves ``legal_moves`` lists; otherwise the reason, for the player."""
    if state.phase == OVER:
        return tr("The match is over.")
    if seat != state.turn:
        return tr("It is not your turn.")
    hand = state.hands[seat]
    if isinstance(move, Single):
        return _why_single_illegal(state, hand, move.card)
    if isinstance(move, Pass):
        return _why_pass_illegal(state, seat)
    if isinstance(move, ThreeKings):
        return _why_kings_illegal(state, seat, move.cards)
    return tr("That is not a Figures move: play a card (like 7c), pass, or kings <card> <card> <card>.")


def _why_single_illegal(state: FiguresState, hand: list[str], card: str) -> str | None:
    if card not in CARD_SET:
        return tr("{card} is not a card (examples: 1d, 7c, Jd, Nb, Ks).", card=card)
    if card not in hand:
        return tr("You do not hold {card}.", card=card)
    if card in allowed_cards(state):
        return None
    if state.phase == GIRO:
        figures = [held for held in hand if held in FIGURES]
        if figures:
            return tr("{card} is not a figure: on a giro turn discard a figure ({cards}).", card=card, cards=", ".join(figures))
        return tr("{card} is not a figure: on a giro turn you may only discard a figure, so you must pass.", card=card)
    bar = current_bar(state)
    others = ", ".join(held for held in hand if held in ALLOWED_OVER_BAR[bar])
    if VALUE[card] == bar:
        if others:
            return tr(
                "{card} only equals the {number} on the table; a card must be strictly higher: play a "
                "higher number card or a figure ({cards}).",
                card=card,
                number=bar,
                cards=others,
            )
        return tr(
            "{card} only equals the {number} on the table; a card must be strictly higher, and you hold "
            "no higher card and no figure: you must pass.",
            card=card,
            number=bar,
        )
    if others:
        return tr(
            "{card} does not beat the {number} on the table: play a higher number card or a figure ({cards}).",
            card=card,
            number=bar,
            cards=others,
        )
    return tr(
        "{card} does not beat the {number} on the table, and you hold no higher card and no figure: you must pass.",
        card=card,
        number=bar,
    )


def _why_pass_illegal(state: FiguresState, seat: int) -> str | None:
    playable = legal_singles(state, seat)
    if not playable:
        return None
    if state.phase == FREE:
        return tr("You cannot pass: the table is clear, so discard any card.")
    if state.phase == OPEN:
        return tr("You cannot pass: the table is open, so discard any card.")
    if state.phase == GIRO:
        return tr(
            "You cannot pass on a giro turn while you hold a figure: discard one ({cards}).", cards=", ".join(playable)
        )
    return tr("You cannot pass while you can play: {cards}.", cards=", ".join(playable))


def _why_kings_illegal(state: FiguresState, seat: int, cards: tuple[str, ...]) -> str | None:
    if state.phase == GIRO:
        return tr("Three kings cannot be used on a giro turn: discard a figure, or pass if you hold none.")
    if seat in state.kings_used:
        return tr("You have already used three kings in this hand (once per hand).")
    hand = state.hands[seat]
    held = kings_held(hand)
    if held < 3:
        return tr("Three kings needs at least three kings in your hand; you hold {count}.", count=held)
    if len(cards) != 3:
        return tr("Three kings discards exactly three cards: kings <card> <card> <card>.")
    if len(set(cards)) != 3:
        return tr("The three cards of a three-kings play must be different cards.")
    for card in cards:
        if card not in hand:
            return tr("You do not hold {card}.", card=card)
    bar = current_bar(state)
    before: str | None = None
    for position, card in enumerate(cards):
        if card not in ALLOWED_OVER_BAR[bar]:
            return _kings_not_playable(position, card, bar, before)
        bar, before = BAR_AFTER[card], card
    return None
