"""Building Figures positions the way the spec's examples describe them (players P1-P4)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from engine.core import IllegalMove, Rng
from engine.games.figures import GAME
from engine.games.figures.cards import DECK, sorted_hand
from engine.games.figures.model import FiguresMove, FiguresState, HandResult


def seat(player: int) -> int:
    """P1..P4 of the spec, as engine seats (the table order is the identity in these positions)."""
    return player - 1


def position(
    hands: Mapping[int, str],
    *,
    turn: int,
    phase: str = "FREE",
    top: str | None = None,
    owner: int | None = None,
    passes: int = 0,
    giro_starter: int | None = None,
    giro_left: int = 0,
    kings_used: Sequence[int] = (),
    mode: str = "individual",
    dealer: int = 1,
    filler: int = 3,
    totals: Sequence[int] = (0, 0, 0, 0),
    hand_number: int = 1,
    **options: Any,
) -> FiguresState:
    """A mid-hand position. Players are 1-based (P1..P4) as in the spec; unlisted players get
    ``filler`` cards no one else holds, so they are in the hand but play no part."""
    held = {player: text.split() for player, text in hands.items()}
    used = {card for cards in held.values() for card in cards} | ({top} if top else set())
    spare = [card for card in DECK if card not in used]
    for player in range(1, 5):
        if player not in held:
            held[player], spare = spare[:filler], spare[filler:]
    return FiguresState(
        mode=mode,
        match_end=options.get("match_end", "target"),
        target_score=options.get("target_score", 31),
        number_of_hands=options.get("number_of_hands", 8),
        rng=Rng(seed=options.get("seed", 1)),
        table=[0, 1, 2, 3],
        hand_number=hand_number,
        dealer=seat(dealer),
        hands=[sorted_hand(held[player]) for player in range(1, 5)],
        phase=phase,
        turn=seat(turn),
        top=top,
        owner=None if owner is None else seat(owner),
        passes=passes,
        giro_starter=None if giro_starter is None else seat(giro_starter),
        giro_left=giro_left,
        kings_used=sorted(seat(player) for player in kings_used),
        totals=list(totals),
        results=[
            HandResult(number=n, dealer=0, winner=0, cards_left=[0, 0, 0, 0], points=[0, 0, 0, 0])
            for n in range(1, hand_number)
        ],
    )


def legal(state: FiguresState, player: int) -> set[str]:
    """The legal moves of P<player>, in notation."""
    return {GAME.format_move(move) for move in GAME.legal_moves(state, seat(player))}


def singles(state: FiguresState, player: int) -> set[str]:
    return {text for text in legal(state, player) if not text.startswith("kings")}


def move(text: str) -> FiguresMove:
    return GAME.parse_move(text)


def play(state: FiguresState, player: int, text: str) -> tuple[FiguresState, list[str]]:
    """Apply P<player>'s move; returns the new state and the event texts."""
    new_state, events = GAME.apply(state, seat(player), move(text))
    return new_state, [event.text for event in events]


def refusal(state: FiguresState, player: int, text: str) -> str | None:
    return GAME.why_illegal(state, seat(player), move(text))


def assert_refused_unchanged(state: FiguresState, player: int, text: str, match: str) -> None:
    """P<player>'s ``text`` raises IllegalMove matching ``match`` and leaves the state as it was."""
    before = GAME.encode_state(state)
    with pytest.raises(IllegalMove, match=match):
        play(state, player, text)
    assert GAME.encode_state(state) == before
