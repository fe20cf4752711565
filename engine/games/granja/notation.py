"""Text notation of Granja moves: one verb and a few words, e.g. ``play C012 ext`` or ``deliver GR b4``.

Reading is forgiving (any case, commas, full names such as ``grain`` or ``butcher``); writing
is canonical, so ``parse_move(format_move(m)) == m``. ``HELP`` lists every form.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from engine.core import BadNotation
from engine.core.text import quote
from engine.i18n import N_, language, tr

from .config import BUILDINGS, CONFIG, CROPS, DONKEYS, MARKET
from .model import Move
from .rules import effect_args
from .rules_texts import HELP as HELP  # the notation help (Game.notation_help)
from .words import describe_move as describe_move  # the game's move descriptions (Game.describe_move)
from .words import either


def dice_lines() -> str:
    """The dice faces and the trade good's options, from the configuration, in English: the rules
    summary (rules_texts.SUMMARY) spells them out, and a test keeps the two alike."""
    faces = "; ".join(
        f"{face} = {either([option_text(template) for template in templates])}"
        for face, templates in CONFIG.die_effects.items()
    )
    trade = either([option_text(template) for template in CONFIG.trade_good_effects])
    return f"Dice faces: {faces}.\nA trade good buys {trade}."


KINDS = (
    "play", "discard", "pay", "back", "done", "pass", "take", "die", "tg", "use", "nudge", "roof", "buy",
    "sell", "upgrade", "deliver", "extra", "gain", "hex", "donkey", "flex",
)  # fmt: skip
KIND_WORDS = {kind: kind for kind in KINDS} | {
    "end": "done", "finish": "done", "undo": "back", "cancel": "back", "skip": "pass", "decline": "pass", "no": "pass",
    "trade": "tg", "spend": "tg", "market": "hex", "place": "hex", "choose": "gain", "get": "gain",
    "plant": "play", "buyroof": "roof", "ability": "use", "dice": "take", "pick": "take",
}  # fmt: skip
GOOD_WORDS = {
    "gr": "GR", "grain": "GR", "wheat": "GR", "ol": "OL", "olive": "OL", "olives": "OL",
    "gp": "GP", "grape": "GP", "grapes": "GP", "pg": "PG", "pig": "PG", "pigs": "PG",
    "fd": "FD", "food": "FD", "wn": "WN", "wine": "WN", "mt": "MT", "meat": "MT",
    "tg": "TG", "trade": "TG", "tradegood": "TG", "$": "$", "silver": "$", "vp": "VP", "point": "VP",
    "points": "VP",
}  # fmt: skip
POSITION_WORDS = {
    "field": "field", "left": "field", "f": "field", "barrow": "barrow", "cart": "barrow",
    "top": "barrow", "b": "barrow", "helper": "helper", "bottom": "helper", "h": "helper",
    "ext": "ext", "extension": "ext", "right": "ext", "e": "ext",
}  # fmt: skip
BUILDING_WORDS = {f"b{spec.number}": f"b{spec.number}" for spec in BUILDINGS} | {
    "wagon": "b1", "wagonmaker": "b1", "shop": "b2", "village": "b2", "villageshop": "b2",
    "trading": "b3", "tradinghouse": "b3", "house": "b3", "greengrocer": "b4", "grocer": "b4",
    "deli": "b5", "delicatessen": "b5", "butcher": "b6",
}  # fmt: skip
EFFECT_NAMES = ("pig", "crop", "crops", "silver", "vp", "draw", "play", "upgrade", "siesta", "deliver")
FILLER = {"to", "onto", "on", "into", "the", "a", "with", "from", "for", "my", "card", "building"}

_SPLIT = re.compile(r"[\s,;]+")


def format_move(move: Move) -> str:
    if move.kind in ("deliver", "extra") and len(move.args) == 3:
        source, target, symbol = move.args
        return f"{move.kind} {source} {target} as {symbol}"
    return " ".join((move.kind, *move.args))


def parse_move(text: str) -> Move:
    tokens = [token for token in _SPLIT.split(str(text).strip().lower()) if token]
    if not tokens:
        raise BadNotation(tr("Write a move, for example: play C012 field, take 3, deliver GR b4 or done."))
    kind = KIND_WORDS.get(tokens[0])
    if kind is None:
        raise BadNotation(tr("I do not know the verb {verb}. Verbs: {verbs}.", verb=quote(tokens[0]), verbs=", ".join(KINDS)))
    words = [token for token in tokens[1:] if token not in FILLER]
    reader = _READERS[kind]
    return Move(kind, reader(words))


def option_text(template: str) -> str:
    """A few words for one option template of a die, a trade good or a roof (config.ROOFS)."""
    return _option_text(language(), template)


@cache
def _option_text(code: str, template: str) -> str:
    """``option_text`` in the language ``code`` (the current one): written once per language."""
    del code  # the cache's key: tr() below writes in the current language
    name, _, param = template.partition(":")
    if name == "crop":
        crops = param.split(",")
        if len(crops) == 3:
            return tr("1 crop of your choice")
        if len(crops) == 2:
            return tr("1 {first} or 1 {second}", first=crops[0], second=crops[1])
        return tr("1 {crop}", crop=crops[0])
    if name == "silver":
        return tr("{n} $", n=param)
    if name == "vp":
        return tr("{n} VP", n=param)
    if name == "siesta":
        return tr("siesta +{n}", n=param)
    if name == "upgrade":
        return tr("1 free upgrade") if param == "1" else tr("up to 2 free upgrades")
    texts = {
        "pig": tr("1 pig"), "crops": tr("2 different crops"), "draw": tr("draw a card"),
        "play": tr("play a card"), "deliver": tr("1 delivery"),
        "upgrade+siesta": tr("1 free upgrade and siesta +1"),
    }  # fmt: skip
    return texts.get(name, template)


def roof_text(roof: str) -> str:
    """A roof's ability: its options, "a or b"."""
    return _roof_text(language(), roof)


@cache
def _roof_text(code: str, roof: str) -> str:
    del code  # the cache's key, as for _option_text
    texts = [option_text(template) for template in CONFIG.roofs[roof][1]]
    if len(texts) == 2:
        return tr("{first} or {second}", first=texts[0], second=texts[1])
    return either(texts)


# ----- pieces ---------------------------------------------------------------------------------------


def _need(words: list[str], count: int, example: str) -> None:
    if len(words) != count:
        raise BadNotation(tr("Write it as: {example}.", example=example))


def card_id(word: str) -> str:
    match = re.fullmatch(r"c?0*(\d{1,2})", word)
    if not match or not 1 <= int(match.group(1)) <= 60:
        raise BadNotation(tr("{word} is not a card; cards are C001 to C060.", word=quote(word)))
    return f"C{int(match.group(1)):03d}"


def roof_id(word: str) -> str:
    match = re.fullmatch(r"r([1-6])-?([a-d])", word)
    if not match:
        raise BadNotation(tr("{word} is not a roof; roofs are R1-A to R6-D.", word=quote(word)))
    return f"R{match.group(1)}-{match.group(2).upper()}"


def good(word: str, allowed: tuple[str, ...] | None = None, field_ok: bool = False) -> str:
    base, _, where = word.partition("@")
    code = GOOD_WORDS.get(base)
    if code is None:
        raise BadNotation(
            tr("{word} is not a good; goods are GR OL GP PG FD WN MT TG (and $ or VP to pay).", word=quote(word))
        )
    if allowed is not None and code not in allowed:
        raise BadNotation(tr("{word} does not fit here; choose one of {allowed}.", word=quote(word), allowed=" ".join(allowed)))
    if where:
        if where not in ("field", "f") or not field_ok or code not in CROPS:
            raise BadNotation(tr("Only a crop (GR, OL, GP) can come from a field: write GR@field."))
        return f"{code}@field"
    return code


def source(words: list[str], allowed: tuple[str, ...] | None = None) -> tuple[str, list[str]]:
    """A good, possibly followed by the word ``field``; returns the token and the rest."""
    token = good(words[0], allowed, field_ok=True)
    rest = words[1:]
    if rest and rest[0] in ("field", "@field") and token in CROPS:
        token, rest = f"{token}@field", rest[1:]
    return token, rest


def target(word: str) -> str:
    if word in BUILDING_WORDS:
        return BUILDING_WORDS[word]
    try:
        return card_id(word)
    except BadNotation:
        raise BadNotation(
            tr("{word} is not a delivery target: a building b1-b6 or one of your barrows (C012).", word=quote(word))
        ) from None


def hex_name(word: str) -> str:
    match = re.fullmatch(r"m?0*(\d{1,2})", word)
    if not match or not 1 <= int(match.group(1)) <= len(MARKET):
        raise BadNotation(tr("{word} is not a market hex; hexes are M01 to M29.", word=quote(word)))
    return f"M{int(match.group(1)):02d}"


def effect(words: list[str]) -> tuple[str, ...]:
    if not words:
        raise BadNotation(tr("Name the option: {options}.", options=", ".join(EFFECT_NAMES)))
    name = {"pigs": "pig", "points": "vp", "money": "silver", "$": "silver"}.get(words[0], words[0])
    rest = words[1:]
    if name == "crop":
        _need(rest, 1, "crop GR")
        return ("crop", good(rest[0], CROPS))
    if name == "crops":
        _need(rest, 2, "crops GR OL")
        pair = sorted({good(rest[0], CROPS), good(rest[1], CROPS)}, key=CROPS.index)
        if len(pair) != 2:
            raise BadNotation(tr("The two crops must be of different types, e.g. crops GR OL."))
        return ("crops", *pair)
    if name == "upgrade":
        if not rest:
            return ("upgrade",)
        if rest in (["2"], ["two"]):
            return ("upgrade", "2")
        if rest[0] in ("siesta", "+siesta"):
            return ("upgrade", "siesta")
        raise BadNotation(tr("Write upgrade, upgrade 2 or upgrade siesta."))
    if name.startswith("upgrade+"):
        return ("upgrade", "siesta")
    if name in ("siesta", "siesta1", "siesta2"):
        steps = name[6:] or (rest[0] if rest else "")
        if steps not in ("1", "2"):
            raise BadNotation(tr("Write siesta 1 or siesta 2."))
        return ("siesta", steps)
    if name in ("pig", "silver", "vp", "draw", "play", "deliver"):
        if rest:
            raise BadNotation(tr("The option {name} takes nothing more.", name=name))
        return (name,)
    raise BadNotation(
        tr("{word} is not an option; options are {options}.", word=quote(words[0]), options=", ".join(EFFECT_NAMES))
    )


# ----- readers per verb -----------------------------------------------------------------------------


def _play(words: list[str]) -> tuple[str, ...]:
    _need(words, 2, tr("play C012 field (or barrow, helper, ext)"))
    position = POSITION_WORDS.get(words[1])
    if position is None:
        raise BadNotation(tr("Say where the card goes: field, barrow, helper or ext."))
    return (card_id(words[0]), position)


def _one(read: Callable[[str], str], example: str) -> Callable[[list[str]], tuple[str, ...]]:
    """The reader of a move that names exactly one thing, which ``read`` checks and writes out."""

    def reader(words: list[str]) -> tuple[str, ...]:
        _need(words, 1, example)
        return (read(words[0]),)

    return reader


def _pay(words: list[str]) -> tuple[str, ...]:
    if not words:
        raise BadNotation(tr("Name one good to pay, e.g. pay GR, pay OL@field, pay $ or pay VP."))
    token, rest = source(words)
    if rest:
        raise BadNotation(tr("Pay one good at a time, e.g. pay GR."))
    return (token,)


def _bare(words: list[str]) -> tuple[str, ...]:
    if words:
        raise BadNotation(tr("This move takes nothing more."))
    return ()


def _take(words: list[str]) -> tuple[str, ...]:
    words = [word for word in words if word not in ("die", "dice", "the")]  # "take die 3"
    _need(words, 1, "take 3")
    if words[0] not in ("1", "2", "3", "4", "5", "6"):
        raise BadNotation(tr("A die shows 1 to 6: take 3."))
    return (words[0],)


def _effect_only(words: list[str]) -> tuple[str, ...]:
    return effect(words)


def _use(words: list[str]) -> tuple[str, ...]:
    if not words:
        raise BadNotation(tr("Name the roof or helper card: use R1-B crops GR OL, use C012."))
    if words[0].startswith("r"):
        roof = roof_id(words[0])
        if len(words) == 1 and roof in CONFIG.roofs:
            # A roof with a single option needs no option word: use R1-A = use R1-A deliver.
            offered = [args for template in CONFIG.roofs[roof][1] for args in effect_args(template)]
            if len(offered) == 1:
                return (roof, *offered[0])
        return (roof, *effect(words[1:]))
    card = card_id(words[0])
    if len(words) == 1:
        return (card,)
    token, rest = source(words[1:], CROPS)
    if rest:
        raise BadNotation(tr("A helper takes at most the crop it gives: use C006 GR or use C006 GR@field."))
    return (card, token)


def _nudge(words: list[str]) -> tuple[str, ...]:
    _need(words, 1, tr("nudge up (or nudge down)"))
    direction = {"up": "up", "+": "up", "+1": "up", "down": "down", "-": "down", "-1": "down"}.get(words[0])
    if direction is None:
        raise BadNotation(tr("Nudge the die up or down."))
    return (direction,)


def _goods(
    allowed: tuple[str, ...], field_ok: bool, example: str
) -> Callable[[list[str]], tuple[str, ...]]:
    """A reader of one good's arguments (buy, sell, upgrade, gain differ only in these three)."""
    def read(words: list[str]) -> tuple[str, ...]:
        if not words:
            raise BadNotation(tr("Name the good: {example}.", example=tr(example)))
        token, rest = source(words, allowed) if field_ok else (good(words[0], allowed), words[1:])
        if rest:
            raise BadNotation(tr("Write it as: {example}.", example=tr(example)))
        return (token,)

    return read


def _deliver(words: list[str]) -> tuple[str, ...]:
    if not words:
        raise BadNotation(tr("Write deliver GR b4, deliver GR@field C012 or deliver TG b4 as GR."))
    token, rest = source(words, ("GR", "OL", "GP", "PG", "FD", "WN", "MT", "TG"))
    if not rest:
        raise BadNotation(tr("Say where it goes: a building b1-b6 or one of your barrows (C012)."))
    where = target(rest[0])
    rest = rest[1:]
    if rest and rest[0] == "as":
        rest = rest[1:]
    if rest:
        if token != "TG" or len(rest) != 1:
            raise BadNotation(tr("Only a trade good can stand for another symbol: deliver TG b4 as GR."))
        return (token, where, good(rest[0], ("GR", "OL", "GP", "PG", "FD", "WN", "MT")))
    return (token, where)


def _donkey(words: list[str]) -> tuple[str, ...]:
    if not words:
        raise BadNotation(tr("Name a donkey marker: donkey D3 (or donkey D3 +1 with a Siesta push)."))
    match = re.fullmatch(r"d?([1-4])", words[0])
    if not match:
        raise BadNotation(tr("{word} is not a donkey marker; they are {markers}.", word=quote(words[0]), markers=", ".join(DONKEYS)))
    marker = f"D{match.group(1)}"
    rest = words[1:]
    if not rest:
        return (marker,)
    push_text = "".join(rest).replace("push", "+").replace("++", "+")
    match = re.fullmatch(r"\+?(\d)?", push_text)
    if not match:
        raise BadNotation(tr("Add +1 to use a Siesta push: donkey D3 +1."))
    count = int(match.group(1) or 1)
    return (marker, f"+{count}") if count else (marker,)


def _flex(words: list[str]) -> tuple[str, ...]:
    if words == ["none"] or words == ["no"]:
        return ("none",)
    _need(words, 2, tr("flex GR OL (an empty grain field yields an olive) or flex none"))
    return (good(words[0], CROPS), good(words[1], CROPS))


_READERS = {
    "play": _play,
    "discard": _one(card_id, "discard C003"),
    "pay": _pay,
    "back": _bare,
    "done": _bare,
    "pass": _bare,
    "take": _take,
    "die": _effect_only,
    "tg": _effect_only,
    "use": _use,
    "nudge": _nudge,
    "roof": _one(roof_id, "roof R1-A"),
    "buy": _goods(("GR", "OL", "GP", "PG"), False, "buy GR"),
    "sell": _goods(("GR", "OL", "GP", "PG", "FD", "WN", "MT"), False, "sell FD"),
    "upgrade": _goods(("GR", "OL", "GP", "PG"), True, N_("upgrade GR or upgrade GR@field")),
    "gain": _goods(("GR", "OL", "GP", "PG"), False, "gain GR"),
    "deliver": _deliver,
    "extra": _deliver,
    "hex": _one(hex_name, "hex M05"),
    "donkey": _donkey,
    "flex": _flex,
}
