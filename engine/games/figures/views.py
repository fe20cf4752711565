"""Figures: the public view and a seat's view."""

from __future__ import annotations

from typing import Any

import msgspec

from .model import BEAT, FREE, OPEN, OVER, PAIRS, PLAYERS, FiguresState, sides
from .rules import current_bar, end_condition_reached, leaders, legal_singles, may_use_kings

# ----- views ------------------------------------------------------------------------------------


def table_prompt(state: FiguresState) -> str:
    """What the player on turn must do, in a few words (no hidden information)."""
    phase = state.phase
    if phase == OVER:
        return "The match is over."
    if phase == FREE:
        return "The table is clear: discard any card."
    if phase == OPEN:
        return f"The table is open after {state.top}: discard any card."
    if phase == BEAT:
        return f"Beat the {current_bar(state)}: a higher number card, or a figure to start a giro."
    turns = "turn" if state.giro_left == 1 else "turns"
    return f"Giro di figure: discard a figure, or pass without one ({state.giro_left} giro {turns} left)."


def public_view(state: FiguresState) -> dict[str, Any]:
    over = state.phase == OVER
    result_dicts = [
        dict(msgspec.to_builtins(result), history=list(map(msgspec.structs.asdict, result.history)))
        for result in state.results
    ]
    return {
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
        "prompt": table_prompt(state),
    }


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
    if on_turn:
        prompt = "Your turn. " + table_prompt(state)
        if not playable:
            prompt = "Your turn: you cannot discard anything, so you pass (Passo)."
        elif kings:
            prompt += " You may use three kings (once per hand): kings <card> <card> <card>, each legal after the one before."
        view["prompt"] = prompt
    return view


def secret_view(state: FiguresState, seat: int) -> dict[str, Any]:
    # The hand is the only secret; what it allows (playable cards, kings) follows from it.
    return {"hand": list(state.hands[seat])}
