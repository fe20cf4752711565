"""Plain-text rendering of the views, for a Discord code block with six orchards, in the reader's
language (engine.i18n).

Cards are written in the one notation of the game, ``Gold-h2-s5`` (colour, height, sweetness),
in the pool, in the batches, in the log and in moves alike, so a card seen anywhere can be
copied into a move. Batch ids (``mono``...) are notation too; their full names are translated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.i18n import join_and, tr, tr_n

from .cards import BATCH_IDS, batch_name
from .views import prompt_of

NAME_WIDTH = 16
LABEL_WIDTH = max(len(batch_id) for batch_id in BATCH_IDS)
PADDED_LABELS = {batch_id: f"{batch_id:<{LABEL_WIDTH}}" for batch_id in BATCH_IDS}


def batch_legend() -> str:
    """The batch ids of the notation with their full names."""
    pairs = ", ".join(f"{batch_id} = {batch_name(batch)}" for batch, batch_id in enumerate(BATCH_IDS))
    return tr("Batches: {list}", list=pairs)


def _name(names: Sequence[str], seat: int) -> str:
    name = names[seat] if seat < len(names) else tr("Seat {number}", number=seat + 1)
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "…"


def header_parts(view: dict[str, Any]) -> list[str]:
    """The round line's parts after the title: round, pick (during play), deck, easy mode."""
    parts = [tr("round {round}/{rounds}", round=view["round"], rounds=view["rounds"])]
    if not view["over"]:
        parts.append(tr("pick {pick}/{picks}", pick=view["pick"], picks=view["picks_this_round"]))
    parts.append(tr("deck {count}", count=view["deck_left"]))
    if view["easy"]:
        parts.append(tr("easy mode"))
    return parts


def to_pick_line(view: dict[str, Any], names: Sequence[str]) -> str:
    if view["players"] > 1:  # alone, the solo player starts every round
        return tr(
            "To pick: {name} (round started with {first})",
            name=_name(names, view["turn"]),
            first=_name(names, view["first_picker"]),
        )
    return tr("To pick: {name}", name=_name(names, view["turn"]))


def cards_key() -> str:
    return tr("Cards: colour-h(height)-s(sweetness).")


def render_board(view: dict[str, Any], names: Sequence[str]) -> str:
    players = view["players"]
    lines = [" · ".join([tr("Draft Cider"), *header_parts(view)])]
    if view["over"]:
        lines.append(game_over_line(view, names))
    else:
        lines.append(to_pick_line(view, names))
        lines.append(tr("Pool: {cards}", cards=" ".join(view["pool"])))
        lines.append(prompt_of(view))
    for seat in range(players):
        orchard = view["orchards"][seat]
        marker = ">" if seat == view["turn"] else " "
        lines.append(marker + points_line(_name(names, seat), orchard["total"]))
        batches, scores = orchard["batches"], orchard["scores"]
        for batch_id in BATCH_IDS:
            cards = batches[batch_id]
            shown = " ".join(cards) if cards else "-"
            if batch_id == "unlucky" and cards:
                shown = tr("{cards} (sum {sum})", cards=shown, sum=orchard["unlucky_sum"])
            lines.append(f"  {PADDED_LABELS[batch_id]} {scores[batch_id]:>3}  {shown}")
    lines.append(cards_key())
    return "\n".join(lines)


def points_line(name: str, total: int) -> str:
    return tr_n("{name}: {n} points", "{name}: {n} points", total, name=name)


def game_over_line(view: dict[str, Any], names: Sequence[str]) -> str:
    return tr("Game over. {result}", result=_result_line(view, names))


def _result_line(view: dict[str, Any], names: Sequence[str]) -> str:
    totals = view["scores"]
    if view["players"] == 1:
        return tr_n("Final total: {n} points.", "Final total: {n} points.", totals[0])
    winners = [_name(names, seat) for seat in view["winners"]]
    if len(winners) == 1:
        return tr_n("{name} wins with {n} points.", "{name} wins with {n} points.", max(totals), name=winners[0])
    return tr_n(
        "{names} share the win with {n} points.",
        "{names} share the win with {n} points.",
        max(totals),
        names=join_and(winners),
    )


def nothing_to_place(view: dict[str, Any]) -> str:
    return tr("Nothing to place: the game is over.") if view["over"] else tr("No cards to place.")


def render_private(view: dict[str, Any], names: Sequence[str]) -> str:
    """The seat's legal placements with the points each would add now (all else is on the board)."""
    placements: dict[str, dict[str, int]] = view.get("placements") or {}
    if not placements:
        return nothing_to_place(view)
    if view.get("your_turn"):
        lines = [tr("Your pick (card: batch and change in your total):")]
    else:
        lines = [tr("If you picked now (card: batch and change in your total):")]
    for card, gains in placements.items():
        lines.append(f"  {card}: " + ", ".join(f"{batch_id} {gain:+d}" for batch_id, gain in gains.items()))
    lines.append(batch_legend())
    if view.get("your_turn"):
        lines.append(prompt_of(view))
    return "\n".join(lines)
