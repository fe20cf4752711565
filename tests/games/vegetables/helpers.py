"""Position builders and checks shared by the Vege tables tests.

Positions are made from a real deal by moving cards, so every card stays in exactly one place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from engine.core import GameRecord, RecordedMove
from engine.games.vegetables import GAME
from engine.games.vegetables.cards import SLOTS, is_tractor, sequence_card
from engine.games.vegetables.duo.model import DuoState
from engine.games.vegetables.model import COLUMNS, PLAYING, Discard, VegetablesState
from engine.games.vegetables.rules import begin_turn, card_places, expected_cards

# play, legal and why serve the 2-player tests too (helpers_two imports them).
AnyState = TypeVar("AnyState", VegetablesState, DuoState)


def new_game(players: int = 4, seed: int = 1, **options: object) -> VegetablesState:
    if players != 4:
        options.setdefault("house_variant", True)
    return GAME.new_game(players, seed, options)


def _take_out(state: VegetablesState, card: str) -> None:
    """Remove ``card`` from wherever it is."""
    for player in state.seats:
        for place in (player.farmland, player.hand, player.exposed, player.well, player.pending):
            if card in place:
                place.remove(card)
    for index, cell in enumerate(state.cells):
        if cell == card:
            state.cells[index] = ""
    for stack in state.stacks.values():
        if card in stack:
            stack.remove(card)
    if card in state.discard:
        state.discard.remove(card)


def put(state: VegetablesState, card: str, place: str, seat: int = 0) -> None:
    """Move one card to ``place``: farmland, hand, exposed or well of ``seat``, or discard."""
    _take_out(state, card)
    player = state.seats[seat]
    target = {
        "farmland": player.farmland,
        "hand": player.hand,
        "exposed": player.exposed,
        "well": player.well,
        "discard": state.discard,
    }[place]
    target.append(card)


def put_dead_in_hand(state: VegetablesState, card: str, seat: int) -> None:
    """Give ``seat`` the dead ``card`` in hand, as a face-down card taken in place of a Tractor is (R11)."""
    put(state, card, "hand", seat)
    state.dead.append(card)


def set_cards(state: VegetablesState, place: str, seat: int, cards: Iterable[str], park: int) -> None:
    """Make ``place`` (farmland, hand, exposed, well) of ``seat`` hold exactly ``cards``; what it
    held before goes to the same place of seat ``park`` (or to the discard pile when park is -1)."""
    player = state.seats[seat]
    current = getattr(player, place)
    wanted = list(cards)
    for card in list(current):
        if card not in wanted:
            if park < 0:
                put(state, card, "discard")
            else:
                put(state, card, place, park)
    for card in wanted:
        put(state, card, place, seat)


def take_well(state: VegetablesState, seat: int, park: int) -> None:
    """Mark a well as collected, its cards moved to ``park``'s hand (or discarded when -1)."""
    player = state.seats[seat]
    for card in list(player.well):
        put(state, card, "discard" if park < 0 else "hand", max(park, 0))
    player.well_taken = True


def _where(state: VegetablesState, card: str) -> tuple[list[str], int]:
    """The list holding ``card`` and its index (cells count as a list with empty entries)."""
    lists: list[list[str]] = [state.cells, state.discard, *state.stacks.values()]
    for player in state.seats:
        lists += [player.farmland, player.hand, player.exposed, player.well]
    for place in lists:
        if card in place:
            return place, place.index(card)
    raise AssertionError(f"{card} is nowhere")


def swap(state: VegetablesState, first: str, second: str) -> None:
    """Exchange the places of two cards."""
    place_a, index_a = _where(state, first)
    place_b, index_b = _where(state, second)
    place_a[index_a], place_b[index_b] = second, first


def set_cell(state: VegetablesState, row: int, column: int, card: str) -> None:
    """Make ``card`` the face-down card of cell (row, column) (1-based), swapping places with the
    card that was there."""
    index = (row - 1) * COLUMNS + (column - 1)
    swap(state, state.cells[index], card)


def build_stack(
    state: VegetablesState, row: int, sequence: str, cards: Iterable[str], park: int = -1
) -> None:
    """Give ``sequence``'s family row ``row`` (1-based) if it has none, and stack ``cards`` on its
    cell; the cell's face-down card goes to ``park``'s hand (discard when -1)."""
    family = sequence[0]
    if family not in state.rows:
        assert not state.rows[row - 1], f"row {row} is taken"
        state.rows[row - 1] = family
    row_index = state.rows.index(family)
    cell = row_index * COLUMNS + int(sequence[1:]) - 1
    old = state.cells[cell]
    if old:
        state.cells[cell] = ""
        if park < 0:
            state.discard.append(old)
        else:
            state.seats[park].hand.append(old)
    for card in cards:
        _take_out(state, card)
        state.stacks[sequence].append(card)


def close_sequence(state: VegetablesState, row: int, sequence: str, park: int = -1) -> None:
    base = int(sequence[1:])
    build_stack(state, row, sequence, [f"{sequence[0]}{base + 4 * k}" for k in range(SLOTS)], park)


def start_turn(state: VegetablesState, seat: int) -> None:
    """Make it the start of ``seat``'s turn (pending discards, out check, PLAYING or MUST_PASS)."""
    state.turn = seat
    state.phase = PLAYING
    begin_turn(state, [])


def last_card_t1_position() -> VegetablesState:
    """Seed 6, P2's turn: its well taken, Farmland empty, T1 its one card (``discard T1`` goes out)."""
    state = new_game(seed=6)
    take_well(state, 1, park=0)
    set_cards(state, "farmland", 1, [], park=0)
    set_cards(state, "hand", 1, ["T1"], park=0)
    start_turn(state, 1)
    return state


def play(state: AnyState, seat: int, text: str) -> tuple[AnyState, list[str]]:
    """Apply a move written in notation; returns the new state and the event texts."""
    new_state, events = GAME.apply(state, seat, GAME.parse_move(text))
    return new_state, [event.text for event in events]


def apply_recorded(
    state: AnyState, mover: int, move: Any, record: GameRecord, check: Callable[[AnyState], None]
) -> tuple[AnyState, list]:
    """Apply ``move`` for ``mover``, log it in ``record`` in notation (for the replay at the end of a
    random game) and run the game's invariant ``check`` on the new state: one step of a random game."""
    state, events = GAME.apply(state, mover, move)
    record.moves.append(RecordedMove(mover, GAME.format_move(move)))
    check(state)
    return state, events


def legal(state: AnyState, seat: int) -> list[str]:
    return [GAME.format_move(move) for move in GAME.legal_moves(state, seat)]


def why(state: AnyState, seat: int, text: str) -> str | None:
    return GAME.why_illegal(state, seat, GAME.parse_move(text))


def moves_keeping_dead_cards(state: AnyState, seat: int) -> list:
    """The legal moves but the discard of a dead card (a Tractor may still be discarded)."""
    return [
        m for m in GAME.legal_moves(state, seat) if not (isinstance(m, Discard) and not is_tractor(m.card))
    ]


def check_stacks(state: AnyState) -> None:
    """Every stack holds its sequence's cards in order, a Tractor standing for one but never on top
    nor next to another, and the dead cards are exactly those the Tractors replaced."""
    replaced = []
    for sequence, stack in state.stacks.items():
        assert len(stack) <= SLOTS
        for slot, card in enumerate(stack, start=1):
            if is_tractor(card):
                assert slot < len(stack), f"a Tractor is left on top of {sequence}"
                assert not is_tractor(stack[slot]), f"two adjacent Tractors in {sequence}"
                replaced.append(sequence_card(sequence, slot))
            else:
                assert card == sequence_card(sequence, slot), f"{card} is out of place in {sequence}"
    assert sorted(replaced) == sorted(state.dead), "dead cards are exactly the replaced ones"


def check_conservation(state: VegetablesState) -> None:
    """Every card of the configuration is in exactly one place."""
    places = card_places(state)
    counts = Counter(card for card, _ in places)
    doubles = {card: n for card, n in counts.items() if n != 1}
    assert not doubles, f"cards in several places: {doubles}"
    assert sorted(counts) == sorted(expected_cards(state)), "cards missing or unknown"


def secrets(state: VegetablesState, seat: int) -> list[str]:
    """Strings nobody but ``seat`` may see: its live hidden cards; plus the live cards of every well
    and face-down cell, which nobody may see at all. Dead cards are public by identity (only their
    holder is secret, which views must show structurally, not by the card's name)."""
    dead = set(state.dead)
    found = [card for card in state.seats[seat].hand if card not in dead]
    for player in state.seats:
        found.extend(card for card in player.well if card not in dead)
    found.extend(card for card in state.cells if card and card not in dead)
    return found
