"""Granja's own vocabulary in the reader's language: goods, buildings, helpers, extensions, phases.

Each term is a ``tr_ctx("granja", ...)`` call written out in full, so that the catalogue holds
it under the game's context (the community's words: 畑, 荷車, 助手, 増設部... in Japanese) and a
short word such as "field" never takes another game's translation. The codes (``GR``, ``b4``,
``H05``, ``E-DP``) are the notation's and stay as they are in every language.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TypeVar

from engine.i18n import language, tr, tr_ctx

T = TypeVar("T")


def per_language(build: Callable[[], T]) -> Callable[[], T]:
    """``build`` run once per language: a table of terms read on every line of every board is
    looked up, not translated again (the catalogues do not change while the process runs)."""
    built = cache(lambda code: build())

    def get() -> T:
        return built(language())

    get.__doc__ = build.__doc__
    return get


@per_language
def good_words() -> dict[str, str]:
    """The board's word for each good code: ``GR`` -> "grain", ``VP`` -> "VP"."""
    return {
        "GR": tr_ctx("granja", "grain"),
        "OL": tr_ctx("granja", "olive"),
        "GP": tr_ctx("granja", "grape"),
        "PG": tr_ctx("granja", "pig"),
        "FD": tr_ctx("granja", "food"),
        "WN": tr_ctx("granja", "wine"),
        "MT": tr_ctx("granja", "meat"),
        "TG": tr_ctx("granja", "trade good"),
        "$": tr_ctx("granja", "silver"),
        "VP": tr_ctx("granja", "VP"),
    }


@per_language
def good_names() -> dict[str, str]:
    """The word for each good in a sentence ("victory point" spelt out)."""
    return good_words() | {"VP": tr_ctx("granja", "victory point")}


def good_name(token: str) -> str:
    """``GR`` -> "grain"; ``GR@field`` -> "grain from a field"; an unknown code unchanged."""
    base, _, where = token.partition("@")
    name = good_names().get(base, base)
    return tr("{good} from a field", good=name) if where else name


def good_on_field(token: str) -> str:
    """``GR@field`` -> "grain on a field" (the board's and the move list's words)."""
    base, at, _ = token.partition("@")
    word = good_words().get(base.upper(), base)
    return tr("{good} on a field", good=word) if at else word


@per_language
def building_names() -> dict[int, str]:
    return {
        1: tr_ctx("granja", "Wagon Maker"),
        2: tr_ctx("granja", "Village Shop"),
        3: tr_ctx("granja", "Trading House"),
        4: tr_ctx("granja", "Greengrocer"),
        5: tr_ctx("granja", "Delicatessen"),
        6: tr_ctx("granja", "Butcher"),
    }


def building_name(number: int) -> str:
    return building_names()[number]


def building_short(number: int) -> str:
    """A building's name in five letters or so, for the board's building rows."""
    return building_shorts()[number]


@per_language
def building_shorts() -> dict[int, str]:
    # Translators: short names of the six buildings, for a column about 5 characters wide.
    return {
        1: tr_ctx("granja building, short", "Wagon"),
        2: tr_ctx("granja building, short", "Shop"),
        3: tr_ctx("granja building, short", "Trade"),
        4: tr_ctx("granja building, short", "Green"),
        5: tr_ctx("granja building, short", "Deli"),
        6: tr_ctx("granja building, short", "Butch"),
    }


@per_language
def helper_labels() -> dict[str, str]:
    return {
        "H01": tr_ctx("granja helper", "Upgrade discount"),
        "H02": tr_ctx("granja helper", "Free upgrade"),
        "H03": tr_ctx("granja helper", "Barrow bonus"),
        "H04": tr_ctx("granja helper", "Exchange"),
        "H05": tr_ctx("granja helper", "Extra donkey"),
        "H06": tr_ctx("granja helper", "Siesta push"),
        "H07": tr_ctx("granja helper", "Market compensation"),
        "H08": tr_ctx("granja helper", "Market refuge"),
        "H09": tr_ctx("granja helper", "Die nudge"),
        "H10": tr_ctx("granja helper", "Quick planting"),
        "H11": tr_ctx("granja helper", "Crop specialist"),
        "H12": tr_ctx("granja helper", "Prolific pigs"),
        "H13": tr_ctx("granja helper", "Guild patron"),
        "H14": tr_ctx("granja helper", "Steward"),
        "H15": tr_ctx("granja helper", "Haggler"),
        "H16": tr_ctx("granja helper", "Crate substitute"),
        "H17": tr_ctx("granja helper", "Flexible field"),
    }


def helper_label(helper: str) -> str:
    return helper_labels().get(helper, helper)


@per_language
def extension_words() -> dict[str, str]:
    """The three extension types by their icons, in their fixed order."""
    return {
        "E-DI": tr_ctx("granja", "extra delivery+income"),
        "E-DP": tr_ctx("granja", "extra delivery+pigsty"),
        "E-IP": tr_ctx("granja", "income+pigsty"),
    }


def extension_word(kind: str) -> str:
    return extension_words().get(kind, kind)


def phase_name(phase: str) -> str:
    """The step of the round in words ("farm phase: play cards"), as the board's header shows it."""
    return phase_names().get(phase, phase)


@per_language
def phase_names() -> dict[str, str]:
    return {
        "F1": tr_ctx("granja phase", "farm phase: play cards"),
        "F3": tr_ctx("granja phase", "farm phase: harvest choices"),
        "F4": tr_ctx("granja phase", "farm phase: roofs"),
        "R2": tr_ctx("granja phase", "revenue phase: first die"),
        "R3": tr_ctx("granja phase", "revenue phase: second die"),
        "R4": tr_ctx("granja phase", "revenue phase: shared die"),
        "T1": tr_ctx("granja phase", "transportation: donkey markers"),
        "T4": tr_ctx("granja phase", "transportation: deliveries"),
        "T5": tr_ctx("granja phase", "transportation: extra deliveries"),
        "END": tr_ctx("granja phase", "end of game: final actions"),
        "OVER": tr_ctx("granja phase", "game over"),
    }


def position_word(position: str) -> str:
    """Where a card is played, in words (the notation's ``field|barrow|helper|ext``)."""
    return {
        "field": tr_ctx("granja", "field"),
        "barrow": tr_ctx("granja", "barrow"),
        "helper": tr_ctx("granja", "helper"),
        "ext": tr_ctx("granja", "extension"),
    }.get(position, position)


__all__ = [
    "building_name",
    "building_names",
    "building_short",
    "extension_word",
    "extension_words",
    "good_name",
    "good_names",
    "good_on_field",
    "good_words",
    "helper_label",
    "helper_labels",
    "phase_name",
    "position_word",
]
