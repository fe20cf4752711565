"""The search levels (engine.core.search with each game's knowledge.py): they never read what their
seat cannot see, every move they make is legal, and they are reproducible from the seed.

No peeking, proven: for positions from real games, the hidden cards are dealt again elsewhere (by
this test's own shuffles, not the AI's sampler) in a way the seat cannot tell apart (its view is
the same), and the AI's choice with a fixed seed and budget must not change.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from engine.core import Game, Rng
from engine.core.search import SearchPlayer
from engine.games import get_game
from engine.games.figures.knowledge import pass_limits
from engine.games.granja.ai import ROLLOUT_MOVES_CAP
from engine.games.granja.model import F1_PLAY
from engine.games.vegetables.cards import SLOT, is_tractor
from engine.games.vegetables.duo.model import DuoState
from tests.games.greedy_positions import positions

# Small budgets: these tests are about what the search reads and plays, not its strength.
ITERATIONS = 12

SETUPS = [
    ("figures", 4, {}),
    ("orchard", 4, {}),
    ("orchard", 1, {}),
    ("vegetables", 4, {}),
    ("vegetables", 2, {}),
    ("granja", 4, {}),
    ("granja", 2, {}),
]


def searcher(game: Game[Any, Any], level: str = "strong") -> SearchPlayer[Any, Any]:
    player = {**game.ai_players(), **game.ai_test_players()}[level]()
    assert isinstance(player, SearchPlayer)
    player.iterations = ITERATIONS
    return player


# ----- the hidden cards dealt again, by this test -------------------------------------------------


def reshuffle_figures(state: Any, seat: int, rng: random.Random) -> Any:
    """The other hands dealt again within what the passes told (tried until a deal fits)."""
    limits = pass_limits(state)
    others = [other for other in range(4) if other != seat]
    cards = sorted(card for other in others for card in state.hands[other])
    for _ in range(1000):
        rng.shuffle(cards)
        hands: dict[int, list[str]] = {}
        start = 0
        for other in others:
            hands[other] = cards[start : start + len(state.hands[other])]
            start += len(state.hands[other])
        if all(not set(hands[other]) & limits.get(other, frozenset()) for other in others):
            break
    else:
        hands = {other: list(state.hands[other]) for other in others}
    return msgspec.structs.replace(
        state, hands=[hands.get(index, state.hands[index]) for index in range(4)], rng=Rng(seed=rng.getrandbits(40))
    )


def reshuffle_orchard(state: Any, seat: int, rng: random.Random) -> Any:
    deck = list(state.deck)
    rng.shuffle(deck)
    return msgspec.structs.replace(state, deck=deck, rng=Rng(seed=rng.getrandbits(40)))


def reshuffle_vegetables(state: Any, seat: int, rng: random.Random) -> Any:
    """4 players: the other hands among themselves (the White cards stay White), the wells and
    cells among themselves (all Green). 2 players: the other Hand's live cards. (Not W3: the
    2-player draw moves offered to a seat name the cards of the face-down W3 they would take, so
    the seat's own move list tells them; the search checks such moves in each sample.)"""
    state = get_game("vegetables").copy_state(state)
    if isinstance(state, DuoState):
        other = state.seats[1 - seat]
        live = [card for card in other.hand if card not in state.dead]
        rng.shuffle(live)
        other.hand = [card for card in other.hand if card in state.dead] + live
        return state
    others = [index for index, player in enumerate(state.seats) if index != seat and not player.pending]
    whites = [card for index in others for card in state.seats[index].hand if not is_tractor(card) and SLOT[card] in (2, 3)]
    greens = [card for index in others for card in state.seats[index].hand if card not in whites]
    white_counts = {index: sum(1 for card in state.seats[index].hand if card in set(whites)) for index in others}
    rng.shuffle(whites)
    for index in others:  # each hand keeps its count of White and of Green cards
        hand = state.seats[index].hand
        count = white_counts[index]
        state.seats[index].hand = [whites.pop() for _ in range(count)] + [None] * (len(hand) - count)  # type: ignore[list-item]
    wells = [player.well for player in state.seats]
    pile = greens + [card for well in wells for card in well] + [card for card in state.cells if card]
    rng.shuffle(pile)
    for index in others:
        hand = state.seats[index].hand
        state.seats[index].hand = [card if card is not None else pile.pop() for card in hand]
    for player in state.seats:
        player.well = [pile.pop() for _ in player.well]
    state.cells = [pile.pop() if card else "" for card in state.cells]
    state.rng = Rng(seed=rng.getrandbits(40))
    return state


def reshuffle_granja(state: Any, seat: int, rng: random.Random) -> Any:
    """The other hands and the deck dealt again (cards committed in F1 stay with their seat)."""
    state = get_game("granja").copy_state(state)
    committed = {other: {play.card for play in state.choices[other].plays} for other in range(state.players)}
    pile = list(state.deck)
    for other, farm in enumerate(state.farms):
        if other != seat:
            pile.extend(card for card in farm.hand if card not in committed[other])
    rng.shuffle(pile)
    for other, farm in enumerate(state.farms):
        if other != seat:
            farm.hand = [card if card in committed[other] else pile.pop() for card in farm.hand]
    state.deck = pile
    state.rng = Rng(seed=rng.getrandbits(40))
    return state


RESHUFFLE: dict[str, Callable[[Any, int, random.Random], Any]] = {
    "figures": reshuffle_figures,
    "orchard": reshuffle_orchard,
    "vegetables": reshuffle_vegetables,
    "granja": reshuffle_granja,
}


@pytest.mark.parametrize(("name", "players", "options"), SETUPS)
def test_the_choice_does_not_change_when_hidden_cards_are_dealt_again(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game = get_game(name)
    player = searcher(game)
    checked = 0
    changed_hidden = 0
    every = 41 if name == "granja" else 9 if players > 1 else 2
    for state, seat in positions(game, players, options, seed=11, every=every):
        other = RESHUFFLE[name](state, seat, random.Random(checked))
        assert game.view(other, seat) == game.view(state, seat)  # the seat cannot tell them apart
        changed_hidden += game.encode_state(other) != game.encode_state(state)
        # What the search is given is the same: nothing of the hidden deal gets through.
        assert player.kit.observe(other, seat) == player.kit.observe(state, seat)
        first = player.choose(game, state, seat, random.Random(5))
        second = player.choose(game, other, seat, random.Random(5))
        assert first == second, f"{name}: the choice changed with cards the seat cannot see"
        checked += 1
        if checked == 8:
            break
    assert checked >= 4 and changed_hidden >= checked - 1


def test_granja_a_secret_card_play_of_another_seat_does_not_change_the_choice() -> None:
    """La Granja's F1 plays are simultaneous: whatever another seat committed, unseen, the AI
    choosing next decides the same."""
    game = get_game("granja")
    player = searcher(game)
    state = game.new_game(2, 4, {})
    assert state.phase == F1_PLAY
    plays = [move for move in game.legal_moves(state, 1) if move.kind == "play"]
    worlds = []
    for move in (plays[0], plays[-1]):
        after, _ = game.apply(state, 1, move)
        worlds.append(after)
    assert worlds[0].choices[1] != worlds[1].choices[1]
    assert game.view(worlds[0], 0) == game.view(worlds[1], 0)
    assert player.kit.observe(worlds[0], 0) == player.kit.observe(worlds[1], 0)
    choices = {game.format_move(player.choose(game, world, 0, random.Random(3))) for world in worlds}
    assert len(choices) == 1


@pytest.mark.parametrize(("name", "players", "options"), SETUPS)
@pytest.mark.parametrize("level", ["normal", "strong", "clairvoyant"])
def test_every_move_of_every_level_is_legal(name: str, players: int, options: dict[str, Any], level: str) -> None:
    game = get_game(name)
    player = searcher(game, level)
    rng = random.Random(7)
    checked = 0
    for seed in (1, 2):
        every = 53 if name == "granja" else 13 if players > 1 else 3
        for state, seat in positions(game, players, options, seed=seed, every=every):
            move = player.choose(game, state, seat, rng)
            assert move in game.legal_moves(state, seat)
            game.apply(state, seat, move)  # the referee's own check accepts it too
            checked += 1
    assert checked >= 4


def test_a_search_is_reproducible_and_stops_at_its_deadline() -> None:
    game = get_game("orchard")
    state, seat = next(positions(game, 4, {}, seed=3, every=1))
    player = searcher(game)
    player.iterations = 60
    assert player.choose(game, state, seat, random.Random(9)) == player.choose(game, state, seat, random.Random(9))
    assert player.last_iterations >= 30
    player.deadline = lambda: True  # the time is up at once: one world, then the best so far
    move = player.choose(game, state, seat, random.Random(9))
    assert move in game.legal_moves(state, seat)
    assert player.last_iterations < 60 // 2


def test_the_levels_are_offered_and_the_clairvoyant_only_to_tests() -> None:
    for name in ("figures", "orchard", "vegetables", "granja"):
        game = get_game(name)
        assert {"easy", "normal", "strong"} <= set(game.ai_players())
        assert "clairvoyant" not in game.ai_players()
        assert set(game.ai_test_players()) == {"clairvoyant"}


def test_granja_rollouts_are_capped_at_a_few_hundred_moves() -> None:
    # La Granja's rollout policy can loop through anytime actions (sell, buy, upgrade...) that each
    # look like a gain: uncapped, one such playout ran 10,000 moves (a 52 s decision of normal's).
    game = get_game("granja")
    players = {**game.ai_players(), **game.ai_test_players()}
    for level in ("normal", "strong", "clairvoyant"):
        player = players[level]()
        assert isinstance(player, SearchPlayer)
        assert player.max_rollout == ROLLOUT_MOVES_CAP <= 500
