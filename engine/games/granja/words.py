"""Granja's pieces in a first-time player's words: goods, extensions, cards and moves.

The notation keeps its short codes (``GR``, ``E-DP``, ``take 4``: they are what players type
and what the move log stores); the board, the hand and the list of moves say them in words, in
the reader's language (the terms themselves are in terms.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.i18n import SOURCE, join_or, language, tr, tr_ctx, tr_n

from .cards import CARDS
from .config import CONFIG, DONKEYS
from .model import Move
from .terms import extension_word, good_on_field, good_words, helper_label


def good_word(code: str) -> str:
    """``GR`` -> ``grain``; ``GR@field`` -> ``grain on a field``; anything else unchanged."""
    return good_on_field(code)


def goods_words(codes: Iterable[str], delivered: Iterable[bool] | None = None) -> str:
    """``grape+grain✓`` (✓: already delivered)."""
    marks = list(delivered) if delivered is not None else None
    return "+".join(
        good_word(code) + ("✓" if marks is not None and marks[index] else "")
        for index, code in enumerate(codes)
    )


def helper_words(helper: str, param: str) -> str:
    """``Crop specialist (grain)``."""
    shown = {"silver": "$", "crop": tr_ctx("granja", "a crop"), "vp": "VP"}.get(param, param)
    if shown in good_words():
        shown = good_word(shown)
    return helper_label(helper) + (f" ({shown})" if shown else "")


def either(texts: list[str]) -> str:
    """Alternatives: "a, b or c" (the reader's language's own way in the others)."""
    if language() != SOURCE:
        return join_or(texts)
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " or " + texts[-1]


def field_words(crop: str) -> str:
    """"a grain field", with the article each crop takes."""
    return {
        "GR": tr("a grain field"),
        "OL": tr("an olive field"),
        "GP": tr("a grape field"),
    }.get(crop, crop)


def donkey_words(donkeys: int, push: bool = False) -> str:
    """What a donkey marker gives: "3 deliveries, 1 hat" (hats are siesta steps)."""
    hats = 4 - donkeys
    if push:
        return tr_n(
            "{n} delivery, {hats}, Siesta push",
            "{n} deliveries, {hats}, Siesta push",
            donkeys,
            hats=tr_n("{n} hat", "{n} hats", hats),
        )
    return tr_n("{n} delivery, {hats}", "{n} deliveries, {hats}", donkeys, hats=tr_n("{n} hat", "{n} hats", hats))


def describe_move(move: Move) -> str:
    """What a move does, when its notation does not say: the die's options for ``take 4``, the
    side of the card for ``play C012 barrow``, the hats of a donkey marker, a roof's ability."""
    from .notation import option_text, roof_text  # notation imports this module's helpers

    kind, args = move.kind, move.args
    if kind == "take" and args and args[0].isdigit():
        return either([option_text(template) for template in CONFIG.die_effects.get(int(args[0]), ())])
    if kind == "play" and len(args) == 2 and args[0] in CARDS:
        card = CARDS[args[0]]
        position = args[1]
        if position == "field":
            return field_words(card.field)
        if position == "barrow":
            return tr("barrow {goods} for {vp} VP", goods=goods_words(card.barrow), vp=card.barrow_vp)
        if position == "helper":
            return helper_words(card.helper, card.param)
        return extension_word(card.extension)
    if kind == "donkey" and args and args[0] in DONKEYS:
        return donkey_words(DONKEYS[args[0]], len(args) > 1)
    if kind == "roof" and args and args[0] in CONFIG.roofs:
        return roof_text(args[0])
    if kind == "use" and len(args) == 1 and args[0] in CARDS:
        card = CARDS[args[0]]
        return helper_words(card.helper, card.param)
    if kind in ("buy", "sell", "upgrade", "gain") and len(args) == 1:
        return good_word(args[0])
    return ""
