"""Plain text of the Figures board and of a player's hand (for a Discord code block or a terminal),
in the reader's language (engine.i18n); card codes and moves stay in the notation."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from engine.i18n import join_and, tr, tr_ctx, tr_n

from .views import prompt_of

RECENT_MOVES_SHOWN = 12
NAME_WIDTH = 14


def _short(name: str) -> str:
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "…"


def columns(text: str) -> int:
    """How many columns ``text`` takes in a monospaced block: a wide (CJK) character takes two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` columns (on the left when ``right``)."""
    room = " " * max(0, width - columns(text))
    return room + text if right else text + room


def mode_name(view: dict[str, Any]) -> str:
    return tr_ctx("figures", "pairs") if view["mode"] == "pairs" else tr_ctx("figures", "individual")


def _match_line(view: dict[str, Any]) -> str:
    mode, hand = mode_name(view), view["hand_number"]
    tie_break = bool(view.get("tie_break"))
    if view["match_end"] == "hands":
        count = view["number_of_hands"]
        if tie_break:
            return tr_n(
                "Figures · {mode} · match {n} hands · hand {hand} (tie-break)",
                "Figures · {mode} · match {n} hands · hand {hand} (tie-break)",
                count,
                mode=mode,
                hand=hand,
            )
        return tr_n(
            "Figures · {mode} · match {n} hands · hand {hand}",
            "Figures · {mode} · match {n} hands · hand {hand}",
            count,
            mode=mode,
            hand=hand,
        )
    target = view["target_score"]
    if tie_break:
        return tr("Figures · {mode} · match to {target} points · hand {hand} (tie-break)", mode=mode, target=target, hand=hand)
    return tr("Figures · {mode} · match to {target} points · hand {hand}", mode=mode, target=target, hand=hand)


def _pair_label(view: dict[str, Any], seat: int) -> str:
    pairs = view.get("pairs")
    if not pairs:
        return ""
    return " A" if seat in pairs[0] else " B"


def match_over_line(winners: Sequence[str]) -> str:
    return tr_n("Match over: {winners} wins.", "Match over: {winners} win.", len(winners), winners=join_and(winners))


def to_play_line(name: str, prompt: str) -> str:
    # Translators: the board's last line: who is on turn, then what they must do (a whole sentence).
    return tr("{name} to play. {prompt}", name=name, prompt=prompt)


def seat_notes(view: dict[str, Any], seat: int) -> list[str]:
    notes = []
    if seat == view["dealer"]:
        notes.append(tr_ctx("figures", "dealer"))
    if seat in view["kings_used"]:
        notes.append(tr("used 3 kings"))
    return notes


def render_board(view: dict[str, Any], names: Sequence[str]) -> str:
    lines = [_match_line(view)]
    pairs_mode = bool(view.get("pairs"))
    # Translators: the column heads of the board's seat table (monospaced: keep them short).
    heads = (tr_ctx("column", "Seat"), tr_ctx("column", "Player"), tr_ctx("column", "Pair"), tr_ctx("column", "Cards"), tr_ctx("column", "Total"))
    seat_width = max(4, columns(heads[0]))
    pair_width = max(4, columns(heads[2]))
    count_width = max(5, columns(heads[3]))
    total_width = max(5, columns(heads[4]))
    lines.append(
        f"{pad(heads[0], seat_width)}  {pad(heads[1], NAME_WIDTH)}{'  ' + pad(heads[2], pair_width) if pairs_mode else ''}"
        f"  {pad(heads[3], count_width)}  {heads[4]}"
    )
    for position, seat in enumerate(view["table"]):
        marker = ">" if view["turn"] == seat else " "
        pair = f"  {pad(_pair_label(view, seat), pair_width, right=True)}" if pairs_mode else ""
        lines.append(
            f"{marker}{pad(str(position + 1), 2, right=True)}{' ' * (seat_width - 1)}{pad(_short(names[seat]), NAME_WIDTH)}{pair}"
            f"  {pad(str(view['card_counts'][seat]), count_width, right=True)}"
            f"  {pad(str(view['totals'][seat]), total_width, right=True)}  {' · '.join(seat_notes(view, seat))}".rstrip()
        )
    if view["match_over"]:
        lines.append(match_over_line([names[seat] for seat in view["winners"]]))
    else:
        lines.append(_table_line(view, names))
        if view["phase"] == "GIRO" and view["giro_starter"] is not None:
            lines.append(giro_line(view, names))
    history, earlier, label = recent_moves(view)
    if history:
        shown = "".join(
            f"{_short(names[entry['seat']])} {entry['move']}{' | ' if entry['clears'] else ' · '}" for entry in history
        ).rstrip(" ·|")
        lines.append(tr("{moves}: {list}", moves=label, list=shown))
    if view["results"]:
        lines.append(_result_line(view["results"][-1], view["table"], names))
    if not view["match_over"]:
        lines.append(to_play_line(names[view["turn"]], prompt_of(view)))
    return "\n".join(lines)


def giro_line(view: dict[str, Any], names: Sequence[str]) -> str:
    return tr_n(
        "Giro di figure started by {name}: {n} giro turn left.",
        "Giro di figure started by {name}: {n} giro turns left.",
        view["giro_left"],
        name=names[view["giro_starter"]],
    )


def recent_moves(view: dict[str, Any]) -> tuple[list[dict[str, Any]], int, str]:
    """The last plays shown, how many earlier ones are not, and the label that says whose hand."""
    history = view["history"]
    previous = None
    if not history and view.get("previous_history"):
        # A new hand without a move yet: the finished hand's plays stay in sight (2.11).
        history, previous = view["previous_history"], view["results"][-1]["number"]
    recent = history[-RECENT_MOVES_SHOWN:]
    earlier = len(history) - len(recent)
    if previous is None:
        label = tr_n("Moves (+{n} earlier)", "Moves (+{n} earlier)", earlier) if earlier else tr("Moves")
    elif earlier:
        label = tr_n("Hand {hand} moves (+{n} earlier)", "Hand {hand} moves (+{n} earlier)", earlier, hand=previous)
    else:
        label = tr("Hand {hand} moves", hand=previous)
    return recent, earlier, label


def phase_name(view: dict[str, Any]) -> str:
    """The table's state in a word or two (BEAT carries the number to beat)."""
    phase = view["phase"]
    if phase == "BEAT":
        return tr_ctx("figures", "BEAT {number}", number=view["beat"])
    names = {"FREE": tr_ctx("figures", "FREE"), "OPEN": tr_ctx("figures", "OPEN"), "GIRO": tr_ctx("figures", "GIRO")}
    return names.get(phase, str(phase))


def _table_line(view: dict[str, Any], names: Sequence[str]) -> str:
    if view["top"] is None:
        return tr("Table: clear · {state}", state=phase_name(view))
    if view["passes"]:
        return tr_n(
            "Table: {card} ({owner}) · {state} · passes {n}",
            "Table: {card} ({owner}) · {state} · passes {n}",
            view["passes"],
            card=view["top"],
            owner=names[view["owner"]],
            state=phase_name(view),
        )
    return tr("Table: {card} ({owner}) · {state}", card=view["top"], owner=names[view["owner"]], state=phase_name(view))


def _result_line(result: dict[str, Any], table: Sequence[int], names: Sequence[str]) -> str:
    points = ", ".join(f"{_short(names[seat])} {result['points'][seat]:+d}" for seat in table)
    return tr("Hand {hand}: {name} went out. Points {points}", hand=result["number"], name=names[result["winner"]], points=points)


def hand_line(name: str, hand: Sequence[str]) -> str:
    if not hand:
        return tr("{name}, your hand (0): (empty)", name=name)
    return tr_n("{name}, your hand ({n}): {cards}", "{name}, your hand ({n}): {cards}", len(hand), name=name, cards=" ".join(hand))


def not_your_turn(name: str) -> str:
    return tr("Not your turn: {name} to play.", name=name)


def render_private(view: dict[str, Any], names: Sequence[str]) -> str:
    lines = [hand_line(names[view["seat"]], view["hand"])]
    if view["match_over"]:
        lines.append(prompt_of(view))
    elif view["turn"] == view["seat"]:
        if not view["must_pass"]:
            lines.append(tr("Playable: {cards}", cards=" ".join(view["playable"])))
        lines.append(prompt_of(view))
    else:
        # The table prompt speaks to the player on turn; a waiting seat only needs to know who that is.
        lines.append(not_your_turn(names[view["turn"]]))
    return "\n".join(lines)
