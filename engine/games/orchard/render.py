"""Plain-text rendering of the views, for a Discord code block with six orchards.

Cards are written in the one notation of the game, ``Gold-h2-s5`` (colour, height, sweetness),
in the pool, in the batches, in the log and in moves alike, so a card seen anywhere can be
copied into a move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import BATCH_IDS, BATCH_NAMES

NAME_WIDTH = 16
LABEL_WIDTH = max(len(batch_id) for batch_id in BATCH_IDS)
PADDED_LABELS = {batch_id: f"{batch_id:<{LABEL_WIDTH}}" for batch_id in BATCH_IDS}
BATCH_LEGEND = "Batches: " + ", ".join(f"{batch_id} = {name}" for batch_id, name in zip(BATCH_IDS, BATCH_NAMES, strict=True))


def _name(names: Sequence[str], seat: int) -> str:
    name = names[seat] if seat < len(names) else f"Seat {seat + 1}"
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "…"


def render_board(view: dict[str, Any], names: Sequence[str]) -> str:
    players = view["players"]
    header = f"Draft Cider · round {view['round']}/{view['rounds']}"
    if not view["over"]:
        header += f" · pick {view['pick']}/{view['picks_this_round']}"
    header += f" · deck {view['deck_left']}"
    if view["easy"]:
        header += " · easy mode"
    lines = [header]
    if view["over"]:
        lines.append("Game over. " + _result_line(view, names))
    else:
        to_pick = f"To pick: {_name(names, view['turn'])}"
        if players > 1:  # alone, the solo player starts every round
            to_pick += f" (round started with {_name(names, view['first_picker'])})"
        lines.append(to_pick)
        lines.append("Pool: " + " ".join(view["pool"]))
        lines.append(view["prompt"])
    for seat in range(players):
        orchard = view["orchards"][seat]
        marker = ">" if seat == view["turn"] else " "
        lines.append(f"{marker}{_name(names, seat)}: {orchard['total']} points")
        batches, scores = orchard["batches"], orchard["scores"]
        for batch_id in BATCH_IDS:
            cards = batches[batch_id]
            shown = " ".join(cards) if cards else "-"
            if batch_id == "unlucky" and cards:
                shown += f" (sum {orchard['unlucky_sum']})"
            lines.append(f"  {PADDED_LABELS[batch_id]} {scores[batch_id]:>3}  {shown}")
    lines.append("Cards: colour-h(height)-s(sweetness).")
    return "\n".join(lines)


def _result_line(view: dict[str, Any], names: Sequence[str]) -> str:
    totals = view["scores"]
    if view["players"] == 1:
        return f"Final total: {totals[0]} points."
    winners = [_name(names, seat) for seat in view["winners"]]
    if len(winners) == 1:
        return f"{winners[0]} wins with {max(totals)} points."
    return f"{' and '.join(winners)} share the win with {max(totals)} points."


def render_private(view: dict[str, Any], names: Sequence[str]) -> str:
    """The seat's legal placements with the points each would add now (all else is on the board)."""
    placements: dict[str, dict[str, int]] = view.get("placements") or {}
    if not placements:
        return "Nothing to place: the game is over." if view["over"] else "No cards to place."
    heading = "Your pick" if view.get("your_turn") else "If you picked now"
    lines = [f"{heading} (card: batch and change in your total):"]
    for card, gains in placements.items():
        lines.append(f"  {card}: " + ", ".join(f"{batch_id} {gain:+d}" for batch_id, gain in gains.items()))
    lines.append(BATCH_LEGEND)
    if view.get("your_turn"):
        lines.append(view["prompt"])
    return "\n".join(lines)
