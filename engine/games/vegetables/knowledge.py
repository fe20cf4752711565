"""What a Vege tables seat knows, and the hidden cards dealt anew for the search (engine.core.search).

Hidden from a seat (docs/rules/vegetables.md §4.2): the other hidden hands, every well (its own
too, until collected), the face-down field cells, the other seats' pending discards. Public: the
Farmland rows, exposed cards, stacks, discards, removed cards, the dead list and every count. The
knowledge is the state with the hidden cards taken out and listed apart, sorted (their deal is
not known). A sample deals them back by their backs, the one thing everyone sees of a hidden
card: White cards (5-12) were dealt to hands only, so wells and cells take Green cards (13-20 and
Tractors); under the Expert jokers deal each well holds two Tractors and the field none.

The 2-player game (``DuoState``) hides less: the other Hand (its dead cards excepted: R11 makes
their holder public) and the face-down well W3 until it is revealed.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from engine.core import Game, Rng
from engine.core.search import BaseKit, outcome_rewards, reseed

from .cards import SLOT, is_tractor
from .duo import ai as duo_ai
from .duo.model import DuoState
from .model import VegetablesState

State = VegetablesState | DuoState


def is_white(card: str) -> bool:
    return not is_tractor(card) and SLOT[card] in (2, 3)


class HiddenCards(msgspec.Struct):
    """A state with its hidden cards taken out (empty lists, "" cells) and the cards themselves."""

    state: VegetablesState | DuoState
    unknown: list[str]  # sorted
    hands: dict[int, int]  # seat -> hidden hand size to fill
    wells: dict[int, int]  # seat -> well size to fill (4 players); 2: the W3 pile's size
    cells: list[int]  # face-down cells to fill (4 players)
    kept: dict[int, list[str]] = {}  # seat -> cards known to stay in its hand (2 players: its dead cards)


def _observe_four(state: VegetablesState, seat: int) -> HiddenCards:
    known = msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=VegetablesState)
    known.rng = Rng(seed=0)
    unknown: list[str] = []
    hands: dict[int, int] = {}
    wells: dict[int, int] = {}
    for index, player in enumerate(known.seats):
        if index != seat:
            unknown.extend(player.hand)
            hands[index] = len(player.hand)
            player.hand = []
            player.pending = []  # a request made off turn is secret until it takes effect
        if player.well:
            unknown.extend(player.well)
            wells[index] = len(player.well)
            player.well = []
    cells = [cell for cell, card in enumerate(known.cells) if card]
    unknown.extend(known.cells[cell] for cell in cells)
    known.cells = ["" for _ in known.cells]
    return HiddenCards(state=known, unknown=sorted(unknown), hands=hands, wells=wells, cells=cells)


def _sample_four(knowledge: HiddenCards, rng: random.Random) -> VegetablesState:
    state = msgspec.msgpack.decode(msgspec.msgpack.encode(knowledge.state), type=VegetablesState)
    state.rng = Rng(seed=reseed(rng))
    whites = [card for card in knowledge.unknown if is_white(card)]
    tractors = [card for card in knowledge.unknown if is_tractor(card)]
    greens = [card for card in knowledge.unknown if not is_white(card) and not is_tractor(card)]
    rng.shuffle(tractors)
    rng.shuffle(greens)
    if state.expert_jokers:
        # Each uncollected well: two Tractors and numbered Green cards; the field: numbered only.
        for index, size in knowledge.wells.items():
            take = min(2, size, len(tractors))
            well = [tractors.pop() for _ in range(take)] + [greens.pop() for _ in range(size - take)]
            rng.shuffle(well)
            state.seats[index].well = well
        for cell in knowledge.cells:
            state.cells[cell] = greens.pop()
        rest = whites + tractors + greens
    else:
        green_pile = tractors + greens
        rng.shuffle(green_pile)
        for index, size in knowledge.wells.items():
            state.seats[index].well = [green_pile.pop() for _ in range(size)]
        for cell in knowledge.cells:
            state.cells[cell] = green_pile.pop()
        rest = whites + green_pile
    rng.shuffle(rest)
    for index, size in knowledge.hands.items():
        state.seats[index].hand = [rest.pop() for _ in range(size)]
    return state


def _observe_two(state: DuoState, seat: int) -> HiddenCards:
    known = msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=DuoState)
    other = 1 - seat
    player = known.seats[other]
    kept = [card for card in player.hand if card in known.dead]  # R11: a dead card's holder is public
    unknown = [card for card in player.hand if card not in known.dead]
    hands = {other: len(unknown)}
    player.hand = []
    player.pending = []
    wells: dict[int, int] = {}
    if not known.revealed:
        unknown.extend(known.wells[2])
        wells[2] = len(known.wells[2])
        known.wells[2] = []
    return HiddenCards(state=known, unknown=sorted(unknown), hands=hands, wells=wells, cells=[], kept={other: kept})


def _sample_two(knowledge: HiddenCards, rng: random.Random) -> DuoState:
    state = msgspec.msgpack.decode(msgspec.msgpack.encode(knowledge.state), type=DuoState)
    rest = list(knowledge.unknown)
    rng.shuffle(rest)
    for index, size in knowledge.hands.items():
        state.seats[index].hand = knowledge.kept.get(index, []) + [rest.pop() for _ in range(size)]
    if 2 in knowledge.wells:
        state.wells[2] = [rest.pop() for _ in range(knowledge.wells[2])]
    return state


class VegetablesKit(BaseKit[HiddenCards, State]):
    """The search's view of Vege tables (both games); ``policy`` (the greedy seat) plays the
    rollouts, with a random move now and then."""

    # The 2-player draw moves name the cards they take, those of the face-down W3 too (when the
    # draw empties W1 or W2 first): in a sample W3 differs, so such a move is checked there.
    check_root = True

    def observe(self, state: State, seat: int) -> HiddenCards:
        if isinstance(state, DuoState):
            return _observe_two(state, seat)
        return _observe_four(state, seat)

    def sample(self, knowledge: HiddenCards, seat: int, rng: random.Random) -> State:
        if isinstance(knowledge.state, DuoState):
            return _sample_two(knowledge, rng)
        return _sample_four(knowledge, rng)

    def rollout_move(self, game: Game[Any, Any], state: State, seat: int, rng: random.Random) -> Any:
        if rng.random() < 0.05:
            return rng.choice(game.legal_moves(state, seat))
        if isinstance(state, DuoState):
            return duo_ai.choose(state, seat, rng)
        return super().rollout_move(game, state, seat, rng)

    def evaluate(self, game: Game[Any, Any], state: State) -> list[float]:
        if game.is_over(state):
            return outcome_rewards(game.outcome(state), len(state.seats))
        return self.estimate(game, state)

    def seats(self, state: State) -> int:
        return len(state.seats)
