"""Random full 2-player games with AI seats (docs/rules/vegetables-2p.md): the contract checks
(termination, JSON round-trip, no leaks, replay), and the game's own invariants after every move,
those the rules' prototype checked (§14): every card in one place, legal stacks, dead cards only
with a player or discarded, Silo count = unplaced bases, the release schedule, draws ending at 8 or
12, the turn-start invariant (R16), W3 revealed exactly when W1 or W2 is empty, scores = the sum
of the announced points, and the safety valve only when nobody can score (R20)."""

import random
import re

import pytest

from engine.core import GameRecord, replay
from engine.games.vegetables import GAME
from engine.games.vegetables.cards import SLOTS
from engine.games.vegetables.duo.model import Draw, DuoState
from engine.games.vegetables.duo.rules import holdings, wells_left
from engine.games.vegetables.model import OVER
from tests.contract_checks import play_checked_game

from .helpers import apply_recorded, check_stacks, moves_keeping_dead_cards
from .helpers_two import check_conservation, secrets


@pytest.mark.parametrize("ai", ["random", "greedy"])
def test_contract_checked_games_every_move(ai):
    for seed in range(3):
        state, _ = play_checked_game(GAME, 2, seed, {}, ai=ai, secrets=secrets)
        assert state.phase == OVER
        check_conservation(state)


def test_contract_checked_games_more_seeds():
    for seed in range(3, 15):
        ai = "random" if seed % 2 else "greedy"
        state, _ = play_checked_game(GAME, 2, seed, {}, ai=ai, secrets=secrets, check_every=10)
        check_conservation(state)


def check_invariants(state: DuoState) -> None:
    check_conservation(state)
    check_stacks(state)
    held = {card for player in state.seats for card in player.grounds + player.hand + player.exposed}
    assert set(state.dead) <= held | set(state.discard), "R11: a dead card is with a player or discarded"
    unplaced = sum(1 for stack in state.stacks.values() if not stack)
    assert sum(len(silo) for silo in state.silos) == unplaced, "R6: one Silo card per unplaced base"
    assert state.revealed == (not state.wells[0] or not state.wells[1]), "R4: W3 opens when W1 or W2 runs out"
    for player in state.seats:
        assert player.used_grounds == 8 - len(player.grounds), "R10: a Ground leaves its row only when used"
        steps = sum(1 for at in (4, 8) if player.used_grounds >= at)
        assert player.released == steps and len(player.locked) == 4 - 2 * steps, "§5.1 release schedule"
        assert set(player.pending) <= set(state.dead) and set(player.pending) <= set(holdings(player))
    if state.phase != OVER:
        assert not state.seats[state.turn].pending


_POINTS = re.compile(r"\{p(\d)\}[^{]*\(([+-]\d+)\)")


@pytest.mark.parametrize("ai", ["random", "greedy", "mixed"])
def test_invariants_r16_and_scores_with_off_turn_discard_requests(ai):
    for seed in range(10):
        rng = random.Random(seed)
        state = GAME.new_game(2, seed, {})
        record = GameRecord(game=GAME.name, players=2, seed=seed, options={})
        kinds = {"random": ["random"] * 2, "greedy": ["greedy"] * 2, "mixed": ["random", "greedy"]}[ai]
        seats = [GAME.ai_players()[kind]() for kind in kinds]
        announced = [0, 0]
        for _ in range(3000):
            if GAME.is_over(state):
                break
            seat = GAME.to_act(state)[0]
            other = 1 - seat
            requests = GAME.legal_moves(state, other)
            if requests and rng.random() < 0.5:
                mover, move = other, rng.choice(requests)
            else:
                mover, move = seat, seats[seat].choose(GAME, state, seat, rng)
            before = state
            state, events = apply_recorded(state, mover, move, record, check_invariants)
            for event in events:
                for who, points in _POINTS.findall(event.text):
                    announced[int(who)] += int(points)
            assert [p.score for p in state.seats] == announced, "scores are the sum of announced points"
            if isinstance(move, Draw):
                hand = len(state.seats[mover].hand)
                assert hand in (8, 12) or wells_left(state) == 0, "R9: a draw ends at 8 or 12"
            if not GAME.is_over(state) and state.turn != before.turn:
                applied = sum(1 for event in events if "(asked earlier)" in event.text)
                hand = len(state.seats[state.turn].hand) + applied
                assert hand >= 8 or wells_left(state) == 0, "R16: a turn starts with 8 Hand cards"
        else:
            raise AssertionError("the game did not end")
        replayed, _ = replay(GAME, record)
        assert replayed == state


def test_default_and_automatic_moves_are_legal():
    for seed in range(6):
        state = GAME.new_game(2, seed, {})
        steps = 0
        while not GAME.is_over(state) and steps < 3000:
            seat = GAME.to_act(state)[0]
            automatic = GAME.automatic_move(state, seat)
            if automatic is not None:
                assert GAME.why_illegal(state, seat, automatic) is None
            move = GAME.default_move(state, seat)
            assert move in GAME.legal_moves(state, seat)
            state, _ = GAME.apply(state, seat, move)
            steps += 1
        assert GAME.is_over(state)


def _keeper_move(state: DuoState, seat: int, rng: random.Random):
    """A seat that never discards a dead card, so that games can end by the safety valve."""
    return rng.choice(moves_keeping_dead_cards(state, seat))


def test_r20_the_valve_ends_only_a_game_where_nobody_can_score():
    endings = set()
    for seed in range(30):
        rng = random.Random(seed)
        state = GAME.new_game(2, seed, {})
        while not GAME.is_over(state):
            state, _ = GAME.apply(state, state.turn, _keeper_move(state, state.turn, rng))
        if state.went_out is None:
            endings.add("valve")
            assert wells_left(state) == 0
            assert all(len(stack) == SLOTS for stack in state.stacks.values())
            assert all(card in state.dead for p in state.seats for card in p.grounds + p.hand + p.exposed)
        else:
            endings.add("out")
    assert endings == {"valve", "out"}


def test_greedy_beats_random_more_often_than_not():
    wins = 0
    for seed in range(40):
        greedy_seat = seed % 2
        kinds = ["greedy", "random"] if greedy_seat == 0 else ["random", "greedy"]
        rng = random.Random(seed)
        seats = [GAME.ai_players()[kind]() for kind in kinds]
        state = GAME.new_game(2, seed, {})
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            state, _ = GAME.apply(state, seat, seats[seat].choose(GAME, state, seat, rng))
        wins += greedy_seat in GAME.outcome(state).winners
    assert wins >= 24
