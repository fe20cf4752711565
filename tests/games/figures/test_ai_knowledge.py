"""What the Figures search infers from the public history (engine/games/figures/knowledge.py):
the plays' hints about the cards a seat probably lacks, the twins it does not search twice, and
its rollout policy."""

from __future__ import annotations

import random

import msgspec

from engine.games.figures import GAME
from engine.games.figures.ai import KIT, FiguresGreedy
from engine.games.figures.cards import KINGS
from engine.games.figures.knowledge import FiguresKnowledge, _deal, deal_hidden, play_hints
from engine.games.figures.rollout import greedy_single

from .helpers import play, position, seat


def _after_two_plays():
    """P1 leads 2d, P2 answers 5c although it holds 3c: P3 is to play."""
    state = position({1: "2d 6d Jb", 2: "5c 3c 7b 1s", 3: "6c Nd 2b"}, turn=1, filler=8)
    state, _ = play(state, 1, "2d")
    state, _ = play(state, 2, "5c")
    return state


def test_a_play_hints_at_the_lower_numbers_the_seat_did_not_play():
    hints = play_hints(_after_two_plays())
    assert hints[seat(1)] == {"1d", "1c", "1s", "1b"}  # led a 2: probably no asso
    assert hints[seat(2)] == {rank + suit for rank in "34" for suit in "dcsb"}  # a 5 over a 2: no 3, no 4


def test_the_samples_mostly_follow_the_hints_but_not_always():
    state = _after_two_plays()
    knowledge = KIT.observe(state, seat(3))
    assert "3c" in knowledge.hinted[seat(2)]  # a hint, not a certainty: P2 does hold 3c
    rng = random.Random(1)
    samples = [KIT.sample(knowledge, seat(3), rng).hands[seat(2)] for _ in range(400)]
    against = sum(1 for hand in samples if any(card[0] in "34" for card in hand))
    # Without the hints about half the deals give P2 a 3 or a 4; with them only the few that do not
    # trust them (TRUST) may.
    assert 0 < against < 400 * 0.2


def test_twins_are_searched_once():
    state = position({1: "3d 3c Jb Nd Kd 5s"}, turn=1)
    moves = KIT.candidates(GAME, state, seat(1), GAME.legal_moves(state, seat(1)))
    assert sorted(GAME.format_move(move)[0] for move in moves) == ["3", "5", "J", "K"]  # one 3, one of Jb Nd


def test_the_rollout_plays_as_the_greedy_seat_would():
    """The search's fast rollout policy makes a move the easy seat rates best, wherever it answers."""
    greedy = FiguresGreedy()
    rng = random.Random(3)
    checked = 0
    for deal in range(6):
        state = GAME.new_game(4, deal)
        while not GAME.is_over(state):
            mover = state.turn
            hand = state.hands[mover]
            fast = greedy_single(state, mover, rng)
            if fast is not None:
                keep = mover not in state.kings_used and sum(card in KINGS for card in hand) >= 3
                scores = {move: greedy._score(move, len(hand), keep) for move in GAME.legal_moves(state, mover)}
                assert scores[fast] == max(scores.values()), GAME.format_move(fast)
                checked += 1
            state, _ = GAME.apply(state, mover, greedy.choose(GAME, state, mover, rng))
    assert checked > 500


def test_the_rollout_keeps_kings_on_a_giro_turn_and_sheds_the_lowest_number():
    giro = position({2: "Jd Kd Kc Ks 2d"}, turn=2, phase="GIRO", top="Nb", owner=1, giro_starter=1, giro_left=3)
    assert greedy_single(giro, seat(2), random.Random(0)) == GAME.parse_move("Jd")
    beat = position({1: "2d 6c 5s 7b Jb"}, turn=1, phase="BEAT", top="4b", owner=4)
    assert greedy_single(beat, seat(1), random.Random(0)) == GAME.parse_move("5s")
    three_kings = position({1: "Kd Kc Ks 1d"}, turn=1)
    assert greedy_single(three_kings, seat(1), random.Random(0)) is None  # the greedy seat decides


def test_a_seat_that_played_without_three_kings_likely_holds_fewer():
    """The easy seat uses three kings at its first chance: P2 answered with a 5 instead, so few
    samples deal it three kings or four."""
    state = position(
        {1: "2d 6d 1c 1s 3b 3c 3s 4b 4c 7b", 2: "5c Kd Kc Ks Kb 6s 6b 7s Jd Jc", 3: "6c Nd 2c 2s 2b 5b 5s 7c 7d Js"},
        turn=1,
        filler=10,
    )
    before = KIT.observe(state, seat(3))
    assert before.few_kings == []  # no one has played yet
    state, _ = play(state, 1, "2d")
    state, _ = play(state, 2, "5c")
    knowledge = KIT.observe(state, seat(3))
    assert knowledge.few_kings == [seat(1), seat(2)]

    def three_kings(knowledge: FiguresKnowledge) -> int:
        rng = random.Random(2)
        hands = [KIT.sample(knowledge, seat(3), rng).hands[seat(2)] for _ in range(1000)]
        return sum(1 for hand in hands if sum(card in KINGS for card in hand) >= 3)

    unhinted = three_kings(msgspec.structs.replace(knowledge, few_kings=[]))
    assert unhinted > 40 and three_kings(knowledge) < unhinted / 3


def test_the_deals_are_mixed_to_an_even_choice_among_those_that_fit():
    """P2 may hold 1d or 2d, P3 2d or 3d, P4 any of the three: of the three deals that fit, two
    give P2 1d. Dealing the most constrained seat first alone would give it 1d half the time."""
    state = position({1: "7d"}, turn=1, filler=0)
    knowledge = FiguresKnowledge(
        state=state,
        unknown=["1d", "2d", "3d"],
        sizes={1: 1, 2: 1, 3: 1},
        allowed={1: ["1d", "2d"], 2: ["2d", "3d"], 3: ["1d", "2d", "3d"]},
    )
    rng = random.Random(4)
    deals = [deal_hidden(knowledge, rng) for _ in range(3000)]
    assert all(deal[1][0] != deal[2][0] and deal[1][0] in "1d 2d" and deal[2][0] in "2d 3d" for deal in deals)
    share = sum(1 for deal in deals if deal[1] == ["1d"]) / len(deals)
    assert 0.62 < share < 0.72


def test_a_deal_that_fits_is_found_where_the_limits_do_not_nest():
    """The plays' hints make limits that do not nest: P2 may hold 1d or 2d, P3 2d or 3d, P4 3d or
    1d. Dealing seat by seat gets stuck a third of the time (P2 1d, P3 3d: nothing left for P4);
    the deal must always find one of the two deals that fit, each about as often."""
    state = position({1: "7d"}, turn=1, filler=0)
    knowledge = FiguresKnowledge(
        state=state,
        unknown=["1d", "2d", "3d"],
        sizes={1: 1, 2: 1, 3: 1},
        allowed={1: ["1d", "2d"], 2: ["2d", "3d"], 3: ["1d", "3d"]},
    )
    rng = random.Random(5)
    fitting = [["1d"], ["2d"], ["3d"]], [["2d"], ["3d"], ["1d"]]
    for _ in range(100):  # the first deal, before any mixing, fits already
        first = _deal(knowledge, knowledge.allowed, rng)
        assert first is not None and [first[1], first[2], first[3]] in fitting
    deals = [deal_hidden(knowledge, rng) for _ in range(2000)]
    assert all([deal[1], deal[2], deal[3]] in fitting for deal in deals)
    share = sum(1 for deal in deals if deal[1] == ["1d"]) / len(deals)
    assert 0.44 < share < 0.56


def test_the_deals_follow_every_hint_that_can_hold():
    """P1 led a 2 (no asso, probably), P2 a 5 over it (no 3 or 4): a deal that trusts both hints
    gives neither seat a card its hint rules out, and every seat its number of cards (the
    position leaves cards in no hand: they stay out of the deal)."""
    state = _after_two_plays()
    knowledge = KIT.observe(state, seat(3))
    rng = random.Random(6)
    for _ in range(300):
        allowed = {
            other: [card for card in cards if card not in knowledge.hinted[other]]
            for other, cards in knowledge.allowed.items()
        }
        hands = _deal(knowledge, allowed, rng)
        assert hands is not None
        for other, hand in hands.items():
            assert set(hand) <= set(allowed[other])
            assert len(hand) == knowledge.sizes[other]
