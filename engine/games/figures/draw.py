"""Pictures of the Figures board and of a seat's hand (engine.pictures), from the same views and
words as the text in ``render``.

The board: the match line, the card on the table (or the clear table) with what it asks for,
each seat in playing order with its card count as a back, its total and the dealer and
three-kings notes, the last plays as small cards, the last hand's result and the prompt.
The hand: the seat's cards in order, the playable ones ringed and ticked, the others faded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.picture import Picture
from engine.i18n import tr, tr_ctx
from engine.pictures.canvas import BIG, LINE, PAD, SMALL, TEXT, Canvas, flow
from engine.pictures.cards import card_back, italian_card
from engine.pictures.palette import FELT, GREY, INK, MUTED, PANEL

from .render import (
    _match_line,
    _result_line,
    _table_line,
    match_over_line,
    not_your_turn,
    recent_moves,
    to_play_line,
)
from .views import prompt_of

TABLE_CARD = (84, 126)
PLAY_CARD = (40, 60)
HAND_CARD = (72, 108)
SEAT_ROW = 52


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) else tr("Seat {number}", number=seat + 1)


def draw_board(view: dict[str, Any], names: Sequence[str]) -> Picture:
    page = Canvas()
    y = page.title(PAD, _match_line(view))
    y = _table_and_seats(page, view, names, y)
    y = _last_plays(page, view, names, y)
    if view["results"]:
        y = page.paragraph(PAD, y, _result_line(view["results"][-1], view["table"], names), size=SMALL)
    if view["match_over"]:
        page.text(PAD, y + 4, match_over_line([_name(names, seat) for seat in view["winners"]]), bold=True)
    else:
        page.paragraph(PAD, y + 4, to_play_line(_name(names, view["turn"]), prompt_of(view)), size=SMALL, fill=INK)
    return page.finish()


def _table_and_seats(page: Canvas, view: dict[str, Any], names: Sequence[str], y: int) -> int:
    height = max(4 * SEAT_ROW + 8, TABLE_CARD[1] + 70)
    page.panel((PAD, y, PAD + 140, y + height))
    page.text(PAD + 10, y + 8, tr_ctx("figures", "Table"), size=SMALL, fill=MUTED)
    card_x, card_y = PAD + 28, y + 32
    if view["top"]:
        page.sprite(italian_card(view["top"], *TABLE_CARD, PANEL), card_x, card_y, "card", view["top"])
    else:
        page.draw.rounded_rectangle(
            (card_x, card_y, card_x + TABLE_CARD[0], card_y + TABLE_CARD[1]), radius=8, outline=MUTED, width=2
        )
        page.text(card_x, card_y + TABLE_CARD[1] // 2 - 10, tr_ctx("figures", "clear"), size=SMALL, fill=MUTED, width=TABLE_CARD[0], align="center")
    phase = view["phase"]
    state = phase_word(view)
    page.text(PAD + 8, card_y + TABLE_CARD[1] + 6, state, size=SMALL, bold=True, width=124, align="center", kind="phase", label=phase)
    if view["passes"]:
        page.text(PAD + 8, card_y + TABLE_CARD[1] + 26, tr_ctx("figures", "passes {count}", count=view["passes"]), size=SMALL, fill=MUTED, width=124, align="center")
    _seats(page, view, names, PAD + 152, y)
    return y + height + 10


def _seats(page: Canvas, view: dict[str, Any], names: Sequence[str], left: int, y: int) -> None:
    pairs = view.get("pairs")
    right = page.width - PAD
    for position, seat in enumerate(view["table"]):
        top = y + position * SEAT_ROW
        page.panel((left, top, right, top + SEAT_ROW - 6))
        if view["turn"] == seat:
            page.pointer(left + 6, top + 15, str(seat))
        x = page.seat_chip(left + 28, top + 11, position + 1)
        name_room = right - x - 190
        x = page.text(x + 8, top + 12, _name(names, seat), bold=True, width=name_room, kind="seat", label=str(seat))
        notes = []
        if pairs:
            notes.append(tr("pair A") if seat in pairs[0] else tr("pair B"))
        if seat == view["dealer"]:
            notes.append(tr_ctx("figures", "dealer"))
        if seat in view["kings_used"]:
            notes.append(tr("3 kings used"))
        if notes:
            page.text(x + 8, top + 15, " · ".join(notes), size=SMALL - 2 if len(notes) > 1 else SMALL, fill=MUTED, width=max(10, right - 190 - x - 8))
        count = view["card_counts"][seat]
        page.sprite(card_back(30, 40, str(count), PANEL), right - 170, top + 3, "count", f"{seat}:{count}")
        page.text(right - 132, top + 13, tr_ctx("figures", "cards"), size=SMALL, fill=MUTED)
        page.text(right - 84, top + 10, str(view["totals"][seat]), size=BIG, bold=True, width=40, align="right", kind="score", label=f"{seat}:{view['totals'][seat]}")
        page.text(right - 40, top + 15, tr("pts"), size=SMALL, fill=MUTED)


def _last_plays(page: Canvas, view: dict[str, Any], names: Sequence[str], y: int) -> int:
    recent, _earlier, label = recent_moves(view)
    if not recent:
        return y
    page.text(PAD, y, label, size=SMALL, fill=MUTED)
    y += LINE
    tiles = []  # (entry, cards shown)
    for entry in recent:
        move = entry["move"]
        cards = move.split()[1:] if move.startswith("kings") else ([] if move == "pass" else [move])
        tiles.append((entry, cards))
    widths = [max(1, len(cards)) * (PLAY_CARD[0] + 2) + (10 if entry["clears"] else 0) for entry, cards in tiles]
    places = flow(widths, page.width - 2 * PAD, gap=6)
    row_height = PLAY_CARD[1] + 26
    position_of = {seat: index + 1 for index, seat in enumerate(view["table"])}
    for (entry, cards), (x, row) in zip(tiles, places, strict=True):
        left, top = PAD + x, y + row * row_height
        if cards:
            for index, card in enumerate(cards):
                page.sprite(italian_card(card, *PLAY_CARD, FELT), left + index * (PLAY_CARD[0] + 2), top, "play", card)
        else:
            page.draw.rounded_rectangle((left, top, left + PLAY_CARD[0], top + PLAY_CARD[1]), radius=6, outline=GREY, width=2)
            page.text(left, top + PLAY_CARD[1] // 2 - 9, tr_ctx("figures", "pass"), size=SMALL - 2, fill=MUTED, width=PLAY_CARD[0], align="center", kind="pass", label=str(entry["seat"]))
        span = max(1, len(cards)) * (PLAY_CARD[0] + 2) - 2
        page.seat_chip(left + span // 2 - 9, top + PLAY_CARD[1] + 2, position_of.get(entry["seat"], entry["seat"] + 1), size=SMALL - 2)
        if entry["clears"]:  # the table cleared after this play: a bar, as the text's "|"
            page.draw.line((left + span + 6, top, left + span + 6, top + PLAY_CARD[1]), fill=MUTED, width=3)
    rows = places[-1][1] + 1
    return y + rows * row_height + 4


def phase_word(view: dict[str, Any]) -> str:
    """The table's state under the card, in lower case as drawn."""
    phase = view["phase"]
    if phase == "BEAT":
        return tr_ctx("figures", "beat {number}", number=view["beat"])
    words = {
        "GIRO": tr("giro di figure"),
        "OPEN": tr_ctx("figures", "open"),
        "FREE": tr_ctx("figures", "clear"),
        "OVER": tr_ctx("figures", "over"),
    }
    return words.get(phase, str(phase).lower())


def hand_title(name: str, count: int) -> str:
    return tr("{name}, your hand ({count})", name=name, count=count)


def draw_hand(view: dict[str, Any], names: Sequence[str]) -> Picture:
    page = Canvas()
    hand = view["hand"]
    y = page.title(PAD, hand_title(_name(names, view["seat"]), len(hand)))
    on_turn = not view["match_over"] and view["turn"] == view["seat"]
    playable = set(view["playable"]) if on_turn else set()
    places = flow([HAND_CARD[0]] * len(hand), page.width - 2 * PAD, gap=12)
    top = y + 8
    for card, (x, row) in zip(hand, places, strict=True):
        left, card_top = PAD + 4 + x, top + row * (HAND_CARD[1] + 16)
        page.sprite(italian_card(card, *HAND_CARD, FELT), left, card_top, "card", card)
        box = (left, card_top, left + HAND_CARD[0], card_top + HAND_CARD[1])
        if card in playable:
            page.highlight(box, card)
        elif on_turn:
            page.dim(box)
    if not hand:
        page.text(PAD, top, tr("(empty)"), fill=MUTED)
    y = top + ((places[-1][1] + 1) * (HAND_CARD[1] + 16) if hand else LINE)
    if not view["match_over"]:
        page.text(PAD, y, _table_line(view, names), size=SMALL, fill=MUTED)
        y += LINE
    if view["match_over"]:
        prompt = prompt_of(view)
    elif on_turn:
        prompt = tr("{prompt} Ticked: playable now.", prompt=prompt_of(view)) if playable else prompt_of(view)
    else:
        prompt = not_your_turn(_name(names, view["turn"]))
    page.paragraph(PAD, y, prompt, size=TEXT - 2, fill=INK)
    return page.finish()
