"""Plain-text rendering of the Vege tables views (a Discord code block, or the terminal).

The field shows each stack's top card (``##`` is a cell whose face-down card is still there,
``*`` marks a closed sequence, a ``T`` count in brackets says how many Tractors the stack holds).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

from engine.core import format_event
from engine.i18n import tr, tr_ctx, tr_ctx_n, tr_n

from .cards import FAMILIES, family_name, tractor_name
from .views import seat_prompt, table_prompt
from .words import all_of

NAME_WIDTH = 14
CELL_WIDTH = 9


def columns(text: str) -> int:
    """How many columns of a monospace font ``text`` takes: two for a wide character (Japanese)."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` columns: ``str.ljust`` for the reader's language."""
    return text + " " * (width - columns(text))


def _label(text: str) -> str:
    """A label before a row of cards: at least 8 columns, and a space after it."""
    return pad(text, 7) + " "


def _name(names: Sequence[str], seat: int) -> str:
    name = names[seat] if seat < len(names) else tr("Seat {number}", number=seat + 1)
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "~"


def _cards(codes: Sequence[str]) -> str:
    return " ".join(codes) if codes else "-"


def _marked(codes: Sequence[str], dead: set[str]) -> str:
    """Face-up cards, a dead one (replaced by a Tractor, only good for the discard) marked."""
    return " ".join(dead_mark(code) if code in dead else code for code in codes) if codes else "-"


def dead_mark(code: str) -> str:
    """A dead card's code, marked so."""
    # Translators: a dead card (a Tractor took its place) in a list of card codes; keep it short.
    return tr("{card}(dead)", card=code)


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


def _status_and_field(view: dict[str, Any], names: Sequence[str], title: str, prompt: str) -> list[str]:
    """Who won, or whose turn it is and what the table waits for (``prompt``, the variant's
    public prompt); then the column header and one line a row of the field (``title`` names it:
    the field, or the board at 2 players)."""
    if view["over"]:
        winners = all_of([_name(names, seat) for seat in view["winners"]])
        if view["went_out"] is not None:
            status = tr(
                "Game over ({name} went out). Winner: {winners}.", name=_name(names, view["went_out"]), winners=winners
            )
        else:
            status = tr("Game over (nobody could play any more). Winner: {winners}.", winners=winners)
    else:
        plays = view["plays_this_turn"]
        name = _name(names, view["turn"])
        if plays:
            status = tr_n(
                "Turn: {name}, {n} play made - {prompt}", "Turn: {name}, {n} plays made - {prompt}", plays,
                name=name, prompt=prompt,
            )  # fmt: skip
        else:
            status = tr("Turn: {name} - {prompt}", name=name, prompt=prompt)
    labels = [f"{row['row']} {family_name(row['family']) if row['family'] else '-'}" for row in view["rows"]]
    # The first column is as wide as its longest label and a space (10 at least, as in English).
    width = max(10, *(columns(label) + 1 for label in [title, *labels]))
    header = pad(title, width) + "".join(str(column).ljust(CELL_WIDTH) for column in range(1, 5))
    lines = [status, "", header.rstrip()]
    for row, label in zip(view["rows"], labels, strict=True):
        lines.append((pad(label, width) + "".join(_cell(cell).ljust(CELL_WIDTH) for cell in row["cells"])).rstrip())
    return lines


def _seat_line(view: dict[str, Any], info: dict[str, Any], names: Sequence[str], middle: str) -> str:
    """A seat's row of the score table: ``>`` on the player to move, name, score, the game's own
    columns (``middle``), then its passes if any."""
    seat = info["seat"]
    marker = ">" if not view["over"] and seat == view["turn"] else " "
    passes = "  " + tr("passes {count}", count=info["passes"]) if info["passes"] else ""
    return f"{marker}{pad(_name(names, seat), NAME_WIDTH + 1)}{info['score']:>5}  {middle}{passes}"


def _hand_marker(view: dict[str, Any]) -> Callable[[str], str]:
    """How a card of the private view is marked: being discarded, dead, playable, or after a Tractor."""
    dead = set(view["dead"])
    playable = set(view["playable"])
    after_tractor = set(view["playable_after_tractor"])
    pending = set(view["pending"])

    def mark(code: str) -> str:
        if code in pending:
            # Translators: a dead card the player asked to discard (it leaves at their next turn).
            return tr("{card}(discarding)", card=code)
        if code in dead:
            return dead_mark(code)
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
            lines.append(f"  {_label(family_name(family))}{' '.join(mark(code) for code in cards)}")
    tractors = [code for code in hand if code.startswith("T")]
    if tractors:
        lines.append(f"  {_label(tractor_name())}{' '.join(mark(code) for code in tractors)}")
    if not hand:
        lines.append("  " + tr_ctx("vegetables", "(empty)"))
    return mark, lines


def board_title(view: dict[str, Any]) -> str:
    """The board's first line: players, Expert jokers, house rules (the pictures use it too)."""
    title = tr("Vege tables - {players} players", players=view["players"])
    if view["expert_jokers"]:
        title += " - " + tr_ctx("vegetables", "Expert jokers")
    if view["house_rules"]:
        title += " - " + tr("house rules ({variant})", variant=view["variant"].upper())
    return title


def removed_family_line(view: dict[str, Any]) -> str:
    """The H3 note: which family the deal left out."""
    return tr("The {family} family is out of this game.", family=family_name(view["removed_family"]))


def render_board(view: dict[str, Any], names: Sequence[str]) -> str:
    lines = [board_title(view)]
    if view["removed_family"]:
        lines.append(removed_family_line(view))
    # Translators: the heading of the 4x4 grid of cards in the middle of the table (10 characters at most).
    lines.extend(_status_and_field(view, names, tr_ctx("vegetables", "Field"), table_prompt(view)))
    lines.append(
        tr(
            "closed {closed}/{sequences}   ## face-down card   * closed   (T) Tractors",
            closed=view["closed"], sequences=view["sequences"],
        )  # fmt: skip
    )
    lines.append("")
    lines.append(player_heading() + tr("score  hidden  well"))
    dead = set(view["dead"])
    for seat_info in view["seats"]:
        if seat_info["well_taken"]:
            well = tr_ctx("vegetables", "taken")
        else:
            well = tr_ctx_n("vegetables", "{n} card", "{n} cards", seat_info["well"])
        lines.append(_seat_line(view, seat_info, names, f"{seat_info['hidden']:>6}  {well}"))
        extra = "   " + tr("farmland {cards}", cards=_marked(seat_info["farmland"], dead))
        if seat_info["exposed"]:
            extra += " | " + tr("exposed {cards}", cards=_marked(seat_info["exposed"], dead))
        lines.append(extra)
    lines.extend(pile_lines(view))
    return "\n".join(lines)


def player_heading() -> str:
    """The first column's heading of the score table, as wide as the names."""
    # Translators: the heading of the column of player names in the score table.
    return pad(tr_ctx("vegetables", "Player"), NAME_WIDTH + 2)


def pile_lines(view: dict[str, Any], dead: bool = True) -> list[str]:
    """The dead cards (unless the seats show them) and the discard pile, when there are any."""
    lines = []
    if dead and view["dead"]:
        lines.append(tr("Dead cards: {cards}", cards=_cards(view["dead"])))
    if view["discard"]:
        lines.append(tr("Discard pile: {cards}", cards=_cards(view["discard"])))
    return lines


def close_private(lines: list[str], prompt: str, view: dict[str, Any], names: Sequence[str]) -> str:
    """The private text: ``lines``, then the seat's prompt and, when the view has them, its legal
    moves written out."""
    lines.append(format_event(prompt, names))
    if view.get("examples"):
        lines.append(tr("For example: {moves}", moves=" | ".join(view["examples"])))
    return "\n".join(lines)


def render_private(view: dict[str, Any], names: Sequence[str]) -> str:
    mark, lines = _hand_lines(view, names, hand_title(view))
    own = view["seats"][view["seat"]]
    lines.append(tr("Farmland: {cards}", cards=" ".join(mark(code) for code in own["farmland"]) or "-"))
    if own["exposed"]:
        lines.append(tr("Exposed:  {cards}", cards=" ".join(mark(code) for code in own["exposed"])))
    if own["well_taken"]:
        lines.append(tr("Well: taken"))
    else:
        lines.append(
            tr_n(
                "Well: {n} card, unseen; you take it after a play with fewer than {threshold} hidden cards "
                "(worth {points} now)",
                "Well: {n} cards, unseen; you take it after a play with fewer than {threshold} hidden cards "
                "(worth {points} now)",
                own["well"], threshold=view["well_threshold"], points=view["next_well_points"],
            )  # fmt: skip
        )
    if view["your_turn"]:
        lines.append(tr("* playable now   + playable right after a Tractor"))
    else:
        lines.append(tr("* fits the field now   + fits right after a Tractor"))
    return close_private(lines, seat_prompt(view), view, names)


def hand_title(view: dict[str, Any]) -> str:
    """The private text's title after the player's name (the pictures use it too)."""
    return tr_n("your hand ({n} hidden card)", "your hand ({n} hidden cards)", len(view["hand"]))
