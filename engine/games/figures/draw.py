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
from engine.pictures.canvas import BIG, LINE, PAD, SMALL, TEXT, Canvas, flow
from engine.pictures.cards import card_back, italian_card
from engine.pictures.palette import FELT, GREY, INK, MUTED, PANEL

from .render import RECENT_MOVES_SHOWN, _match_line, _result_line, _table_line

TABLE_CARD = (84, 126)
PLAY_CARD = (40, 60)
HAND_CARD = (72, 108)
SEAT_ROW = 52


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) else f"Seat {seat + 1}"


def draw_board(view: dict[str, Any], names: Sequence[str]) -> Picture:
    page = Canvas()
    y = page.title(PAD, _match_line(view))
    y = _table_and_seats(page, view, names, y)
    y = _last_plays(page, view, names, y)
    if view["results"]:
        y = page.paragraph(PAD, y, _result_line(view["results"][-1], view["table"], names), size=SMALL)
    if view["match_over"]:
        winners = " and ".join(_name(names, seat) for seat in view["winners"])
        page.text(PAD, y + 4, f"Match over: {winners} {'wins' if len(view['winners']) == 1 else 'win'}.", bold=True)
    else:
        page.paragraph(PAD, y + 4, f"{_name(names, view['turn'])} to play. {view['prompt']}", size=SMALL, fill=INK)
    return page.finish()


def _table_and_seats(page: Canvas, view: dict[str, Any], names: Sequence[str], y: int) -> int:
    height = max(4 * SEAT_ROW + 8, TABLE_CARD[1] + 70)
    page.panel((PAD, y, PAD + 140, y + height))
    page.text(PAD + 10, y + 8, "Table", size=SMALL, fill=MUTED)
    card_x, card_y = PAD + 28, y + 32
    if view["top"]:
        page.sprite(italian_card(view["top"], *TABLE_CARD, PANEL), card_x, card_y, "card", view["top"])
    else:
        page.draw.rounded_rectangle(
            (card_x, card_y, card_x + TABLE_CARD[0], card_y + TABLE_CARD[1]), radius=8, outline=MUTED, width=2
        )
        page.text(card_x, card_y + TABLE_CARD[1] // 2 - 10, "clear", size=SMALL, fill=MUTED, width=TABLE_CARD[0], align="center")
    phase = view["phase"]
    state = {"BEAT": f"beat {view['beat']}", "GIRO": "giro di figure", "OPEN": "open", "FREE": "clear"}.get(phase, phase.lower())
    page.text(PAD + 8, card_y + TABLE_CARD[1] + 6, state, size=SMALL, bold=True, width=124, align="center", kind="phase", label=phase)
    if view["passes"]:
        page.text(PAD + 8, card_y + TABLE_CARD[1] + 26, f"passes {view['passes']}", size=SMALL, fill=MUTED, width=124, align="center")
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
            notes.append("pair A" if seat in pairs[0] else "pair B")
        if seat == view["dealer"]:
            notes.append("dealer")
        if seat in view["kings_used"]:
            notes.append("3 kings used")
        if notes:
            page.text(x + 8, top + 15, " · ".join(notes), size=SMALL - 2 if len(notes) > 1 else SMALL, fill=MUTED, width=max(10, right - 190 - x - 8))
        count = view["card_counts"][seat]
        page.sprite(card_back(30, 40, str(count), PANEL), right - 170, top + 3, "count", f"{seat}:{count}")
        page.text(right - 132, top + 13, "cards", size=SMALL, fill=MUTED)
        page.text(right - 84, top + 10, str(view["totals"][seat]), size=BIG, bold=True, width=40, align="right", kind="score", label=f"{seat}:{view['totals'][seat]}")
        page.text(right - 40, top + 15, "pts", size=SMALL, fill=MUTED)


def _last_plays(page: Canvas, view: dict[str, Any], names: Sequence[str], y: int) -> int:
    history, label = view["history"], "Moves"
    if not history and view.get("previous_history"):
        history, label = view["previous_history"], f"Hand {view['results'][-1]['number']} moves"
    recent = history[-RECENT_MOVES_SHOWN:]
    if not recent:
        return y
    earlier = len(history) - len(recent)
    page.text(PAD, y, f"{label}{f' (+{earlier} earlier)' if earlier else ''}", size=SMALL, fill=MUTED)
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
            page.text(left, top + PLAY_CARD[1] // 2 - 9, "pass", size=SMALL - 2, fill=MUTED, width=PLAY_CARD[0], align="center", kind="pass", label=str(entry["seat"]))
        span = max(1, len(cards)) * (PLAY_CARD[0] + 2) - 2
        page.seat_chip(left + span // 2 - 9, top + PLAY_CARD[1] + 2, position_of.get(entry["seat"], entry["seat"] + 1), size=SMALL - 2)
        if entry["clears"]:  # the table cleared after this play: a bar, as the text's "|"
            page.draw.line((left + span + 6, top, left + span + 6, top + PLAY_CARD[1]), fill=MUTED, width=3)
    rows = places[-1][1] + 1
    return y + rows * row_height + 4


def draw_hand(view: dict[str, Any], names: Sequence[str]) -> Picture:
    page = Canvas()
    hand = view["hand"]
    y = page.title(PAD, f"{_name(names, view['seat'])}, your hand ({len(hand)})")
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
        page.text(PAD, top, "(empty)", fill=MUTED)
    y = top + ((places[-1][1] + 1) * (HAND_CARD[1] + 16) if hand else LINE)
    if not view["match_over"]:
        page.text(PAD, y, _table_line(view, names), size=SMALL, fill=MUTED)
        y += LINE
    if view["match_over"]:
        prompt = view["prompt"]
    elif on_turn:
        prompt = view["prompt"] + (" Ticked: playable now." if playable else "")
    else:
        prompt = f"Not your turn: {_name(names, view['turn'])} to play."
    page.paragraph(PAD, y, prompt, size=TEXT - 2, fill=INK)
    return page.finish()
