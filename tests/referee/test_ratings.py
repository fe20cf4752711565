"""Rating arithmetic (OpenSkill), final ranks with forfeits, and which board a game counts for."""

from __future__ import annotations

from openskill.models import PlackettLuce

from engine.core import Outcome
from engine.referee import Seat, Table
from engine.referee.ratings import (
    RatedSeat,
    Rating,
    initial_rating,
    is_provisional,
    rate_game,
    replay_ratings,
)
from engine.referee.results import board_of, final_outcome


def test_free_for_all_with_ties():
    seats = [RatedSeat(user_id=u, rank=r) for u, r in (("a", 1), ("b", 1), ("c", 3))]
    after = rate_game(seats, {})
    start = initial_rating()
    assert after["a"] == after["b"]  # tied players move alike
    assert after["a"].mu > start.mu > after["c"].mu
    assert all(rating.sigma < start.sigma for rating in after.values())


def test_teams_are_rated_together_and_match_openskill_directly():
    current = {"a": Rating(30.0, 5.0), "b": Rating(20.0, 7.0)}
    seats = [
        RatedSeat(user_id="a", rank=1, team=0),
        RatedSeat(user_id="b", rank=2, team=1),
        RatedSeat(user_id="c", rank=1, team=0),
        RatedSeat(user_id="d", rank=2, team=1),
    ]
    after = rate_game(seats, current)
    model = PlackettLuce()
    expected = model.rate(
        [
            [model.rating(mu=30.0, sigma=5.0), model.rating()],
            [model.rating(mu=20.0, sigma=7.0), model.rating()],
        ],
        ranks=[1, 2],
    )
    assert after["a"] == Rating(expected[0][0].mu, expected[0][0].sigma)
    assert after["d"] == Rating(expected[1][1].mu, expected[1][1].sigma)
    assert after["a"].mu > 30.0 and after["b"].mu < 20.0


def test_one_side_only_teaches_nothing():
    seats = [RatedSeat(user_id="a", rank=1, team=0), RatedSeat(user_id="b", rank=1, team=0)]
    assert rate_game(seats, {"a": Rating(28.0, 4.0)}) == {"a": Rating(28.0, 4.0), "b": initial_rating()}


def test_replaying_a_history_keeps_pools_apart():
    game = [RatedSeat(user_id="a", rank=1), RatedSeat(user_id="b", rank=2)]
    ratings = replay_ratings([(("g1", "nim"), game), (("g2", "nim"), game), (("g1", "nim"), game)])
    assert ratings[(("g2", "nim"), "a")] == rate_game(game, {})["a"]
    assert ratings[(("g1", "nim"), "a")].mu > ratings[(("g2", "nim"), "a")].mu


def test_provisional_below_five_rated_games():
    assert is_provisional(4) and not is_provisional(5)


def test_forfeited_seats_are_ranked_last_and_the_rest_keep_their_order():
    outcome = Outcome(scores=[5, 9, 9, 2], ranks=[3, 1, 1, 4])
    assert final_outcome(outcome, set()) is outcome
    assert final_outcome(outcome, {1}).ranks == [2, 4, 1, 3]
    assert final_outcome(outcome, {1, 3}).ranks == [2, 3, 1, 3]  # forfeits share the last rank
    assert final_outcome(outcome, {1}).scores == outcome.scores


def test_a_forfeit_sinks_the_whole_team():
    outcome = Outcome(scores=[6, 3, 6, 3], ranks=[1, 3, 1, 3], teams=[[0, 2], [1, 3]])
    assert final_outcome(outcome, {2}).ranks == [3, 1, 3, 1]


def table_with(*seats: tuple[str | None, str | None], speed: str = "daily-2") -> Table:
    return Table(
        game="nim",
        host="h",
        speed=speed,
        seats=[Seat(index=i, name=f"S{i}", user_id=user, ai_kind=ai) for i, (user, ai) in enumerate(seats)],
    )


def test_which_board_a_game_counts_for():
    two_humans = (("a", None), ("b", None))
    assert board_of(table_with(*two_humans)) == ("rated", True)
    assert board_of(table_with(*two_humans, speed="untimed")) == ("friendly", False)
    assert board_of(table_with(("a", None), ("b", None), (None, "greedy"))) == ("with_ai", False)
    assert board_of(table_with(("a", None))) == ("solo", False)
    assert board_of(table_with((None, "random"), (None, "random"))) == (None, False)
