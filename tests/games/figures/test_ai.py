"""AI seats, the timeout default and the automatic forced pass."""

from __future__ import annotations

import random

from engine.core import RandomPlayer
from engine.games.figures import GAME
from engine.games.figures.ai import FiguresGreedy
from engine.games.figures.model import PASS

from .helpers import move, position, seat


def test_ai_players_offers_random_greedy_and_the_levels():
    players = GAME.ai_players()
    assert set(players) == {"random", "greedy", "easy", "normal", "strong"}
    assert isinstance(players["random"](), RandomPlayer) and isinstance(players["greedy"](), FiguresGreedy)


def _choice(state, player, seed=0):
    return GAME.format_move(FiguresGreedy().choose(GAME, state, seat(player), random.Random(seed)))


def test_greedy_sheds_low_cards_first_and_keeps_figures():
    assert _choice(position({1: "1d 5c 7s Jb"}, turn=1), 1) == "1d"
    assert _choice(position({1: "2d 5c 6s Jb"}, turn=1, phase="BEAT", top="4b", owner=4), 1) == "5c"
    assert _choice(position({1: "2d Nb"}, turn=1, phase="BEAT", top="4b", owner=4), 1) == "Nb"


def test_greedy_goes_out_when_it_can_and_uses_three_kings():
    assert _choice(position({1: "Kd"}, turn=1), 1) == "Kd"
    choice = _choice(position({1: "Kd Kc Ks 1d 2d 3d 6c"}, turn=1), 1)
    assert choice.startswith("kings") and "1d" in choice


def test_greedy_keeps_its_kings_on_a_giro_turn():
    state = position({2: "Jd Kd Kc Ks 2d"}, turn=2, phase="GIRO", top="Nb", owner=1, giro_starter=1, giro_left=3)
    assert _choice(state, 2) == "Jd"


def test_greedy_reads_only_what_its_seat_may_see():
    state = GAME.new_game(4, 31)
    mover = state.turn
    others = [s for s in range(4) if s != mover]
    swapped = GAME.copy_state(state)
    pool = [card for s in others for card in swapped.hands[s]]
    random.Random(1).shuffle(pool)
    for s in others:  # same counts, different cards
        swapped.hands[s], pool = sorted(pool[:10]), pool[10:]
    for seed in range(5):
        assert _choice(state, mover + 1, seed) == _choice(swapped, mover + 1, seed)


def test_greedy_beats_random_players():
    wins = 0
    for seed in range(40):
        rng = random.Random(seed)
        players = [FiguresGreedy(), RandomPlayer(), RandomPlayer(), RandomPlayer()]
        state = GAME.new_game(4, seed)
        while not GAME.is_over(state):
            state, _ = GAME.apply(state, state.turn, players[state.turn].choose(GAME, state, state.turn, rng))
        wins += GAME.outcome(state).ranks[0] == 1
    assert wins >= 14  # well above the 10 of a fair share


def test_default_move_is_gentle():
    assert GAME.default_move(position({1: "6d 2d Kd Jc"}, turn=1), seat(1)) == move("2d")
    beat = position({1: "2d Kd Jc"}, turn=1, phase="BEAT", top="4b", owner=4)
    assert GAME.default_move(beat, seat(1)) == move("Jc")  # a figure, but not a king
    stuck = position({1: "2d"}, turn=1, phase="BEAT", top="4b", owner=4)
    assert GAME.default_move(stuck, seat(1)) == PASS


def test_automatic_move_is_only_the_forced_pass():
    stuck = position({1: "2d"}, turn=1, phase="BEAT", top="4b", owner=4)
    assert GAME.automatic_move(stuck, seat(1)) == PASS
    assert GAME.automatic_move(stuck, seat(2)) is None  # not on turn
    assert GAME.automatic_move(position({1: "2d Kd"}, turn=1, phase="BEAT", top="4b", owner=4), seat(1)) is None
    giro = position({2: "2d"}, turn=2, phase="GIRO", top="Kd", owner=1, giro_starter=1, giro_left=3)
    assert GAME.automatic_move(giro, seat(2)) == PASS
