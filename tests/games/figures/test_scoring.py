"""Section 3 of the Figures spec: individual and pairs scoring, the match, and rulings R28-R30."""

from __future__ import annotations

import pytest

from engine.core import SetupError
from engine.games.figures import GAME
from engine.games.figures.rules import individual_points, pairs_points

from .helpers import play, position, seat

# ----- 3.1 individual scoring ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards_left", "points"),
    [
        ([0, 1, 2, 3], [10, 5, 3, 1]),  # all different
        ([0, 2, 2, 5], [10, 3, 3, 1]),  # tie for 2nd-3rd (the seed's case)
        ([0, 1, 4, 4], [10, 5, 1, 1]),  # tie for 3rd-4th
        ([0, 3, 3, 3], [10, 1, 1, 1]),  # all three equal
        ([6, 0, 1, 9], [3, 10, 5, 1]),  # order of seats does not matter
    ],
)
def test_3_1_individual_scoring_table(cards_left, points):
    assert individual_points(cards_left.index(0), cards_left) == points


def test_3_1_R28_tied_block_takes_its_lowest_place():
    # The seed's example, checked through R28: P2 out, P3 and P4 share 2nd-3rd, P1 is 4th.
    assert individual_points(seat(2), [5, 0, 2, 2]) == [1, 10, 3, 3]


# ----- 3.2 pairs scoring -------------------------------------------------------------------------


def test_3_2_pairs_formula_and_the_losing_pair_scores_zero():
    assert pairs_points(seat(1), seat(3), [0, 4, 1, 2]) == [10, 0, 10, 0]


def test_3_2_R29_pairs_score_may_be_zero_or_negative():
    assert pairs_points(seat(2), seat(4), [1, 0, 1, 7]) == [0, 0, 0, 0]
    assert pairs_points(seat(2), seat(4), [1, 0, 1, 9]) == [0, -2, 0, -2]
    state = position(
        {2: "7c", 1: "1d", 3: "1c", 4: "2s 3s 4s 5s 6s 1s 1b 2b 3b"},
        turn=2, phase="FREE", mode="pairs", totals=(3, 1, 3, 1),
    )
    state, _ = play(state, 2, "7c")
    assert state.totals == [3, -1, 3, -1]  # no floor


def test_3_2_partners_are_opposite_at_the_table():
    state = GAME.new_game(4, 9, {"mode": "pairs"})
    view = GAME.view(state, None)
    table = state.table
    assert view["pairs"] == [sorted((table[0], table[2])), sorted((table[1], table[3]))]


# ----- 3.3 match options ---------------------------------------------------------------------------


def test_3_3_options_and_defaults():
    resolved = GAME.resolve_options(4, {})
    assert resolved == {"mode": "individual", "match_end": "target", "target_score": 31, "number_of_hands": 8}
    assert GAME.resolve_options(4, {"mode": "PAIRS", "number_of_hands": "3"})["number_of_hands"] == 3
    for bad in ({"mode": "teams"}, {"target_score": 0}, {"number_of_hands": "-1"}, {"match_end": "time"}):
        with pytest.raises(SetupError):
            GAME.resolve_options(4, bad)


def test_3_3_the_target_and_the_number_of_hands_are_any_positive_integer():
    """No cap of the bot's own: a league may play to 2,000 points or for 500 hands."""
    assert GAME.resolve_options(4, {"target_score": "2000"})["target_score"] == 2000
    assert GAME.resolve_options(4, {"match_end": "hands", "number_of_hands": 500})["number_of_hands"] == 500
    state = GAME.new_game(4, 1, {"target_score": 10**12})
    assert state.target_score == 10**12 and not GAME.is_over(state)
    with pytest.raises(SetupError, match="at most"):  # only past what every store reads exactly
        GAME.resolve_options(4, {"target_score": 2**53 + 1})


def _finish_hand(state, winner_player=1):
    """P<winner> holds one 7 and plays it to go out; the rest keep what they hold."""
    return play(state, winner_player, "7d")


def test_3_3_target_reached_ends_the_match_and_the_highest_total_wins():
    state = position(
        {1: "7d", 2: "1c 2c", 3: "1s", 4: "1b 2b 3b"}, turn=1, totals=(25, 29, 10, 0), target_score=31
    )
    state, events = _finish_hand(state)
    assert state.totals == [35, 32, 15, 1]
    assert GAME.is_over(state) and GAME.to_act(state) == ()
    outcome = GAME.outcome(state)
    assert outcome.ranks == [1, 2, 3, 4] and outcome.winners == [seat(1)] and outcome.teams is None
    assert outcome.scores == [35.0, 32.0, 15.0, 1.0]
    assert events[-1] == "Match over: {p0} wins with 35 points."


def test_3_3_below_target_the_next_hand_is_dealt_with_the_next_dealer():
    state = position(
        {1: "7d", 2: "1c 2c", 3: "1s", 4: "1b 2b 3b"}, turn=1, totals=(0, 0, 0, 0), dealer=4
    )
    state, events = _finish_hand(state)
    assert not GAME.is_over(state)
    assert (state.hand_number, state.dealer, state.turn, state.phase) == (2, seat(1), seat(2), "FREE")
    assert [len(hand) for hand in state.hands] == [10] * 4
    assert events[-1] == "Hand 2: {p0} deals and {p1} leads."


def test_3_3_tie_for_the_highest_total_plays_another_hand():
    state = position(
        {1: "7d", 2: "1c 2c", 3: "1s", 4: "1b 2b 3b"}, turn=1, totals=(22, 27, 0, 0), target_score=31
    )
    state, events = _finish_hand(state)
    assert state.totals == [32, 30, 5, 1] and GAME.is_over(state)
    tied = position(
        {1: "7d", 2: "1c 2c", 3: "1s", 4: "1b 2b 3b"}, turn=1, totals=(22, 29, 0, 0), target_score=31
    )
    tied, events = _finish_hand(tied)
    assert tied.totals == [32, 32, 5, 1]
    assert not GAME.is_over(tied) and tied.hand_number == 2
    assert any("tie" in text for text in events)


def test_3_3_hands_mode_ends_after_the_set_number_unless_tied():
    common = {"turn": 1, "match_end": "hands", "number_of_hands": 3, "hand_number": 3}
    hands = {1: "7d", 2: "1c 2c", 3: "1s", 4: "1b 2b 3b"}
    state, _ = _finish_hand(position(hands, totals=(0, 0, 0, 0), **common))
    assert GAME.is_over(state)
    state, _ = _finish_hand(position(hands, totals=(0, 7, 0, 0), **common))
    assert not GAME.is_over(state) and state.hand_number == 4  # 10 vs 10: a tie-break hand
    early, _ = _finish_hand(position(hands, totals=(0, 0, 0, 0), **{**common, "hand_number": 2}))
    assert not GAME.is_over(early)


def test_3_3_tie_break_hands_continue_until_one_leader():
    for seed in range(6):
        state = position(
            {1: "7d", 2: "1c 2c", 3: "1s", 4: "1b 2b 3b"},
            turn=1, totals=(0, 7, 0, 0), match_end="hands", number_of_hands=3, hand_number=3, dealer=3,
            seed=seed,
        )
        state, _ = _finish_hand(state)  # 10 and 10: tied after the set hands
        while not GAME.is_over(state):
            state, _ = GAME.apply(state, state.turn, GAME.default_move(state, state.turn))
        totals = [0, 7, 0, 0]
        for result in state.results[2:]:
            totals = [total + gained for total, gained in zip(totals, result.points, strict=True)]
            unique = totals.count(max(totals)) == 1
            assert unique == (result is state.results[-1])
            assert result.dealer == (result.number - 1) % 4  # the rotation simply continues


def test_3_3_R30_pairs_totals_and_outcome_with_teams():
    state = position(
        {3: "7d", 2: "1c 2c", 1: "1s", 4: "1b 2b 3b"}, turn=3, mode="pairs", totals=(28, 20, 28, 20)
    )
    state, events = play(state, 3, "7d")
    assert state.totals == [37, 20, 37, 20] and GAME.is_over(state)
    outcome = GAME.outcome(state)
    assert outcome.teams == [[0, 2], [1, 3]]
    assert outcome.winners == [0, 2]
    assert events[-1] == "Match over: {p0} and {p2} win with 37 points."


def test_R30_pairs_to_a_target_never_needs_a_tie_break():
    for seed in range(15):
        state = GAME.new_game(4, seed, {"mode": "pairs", "target_score": 20})
        while not GAME.is_over(state):
            state, _ = GAME.apply(state, state.turn, GAME.default_move(state, state.turn))
        # The match ends on the first hand that takes a pair to the target.
        reached = [
            n for n in range(1, len(state.results) + 1)
            if max(sum(r.points[s] for r in state.results[:n]) for s in range(4)) >= 20
        ]
        assert reached[0] == len(state.results)


def test_3_3_totals_are_the_sum_of_the_hand_points():
    state = GAME.new_game(4, 4)
    while not GAME.is_over(state):
        state, _ = GAME.apply(state, state.turn, GAME.default_move(state, state.turn))
    for s in range(4):
        assert state.totals[s] == sum(result.points[s] for result in state.results)


def test_3_3_R30_pairs_tie_after_the_set_hands_plays_on_and_the_pairs_share_ranks():
    state = position(
        {3: "7d", 2: "1c 2c 3c 4c", 4: "1s 2s 3s", 1: "1b 2b"},
        turn=3, mode="pairs", match_end="hands", number_of_hands=3, hand_number=3, totals=(0, 10, 0, 10),
    )
    state, events = play(state, 3, "7d")  # pair A scores 5 + (4 + 3) - 2 = 10: level with pair B
    assert state.totals == [10, 10, 10, 10] and not GAME.is_over(state)
    assert state.hand_number == 4 and state.dealer == seat(2)  # the rotation goes on
    assert any("tie" in text for text in events)
    while not GAME.is_over(state):
        state, _ = GAME.apply(state, state.turn, GAME.default_move(state, state.turn))
    outcome = GAME.outcome(state)
    assert state.totals[0] == state.totals[2] != state.totals[1] == state.totals[3]
    assert sorted(outcome.ranks) == [1, 1, 3, 3] and outcome.ranks[0] == outcome.ranks[2]
