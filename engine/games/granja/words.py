"""Granja's pieces in a first-time player's words: goods, extensions, cards and moves.

The notation keeps its short codes (``GR``, ``E-DP``, ``take 4``: they are what players type
and what the move log stores); the board, the hand and the list of moves say them in words.
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import CARDS
from .config import CONFIG, DONKEYS, HELPER_LABELS
from .model import Move

GOOD_WORDS: dict[str, str] = {
    "GR": "grain", "OL": "olive", "GP": "grape", "PG": "pig", "FD": "food", "WN": "wine",
    "MT": "meat", "TG": "trade good", "$": "silver", "VP": "VP",
}  # fmt: skip
EXTENSION_WORDS: dict[str, str] = {
    "E-DI": "extra delivery+income",
    "E-DP": "extra delivery+pigsty",
    "E-IP": "income+pigsty",
}
POSITION_WORDS: dict[str, str] = {
    "field": "field",
    "barrow": "barrow",
    "helper": "helper",
    "ext": "extension",
}


def good_word(code: str) -> str:
    """``GR`` -> ``grain``; ``GR@field`` -> ``grain on a field``; anything else unchanged."""
    code, at, place = code.partition("@")
    word = GOOD_WORDS.get(code.upper(), code)
    return f"{word} on a {place}" if at else word


def goods_words(codes: Iterable[str], delivered: Iterable[bool] | None = None) -> str:
    """``grape+grain✓`` (✓: already delivered)."""
    marks = list(delivered) if delivered is not None else None
    return "+".join(
        good_word(code) + ("✓" if marks is not None and marks[index] else "")
        for index, code in enumerate(codes)
    )


def helper_words(helper: str, param: str) -> str:
    """``Crop specialist (grain)``."""
    shown = {"silver": "$", "crop": "a crop", "vp": "VP"}.get(param, param)
    if shown in GOOD_WORDS:
        shown = good_word(shown)
    return HELPER_LABELS[helper] + (f" ({shown})" if shown else "")


def either(texts: list[str]) -> str:
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " or " + texts[-1]


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
            crop = good_word(card.field)
            return f"{'an' if crop[0] in 'aeiou' else 'a'} {crop} field"
        if position == "barrow":
            return f"barrow {goods_words(card.barrow)} for {card.barrow_vp} VP"
        if position == "helper":
            return helper_words(card.helper, card.param)
        return EXTENSION_WORDS.get(card.extension, card.extension)
    if kind == "donkey" and args and args[0] in DONKEYS:
        donkeys = DONKEYS[args[0]]
        hats = 4 - donkeys
        text = f"{donkeys} deliver{'y' if donkeys == 1 else 'ies'}, {hats} hat{'' if hats == 1 else 's'}"
        return text + (", Siesta push" if len(args) > 1 else "")
    if kind == "roof" and args and args[0] in CONFIG.roofs:
        return roof_text(args[0])
    if kind == "use" and len(args) == 1 and args[0] in CARDS:
        card = CARDS[args[0]]
        return helper_words(card.helper, card.param)
    if kind in ("buy", "sell", "upgrade", "gain") and len(args) == 1:
        return good_word(args[0])
    return ""
