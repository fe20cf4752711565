"""Views of the 2-player Vege tables (docs/rules/vegetables-2p.md §10); their text is in ``render``.

Public: the board, the Silos and W1/W2 with every card in order, W3's count (its cards once
revealed), both Grounds rows, exposed cards, Tractor reserves, Hand sizes, scores, dead cards with
their holder. Private to a seat: its Hand and its pending discard requests. Nobody sees W3 before
it is revealed. A seat's view marks what it can play using only what that seat knows: the legal
Tractor moves depend on the opponent's Hand, so they are never listed from it (R11).
"""

from __future__ import annotations

from typing import Any

from engine.i18n import N_, tr, tr_ctx, tr_n

from ..cards import FAMILIES, PRECEDING, SEQUENCE, SLOT, sorted_cards
from ..model import MUST_PASS, OVER, UseTractor
from ..views import (
    cell_view,
    game_over,
    off_turn_prompt,
    public_prompt,
    seat_fields,
    table_fields,
    your_turn_first,
    your_turn_more,
)
from ..words import any_of
from .model import (
    EMPTY_PASS_PENALTY,
    MAY_DRAW_BELOW,
    MUST_DRAW,
    MUST_DRAW_BELOW,
    WELLS,
    DuoState,
    TractorGround,
)
from .rules import dead_held, draw_sizes, free_silo_cards, legal_moves, may_draw, opponent, wells_left

RULES_NOTE = N_("2-player game: Board Game Arena's version, with the rulings of docs/rules/vegetables-2p.md")


def public_view(state: DuoState) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    for family in FAMILIES:  # R5: rows fixed K, G, R, Y
        cells = []
        for base in range(1, 5):
            stack = list(state.stacks[f"{family}{base}"])
            cells.append(cell_view(base, f"{family}{base}", stack))
        rows.append({"row": len(rows) + 1, "family": family, "cells": cells})
    wells = []
    for index, well in enumerate(state.wells):
        face_up = index < 2 or state.revealed
        wells.append(
            {
                "well": WELLS[index],
                "count": len(well),
                "face_up": face_up,
                "cards": list(well) if face_up else [],
                "free": well[-1] if well and face_up else None,
            }
        )
    dead = set(state.dead)
    seats = []
    for index, player in enumerate(state.seats):
        seats.append(
            {
                **seat_fields(index, player),
                "grounds": sorted_cards(player.grounds),
                "used_grounds": player.used_grounds,
                "tractors": list(player.tractors),
                "locked": list(player.locked),
                "hand_size": len(player.hand),
                "hand_limit": hand_limit(len(player.hand), wells_left(state)),
                "dead_held": sorted_cards(
                    [card for card in player.grounds + player.hand + player.exposed if card in dead]
                ),
            }
        )
    view: dict[str, Any] = {
        "game": "vegetables",
        "players": 2,
        "variant": state.variant,
        "house_rules": False,
        "rules_note": tr(RULES_NOTE),
        "silos": [
            {"silo": f"S{index + 1}", "cards": list(silo), "free": silo[-1] if silo else None}
            for index, silo in enumerate(state.silos)
        ],
        "wells": wells,
        "w3_revealed": state.revealed,
        "hand_limits": {"may_draw_below": MAY_DRAW_BELOW, "must_draw_below": MUST_DRAW_BELOW},
        **table_fields(state, rows, seats, ""),
    }
    view["prompt"] = table_prompt(view)
    return view


def hand_limit(hand: int, left: int) -> str:
    """Which hand limit applies to a Hand of this size now (§4.2), in a few words (a column of the
    board's score table)."""
    # Translators: the hand limits in a column of the score table (about 10 characters).
    if not left:
        return tr_ctx("vegetables", "wells empty")
    if hand < MUST_DRAW_BELOW:
        return tr_ctx("vegetables", "must draw")
    if hand < MAY_DRAW_BELOW:
        return tr_ctx("vegetables", "may draw")
    return tr_ctx("vegetables", "no draw")


def seat_hand_limit(view: dict[str, Any], info: dict[str, Any]) -> str:
    """A seat's hand limit in the current language, from the view (``info`` is the seat's entry)."""
    return hand_limit(info["hand_size"], sum(well["count"] for well in view["wells"]))


def table_prompt(view: dict[str, Any]) -> str:
    """The public view's prompt (2 players), read from the view as every prompt is."""
    if view["phase"] == MUST_DRAW:
        return tr("Drawing from the wells (the Hand is below 8).")
    return public_prompt(view, tr("Play more cards, draw, or say done."))


def prompt_of(view: dict[str, Any]) -> str:
    """The prompt of a public view or of a seat's view (2 players), in the current language."""
    return seat_prompt(view) if "seat" in view else table_prompt(view)


def _unseen(state: DuoState, seat: int) -> set[str]:
    """Cards ``seat`` cannot place: in the opponent's Hand or in the face-down W3."""
    seen = set(state.seats[seat].hand)
    for player in state.seats:
        seen.update(player.grounds + player.exposed)
    for pile in state.silos + state.wells[:2] + (state.wells[2:] if state.revealed else []):
        seen.update(pile)
    for stack in state.stacks.values():
        seen.update(stack)
    seen.update(state.discard)
    rival = state.seats[opponent(seat)]
    return {card for card in rival.hand + state.wells[2] if card not in seen}


def seat_view(state: DuoState, seat: int) -> dict[str, Any]:
    view = public_view(state)
    player = state.seats[seat]
    dead = set(state.dead)
    stacks = state.stacks
    unseen = _unseen(state, seat)
    rival = state.seats[opponent(seat)]
    playable: list[str] = list(player.tractors)
    after_tractor: list[str] = []  # the card below may be the opponent's: a Tractor may stand for it
    for card in player.grounds + player.hand + player.exposed:
        if card in dead:
            continue
        if SLOT[card] == 1:
            playable.append(card)
            continue
        height = len(stacks[SEQUENCE[card]])
        below = PRECEDING[card]
        if height == SLOT[card] - 1:
            playable.append(card)
        elif (
            height == SLOT[card] - 2
            and below not in dead
            and (below in unseen or below in rival.grounds + rival.exposed)
        ):
            after_tractor.append(card)
    your_turn = state.phase != OVER and seat == state.turn
    hand = len(player.hand)
    view.update(
        {
            "seat": seat,
            "your_turn": your_turn,
            "hand": sorted_cards(player.hand),
            "pending": sorted_cards(player.pending),
            "dead_held": sorted_cards(dead_held(state, seat)),
            "playable": sorted_cards(playable),
            "playable_after_tractor": sorted_cards(after_tractor) if player.tractors else [],
            "can_draw": may_draw(state, seat),
            "must_draw": your_turn
            and (state.phase == MUST_DRAW or (hand < MUST_DRAW_BELOW and wells_left(state) > 0)),
            "draw_sizes": draw_sizes(state, seat) if may_draw(state, seat) else [],
            "free_silo": free_silo_cards(state),
        }
    )
    view["prompt"] = seat_prompt(view)
    return view


def seat_prompt(view: dict[str, Any]) -> str:
    """What a seat may or must do now, from its view (2 players)."""
    if view["over"]:
        return game_over()
    hand = len(view["hand"])
    wells = sum(well["count"] for well in view["wells"])
    if view["seat"] != view["turn"]:
        return off_turn_prompt(view["pending"], not view["pending"] and bool(view["dead_held"]))
    if view["phase"] == MUST_PASS:
        return _must_pass_prompt(hand, wells > 0)
    if view["phase"] == MUST_DRAW:
        sizes = view["draw_sizes"]
        return tr_n(
            "Your Hand holds {hand}: you must draw {sizes} card now, each the free top of a well (e.g. draw W1 W2 ...).",
            "Your Hand holds {hand}: you must draw {sizes} cards now, each the free top of a well (e.g. draw W1 W2 ...).",
            sizes[-1], hand=hand, sizes=any_of([str(size) for size in sizes]),
        )  # fmt: skip
    if view["plays_this_turn"] == 0:
        return your_turn_first()
    if hand < MUST_DRAW_BELOW and wells:
        return tr(
            "Your Hand holds {hand} (below {limit}): play on, then you must draw (done leads to it).",
            hand=hand, limit=MUST_DRAW_BELOW,
        )  # fmt: skip
    if view["can_draw"]:
        return tr("Your turn: play more cards, draw to {limit} (ends the turn), or say done.", limit=MAY_DRAW_BELOW)
    return your_turn_more()


def _must_pass_prompt(hand: int, draw: bool) -> str:
    """What a forced pass does (§7): the Hand face up, or 50 points when it is empty; then a draw."""
    if hand and draw:
        return tr("You cannot play: pass. The pass puts your Hand face up (no penalty), then you draw to 8 or 12.")
    if hand:
        return tr("You cannot play: pass. The pass puts your Hand face up (no penalty).")
    if draw:
        return tr(
            "You cannot play: pass. The pass costs {penalty} points (your Hand is empty), then you draw to 8 or 12.",
            penalty=EMPTY_PASS_PENALTY,
        )
    return tr("You cannot play: pass. The pass costs {penalty} points (your Hand is empty).", penalty=EMPTY_PASS_PENALTY)


def secret_view(state: DuoState, seat: int) -> dict[str, Any]:
    player = state.seats[seat]
    return {"hand": sorted(player.hand), "pending": sorted(player.pending)}


def examples(state: DuoState, seat: int, format_move: Any) -> list[str]:
    """One legal move of each kind, written out; a Tractor move only when the card it replaces
    lies face up with the opponent (listing the others would show the opponent's Hand)."""
    rival = state.seats[opponent(seat)]
    public = set(rival.grounds + rival.exposed)
    picked: dict[type, Any] = {}
    for move in legal_moves(state, seat):
        if isinstance(move, (UseTractor, TractorGround)) and move.replaced not in public:
            continue
        picked.setdefault(type(move), move)
    return [format_move(move) for move in picked.values()][:5]
