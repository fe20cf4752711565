"""The stacking options: a fixed deal instead of a shuffled one, for tests, tutorials and puzzles,
read and bounded here before any game sees them (``Game.parse_stacking_option``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.i18n import N_, number, tr

from .errors import SetupError
from .text import MAX_CARD_CHARS, MAX_DECK_CARDS, MAX_OPTION_CHARS, MAX_STACKED_HANDS, quote

# Options that stack a game for tests, tutorials and puzzles: a fixed deal instead of a shuffled
# one. Each game accepts some of them (``Game.stacking_options``); a table with any of them set is
# stacked. deck: the card order of the first deal; decks: one card order per deal, used in turn;
# first_dealer: the seat (1-4, as players count) that deals first.
STACKING_OPTIONS: tuple[str, ...] = ("deck", "decks", "first_dealer")


def read_stacking_option(name: str, value: Any) -> Any:
    """One stacking option read (the game checks the card codes and seats when it sets up):
    ``deck`` a list of card codes, or one string of codes separated by spaces or commas;
    ``decks`` a list of such decks, or one string with the decks separated by ``|``;
    ``first_dealer`` a seat number from 1."""
    if name == "deck":
        return _stacked_deck(value)
    if name == "decks":
        decks = _option_items(
            "decks",
            value,
            lambda text: text.split("|"),
            N_("Option {option} takes decks of card codes separated by |."),
            MAX_STACKED_HANDS,
            N_("Option {option}: at most {most} decks, not {count}."),
        )
        return [_stacked_deck(deck) for deck in decks]
    assert name == "first_dealer", name
    if isinstance(value, bool) or not isinstance(value, (int, str)) or len(str(value)) > 3:
        raise SetupError(tr("Option first_dealer takes a seat number, not {value}.", value=quote(value)))
    try:
        return int(value)
    except ValueError:
        raise SetupError(tr("Option first_dealer takes a seat number, not {value}.", value=quote(value))) from None


def _option_items(
    name: str, value: Any, split: Callable[[str], list[str]], takes: str, most: int, too_many: str
) -> list[Any]:
    """A stacking option given as text (``split`` into items) or as a list, both bounded in size;
    the refusals (marked with N_) say what it ``takes`` ("Option {option} takes ...") and that it
    has ``too_many`` items ("... at most {most} ..., not {count}")."""
    if isinstance(value, str):
        if len(value) > MAX_OPTION_CHARS:
            raise SetupError(
                tr(
                    "Option {option}: at most {most} characters of card codes.",
                    option=name,
                    most=number(MAX_OPTION_CHARS),
                )
            )
        items: list[Any] = split(value)
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        raise SetupError(tr(takes, option=name))
    if len(items) > most:
        raise SetupError(tr(too_many, option=name, most=number(most), count=number(len(items))))
    return items


def _stacked_deck(value: Any) -> list[str]:
    """The ``deck`` option as a list of card codes, its size bounded; the game checks the codes."""
    cards = _option_items(
        "deck",
        value,
        lambda text: text.replace(",", " ").split(),
        N_("Option {option} takes card codes separated by spaces, like the board shows them."),
        MAX_DECK_CARDS,
        N_("Option {option}: at most {most} cards, not {count}."),
    )
    for card in cards:
        if isinstance(card, int) and not isinstance(card, bool) and abs(card) < 10**9:
            continue  # a card number (some games number their cards)
        if not isinstance(card, str) or len(card) > MAX_CARD_CHARS:
            raise SetupError(tr("Option deck: {card} is not a card code.", card=quote(card)))
    return [str(card) for card in cards]


__all__ = ["STACKING_OPTIONS", "read_stacking_option"]
