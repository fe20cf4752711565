"""One presentation of seats and teams: numbered in play order, as the boards number them."""

from __future__ import annotations

from engine.core import Outcome
from engine.referee.presentation import (
    clock_line,
    outcome_text,
    result_lines,
    result_text,
    seat_numbers,
    team_labels,
    team_short_labels,
    time_left,
    waiting_line,
    waiting_text,
)
from engine.referee.reports import SeatClockView
from engine.referee.results import final_outcome


def test_seats_are_numbered_in_play_order():
    assert seat_numbers(Outcome(scores=[0, 0, 0], ranks=[1, 1, 1])) == [1, 2, 3]
    assert seat_numbers(Outcome(scores=[0] * 4, ranks=[1] * 4, seating=[2, 0, 3, 1])) == [2, 4, 1, 3]


def test_teams_are_lettered_from_the_first_seat_to_play():
    lobby = Outcome(scores=[9, 2, 9, 2], ranks=[1, 3, 1, 3], teams=[[0, 2], [1, 3]])
    first, second = "Pair A (seats 1 + 3)", "Pair B (seats 2 + 4)"
    assert team_labels(lobby) == {0: first, 2: first, 1: second, 3: second}
    drawn = Outcome(scores=[9, 2, 9, 2], ranks=[1, 3, 1, 3], teams=[[0, 2], [1, 3]], seating=[1, 0, 3, 2])
    assert team_labels(drawn)[0] == "Pair B (seats 2 + 4)" and team_labels(drawn)[1] == "Pair A (seats 1 + 3)"
    threes = Outcome(scores=[1] * 6, ranks=[1] * 6, teams=[[0, 2, 4], [1, 3, 5]])
    assert team_labels(threes)[5] == "Team B (seats 2 + 4 + 6)"
    assert team_labels(Outcome(scores=[1, 2], ranks=[2, 1])) == {}


def test_result_lines_best_first_ties_in_play_order():
    outcome = Outcome(scores=[9, 2, 9, 2.5], ranks=[1, 4, 1, 3], teams=None, seating=[2, 3, 0, 1])
    lines = result_lines(outcome, ["ann", "bea", "cy", "dan"])
    assert [result_text(line) for line in lines] == ["1. cy: 9", "1. ann: 9", "3. dan: 2.5", "4. bea: 2"]
    assert [line.number for line in lines] == [1, 3, 2, 4]


def test_forfeits_keep_the_seating_the_results_are_numbered_by():
    outcome = Outcome(scores=[9, 2, 9, 2], ranks=[1, 3, 1, 3], teams=[[0, 2], [1, 3]], seating=[1, 0, 3, 2])
    final = final_outcome(outcome, forfeited={0})
    assert final.ranks == [3, 1, 3, 1] and final.seating == [1, 0, 3, 2]


def test_short_team_labels_for_lines_without_room():
    drawn = Outcome(scores=[9, 2, 9, 2], ranks=[1, 3, 1, 3], teams=[[0, 2], [1, 3]], seating=[1, 0, 3, 2])
    assert team_short_labels(drawn) == {1: "pair A", 3: "pair A", 0: "pair B", 2: "pair B"}


def test_texts_both_front_ends_show_about_clocks_turns_and_results():
    alice = SeatClockView(seat=0, name="Alice", remaining=2 * 3600 + 300, running=True, deadline=9.0)
    bob = SeatClockView(seat=1, name="Bob", remaining=86400.0, running=False)
    carol = SeatClockView(seat=2, name="Carol", remaining=0.0, running=True, ran_out=True)
    assert time_left(alice) == "2h 05m left" == time_left(alice.remaining)  # a WaitingTurn's seconds
    assert clock_line([alice, bob, carol]) == "Clocks: Alice 2h 05m (to move) · Bob 1d 0h · Carol out of time"
    assert waiting_text(["Bob", "Carol"]) == "It is not your turn; waiting for Bob and Carol."
    assert waiting_line(["Bob", "Carol"]) == "Waiting for Bob and Carol." and waiting_line([]) == ""
    outcome = Outcome(scores=[9, 2, 9, 2], ranks=[1, 3, 1, 3], teams=[[0, 2], [1, 3]])
    assert outcome_text(outcome, ["ann", "bea", "cy", "dan"]).splitlines() == [
        "1. ann: 9 · Pair A (seats 1 + 3)",
        "1. cy: 9 · Pair A (seats 1 + 3)",
        "3. bea: 2 · Pair B (seats 2 + 4)",
        "3. dan: 2 · Pair B (seats 2 + 4)",
    ]
