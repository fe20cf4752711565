"""Plain text of the Figures board and of a player's hand (for a Discord code block or a terminal)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

RECENT_MOVES_SHOWN = 12
NAME_WIDTH = 14


def _short(name: str) -> str:
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "…"


def _match_line(view: dict[str, Any]) -> str:
    mode = "pairs" if view["mode"] == "pairs" else "individual"
    if view["match_end"] == "hands":
        goal = f"{view['number_of_hands']} hands"
    else:
        goal = f"to {view['target_score']} points"
    extra = " (tie-break)" if view.get("tie_break") else ""
    return f"Figures · {mode} · match {goal} · hand {view['hand_number']}{extra}"


def _pair_label(view: dict[str, Any], seat: int) -> str:
    pairs = view.get("pairs")
    if not pairs:
        return ""
    return " A" if seat in pairs[0] else " B"


def render_board(view: dict[str, Any], names: Sequence[str]) -> str:
    lines = [_match_line(view)]
    pairs_mode = bool(view.get("pairs"))
    lines.append(f"Seat  {'Player':<{NAME_WIDTH}}{'  Pair' if pairs_mode else ''}  Cards  Total")
    for position, seat in enumerate(view["table"]):
        marker = ">" if view["turn"] == seat else " "
        notes = []
        if seat == view["dealer"]:
            notes.append("dealer")
        if seat in view["kings_used"]:
            notes.append("used 3 kings")
        pair = f"  {_pair_label(view, seat):>4}" if pairs_mode else ""
        lines.append(
            f"{marker}{position + 1:>2}   {_short(names[seat]):<{NAME_WIDTH}}{pair}"
            f"  {view['card_counts'][seat]:>5}  {view['totals'][seat]:>5}  {' · '.join(notes)}".rstrip()
        )
    if view["match_over"]:
        winners = " and ".join(names[seat] for seat in view["winners"])
        lines.append(f"Match over: {winners} {'wins' if len(view['winners']) == 1 else 'win'}.")
    else:
        lines.append(_table_line(view, names))
        if view["phase"] == "GIRO" and view["giro_starter"] is not None:
            lines.append(
                f"Giro di figure started by {names[view['giro_starter']]}: "
                f"{view['giro_left']} giro turn{'s' if view['giro_left'] != 1 else ''} left."
            )
    history, label = view["history"], "Moves"
    if not history and view.get("previous_history"):
        # A new hand without a move yet: the finished hand's plays stay in sight (2.11).
        history, label = view["previous_history"], f"Hand {view['results'][-1]['number']} moves"
    recent = history[-RECENT_MOVES_SHOWN:]
    if recent:
        shown = "".join(
            f"{_short(names[entry['seat']])} {entry['move']}{' | ' if entry['clears'] else ' · '}"
            for entry in recent
        ).rstrip(" ·|")
        earlier = len(history) - len(recent)
        lines.append(f"{label}{f' (+{earlier} earlier)' if earlier else ''}: {shown}")
    if view["results"]:
        lines.append(_result_line(view["results"][-1], view["table"], names))
    if not view["match_over"]:
        lines.append(f"{names[view['turn']]} to play. {view['prompt']}")
    return "\n".join(lines)


def _table_line(view: dict[str, Any], names: Sequence[str]) -> str:
    if view["top"] is None:
        return f"Table: clear · {view['phase']}"
    state = f"BEAT {view['beat']}" if view["phase"] == "BEAT" else view["phase"]
    passes = f" · passes {view['passes']}" if view["passes"] else ""
    return f"Table: {view['top']} ({names[view['owner']]}) · {state}{passes}"


def _result_line(result: dict[str, Any], table: Sequence[int], names: Sequence[str]) -> str:
    points = ", ".join(f"{_short(names[seat])} {result['points'][seat]:+d}" for seat in table)
    return f"Hand {result['number']}: {names[result['winner']]} went out. Points {points}"


def render_private(view: dict[str, Any], names: Sequence[str]) -> str:
    hand = view["hand"]
    lines = [f"{names[view['seat']]}, your hand ({len(hand)}): {' '.join(hand) if hand else '(empty)'}"]
    if view["match_over"]:
        lines.append(view["prompt"])
    elif view["turn"] == view["seat"]:
        if not view["must_pass"]:
            lines.append(f"Playable: {' '.join(view['playable'])}")
        lines.append(view["prompt"])
    else:
        # The table prompt speaks to the player on turn; a waiting seat only needs to know who that is.
        lines.append(f"Not your turn: {names[view['turn']]} to play.")
    return "\n".join(lines)
