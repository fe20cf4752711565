"""Whole games with AI seats at 2, 3 and 4 players: the contract at every step and the invariants
of the game (six rounds, nothing negative, cards and markers conserved, no leaks, replay)."""

from __future__ import annotations

import random

import pytest

from engine.games.granja import GAME
from engine.games.granja.cards import CARDS
from engine.games.granja.config import CONFIG, DONKEYS
from engine.games.granja.model import F1_PLAY, OVER, T1_DONKEY, roof_round
from engine.games.granja.notation import format_move
from tests.contract_checks import play_checked_game, string_leaves

from .support import all_cards, public, secrets

COUNTS = (2, 3, 4)


def check_invariants(state) -> None:
    assert sorted(all_cards(state)) == sorted(CARDS), "cards not conserved"
    for seat, farm in enumerate(state.farms):
        assert farm.silver >= 0 and farm.vp >= 0 and min(farm.goods.values()) >= 0, seat
        assert farm.goods["PG"] <= farm.pig_capacity
        assert len(farm.barrows) <= CONFIG.barrow_slots and len(farm.helpers) <= CONFIG.helper_slots
        assert len(farm.roofs) <= len(CONFIG.roof_space_vp)
        assert len({roof.id for roof in farm.roofs}) == len(farm.roofs)
        assert len(farm.donkeys) in (state.round - 1, state.round)
        for block in ((0, 3), (3, 6)):
            picks = farm.donkeys[block[0] : block[1]]
            assert len(set(picks)) == len(picks) and set(picks) <= set(DONKEYS)
        assert len(set(farm.buildings)) == len(farm.buildings)
        for number in farm.buildings:
            assert seat in state.buildings[number - 1].finishers
    markers = sorted(building.order_marker for building in state.buildings if building.order_marker)
    finished = sum(bool(building.finishers) for building in state.buildings)
    # Each first completion removes the lowest remaining marker (R6).
    assert markers == list(range(CONFIG.order_markers - len(markers) + 1, CONFIG.order_markers + 1))
    assert len(markers) == max(0, CONFIG.order_markers - finished)
    assert all(owner < state.players for owner in state.market)
    assert all(owner == -1 for owner in state.market[(29 if state.players == 4 else 19) :])
    assert 0 <= min(state.siesta_space) and max(state.siesta_space) <= CONFIG.siesta_top
    assert len(set(state.siesta_stamp)) == state.players  # one strict stack order
    assert sorted(state.order) == list(range(state.players))
    assert 1 <= state.round <= CONFIG.rounds
    owned = [roof.id for farm in state.farms for roof in farm.roofs]
    assert len(owned) == len(set(owned)) and not set(owned) & set(state.roofs_offer)
    assert all(roof in state.roofs_future[roof_round(roof) - 1] for roof in owned + state.roofs_offer)


def hidden_everywhere(state) -> set[str]:
    """Strings no view may show: undrawn cards, roofs of later rounds, roofs removed at set-up."""
    later = {roof for roof, (number, _) in CONFIG.roofs.items() if number > state.round}
    removed = {roof for roof, (number, _) in CONFIG.roofs.items() if roof not in state.roofs_future[number - 1]}
    return set(state.deck) | later | removed


def check_nothing_hidden_shows(state) -> None:
    hidden = hidden_everywhere(state)
    for seat in [None, *range(state.players)]:
        leaked = hidden & string_leaves(GAME.view(state, seat))
        assert not leaked, (seat, sorted(leaked))


def secret_strings(state, seat):
    """The seat's hand cards; while a secret step is open, nothing else of its choice may show."""
    return secrets(state, seat)


def play_game(players: int, seed: int, ai: str = "random", check=True):
    rng = random.Random(seed)
    state = GAME.new_game(players, seed)
    seats = [GAME.ai_players()[ai]() for _ in range(players)]
    moves = 0
    while not GAME.is_over(state):
        acting = GAME.to_act(state)
        assert acting
        seat = rng.choice(acting)
        if check:
            check_invariants(state)
            assert GAME.legal_moves(state, seat)
            if moves % 29 == 0:
                check_nothing_hidden_shows(state)
        move = seats[seat].choose(GAME, state, seat, rng)
        state, events = GAME.apply(state, seat, move)
        moves += 1
        for event in events:
            if event.visible_to is None:
                assert not event.text.startswith("You "), event.text
    check_invariants(state)
    return state, moves


@pytest.mark.parametrize("players", COUNTS)
def test_random_games_pass_the_contract_checks(players):
    for seed in range(2):
        # Every step of the first game; every third step of the second (the checks walk every view).
        every = 1 if seed == 0 else 3
        state, record = play_checked_game(GAME, players, seed, secrets=secret_strings, check_every=every)
        assert state.round == CONFIG.rounds and state.phase == OVER
        check_invariants(state)


@pytest.mark.parametrize("players", COUNTS)
def test_greedy_games_pass_the_contract_checks(players):
    state, _ = play_checked_game(GAME, players, 7, ai="greedy", secrets=secret_strings, check_every=9)
    assert state.phase == OVER and any(building.finishers for building in state.buildings)


@pytest.mark.parametrize("players", COUNTS)
def test_many_random_games_end_after_round_six_with_invariants(players):
    for seed in range(10, 20):
        state, moves = play_game(players, seed)
        assert state.round == 6 and GAME.is_over(state) and GAME.to_act(state) == ()
        outcome = GAME.outcome(state)
        assert outcome.scores == [float(farm.vp) for farm in state.farms]
        assert all(sum(farm.goods.values()) == 0 for farm in state.farms)  # liquidated
        assert all(farm.silver < CONFIG.end_silver_per_vp for farm in state.farms)


def test_replay_is_deterministic():
    _, first = play_checked_game(GAME, 3, 99, check_every=40)
    _, second = play_checked_game(GAME, 3, 99, check_every=40)
    assert first == second


def test_secret_steps_leave_public_views_unchanged():
    """Every secret move (F1 play and its parts, donkey choice) that does not finish the step changes
    nothing in the public view or in another seat's view except who is still choosing."""
    rng = random.Random(4)
    for players in COUNTS:
        state = GAME.new_game(players, players * 3)
        player = GAME.ai_players()["random"]()
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            move = player.choose(GAME, state, seat, rng)
            secret = move.kind in ("play", "discard", "pay", "donkey") and (
                state.phase == T1_DONKEY or (state.phase == F1_PLAY and (not state.tasks[seat] or state.tasks[seat][-1].secret))
            )
            views = [GAME.view(state, other) for other in range(players) if other != seat] + [public(state)]
            after, _ = GAME.apply(state, seat, move)
            if secret and after.phase == state.phase:
                new_views = [GAME.view(after, other) for other in range(players) if other != seat] + [public(after)]
                for old, new in zip(views, new_views, strict=True):
                    changed = {key for key in old if old[key] != new[key]}
                    assert changed <= {"prompt", "to_act", "private_prompt", "your_turn"}, (format_move(move), changed)
            state = after


def test_why_illegal_agrees_with_legal_moves_in_random_positions():
    rng = random.Random(8)
    universe: set = set()
    positions = []
    for players in COUNTS:
        state = GAME.new_game(players, players + 70)
        player = GAME.ai_players()["random"]()
        step = 0
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            universe.update(GAME.legal_moves(state, seat))
            if step % 5 == 0:
                positions.append(state)
            state, _ = GAME.apply(state, seat, player.choose(GAME, state, seat, rng))
            step += 1
    candidates = sorted(universe, key=format_move)
    for state in rng.sample(positions, 60):
        for seat in range(state.players):
            legal = set(GAME.legal_moves(state, seat))
            for move in rng.sample(candidates, 60):
                reason = GAME.why_illegal(state, seat, move)
                assert (reason is None) == (move in legal), (format_move(move), reason)
                assert reason is None or len(reason) > 10


def test_greedy_beats_random_on_average():
    totals = {"greedy": 0.0, "random": 0.0}
    for seed in range(6):
        rng = random.Random(seed)
        seats = [GAME.ai_players()["greedy"](), GAME.ai_players()["random"]()]
        state = GAME.new_game(2, seed)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            state, _ = GAME.apply(state, seat, seats[seat].choose(GAME, state, seat, rng))
        scores = GAME.outcome(state).scores
        totals["greedy"] += scores[0]
        totals["random"] += scores[1]
    assert totals["greedy"] > totals["random"] * 1.5


@pytest.mark.parametrize("seed", [1, 2])
def test_greedy_seats_never_undo_and_always_finish(seed):
    """Regression: a greedy seat used to alternate a card play and ``back`` for ever."""
    state = GAME.new_game(4, seed, {})
    rng = random.Random(seed)
    seats = [GAME.ai_players()["greedy"]() for _ in range(4)]
    for _ in range(3_000):
        if GAME.is_over(state):
            break
        seat = GAME.to_act(state)[0]
        move = seats[seat].choose(GAME, state, seat, rng)
        assert format_move(move) != "back"
        state, _ = GAME.apply(state, seat, move)
    assert GAME.is_over(state)


@pytest.mark.parametrize("players", COUNTS)
def test_the_automatic_move_is_the_single_legal_move_whenever_there_is_one(players):
    """automatic_move stops listing at the second move; it must still say exactly what the full
    list says: its only move, or None when there are none or several."""
    rng = random.Random(players)
    state = GAME.new_game(players, 11 + players)
    singles = 0
    while not GAME.is_over(state):
        for seat in range(players):
            moves = GAME.legal_moves(state, seat)
            expected = moves[0] if len(moves) == 1 else None
            assert GAME.automatic_move(state, seat) == expected
            singles += expected is not None
        seat = rng.choice(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
    assert singles > 0  # the game did reach seats with one move left
