"""The strong seat's deals weighed by how likely they make the other seats' tied plays
(engine/games/figures/likelihood.py and knowledge.deal_hidden)."""

from __future__ import annotations

import random

from engine.games.figures.ai import KIT, FiguresGreedy, FiguresSearch, ai_players
from engine.games.figures.knowledge import FiguresKit, FiguresKnowledge, deal_hidden, faced
from engine.games.figures.likelihood import Tie, ties, weight

from .helpers import play, position, seat


def test_a_seven_or_figure_played_with_no_number_to_play_is_a_tie():
    """P1 leads a 6; P2, with no higher number, plays 7c out of 7c 7b Jd (a tie of three); P3's
    5 over nothing is forced, and so are numbers: only P2's play counts."""
    state = position({1: "6d 2s", 2: "7c 7b Jd 1s", 3: "5c 3s"}, turn=1, filler=4)
    state, _ = play(state, 1, "6d")
    state, _ = play(state, 2, "7c")
    found = ties(faced(state))
    assert found == {seat(2): [Tie(others_since=1, kings_since=0, giro=False, kings_unused=True, played_king=False)]}
    # Only a kit that weighs them (the strong seat's) reads them: normal's deals stay as they were.
    assert FiguresKit(FiguresGreedy(), trust=1.0, weigh=True).observe(state, seat(3)).ties == found
    assert KIT.observe(state, seat(3)).ties == {}
    # P2 now holding 7b Jd 1s made that pick with chance 1/3; holding 1s 2s 3s, with chance 1/1.
    assert weight(["7b", "Jd", "1s"], found[seat(2)]) == 1 / 3
    assert weight(["1c", "2c", "3c"], found[seat(2)]) == 1.0


def test_a_giro_answer_keeps_kings_that_promise_three_kings():
    tie = Tie(others_since=1, kings_since=0, giro=True, kings_unused=True, played_king=False)
    assert weight(["Kd", "Kc", "Ks", "Jb"], [tie]) == 1 / 2  # the fante played, or the other one
    assert weight(["Kd", "Kc", "Nb"], [tie]) == 1 / 4  # two kings only: any of its four figures
    king = Tie(others_since=0, kings_since=1, giro=True, kings_unused=True, played_king=True)
    assert weight(["Kd", "Kc"], [king]) == 1 / 3  # three kings and no other figure: a king
    assert weight(["Kd", "Kc", "Jb"], [king]) == 0.0  # it would have kept its kings


def _knowledge(seat_ties: dict[int, list[Tie]]) -> FiguresKnowledge:
    """Two other seats of two cards each share 7d Jd 1d 2d; seat 1 made one tied play (a 7 with
    no number to play)."""
    return FiguresKnowledge(
        state=position({1: "7c"}, turn=1, filler=0),
        unknown=["1d", "2d", "7d", "Jd"],
        sizes={1: 2, 2: 2},
        allowed={1: ["1d", "2d", "7d", "Jd"], 2: ["1d", "2d", "7d", "Jd"]},
        ties=seat_ties,
    )


def test_the_deals_follow_the_ties_likelihood():
    """Of the six deals, seat 1 holding 1d 2d made its pick with chance 1 (weight 1), one of 7d Jd
    with one number with chance 1/2 (four deals), 7d Jd with chance 1/3: so it holds 1d 2d in
    1 / (1 + 4/2 + 1/3) = 30% of the weighed deals, against one deal in six unweighed."""
    tie = Tie(others_since=1, kings_since=0, giro=False, kings_unused=True, played_king=False)
    rng = random.Random(7)
    for seat_ties, low, high in (({1: [tie]}, 0.26, 0.34), ({}, 0.14, 0.20)):
        knowledge = _knowledge(seat_ties)
        deals = [deal_hidden(knowledge, rng, trust=1.0) for _ in range(4000)]
        assert all(sorted(deal[1] + deal[2]) == knowledge.unknown for deal in deals)
        share = sum(1 for deal in deals if sorted(deal[1]) == ["1d", "2d"]) / len(deals)
        assert low < share < high, (seat_ties, share)


def test_only_the_strong_seat_weighs_its_deals():
    strong, normal = ai_players()["strong"](), ai_players()["normal"]()
    assert isinstance(strong, FiguresSearch) and isinstance(normal, FiguresSearch)
    assert strong.kit.weigh and not normal.kit.weigh
