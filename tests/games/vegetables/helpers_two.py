"""Position builders and checks for the 2-player Vege tables tests (docs/rules/vegetables-2p.md).

Positions are made from a real deal by moving cards, so every card stays in exactly one place.
Piles (Silos S1-S4, wells W1-W3) are lists from bottom to top: the last card is the free one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engine.games.vegetables import GAME
from engine.games.vegetables.duo.model import DuoState
from engine.games.vegetables.duo.rules import begin_turn, card_places, expected_cards
from engine.games.vegetables.model import PLAYING

# Moves in notation go through the one game object whatever the table size (re-exported).
from .helpers import legal as legal
from .helpers import play as play
from .helpers import why as why

P1, P2 = 0, 1
PILES = ("S1", "S2", "S3", "S4", "W1", "W2", "W3")


def new_duo(seed: int = 1) -> DuoState:
    return GAME.new_game(2, seed, {})


def _lists(state: DuoState) -> list[list[str]]:
    lists: list[list[str]] = [state.discard, *state.silos, *state.wells, *state.stacks.values()]
    for player in state.seats:
        lists += [player.grounds, player.hand, player.exposed, player.tractors, player.locked]
    return lists


def take_out(state: DuoState, card: str) -> None:
    for place in _lists(state):
        if card in place:
            place.remove(card)
    for player in state.seats:
        if card in player.pending:
            player.pending.remove(card)


def place(state: DuoState, name: str, seat: int = P1) -> list[str]:
    """The list called ``name``: grounds, hand, exposed, tractors, locked (of ``seat``), discard,
    S1-S4, W1-W3, or a sequence's stack (``stack R3``)."""
    if name in PILES:
        index = PILES.index(name)
        return state.silos[index] if index < 4 else state.wells[index - 4]
    if name == "discard":
        return state.discard
    if name.startswith("stack "):
        return state.stacks[name[6:]]
    return getattr(state.seats[seat], name)


def put(state: DuoState, card: str, name: str, seat: int = P1) -> None:
    """Move ``card`` on top of (at the end of) place ``name``."""
    take_out(state, card)
    place(state, name, seat).append(card)


def set_place(
    state: DuoState, name: str, cards: Iterable[str], seat: int = P1, park: str = "discard"
) -> None:
    """Make place ``name`` hold exactly ``cards`` in this order; what it held goes to ``park``."""
    wanted = list(cards)
    target = place(state, name, seat)
    for card in list(target):
        if card not in wanted:
            put(state, card, park, seat)
    for card in wanted:
        take_out(state, card)
    target.extend(wanted)


def swap(state: DuoState, first: str, second: str) -> None:
    """Exchange the places of two cards."""
    found = []
    for card in (first, second):
        for lst in _lists(state):
            if card in lst:
                found.append((lst, lst.index(card)))
                break
        else:
            raise AssertionError(f"{card} is nowhere")
    (list_a, index_a), (list_b, index_b) = found
    list_a[index_a], list_b[index_b] = second, first


def close(state: DuoState, sequence: str) -> None:
    base = int(sequence[1:])
    set_place(state, f"stack {sequence}", [f"{sequence[0]}{base + 4 * k}" for k in range(5)])


def empty_wells(state: DuoState) -> None:
    for well in ("W1", "W2", "W3"):
        set_place(state, well, [])


def strand(state: DuoState, seat: int) -> None:
    """Leave ``seat`` holding only a dead K16, face up: nothing it can play, nothing hidden."""
    for name in ("grounds", "tractors", "locked", "hand"):
        set_place(state, name, [], seat)
    set_place(state, "exposed", ["K16"], seat)
    state.dead.append("K16")


def start_turn(state: DuoState, seat: int) -> None:
    state.turn = seat
    state.phase = PLAYING
    begin_turn(state, [])


def check_conservation(state: DuoState) -> None:
    counts = Counter(card for card, _ in card_places(state))
    doubles = {card: n for card, n in counts.items() if n != 1}
    assert not doubles, f"cards in several places: {doubles}"
    assert sorted(counts) == sorted(expected_cards()), "cards missing or unknown"


def secrets(state: DuoState, seat: int) -> list[str]:
    """Strings nobody but ``seat`` may see: its live Hand cards; and the cards of W3 while it is
    face down, which nobody may see. Dead cards are public, holder included (R11)."""
    dead = set(state.dead)
    found = [card for card in state.seats[seat].hand if card not in dead]
    if not state.revealed:
        found.extend(card for card in state.wells[2] if card not in dead)
    return found
