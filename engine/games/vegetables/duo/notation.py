"""Move notation of Vege tables, with the 2-player additions (docs/rules/vegetables-2p.md §11):

    play R3 take G17                     a Ground, and the free Silo card taken with it
    tractor T3 for R2 then R6 take G17   a Tractor as a base, and the Silo card
    draw K13 G18 Y15                     a draw, cards in pick order (or piles: draw W1 W1 W2)

Everything else is the 4-player notation (``notation``), unchanged; this module is the game's
notation module and hands those forms over to it.
"""

from __future__ import annotations

import re

from engine.core import BadNotation
from engine.i18n import N_, tr

from .. import notation
from ..model import Play, UseTractor
from .model import WELLS, Draw, DuoMove, PlayGround, TractorGround

DRAW_HINT = N_("Write a draw as the cards in pick order, e.g. draw K15 Y19 R9, or the piles: draw W1 W1 W3.")


def parse_move(text: str) -> DuoMove:
    words = " ".join(text.replace(",", " ").lower().split()).rstrip(".! ")
    verb, _, rest = words.partition(" ")
    if verb == "draw":
        return _parse_draw(rest)
    before, separator, take = words.partition(" take ")
    if not separator:
        return notation.parse_move(text)
    if not take or " " in take.strip():
        raise BadNotation(tr("Name one Silo card after take, e.g. play R3 take G17."))
    silo = notation.parse_card(take)
    if silo[0] == "T":
        raise BadNotation(tr("The Silos hold numbered Green cards only, e.g. play R3 take G17."))
    if re.search(r"\brow", before):
        raise BadNotation(tr("No row is named in the 2-player game (rows are fixed): play R3 take G17."))
    move = notation.parse_move(before)
    if isinstance(move, Play):
        return PlayGround(move.card, silo)
    if isinstance(move, UseTractor):
        return TractorGround(move.tractor, move.replaced, silo)
    raise BadNotation(
        tr("take names the Silo card taken with a base: play R3 take G17, or tractor T3 for R2 then R6 take G17.")
    )


def _parse_draw(rest: str) -> Draw:
    if not rest:
        raise BadNotation(tr(DRAW_HINT))
    picks: list[str] = []
    for word in rest.split():
        pile = word.upper()
        picks.append(pile if pile in WELLS else notation.parse_card(word))
    return Draw(tuple(picks))


def format_move(move: DuoMove) -> str:
    if isinstance(move, PlayGround):
        return f"play {move.card} take {move.take}"
    if isinstance(move, TractorGround):
        return f"tractor {move.tractor} for {move.replaced} then {move.following} take {move.take}"
    if isinstance(move, Draw):
        return "draw " + " ".join(move.picks)
    return notation.format_move(move)
