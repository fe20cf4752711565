"""The text of the 2-player board and hand (Discord-neutral: monospace lines)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.i18n import tr, tr_ctx, tr_n

from ..render import (
    _cards,
    _hand_lines,
    _marked,
    _seat_line,
    _status_and_field,
    close_private,
    pad,
    pile_lines,
    player_heading,
)
from .model import MAY_DRAW_BELOW, MUST_DRAW_BELOW
from .views import seat_hand_limit, seat_prompt, table_prompt


def _pile(cards: Sequence[str]) -> str:
    """Bottom to top, the free top card in brackets."""
    if not cards:
        return tr_ctx("vegetables", "empty")
    return " ".join([*cards[:-1], f"[{cards[-1]}]"])


def board_title() -> str:
    """The 2-player board's first line (the picture has a shorter one)."""
    return tr("Vege tables - 2 players (Board Game Arena's 2-player rules)")


def hand_limits(view: dict[str, Any]) -> str:
    limits = view["hand_limits"]
    return tr(
        "Hand limits: may draw below {may}, must draw below {must} (to 8 or 12)",
        may=limits["may_draw_below"], must=limits["must_draw_below"],
    )  # fmt: skip


def render_board(view: dict[str, Any], names: Sequence[str]) -> str:
    lines = [board_title()]
    # Translators: the heading of the 4x4 grid of cards of the 2-player game (10 characters at most).
    lines.extend(_status_and_field(view, names, tr_ctx("vegetables", "Board"), table_prompt(view)))
    lines.append(tr("closed {closed}/{sequences}   * closed   (T) Tractors", closed=view["closed"], sequences=view["sequences"]))
    lines.append(
        tr(
            "Silos (bottom to top, [free]): {silos}",
            silos="  ".join(f"{s['silo']} {_pile(s['cards'])}" for s in view["silos"]),
        )
    )
    wells = []
    for well in view["wells"]:
        if well["face_up"]:
            wells.append(f"{well['well']} ({well['count']}) {_pile(well['cards'])}")
        else:
            wells.append(tr("{well} ({count}) face down", well=well["well"], count=well["count"]))
    lines.append(tr("Wells: {wells}", wells="  ".join(wells)))
    lines.append(hand_limits(view))
    lines.append("")
    # Translators: the headings of the score table's columns after the names; they stand above
    # the score, the number of cards in the Hand, the hand limit and the Tractors.
    lines.append(player_heading() + tr("score  hand  limit       Tractors"))
    dead = set(view["dead"])
    for info in view["seats"]:
        reserve = _cards(info["tractors"])
        if info["locked"]:
            reserve += " " + tr("(locked {tractors})", tractors=" ".join(info["locked"]))
        lines.append(
            _seat_line(view, info, names, f"{info['hand_size']:>4}  {pad(seat_hand_limit(view, info), 10)}  {reserve}")
        )
        extra = "   " + tr("grounds {cards}", cards=_marked(info["grounds"], dead))
        if info["exposed"]:
            extra += " | " + tr("exposed {cards}", cards=_marked(info["exposed"], dead))
        hidden_dead = [
            code for code in info["dead_held"] if code not in info["grounds"] and code not in info["exposed"]
        ]
        if hidden_dead:
            extra += " | " + tr("dead in hand {cards}", cards=" ".join(hidden_dead))
        lines.append(extra)
    lines.extend(pile_lines(view, dead=False))
    return "\n".join(lines)


def render_private(view: dict[str, Any], names: Sequence[str]) -> str:
    hand = view["hand"]
    mark, lines = _hand_lines(view, names, hand_title(view))
    own = view["seats"][view["seat"]]
    lines.append(tr("Grounds: {cards}", cards=" ".join(mark(code) for code in own["grounds"]) or "-"))
    if own["exposed"]:
        lines.append(tr("Exposed: {cards}", cards=" ".join(mark(code) for code in own["exposed"])))
    tractors = " ".join(mark(code) for code in own["tractors"]) or "-"
    if own["locked"]:
        lines.append(tr("Tractors: {tractors} (locked: {locked})", tractors=tractors, locked=" ".join(own["locked"])))
    else:
        lines.append(tr("Tractors: {tractors}", tractors=tractors))
    size = len(hand)
    if not any(well["count"] for well in view["wells"]):
        draw = tr("Hand {size}: the wells are empty.", size=size)
    elif view["must_draw"]:
        draw = tr(
            "Hand {size} is below {limit}: you must draw before your turn ends (to 8 or 12).",
            size=size, limit=MUST_DRAW_BELOW,
        )  # fmt: skip
    elif view["can_draw"]:
        draw = tr("Hand {size}: you may draw to {limit} now (it ends your turn).", size=size, limit=MAY_DRAW_BELOW)
    elif size >= MAY_DRAW_BELOW:
        draw = tr("Hand {size}: no draw while it holds {limit} or more.", size=size, limit=MAY_DRAW_BELOW)
    else:
        draw = tr(
            "Hand {size}: a draw (to {limit}) is allowed after a play in your turn.", size=size, limit=MAY_DRAW_BELOW
        )
    lines.append(draw)
    lines.append(tr("* playable now   + playable right after a Tractor (if the card below is your opponent's)"))
    return close_private(lines, seat_prompt(view), view, names)


def hand_title(view: dict[str, Any]) -> str:
    """The private text's title after the player's name (the picture uses it too)."""
    return tr_n("your Hand ({n} card)", "your Hand ({n} cards)", len(view["hand"]))
