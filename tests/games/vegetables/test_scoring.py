"""§6 scoring and §7 end of game, with Example 3 and rulings R7, R18-R22."""

import pytest

from engine.core import IllegalMove
from engine.games.vegetables import GAME
from engine.games.vegetables.model import OVER
from engine.games.vegetables.rules import well_points

from .helpers import (
    build_stack,
    check_conservation,
    close_sequence,
    last_card_t1_position,
    new_game,
    play,
    put,
    set_cards,
    start_turn,
    take_well,
)

P1, P2, P3, P4 = 0, 1, 2, 3


def example_3_position():
    """G1-G3 closed, G4's top is G16, 8 sequences closed in all; P4 has taken the well and holds
    only G20, with 25 points."""
    state = new_game(seed=31)
    for base in range(1, 5):
        close_sequence(state, 1, f"K{base}")
    for base in range(1, 4):
        close_sequence(state, 2, f"G{base}")
    close_sequence(state, 3, "R1")
    build_stack(state, 2, "G4", ["G4", "G8", "G12", "G16"])
    take_well(state, P4, park=P1)
    set_cards(state, "farmland", P4, [], park=P1)
    set_cards(state, "exposed", P4, [], park=P1)
    set_cards(state, "hand", P4, ["G20"], park=P1)
    state.seats[P4].score = 25
    start_turn(state, P4)
    return state


def test_example_3_and_r20_closing_family_bonus_and_going_out_in_that_order():
    state = example_3_position()
    check_conservation(state)
    others = [p.score for p in state.seats[:3]]
    state, events = play(state, P4, "play G20")
    # R20: closing, then the family, then the closure points, in that order.
    assert events[1:4] == [
        "{p3} closes sequence G4 (+10).",
        "{p3} completes the Green family (+30).",
        "{p3} has no cards left and ends the game: 7 sequences not closed (+70).",
    ]
    assert state.seats[P4].score == 135
    assert [p.score for p in state.seats[:3]] == others  # no other player scores
    assert GAME.is_over(state) and state.went_out == P4
    outcome = GAME.outcome(state)
    assert outcome.winners == [P4] and outcome.scores[P4] == 135


def test_6_closing_a_sequence_is_worth_10_without_a_family_bonus():
    state = example_3_position()
    state.stacks["G3"].pop()  # G3 not closed now: G4's closure completes nothing
    put(state, "G19", "hand", P2)
    put(state, "G20", "hand", P4)
    put(state, "T1", "hand", P4)
    start_turn(state, P4)
    state, events = play(state, P4, "play G20")
    assert state.seats[P4].score == 35 and "family" not in " ".join(events)


def test_6_other_cards_score_nothing():
    state = new_game(seed=5)
    seat = state.turn
    for _ in range(3):
        moves = [m for m in GAME.legal_moves(state, seat) if GAME.format_move(m).startswith("play")]
        state, _ = GAME.apply(state, seat, moves[0])
    assert all(p.score == 0 for p in state.seats)


def test_r7_well_points_are_10_per_other_uncollected_well_30_20_10_0():
    state = new_game()
    awarded = []
    for seat in (2, 0, 3, 1):
        awarded.append(well_points(state, seat))
        state.seats[seat].well_taken = True
    assert awarded == [30, 20, 10, 0]


def test_r7_well_points_in_the_house_variants():
    for players, expected in ((3, [20, 10, 0]), (5, [40, 30, 20, 10, 0])):
        state = new_game(players)
        awarded = []
        for seat in range(players):
            awarded.append(well_points(state, seat))
            state.seats[seat].well_taken = True
        assert awarded == expected


def test_r19_closure_points_count_every_sequence_not_closed_even_without_a_base():
    state = last_card_t1_position()
    state, events = play(state, P2, "discard T1")
    assert state.seats[P2].score == 160  # 16 sequences, none closed, most without a base


def test_r19_h3_counts_12_sequences():
    state = new_game(3, seed=6)
    take_well(state, P2, park=P1)
    set_cards(state, "farmland", P2, [], park=P1)
    set_cards(state, "hand", P2, ["T1"], park=P1)
    start_turn(state, P2)
    state, _ = play(state, P2, "discard T1")
    assert state.seats[P2].score == 120


def test_r18_the_game_ends_at_once_even_mid_turn():
    state = example_3_position()
    state, _ = play(state, P4, "play G20")
    assert state.phase == OVER and GAME.to_act(state) == ()
    assert GAME.legal_moves(state, P4) == [] and GAME.legal_moves(state, P1) == []
    with pytest.raises(IllegalMove, match="over"):
        GAME.apply(state, P4, GAME.parse_move("done"))


def test_r21_points_are_awarded_without_any_claim():
    state = example_3_position()
    state, _ = play(state, P4, "play G20")
    assert GAME.view(state, None)["scores"][P4] == 135


def test_r22_equal_top_scores_share_the_win():
    state = example_3_position()
    state.seats[P1].score = 135
    state.seats[P2].score = 10
    state.seats[P3].score = 10
    state, events = play(state, P4, "play G20")
    outcome = GAME.outcome(state)
    assert outcome.ranks == [1, 3, 3, 1] and outcome.winners == [P1, P4]
    assert events[-1] == "Game over. {p0} and {p3} share the win with 135."
    assert GAME.view(state, None)["winners"] == [P1, P4]


def test_6_scores_may_be_negative():
    state = example_3_position()
    state.seats[P1].score = -40
    state, _ = play(state, P4, "play G20")
    assert GAME.outcome(state).scores[P1] == -40.0 and GAME.outcome(state).ranks[P1] == 4
