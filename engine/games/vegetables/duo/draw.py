"""Pictures of the 2-player Vege tables board and hand: the parent's field, seat panels and hand
rows (``..draw``), with the Silos, the wells (W3 as a back until revealed), the Tractor reserves
and the Grounds rows of this game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.picture import Picture
from engine.i18n import tr, tr_ctx
from engine.pictures.canvas import LINE, PAD, SMALL, TEXT, Canvas
from engine.pictures.cards import card_back
from engine.pictures.palette import FELT, INK, MUTED

from ..draw import MINI, card_row, closed_line, field, hand_cards, hand_head, legend, piles, seat
from ..render import _status_and_field
from .render import _pile, hand_limits, hand_title
from .views import seat_hand_limit, seat_prompt, table_prompt

PILE_LABEL = 40


def draw_board(view: dict[str, Any], names: Sequence[str]) -> Picture:
    page = Canvas()
    y = page.title(PAD, tr("Vege tables - {players} players", players=2))
    status, *_ = _status_and_field(view, names, "", table_prompt(view))
    y = page.paragraph(PAD, y, status, size=SMALL, fill=INK) + 4
    y = field(page, view, y)
    y = closed_line(page, view, y)
    y = _piles(page, view, y)
    y = page.paragraph(PAD, y, hand_limits(view), size=SMALL)
    for info in view["seats"]:
        hidden_dead = [code for code in info["dead_held"] if code not in info["grounds"] and code not in info["exposed"]]
        y = seat(
            page, view, info, names, y + 4,
            [("hand_size", tr("hand · {limit}", limit=seat_hand_limit(view, info)), str(info["hand_size"]))],
            [("grounds", tr_ctx("vegetables", "Grounds"), info["grounds"]), ("exposed", tr_ctx("vegetables", "exposed"), info["exposed"]),
             ("tractor", tr_ctx("vegetables", "Tractors"), info["tractors"]), ("locked", tr_ctx("vegetables", "locked"), info["locked"]),
             ("dead_in_hand", tr("hand, dead"), hidden_dead)],
        )  # fmt: skip
    return piles(page, view, y).finish()


def _piles(page: Canvas, view: dict[str, Any], y: int) -> int:
    """The Silos and the wells, each bottom to top, its free top card last (text: ``[top]``)."""
    page.text(PAD, y, tr("Silos and wells (bottom to top, free card last)"), size=SMALL, fill=MUTED)
    y += LINE
    for silo in view["silos"]:
        page.text(PAD, y + (MINI[1] // 2 - 10 if silo["cards"] else 0), silo["silo"], size=SMALL, bold=True, width=PILE_LABEL)
        if silo["cards"]:
            y = card_row(page, PAD + PILE_LABEL, y, silo["cards"], "silo", background=FELT) + 2
        else:
            page.text(PAD + PILE_LABEL, y, _pile([]), size=SMALL, fill=MUTED)
            y += LINE
    for well in view["wells"]:
        page.text(PAD, y + MINI[1] // 2 - 10, well["well"], size=SMALL, bold=True, width=PILE_LABEL)
        if well["face_up"] and well["cards"]:
            y = card_row(page, PAD + PILE_LABEL, y, well["cards"], "well_card", background=FELT) + 2
        elif well["face_up"]:
            page.text(PAD + PILE_LABEL, y + MINI[1] // 2 - 10, _pile([]), size=SMALL, fill=MUTED)
            y += MINI[1] + 8
        else:
            page.sprite(card_back(*MINI, str(well["count"]), FELT), PAD + PILE_LABEL, y, "well", f"{well['well']}:{well['count']}")
            page.text(PAD + PILE_LABEL + MINI[0] + 8, y + MINI[1] // 2 - 10, tr_ctx("vegetables", "face down"), size=SMALL, fill=MUTED)
            y += MINI[1] + 8
    return y + 4


def draw_hand(view: dict[str, Any], names: Sequence[str]) -> Picture:
    page = Canvas()
    y = hand_head(page, view, names, hand_title(view), ("grounds", tr_ctx("vegetables", "Grounds")))
    own = view["seats"][view["seat"]]
    y = hand_cards(page, view, own["tractors"], "tractor", y, tr_ctx("vegetables", "Tractors"))
    if own["locked"]:
        y = hand_cards(page, view, own["locked"], "locked", y, tr("Locked Tractors (not yet released)"))
    y = legend(page, y, view["your_turn"])
    page.paragraph(PAD, y, seat_prompt(view), size=TEXT - 2, fill=INK)
    return page.finish()
