"""The text of the 2-player board and hand (Discord-neutral: monospace lines)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import format_event

from ..render import (
    NAME_WIDTH,
    _cards,
    _hand_lines,
    _marked,
    _seat_line,
    _status_and_field,
)
from .model import MAY_DRAW_BELOW, MUST_DRAW_BELOW


def _pile(cards: Sequence[str]) -> str:
    """Bottom to top, the free top card in brackets."""
    if not cards:
        return "empty"
    return " ".join([*cards[:-1], f"[{cards[-1]}]"])


def render_board(view: dict[str, Any], names: Sequence[str]) -> str:
    lines = ["Vege tables - 2 players (Board Game Arena's 2-player rules)"]
    lines.extend(_status_and_field(view, names, "Board"))
    lines.append(f"closed {view['closed']}/{view['sequences']}   * closed   (T) Tractors")
    lines.append(
        "Silos (bottom to top, [free]): "
        + "  ".join(f"{s['silo']} {_pile(s['cards'])}" for s in view["silos"])
    )
    wells = []
    for well in view["wells"]:
        if well["face_up"]:
            wells.append(f"{well['well']} ({well['count']}) {_pile(well['cards'])}")
        else:
            wells.append(f"{well['well']} ({well['count']}) face down")
    lines.append("Wells: " + "  ".join(wells))
    limits = view["hand_limits"]
    lines.append(
        f"Hand limits: may draw below {limits['may_draw_below']}, must draw below {limits['must_draw_below']} (to 8 or 12)"
    )
    lines.append("")
    lines.append("Player".ljust(NAME_WIDTH + 2) + "score  hand  limit       Tractors")
    dead = set(view["dead"])
    for info in view["seats"]:
        reserve = _cards(info["tractors"]) + (
            f" (locked {' '.join(info['locked'])})" if info["locked"] else ""
        )
        lines.append(
            _seat_line(view, info, names, f"{info['hand_size']:>4}  {info['hand_limit']:<10}  {reserve}")
        )
        extra = f"   grounds {_marked(info['grounds'], dead)}"
        if info["exposed"]:
            extra += f" | exposed {_marked(info['exposed'], dead)}"
        hidden_dead = [
            code for code in info["dead_held"] if code not in info["grounds"] and code not in info["exposed"]
        ]
        if hidden_dead:
            extra += f" | dead in hand {' '.join(hidden_dead)}"
        lines.append(extra)
    if view["discard"]:
        lines.append(f"Discard pile: {_cards(view['discard'])}")
    return "\n".join(lines)


def render_private(view: dict[str, Any], names: Sequence[str]) -> str:
    hand = view["hand"]
    mark, lines = _hand_lines(view, names, f"your Hand ({len(hand)} cards)")
    own = view["seats"][view["seat"]]
    lines.append(f"Grounds: {' '.join(mark(code) for code in own['grounds']) or '-'}")
    if own["exposed"]:
        lines.append(f"Exposed: {' '.join(mark(code) for code in own['exposed'])}")
    locked = f" (locked: {' '.join(own['locked'])})" if own["locked"] else ""
    lines.append(f"Tractors: {' '.join(mark(code) for code in own['tractors']) or '-'}{locked}")
    if view["must_draw"]:
        draw = (
            f"Hand {len(hand)} is below {MUST_DRAW_BELOW}: you must draw before your turn ends (to 8 or 12)."
        )
    elif view["can_draw"]:
        draw = f"Hand {len(hand)}: you may draw to {MAY_DRAW_BELOW} now (it ends your turn)."
    elif len(hand) >= MAY_DRAW_BELOW:
        draw = f"Hand {len(hand)}: no draw while it holds {MAY_DRAW_BELOW} or more."
    else:
        draw = f"Hand {len(hand)}: a draw (to {MAY_DRAW_BELOW}) is allowed after a play in your turn."
    if not any(well["count"] for well in view["wells"]):
        draw = f"Hand {len(hand)}: the wells are empty."
    lines.append(draw)
    lines.append("* playable now   + playable right after a Tractor (if the card below is your opponent's)")
    lines.append(format_event(view["prompt"], names))
    if view.get("examples"):
        lines.append("For example: " + " | ".join(view["examples"]))
    return "\n".join(lines)
