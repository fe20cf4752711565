"""Move notation of Vege tables: cards by code (``R7``, ``K20``, ``T3``) and short commands.

Canonical forms (what ``format_move`` writes):

    play R7                          play K1 row 2
    tractor T3 for R7 then R11       tractor T3 for R2 then R6 row 1
    discard T3                       discard K8
    well                             done                              pass

``parse_move`` is forgiving about case, spaces and a few synonyms, and rejects unreadable text
with a hint (BadNotation).
"""

from __future__ import annotations

import re

from engine.core import BadNotation
from engine.core.text import quote
from engine.i18n import N_, tr

from .cards import ALL_TRACTORS, FOLLOWING, NUMBERED
from .model import Discard, Done, Move, Pass, Play, TakeWell, UseTractor

HINT = N_(
    "Moves: play R7 | play K1 row 2 | tractor T3 for R7 then R11 | discard T3 | discard K8 | "
    "well | done | pass."
)
CARD_HINT = N_(
    "Cards are a family letter and a number 1-20 (K Black, G Green, R Red, Y Yellow), e.g. R7; Tractors are T1-T10."
)

_KNOWN_CARDS = frozenset(NUMBERED) | frozenset(ALL_TRACTORS)
_CARD = re.compile(r"^([kgryt])\s*(\d{1,2})$")
_ROW = re.compile(r"\brow\s*(\d+)\b")
_DONE_WORDS = {"done", "i'm done", "im done", "i am done", "end", "end turn"}
_WELL_WORDS = {"well", "take well", "take the well", "take my well", "collect well", "collect the well"}
_PASS_WORDS = {"pass"}


def parse_card(text: str) -> str:
    """``r7`` / ``R 7`` -> ``R7``; raises BadNotation for anything that is not a card."""
    match = _CARD.match(text.strip().lower())
    if not match:
        raise BadNotation(tr("{text} is not a card.", text=quote(text.strip())) + " " + tr(CARD_HINT))
    code = f"{match.group(1).upper()}{int(match.group(2))}"
    if code not in _KNOWN_CARDS:
        if code[0] == "T":
            raise BadNotation(
                tr("There is no Tractor {code}: they are T1-T8 (T9 with 5 players, T9-T10 with 2).", code=code)
            )
        raise BadNotation(tr("There is no card {code}: numbers run from 1 to 20.", code=code))
    return code


def _split_row(text: str) -> tuple[str, int | None]:
    """Take an optional ``row N`` (or ``in row N``) out of the text."""
    match = _ROW.search(text)
    if not match:
        if "row" in text.split():
            raise BadNotation(tr("Write the row as a number 1-4, e.g. play K1 row 2."))
        return text, None
    rest = (text[: match.start()] + " " + text[match.end() :]).split()
    if rest and rest[-1] == "in":
        rest.pop()
    return " ".join(rest), int(match.group(1))


def parse_move(text: str) -> Move:
    words = " ".join(text.replace(",", " ").replace("\u2019", "'").lower().split()).rstrip(".! ")
    if not words:
        raise BadNotation(tr("Nothing to read.") + " " + tr(HINT))
    if words in _DONE_WORDS:
        return Done()
    if words in _WELL_WORDS:
        return TakeWell()
    if words in _PASS_WORDS:
        return Pass()
    verb, _, rest = words.partition(" ")
    if verb in ("discard", "drop"):
        if not rest:
            raise BadNotation(tr("Name the card to discard, e.g. discard T3 or discard K8."))
        return Discard(parse_card(rest))
    body, row = _split_row(words)
    verb, _, rest = body.partition(" ")
    if verb in ("tractor", "joker", "use"):
        return _parse_tractor(rest, row)
    if verb == "play":
        body = rest
    if not body:
        raise BadNotation(tr("Name the card to play, e.g. play R7.") + " " + tr(HINT))
    if " for " in f" {body} " or " as " in f" {body} ":
        return _parse_tractor(body, row)
    card = parse_card(body)
    if card[0] == "T":
        raise BadNotation(
            tr("A Tractor is used with: tractor {card} for R7 then R11, or discarded with: discard {card}.", card=card)
        )
    return Play(card, row)


def _parse_tractor(text: str, row: int | None) -> UseTractor:
    """``T3 for R7 then R11`` (``as`` for ``for``; ``then ...`` may be left out)."""
    match = re.match(r"^(\S+)\s+(?:for|as)\s+(\S+)(?:\s+then\s+(\S+))?$", text.strip())
    if not match:
        raise BadNotation(
            tr("Write a Tractor move as: tractor T3 for R7 then R11 (add row N for a new family's base).")
        )
    tractor = parse_card(match.group(1))
    if tractor[0] != "T":
        raise BadNotation(
            tr("{card} is not a Tractor: a Tractor move starts with the Tractor, e.g. tractor T3 for R7.", card=tractor)
        )
    replaced = parse_card(match.group(2))
    if replaced[0] == "T":
        raise BadNotation(tr("A Tractor stands for a numbered card, e.g. tractor T3 for R7 then R11."))
    if match.group(3) is not None:
        then = parse_card(match.group(3))
        expected = FOLLOWING[replaced]
        if then != expected:
            if expected is None:
                raise BadNotation(
                    tr("Nothing follows {card}: a Tractor never stands for a card numbered 17-20.", card=replaced)
                )
            raise BadNotation(
                tr(
                    "After a Tractor for {card} comes {expected}, the next card of its sequence, not {then}.",
                    card=replaced, expected=expected, then=then,
                )  # fmt: skip
            )
    return UseTractor(tractor, replaced, row)


def format_move(move: Move) -> str:
    if isinstance(move, Play):
        return f"play {move.card}" + (f" row {move.row}" if move.row is not None else "")
    if isinstance(move, UseTractor):
        following = move.following
        text = f"tractor {move.tractor} for {move.replaced}"
        if following is not None:
            text += f" then {following}"
        return text + (f" row {move.row}" if move.row is not None else "")
    if isinstance(move, Discard):
        return f"discard {move.card}"
    if isinstance(move, TakeWell):
        return "well"
    if isinstance(move, Done):
        return "done"
    if isinstance(move, Pass):
        return "pass"
    raise TypeError(f"not a Vege tables move: {move!r}")
