"""Plain-text rendering of the Vege tables views (a Discord code block, or the terminal).

The field shows each stack's top card (``##`` is a cell whose face-down card is still there,
``*`` marks a closed sequence, a ``T`` count in brackets says how many Tractors the stack holds).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.core import format_event

from .cards import FAMILIES, FAMILY_NAMES

NAME_WIDTH = 14
CELL_WIDTH = 9


def _name(names: Sequence[str], seat: int) -> str:
    name = names[seat] if seat < len(names) else f"Seat {seat + 1}"
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "~"


def _cards(codes: Sequence[str]) -> str:
    return " ".join(codes) if codes else "-"


def _marked(codes: Sequence[str], dead: set[str]) -> str:
    """Face-up cards, a dead one (replaced by a Tractor, only good for the discard) marked."""
    return " ".join(code + "(dead)" if code in dead else code for code in codes) if codes else "-"


def _cell(cell: dict[str, Any]) -> str:
    stack = cell["stack"]
    if not stack:
        # The 2-player board has no face-down cards, so its cells carry no such key.
        return "##" if cell.get("face_down") else ".."
    text: str = cell["top"] + ("*" if cell["closed"] else "")
    tractors = sum(1 for code in stack if code.startswith("T"))
    if tractors:
        text += f"(T{tractors})" if tractors > 1 else "(T)"
    return text


def _status_and_field(view: dict[str, Any], names: Sequence[str], title: str) -> list[str]:
    """Who won, or whose turn it is; then the column header and one line a row of the field
    (``title`` names it: the field, or the board at 2 players)."""
    if view["over"]:
        winners = " and ".join(_name(names, seat) for seat in view["winners"])
        ending = "went out" if view["went_out"] is not None else "nobody could play any more"
        who = _name(names, view["went_out"]) + " " if view["went_out"] is not None else ""
        status = f"Game over ({who}{ending}). Winner: {winners}."
    else:
        plays = view["plays_this_turn"]
        made = f", {plays} play{'s' if plays != 1 else ''} made" if plays else ""
        status = f"Turn: {_name(names, view['turn'])}{made} - {view['prompt']}"
    header = title.ljust(10) + "".join(str(column).ljust(CELL_WIDTH) for column in range(1, 5))
    lines = [status, "", header.rstrip()]
    for row in view["rows"]:
        family = FAMILY_NAMES[row["family"]] if row["family"] else "-"
        label = f"{row['row']} {family}".ljust(10)
        lines.append((label + "".join(_cell(cell).ljust(CELL_WIDTH) for cell in row["cells"])).rstrip())
    return lines


def _seat_line(view: dict[str, Any], info: dict[str, Any], names: Sequence[str], middle: str) -> str:
    """A seat's row of the score table: ``>`` on the player to move, name, score, the game's own
    columns (``middle``), then its passes if any."""
    seat = info["seat"]
    marker = ">" if not view["over"] and seat == view["turn"] else " "
    passes = f"  passes {info['passes']}" if info["passes"] else ""
    return f"{marker}{_name(names, seat).ljust(NAME_WIDTH + 1)}{info['score']:>5}  {middle}{passes}"


def _hand_marker(view: dict[str, Any]) -> Callable[[str], str]:
    """How a card of the private view is marked: being discarded, dead, playable, or after a Tractor."""
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

    return mark


def _hand_lines(
    view: dict[str, Any], names: Sequence[str], title: str
) -> tuple[Callable[[str], str], list[str]]:
    """How the seat's cards are marked, and the head of its private text: whose hand, then one
    line a family it holds (Tractors last: only the 4-player hand holds them), or "(empty)"."""
    mark = _hand_marker(view)
    hand = view["hand"]
    lines = [f"{_name(names, view['seat'])} - {title}"]
    for family in FAMILIES:
        cards = [code for code in hand if code[0] == family]
        if cards:
            lines.append(f"  {FAMILY_NAMES[family]:<8}{' '.join(mark(code) for code in cards)}")
    tractors = [code for code in hand if code.startswith("T")]
    if tractors:
        lines.append(f"  {'Tractor':<8}{' '.join(mark(code) for code in tractors)}")
    if not hand:
        lines.append("  (empty)")
    return mark, lines


def board_title(view: dict[str, Any]) -> str:
    """The board's first line: players, Expert jokers, house rules (the pictures use it too)."""
    title = f"Vege tables - {view['players']} players"
    if view["expert_jokers"]:
        title += " - Expert jokers"
    if view["house_rules"]:
        title += f" - house rules ({view['variant'].upper()})"
    return title


def render_board(view: dict[str, Any], names: Sequence[str]) -> str:
    lines = [board_title(view)]
    if view["removed_family"]:
        lines.append(f"The {FAMILY_NAMES[view['removed_family']]} family is out of this game.")
    lines.extend(_status_and_field(view, names, "Field"))
    lines.append(f"closed {view['closed']}/{view['sequences']}   ## face-down card   * closed   (T) Tractors")
    lines.append("")
    lines.append("Player".ljust(NAME_WIDTH + 2) + "score  hidden  well")
    dead = set(view["dead"])
    for seat_info in view["seats"]:
        well = "taken" if seat_info["well_taken"] else f"{seat_info['well']} cards"
        lines.append(_seat_line(view, seat_info, names, f"{seat_info['hidden']:>6}  {well}"))
        extra = f"   farmland {_marked(seat_info['farmland'], dead)}"
        if seat_info["exposed"]:
            extra += f" | exposed {_marked(seat_info['exposed'], dead)}"
        lines.append(extra)
    if view["dead"]:
        lines.append(f"Dead cards: {_cards(view['dead'])}")
    if view["discard"]:
        lines.append(f"Discard pile: {_cards(view['discard'])}")
    return "\n".join(lines)


def render_private(view: dict[str, Any], names: Sequence[str]) -> str:
    mark, lines = _hand_lines(view, names, f"your hand ({len(view['hand'])} hidden cards)")
    own = view["seats"][view["seat"]]
    lines.append(f"Farmland: {' '.join(mark(code) for code in own['farmland']) or '-'}")
    if own["exposed"]:
        lines.append(f"Exposed:  {' '.join(mark(code) for code in own['exposed'])}")
    if own["well_taken"]:
        lines.append("Well: taken")
    else:
        lines.append(
            f"Well: {own['well']} cards, unseen; you take it after a play with fewer than "
            f"{view['well_threshold']} hidden cards (worth {view['next_well_points']} now)"
        )
    if view["your_turn"]:
        lines.append("* playable now   + playable right after a Tractor")
    else:
        lines.append("* fits the field now   + fits right after a Tractor")
    lines.append(format_event(view["prompt"], names))
    if view.get("examples"):
        lines.append("For example: " + " | ".join(view["examples"]))
    return "\n".join(lines)
