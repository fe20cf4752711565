"""Figures: why a move is refused, in the player's words."""

from __future__ import annotations

from typing import Any

from .cards import CARD_SET, FIGURES, VALUE
from .model import ALLOWED_OVER_BAR, BAR_AFTER, FREE, GIRO, OPEN, OVER, FiguresState, Pass, Single, ThreeKings
from .rules import allowed_cards, current_bar, kings_held, legal_singles


def _against(bar: int, before: str | None = None) -> str:
    return f"the {bar} on the table" if before is None else f"the {before} played before it"


def _not_playable(card: str, bar: int, before: str | None = None, subject: str | None = None) -> str:
    """Why ``card`` cannot follow the bar; ``subject`` replaces the bare card code as the subject."""
    who = subject or card
    if VALUE[card] == bar:
        return f"{who} only equals {_against(bar, before)}; a card must be strictly higher"
    return f"{who} does not beat {_against(bar, before)}"


def why_illegal(state: FiguresState, seat: int, move: Any) -> str | None:
    """None for exactly the moves ``legal_moves`` lists; otherwise the reason, for the player."""
    if state.phase == OVER:
        return "The match is over."
    if seat != state.turn:
        return "It is not your turn."
    hand = state.hands[seat]
    if isinstance(move, Single):
        return _why_single_illegal(state, hand, move.card)
    if isinstance(move, Pass):
        return _why_pass_illegal(state, seat)
    if isinstance(move, ThreeKings):
        return _why_kings_illegal(state, seat, move.cards)
    return "That is not a Figures move: play a card (like 7c), pass, or kings <card> <card> <card>."


def _why_single_illegal(state: FiguresState, hand: list[str], card: str) -> str | None:
    if card not in CARD_SET:
        return f"{card} is not a card (examples: 1d, 7c, Jd, Nb, Ks)."
    if card not in hand:
        return f"You do not hold {card}."
    if card in allowed_cards(state):
        return None
    if state.phase == GIRO:
        figures = [held for held in hand if held in FIGURES]
        if figures:
            return f"{card} is not a figure: on a giro turn discard a figure ({', '.join(figures)})."
        return f"{card} is not a figure: on a giro turn you may only discard a figure, so you must pass."
    bar = current_bar(state)
    others = [held for held in hand if held in ALLOWED_OVER_BAR[bar]]
    if others:
        return f"{_not_playable(card, bar)}: play a higher number card or a figure ({', '.join(others)})."
    return f"{_not_playable(card, bar)}, and you hold no higher card and no figure: you must pass."


def _why_pass_illegal(state: FiguresState, seat: int) -> str | None:
    playable = legal_singles(state, seat)
    if not playable:
        return None
    if state.phase == FREE:
        return "You cannot pass: the table is clear, so discard any card."
    if state.phase == OPEN:
        return "You cannot pass: the table is open, so discard any card."
    if state.phase == GIRO:
        return f"You cannot pass on a giro turn while you hold a figure: discard one ({', '.join(playable)})."
    return f"You cannot pass while you can play: {', '.join(playable)}."


def _why_kings_illegal(state: FiguresState, seat: int, cards: tuple[str, ...]) -> str | None:
    if state.phase == GIRO:
        return "Three kings cannot be used on a giro turn: discard a figure, or pass if you hold none."
    if seat in state.kings_used:
        return "You have already used three kings in this hand (once per hand)."
    hand = state.hands[seat]
    held = kings_held(hand)
    if held < 3:
        return f"Three kings needs at least three kings in your hand; you hold {held}."
    if len(cards) != 3:
        return "Three kings discards exactly three cards: kings <card> <card> <card>."
    if len(set(cards)) != 3:
        return "The three cards of a three-kings play must be different cards."
    for card in cards:
        if card not in hand:
            return f"You do not hold {card}."
    bar = current_bar(state)
    before: str | None = None
    for position, card in zip(("first", "second", "third"), cards, strict=True):
        if card not in ALLOWED_OVER_BAR[bar]:
            reason = _not_playable(card, bar, before, subject=f"the {position} card, {card},")
            return f"Three kings refused (nothing was played): {reason}."
        bar, before = BAR_AFTER[card], card
    return None
