"""The text of the 2-player board and hand (Discord-neutral: monospace lines)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import format_event

from ..cards import FAMILIES, FAMILY_NAMES
from .model import MAY_DRAW_BELOW, MUST_DRAW_BELOW

NAME_WIDTH = 14
CELL_WIDTH = 9


# ----- text ---------------------------------------------------------------------------------------


def _name(names: Sequence[str], seat: int) -> str:
    name = names[seat] if seat < len(names) else f"Seat {seat + 1}"
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "~"


def _cards(codes: Sequence[str]) -> str:
    return " ".join(codes) if codes else "-"


def _cell(cell: dict[str, Any]) -> str:
    stack = cell["stack"]
    if not stack:
        return ".."
    text = cell["top"] + ("*" if cell["closed"] else "")
    tractors = sum(1 for code in stack if code.startswith("T"))
    if tractors:
        text += f"(T{tractors})" if tractors > 1 else "(T)"
    return text


def _pile(cards: Sequence[str]) -> str:
    """Bottom to top, the free top card in brackets."""
    if not cards:
        return "empty"
    return " ".join(cards[:-1] + [f"[{cards[-1]}]"])


def render_board(view: dict[str, Any], names: Sequence[str]) -> str:
    lines = ["Vege tables - 2 players (Board Game Arena's 2-player rules)"]
    if view["over"]:
        winners = " and ".join(_name(names, seat) for seat in view["winners"])
        who = (
            _name(names, view["went_out"]) + " went out"
            if view["went_out"] is not None
            else "nobody could play any more"
        )
        lines.append(f"Game over ({who}). Winner: {winners}.")
    else:
        plays = view["plays_this_turn"]
        made = f", {plays} play{'s' if plays != 1 else ''} made" if plays else ""
        lines.append(f"Turn: {_name(names, view['turn'])}{made} - {view['prompt']}")
    lines.append("")
    lines.append(
        ("Board".ljust(10) + "".join(str(column).ljust(CELL_WIDTH) for column in range(1, 5))).rstrip()
    )
    for row in view["rows"]:
        label = f"{row['row']} {FAMILY_NAMES[row['family']]}".ljust(10)
        lines.append((label + "".join(_cell(cell).ljust(CELL_WIDTH) for cell in row["cells"])).rstrip())
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
        seat = info["seat"]
        marker = ">" if not view["over"] and seat == view["turn"] else " "
        reserve = _cards(info["tractors"]) + (
            f" (locked {' '.join(info['locked'])})" if info["locked"] else ""
        )
        passes = f"  passes {info['passes']}" if info["passes"] else ""
        lines.append(
            f"{marker}{_name(names, seat).ljust(NAME_WIDTH + 1)}{info['score']:>5}  {info['hand_size']:>4}  "
            f"{info['hand_limit']:<10}  {reserve}{passes}"
        )
        grounds = " ".join(code + "(dead)" if code in dead else code for code in info["grounds"]) or "-"
        extra = f"   grounds {grounds}"
        if info["exposed"]:
            extra += " | exposed " + " ".join(
                code + "(dead)" if code in dead else code for code in info["exposed"]
            )
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
    seat = view["seat"]
    dead = set(view["dead"])
    playable = set(view["playable"])
    after_tractor = set(view["playable_after_tractor"])
    pending = set(view["pending"])

    def mark(code: str) -> str:
        if code in pending:
            return code + "(discarding)"
        if code in dead:
            return code + "(dead)"
        if code in playable:
            return code + "*"
        if code in after_tractor:
            return code + "+"
        return code

    hand = view["hand"]
    lines = [f"{_name(names, seat)} - your Hand ({len(hand)} cards)"]
    for family in FAMILIES:
        cards = [code for code in hand if code[0] == family]
        if cards:
            lines.append(f"  {FAMILY_NAMES[family]:<8}{' '.join(mark(code) for code in cards)}")
    if not hand:
        lines.append("  (empty)")
    own = view["seats"][seat]
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
