"""Figures: the public view and a seat's view."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.i18n import tr, tr_n

from .model import BEAT, FREE, OPEN, OVER, PAIRS, PLAYERS, FiguresState, sides
from .rules import current_bar, end_condition_reached, leaders, legal_singles, may_use_kings

# ----- views ------------------------------------------------------------------------------------


def table_prompt(view: dict[str, Any]) -> str:
    """What the player on turn must do, in a few words (no hidden information), from the public
    view: the board is drawn from the view in each reader's language."""
    phase = view["phase"]
    if phase == OVER:
        return tr("The match is over.")
    if phase == FREE:
        return tr("The table is clear: discard any card.")
    if phase == OPEN:
        return tr("The table is open after {card}: discard any card.", card=view["top"])
    if phase == BEAT:
        return tr("Beat the {number}: a higher number card, or a figure to start a giro.", number=view["beat"])
    return tr_n(
        "Giro di figure: discard a figure, or pass without one ({n} giro turn left).",
        "Giro di figure: discard a figure, or pass without one ({n} giro turns left).",
        view["giro_left"],
    )


def prompt_of(view: dict[str, Any]) -> str:
    """The prompt of a public view, or of a seat's view (which speaks to the seat on its turn), in
    the current language."""
    on_turn = "seat" in view and view["seat"] == view["turn"] and not view["match_over"]
    if not on_turn:
        return table_prompt(view)
    if view["must_pass"]:
        return tr("Your turn: you cannot discard anything, so you pass (Passo).")
    if view["can_use_kings"]:
        return tr(
            "Your turn. {prompt} You may use three kings (once per hand): kings <card> <card> <card>, "
            "each legal after the one before.",
            prompt=table_prompt(view),
        )
    return tr("Your turn. {prompt}", prompt=table_prompt(view))


def public_view(state: FiguresState) -> dict[str, Any]:
    over = state.phase == OVER
    result_dicts = [
        dict(msgspec.to_builtins(result), history=list(map(msgspec.structs.asdict, result.history)))
        for result in state.results
    ]
    view: dict[str, Any] = {
        "game": "figures",
        "players": PLAYERS,
        "mode": state.mode,
        "match_end": state.match_end,
        "target_score": state.target_score,
        "number_of_hands": state.number_of_hands,
        "hand_number": state.hand_number,
        "dealer": state.dealer,
        "table": list(state.table),
        "pairs": sides(state) if state.mode == PAIRS else None,
        "phase": state.phase,
        "turn": None if over else state.turn,
        "to_act": [] if over else [state.turn],
        "top": state.top,
        "owner": state.owner,
        "beat": current_bar(state) or None,
        "passes": state.passes,
        "giro_starter": state.giro_starter,
        "giro_left": state.giro_left,
        "card_counts": [len(hand) for hand in state.hands],
        "kings_used": list(state.kings_used),
        # {"seat", "move", "clears"}: an Entry's fields in order, copied in C (the history is long).
        "history": list(map(msgspec.structs.asdict, state.history)),
        # The finished hand's plays stay on the board until the next hand's first move (2.11).
        "previous_history": result_dicts[-1]["history"] if result_dicts and not state.history else [],
        "totals": list(state.totals),
        "results": result_dicts,
        "match_over": over,
        # The end condition is already met, so this hand is only played to break a tied lead.
        "tie_break": not over and end_condition_reached(state, finished=state.hand_number - 1),
        "winners": (leaders(state)[0] if over else []),
    }
    view["prompt"] = table_prompt(view)
    return view


def seat_view(state: FiguresState, seat: int) -> dict[str, Any]:
    view = public_view(state)
    hand = list(state.hands[seat])
    on_turn = seat == state.turn and state.phase != OVER
    playable = legal_singles(state, seat)
    kings = may_use_kings(state, seat)
    view.update(
        seat=seat,
        hand=hand,
        playable=playable,
        must_pass=on_turn and not playable,
        can_use_kings=kings,
    )
    view["prompt"] = prompt_of(view)
    return view


def secret_view(state: FiguresState, seat: int) -> dict[str, Any]:
    # The hand is the only secret; what it allows (playable cards, kings) follows from it.
    return {"hand": list(state.hands[seat])}
