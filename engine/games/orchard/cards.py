"""Card and batch data of Draft Cider: the 75 apples, the eight batches and the score tables.

A card is an int from 0 to 74: ``colour * 25 + (height - 1) * 5 + (sweetness - 1)``. Sorting the
ints therefore orders cards by colour (Green < Gold < Red), then height, then sweetness, which is
the order the pool is shown in and the order the timeout default scans.
"""

from __future__ import annotations

from engine.i18n import N_, tr, tr_ctx

COLOURS: tuple[str, ...] = ("Green", "Gold", "Red")
GREEN, GOLD, RED = range(3)
VALUES = range(1, 6)  # heights and sweetness both run 1..5
DECK_SIZE = len(COLOURS) * len(VALUES) * len(VALUES)  # 75, one card per combination


def make_card(colour: int, height: int, sweetness: int) -> int:
    return colour * 25 + (height - 1) * 5 + (sweetness - 1)


ALL_CARDS: tuple[int, ...] = tuple(range(DECK_SIZE))
# Attribute look-up tables, indexed by card, so the rules never decode a card twice.
COLOUR: tuple[int, ...] = tuple(card // 25 for card in ALL_CARDS)
HEIGHT: tuple[int, ...] = tuple(card // 5 % 5 + 1 for card in ALL_CARDS)
SWEETNESS: tuple[int, ...] = tuple(card % 5 + 1 for card in ALL_CARDS)

# The one card notation, everywhere (pool, batches, hand, log, moves): the spec's "Colour hH sS"
# joined into one token, so a deck can be written as a list separated by spaces or commas.
CODE: tuple[str, ...] = tuple(
    f"{COLOURS[COLOUR[card]]}-h{HEIGHT[card]}-s{SWEETNESS[card]}" for card in ALL_CARDS
)
# ----- batches ------------------------------------------------------------------------------------

MONO, FEATHER, SPECIAL, UNLUCKY, FORTE, SWEET, CONST, BAD = range(8)
BATCHES = range(8)
BATCH_IDS: tuple[str, ...] = ("mono", "feather", "special", "unlucky", "forte", "sweet", "const", "bad")
# Marked for the catalogue; shown with ``batch_name`` in the reader's language.
BATCH_NAMES: tuple[str, ...] = (
    N_("Monochrome"),
    N_("Apples of a Feather"),
    N_("Special Colour Tree"),
    N_("Unlucky"),
    N_("Fortepiano Height"),
    N_("Sweet Couple"),
    N_("Constant Height"),
    N_("Bad Batch"),
)


def batch_name(batch: int) -> str:
    """A batch's full name in the reader's language (its id, such as ``mono``, is notation)."""
    return tr(BATCH_NAMES[batch])


def colour_name(colour: int) -> str:
    """A colour named in a sentence, in the reader's language (card codes keep ``Gold``)."""
    if colour == GREEN:
        return tr_ctx("orchard", "Green")
    if colour == GOLD:
        return tr_ctx("orchard", "Gold")
    return tr_ctx("orchard", "Red")


# The batches whose cards of the tree colour spoil the Special Colour Tree (every one but BAD).
TREE_RIVALS: tuple[int, ...] = (MONO, FEATHER, UNLUCKY, FORTE, SWEET, CONST)

SPECIAL_POINTS = 20
UNLUCKY_TARGET = 13
SWEET_PAIR_POINTS = 7
FORTE_POINTS_PER_STEP = 2
CARDS_PER_PLAYER = 12

# Constant Height pays the n-th odd prime for n cards; index 0 is the empty batch. Twelve cards is
# the most a player ever holds, but a few more entries keep the table safe for any count.
CONST_POINTS: tuple[int, ...] = (0, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67)


def picks_per_round(players: int) -> int:
    """Cards each player takes per round: two at three or six players, three otherwise."""
    return 2 if players in (3, 6) else 3


def rounds_for(players: int) -> int:
    """Rounds in a game: enough that everyone ends with twelve cards."""
    return CARDS_PER_PLAYER // picks_per_round(players)
