"""Random full games with AI seats, for the default game, the Expert option and both house
variants: the contract checks (termination, JSON round-trip, no leaks, replay), and the game's own
invariants checked after every move (cards conserved, Tractors never on top or adjacent, dead
cards exactly the replaced ones, R32's well invariant, score changes as the rules say)."""

import random

import pytest

from engine.core import GameRecord, replay
from engine.games.vegetables import GAME
from engine.games.vegetables.cards import is_tractor
from engine.games.vegetables.model import OVER, PLAYING, Discard, Pass, Play, UseTractor, VegetablesState
from engine.games.vegetables.rules import holdings
from engine.games.vegetables.scoring import closed_count, family_complete
from tests.contract_checks import play_checked_game

from .helpers import apply_recorded, check_conservation, check_stacks, moves_keeping_dead_cards, secrets

CONFIGS = [
    pytest.param(4, {}, id="official"),
    pytest.param(4, {"expert_jokers": True}, id="expert"),
    pytest.param(3, {"house_variant": True}, id="h3"),
    pytest.param(5, {"house_variant": True}, id="h5"),
]


@pytest.mark.parametrize(("players", "options"), CONFIGS)
@pytest.mark.parametrize("ai", ["random", "greedy"])
def test_contract_checked_games_every_move(players, options, ai):
    for seed in range(2):
        state, record = play_checked_game(GAME, players, seed, options, ai=ai, secrets=secrets)
        assert state.phase == OVER
        check_conservation(state)


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_contract_checked_games_more_seeds(players, options):
    for seed in range(2, 12):
        ai = "random" if seed % 2 else "greedy"
        state, _ = play_checked_game(GAME, players, seed, options, ai=ai, secrets=secrets, check_every=15)
        check_conservation(state)


# ----- the game's own invariants, with off-turn dead-card requests mixed in ------------------------


def check_invariants(state: VegetablesState) -> None:
    check_conservation(state)
    check_stacks(state)
    for index, stack in enumerate(state.cells):
        row_family = state.rows[index // 4]
        if row_family:
            base = f"{row_family}{index % 4 + 1}"
            assert bool(stack) != bool(state.stacks[base]), "a cell keeps its card exactly until its base"
        else:
            assert stack
    if state.phase != OVER:
        for seat, player in enumerate(state.seats):
            if seat != state.turn and not player.well_taken:
                assert len(player.hand) >= state.well_threshold, (
                    "R32: an uncollected well means W hidden cards"
                )
            if seat == state.turn:
                assert not player.pending
            assert set(player.pending) <= set(player.hand + player.farmland + player.exposed)
            assert set(player.pending) <= set(state.dead)


def expected_score_change(before: VegetablesState, after: VegetablesState) -> int:
    """Closing and family points, well points and closure points of one move (passes aside)."""
    points = 10 * (closed_count(after) - closed_count(before))
    points += 30 * sum(
        1
        for family in after.families
        if family_complete(after, family) and not family_complete(before, family)
    )
    collected_before = sum(1 for p in before.seats if p.well_taken)
    collected_after = sum(1 for p in after.seats if p.well_taken)
    points += sum(10 * (after.players - rank) for rank in range(collected_before + 1, collected_after + 1))
    if after.went_out is not None and before.went_out is None:
        points += 10 * (len(after.stacks) - closed_count(after))
    return points


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_invariants_r32_and_scores_with_off_turn_discard_requests(players, options):
    for seed in range(8):
        rng = random.Random(seed)
        state = GAME.new_game(players, seed, options)
        record = GameRecord(game=GAME.name, players=players, seed=seed, options=options)
        make = GAME.ai_players()["random" if seed % 2 else "greedy"]
        seats = [make() for _ in range(players)]
        requests = 0
        for _ in range(5000):
            if GAME.is_over(state):
                break
            seat = GAME.to_act(state)[0]
            # Now and then a dead card's holder asks, off turn, to discard it (A3).
            off_turn = [
                (other, m)
                for other in range(players)
                if other != seat
                for m in GAME.legal_moves(state, other)
            ]
            if off_turn and rng.random() < 0.5:
                mover, move = rng.choice(off_turn)
                requests += 1
            else:
                mover, move = seat, seats[seat].choose(GAME, state, seat, rng)
            before = state
            state, _ = apply_recorded(state, mover, move, record, check_invariants)
            change = sum(p.score for p in state.seats) - sum(p.score for p in before.seats)
            passes = sum(p.passes for p in state.seats) - sum(p.passes for p in before.seats)
            penalty = expected_score_change(before, state) - change
            assert penalty % 50 == 0 and 0 <= penalty <= 50 * passes, "only empty-hand passes cost points"
        else:
            raise AssertionError("the game did not end")
        replayed, _ = replay(GAME, record)
        assert replayed == state


def test_greedy_uses_only_what_its_seat_may_see():
    """Changing other seats' hidden cards and wells (keeping their sizes) never changes its choice."""
    ai = GAME.ai_players()["greedy"]()
    for seed in range(20):
        state = GAME.new_game(4, seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 40)):
            if GAME.is_over(state):
                break
            seat = GAME.to_act(state)[0]
            state, _ = GAME.apply(state, seat, ai.choose(GAME, state, seat, rng))
        if GAME.is_over(state):
            continue
        seat = GAME.to_act(state)[0]
        shuffled = GAME.decode_state(GAME.encode_state(state))
        others = [p for i, p in enumerate(shuffled.seats) if i != seat]
        pool = [card for p in others for card in p.hand + p.well] + [c for c in shuffled.cells if c]
        random.Random(seed).shuffle(pool)
        for p in others:
            p.hand, pool = pool[: len(p.hand)], pool[len(p.hand) :]
            p.well, pool = pool[: len(p.well)], pool[len(p.well) :]
        shuffled.cells = [pool.pop() if c else "" for c in shuffled.cells]
        first = ai.choose(GAME, state, seat, random.Random(1))
        second = ai.choose(GAME, shuffled, seat, random.Random(1))
        assert first == second


def test_default_and_automatic_moves_are_legal():
    for seed in range(6):
        state = GAME.new_game(4, seed)
        steps = 0
        while not GAME.is_over(state) and steps < 3000:
            seat = GAME.to_act(state)[0]
            automatic = GAME.automatic_move(state, seat)
            legal = GAME.legal_moves(state, seat)
            if automatic is not None:
                assert automatic in legal
            move = GAME.default_move(state, seat)
            assert move in legal
            state, _ = GAME.apply(state, seat, move)
            steps += 1
        assert GAME.is_over(state)


# ----- forced passes and the safety valve over whole games (§5, §7, R17, R31) -----------------------


def _keeper_move(state: VegetablesState, seat: int, rng: random.Random):
    """A seat that never discards a dead card, so that games can end by the safety valve."""
    moves = moves_keeping_dead_cards(state, seat)
    plays = [m for m in moves if isinstance(m, (Play, UseTractor))]
    return rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(moves)


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_passes_are_forced_and_the_valve_ends_only_a_stuck_game(players, options):
    endings = set()
    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.new_game(players, seed, options)
        passes_in_a_row = 0
        while not GAME.is_over(state):
            seat = state.turn
            if state.plays == 0:
                moves = GAME.legal_moves(state, seat)
                can_play = any(
                    isinstance(m, (Play, UseTractor)) or (isinstance(m, Discard) and is_tractor(m.card))
                    for m in moves
                )
                assert (state.phase == PLAYING) == can_play
                assert (Pass() in moves) == (not can_play)
            move = _keeper_move(state, seat, rng)
            collected = state.seats[seat].well_taken
            state, _ = GAME.apply(state, seat, move)
            if isinstance(move, Pass):
                passes_in_a_row = passes_in_a_row + 1 if collected else 0
            elif state.turn != seat or GAME.is_over(state):
                passes_in_a_row = 0
        if state.went_out is None:
            endings.add("valve")
            assert passes_in_a_row == players
            assert closed_count(state) == len(state.stacks)
            assert all(p.well_taken for p in state.seats)
            assert all(card in state.dead for p in state.seats for card in holdings(p))
        else:
            endings.add("out")
    assert endings == {"valve", "out"}
