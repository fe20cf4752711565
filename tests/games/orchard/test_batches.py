"""§3 batches: every placement rule, every score table over its full range, and rulings R10-R27."""

from __future__ import annotations

import pytest

from engine.games.orchard import GAME
from engine.games.orchard import cards as data
from engine.games.orchard.reasons import placement_problem
from engine.games.orchard.rules import batch_scores, can_place, score_cards, total_score

from .support import card, cards, empty_orchard, move, orchard_with, stacked_game


def legal(orchard, text, batch_id):
    return can_place(orchard, card(text), data.BATCH_IDS.index(batch_id))


def reason(orchard, text, batch_id):
    return placement_problem(orchard, card(text), data.BATCH_IDS.index(batch_id))


def distinct_cards(sweetness=None, height=None, count=1):
    """``count`` different cards with the given sweetness and/or height."""
    found = [
        c
        for c in data.ALL_CARDS
        if (sweetness is None or data.SWEETNESS[c] == sweetness) and (height is None or data.HEIGHT[c] == height)
    ]
    return found[:count]


# ----- §3.0 common rules --------------------------------------------------------------------------


@pytest.mark.parametrize("batch", range(8))
def test_s3_0_an_empty_batch_scores_zero_and_accepts_any_card(batch):
    orchard = empty_orchard()
    assert batch_scores(orchard, easy=False)[batch] == 0
    assert all(can_place(orchard, c, batch) for c in data.ALL_CARDS)


def test_s3_0_other_players_orchards_never_matter():
    deck = ["Gold h1 s1", "Red h2 s2", "Red h5 s5", "Gold h2 s2", "Gold h3 s3", "Gold h4 s4"]
    state = stacked_game(2, deck, first_picker="host")
    state, _ = GAME.apply(state, 0, move("Gold h1 s1", "mono"))
    state, _ = GAME.apply(state, 1, move("Red h2 s2", "mono"))
    assert move("Red h5 s5", "special") in GAME.legal_moves(state, 0)
    assert move("Red h5 s5", "mono") not in GAME.legal_moves(state, 0)  # seat 0's own mono is Gold


def test_R10_placement_rules_versus_scoring_conditions():
    # Scoring conditions: going past 13 in UNLUCKY and spoiling the tree are both legal.
    over = orchard_with(unlucky=["Red h1 s5", "Gold h1 s5", "Green h1 s5"])
    assert legal(over, "Red h2 s5", "unlucky")
    tree = orchard_with(special=["Red h1 s1"])
    assert legal(tree, "Red h2 s2", "mono")
    # Placement rules: each of these makes the move illegal.
    assert not legal(orchard_with(mono=["Red h1 s1"]), "Gold h1 s1", "mono")
    assert not legal(orchard_with(feather=["Red h1 s1"]), "Gold h2 s2", "feather")
    assert not legal(orchard_with(mono=["Red h1 s1"]), "Red h2 s2", "special")
    assert not legal(orchard_with(forte=["Red h1 s1"]), "Gold h1 s2", "forte")
    assert not legal(orchard_with(sweet=["Red h1 s1"]), "Gold h1 s2", "sweet")
    assert not legal(orchard_with(const=["Red h1 s1"]), "Gold h3 s1", "const")


# ----- §3.1 MONO ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "points"), list(zip(range(0, 13), [0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78], strict=True))
)
def test_s3_1_R27_mono_triangular_points(n, points):
    reds = [c for c in data.ALL_CARDS if data.COLOUR[c] == 2][:n]
    assert score_cards(data.MONO, reds, easy=False) == points


def test_R12_mono_colour_is_set_by_the_first_card():
    orchard = orchard_with(mono=["Gold h3 s3"])
    golds = [c for c in data.ALL_CARDS if data.COLOUR[c] == 1]
    assert all(can_place(orchard, c, data.MONO) for c in golds)
    assert not any(can_place(orchard, c, data.MONO) for c in data.ALL_CARDS if data.COLOUR[c] != 1)
    assert "is Gold" in reason(orchard, "Red h3 s3", "mono") and "Gold-h3-s3" in reason(orchard, "Red h3 s3", "mono")


# ----- §3.2 FEATHER -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "points"), list(zip(range(0, 13), [0, 0, 2, 6, 12, 20, 30, 42, 56, 72, 90, 110, 132], strict=True))
)
def test_s3_2_feather_points(n, points):
    assert score_cards(data.FEATHER, distinct_cards(sweetness=2, count=n), easy=False) == points


def test_R13_feather_all_share_sweetness_or_all_share_height():
    orchard = orchard_with(feather=["Gold h2 s3"])
    for c in data.ALL_CARDS:
        assert can_place(orchard, c, data.FEATHER) == (data.SWEETNESS[c] == 3 or data.HEIGHT[c] == 2)


def test_R13_feather_double_match_keeps_both_values_open():
    orchard = orchard_with(feather=["Gold h2 s3", "Red h2 s3"])
    assert legal(orchard, "Green h2 s1", "feather")  # height
    assert legal(orchard, "Green h5 s3", "feather")  # sweetness
    assert not legal(orchard, "Green h1 s1", "feather")
    assert "sweetness 3 or height 2" in reason(orchard, "Green h1 s1", "feather")


def test_R13_feather_closed_value_stays_closed():
    by_height = orchard_with(feather=["Gold h2 s3", "Red h2 s5"])
    assert legal(by_height, "Green h2 s1", "feather")
    assert not legal(by_height, "Green h4 s3", "feather")
    message = reason(by_height, "Green h4 s3", "feather")
    assert "only takes height 2" in message and "sweetness closed when Red-h2-s5" in message


def test_R13_feather_legality_does_not_depend_on_order():
    batch = cards("Gold h2 s3", "Red h4 s3", "Green h1 s3")
    for order in ([0, 1, 2], [2, 0, 1], [1, 2, 0]):
        shuffled = [batch[i] for i in order]
        orchard = empty_orchard()
        orchard[data.FEATHER] = shuffled
        assert all(can_place(orchard, c, data.FEATHER) == (data.SWEETNESS[c] == 3) for c in data.ALL_CARDS)


# ----- §3.3 SPECIAL -------------------------------------------------------------------------------


def test_R14_special_holds_a_single_card():
    orchard = orchard_with(special=["Gold h1 s1"])
    assert not any(can_place(orchard, c, data.SPECIAL) for c in data.ALL_CARDS)
    assert "already holds Gold-h1-s1" in reason(orchard, "Red h1 s1", "special")


@pytest.mark.parametrize("rival", ["mono", "feather", "unlucky", "forte", "sweet", "const"])
def test_R16_tree_is_blocked_by_its_colour_in_any_batch_but_bad(rival):
    orchard = orchard_with(**{rival: ["Red h2 s2"]})
    assert not legal(orchard, "Red h5 s5", "special")
    assert legal(orchard, "Gold h5 s5", "special")
    message = reason(orchard, "Red h5 s5", "special")
    assert "Red-h2-s2" in message and "Bad Batch" in message


def test_R16_a_blocking_card_counts_even_in_a_batch_scoring_zero():
    orchard = orchard_with(unlucky=["Red h1 s5", "Red h2 s5", "Red h3 s5"])  # past 13: scores 0
    assert batch_scores(orchard, easy=False)[data.UNLUCKY] == 0
    assert not legal(orchard, "Red h5 s1", "special")


@pytest.mark.parametrize("easy", [False, True])
def test_R17_R25_tree_colour_in_bad_is_harmless_both_ways(easy):
    before = orchard_with(bad=["Red h2 s2"])
    assert legal(before, "Red h5 s5", "special")
    after = orchard_with(special=["Red h5 s5"], bad=["Red h2 s2", "Red h3 s3"])
    assert batch_scores(after, easy)[data.SPECIAL] == 20


@pytest.mark.parametrize("rival", ["mono", "feather", "unlucky", "forte", "sweet", "const"])
def test_R17_R15_tree_colour_after_the_tree_is_legal_but_drops_special_to_zero(rival):
    orchard = orchard_with(special=["Green h3 s3"])
    assert batch_scores(orchard, easy=False)[data.SPECIAL] == 20
    assert legal(orchard, "Green h1 s1", rival)
    orchard[data.BATCH_IDS.index(rival)].append(card("Green h1 s1"))
    assert batch_scores(orchard, easy=False)[data.SPECIAL] == 0  # never -20


def test_R15_spoiled_tree_is_permanent_and_reported():
    state = stacked_game(1, ["Green h3 s3", "Green h1 s1", "Gold h1 s1", "Red h1 s1", "Red h2 s2", "Red h3 s3"])
    state, _ = GAME.apply(state, 0, move("Green h3 s3", "special"))
    state, events = GAME.apply(state, 0, move("Green h1 s1", "mono"))
    assert "no longer scores" in events[0].text
    state, _ = GAME.apply(state, 0, move("Gold h1 s1", "unlucky"))
    assert GAME.view(state, None)["orchards"][0]["scores"]["special"] == 0


def test_s3_3_special_scores_zero_without_a_tree():
    assert batch_scores(orchard_with(mono=["Red h1 s1"]), easy=False)[data.SPECIAL] == 0


# ----- §3.4 UNLUCKY -------------------------------------------------------------------------------


def sweetness_totalling(total, n):
    """n sweetness values from 1 to 5 that add up to ``total``."""
    values = [1] * n
    remaining = total - n
    for index in range(n):
        step = min(4, remaining)
        values[index] += step
        remaining -= step
    assert remaining == 0
    return values


def cards_with_sweetness(values):
    chosen = []
    for value in values:
        chosen.append(next(c for c in data.ALL_CARDS if data.SWEETNESS[c] == value and c not in chosen))
    return chosen


@pytest.mark.parametrize("n", range(3, 13))
def test_s3_4_R19_unlucky_scores_the_square_at_exactly_thirteen(n):
    batch = cards_with_sweetness(sweetness_totalling(13, n))
    assert score_cards(data.UNLUCKY, batch, easy=False) == n * n


OFF_THIRTEEN = [(n, total) for n in range(1, 13) for total in (n, 12, 14, 5 * n) if n <= total <= 5 * n and total != 13]


@pytest.mark.parametrize(("n", "total"), OFF_THIRTEEN)
def test_s3_4_unlucky_scores_zero_off_thirteen(n, total):
    batch = cards_with_sweetness(sweetness_totalling(total, n))
    assert score_cards(data.UNLUCKY, batch, easy=False) == 0


def test_R19_one_or_two_cards_never_reach_thirteen():
    assert max(data.SWEETNESS) * 2 < 13
    assert score_cards(data.UNLUCKY, cards("Red h1 s5", "Gold h1 s5", "Green h1 s3"), easy=False) == 9  # the seed's 5+5+3


def test_R18_unlucky_overshoot_is_legal_and_dead_for_good():
    orchard = orchard_with(unlucky=["Red h1 s5", "Gold h1 s5", "Green h1 s3"])
    assert batch_scores(orchard, easy=False)[data.UNLUCKY] == 9
    assert all(can_place(orchard, c, data.UNLUCKY) for c in data.ALL_CARDS)
    orchard[data.UNLUCKY].append(card("Red h2 s1"))  # 14: adding to an exact 13 always breaks it
    assert batch_scores(orchard, easy=False)[data.UNLUCKY] == 0
    for extra in data.ALL_CARDS[:8]:
        orchard[data.UNLUCKY].append(extra)
        assert batch_scores(orchard, easy=False)[data.UNLUCKY] == 0


# ----- §3.5 FORTE ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("low", "high", "points"), [(1, 2, 2), (1, 3, 4), (2, 5, 6), (1, 5, 8), (5, 4, 2), (4, 1, 6)])
def test_s3_5_forte_pair_scores_twice_the_height_difference(low, high, points):
    pair = [data.make_card(0, low, 1), data.make_card(1, high, 1)]
    assert score_cards(data.FORTE, pair, easy=False) == points


def test_R20_forte_pairs_follow_placement_order_and_the_odd_card_waits():
    batch = cards("Green h1 s1", "Red h5 s1", "Gold h2 s1")
    assert score_cards(data.FORTE, batch, easy=False) == 8
    batch.append(card("Gold h5 s2"))
    assert score_cards(data.FORTE, batch, easy=False) == 8 + 6
    # The same cards in another order pair differently.
    assert score_cards(data.FORTE, [batch[0], batch[2], batch[1], batch[3]], easy=False) == 2 + 0


def test_R20_forte_maximum_is_48():
    ones = [data.make_card(colour, 1, s) for colour in range(3) for s in (1, 2)]
    fives = [data.make_card(colour, 5, s) for colour in range(3) for s in (1, 2)]
    batch = [c for pair in zip(ones, fives, strict=True) for c in pair]
    orchard = empty_orchard()
    for c in batch:
        assert can_place(orchard, c, data.FORTE)
        orchard[data.FORTE].append(c)
    assert score_cards(data.FORTE, batch, easy=False) == 48


def test_R21_forte_pair_of_equal_heights_is_illegal():
    orchard = orchard_with(forte=["Gold h2 s1"])
    for c in data.ALL_CARDS:
        assert can_place(orchard, c, data.FORTE) == (data.HEIGHT[c] != 2)
    # A new pair may start with any height, equal to the previous pair's or not.
    orchard = orchard_with(forte=["Gold h2 s1", "Red h4 s1"])
    assert all(can_place(orchard, c, data.FORTE) for c in data.ALL_CARDS)


# ----- §3.6 SWEET ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(0, 13))
def test_s3_6_sweet_scores_seven_per_complete_pair(n):
    batch = distinct_cards(sweetness=4, count=n)
    assert score_cards(data.SWEET, batch, easy=False) == 7 * (n // 2)
    assert score_cards(data.SWEET, distinct_cards(sweetness=4, count=12), easy=False) == 42


def test_R22_sweet_couple_must_share_sweetness():
    orchard = orchard_with(sweet=["Red h1 s3"])
    for c in data.ALL_CARDS:
        assert can_place(orchard, c, data.SWEET) == (data.SWEETNESS[c] == 3)
    assert "not 3" in reason(orchard, "Red h2 s4", "sweet")
    # Different pairs may have different sweetness; a new pair starts with anything.
    orchard = orchard_with(sweet=["Red h1 s3", "Gold h1 s3"])
    assert all(can_place(orchard, c, data.SWEET) for c in data.ALL_CARDS)
    orchard[data.SWEET].extend(cards("Red h2 s5", "Gold h2 s5"))
    assert score_cards(data.SWEET, orchard[data.SWEET], easy=False) == 14


# ----- §3.7 CONST ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "points"), list(zip(range(0, 13), [0, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41], strict=True))
)
def test_s3_7_R24_const_scores_the_nth_odd_prime(n, points):
    assert score_cards(data.CONST, distinct_cards(height=3, count=n), easy=False) == points


def test_R23_const_compares_with_the_last_card_only():
    orchard = orchard_with(const=["Gold h2 s1", "Red h3 s4"])
    for c in data.ALL_CARDS:
        assert can_place(orchard, c, data.CONST) == (abs(data.HEIGHT[c] - 3) <= 1)
    assert "height 3" in reason(orchard, "Green h1 s2", "const")


@pytest.mark.parametrize(("first", "second", "ok"), [(3, 3, True), (3, 2, True), (3, 4, True), (3, 5, False), (3, 1, False)])
def test_s3_7_seed_examples_of_steps(first, second, ok):
    orchard = empty_orchard()
    orchard[data.CONST] = [data.make_card(0, first, 1)]
    assert can_place(orchard, data.make_card(1, second, 1), data.CONST) is ok


# ----- §3.8 BAD -----------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(0, 13))
def test_s3_8_R25_R26_bad_costs_one_per_card_or_nothing_in_easy_mode(n):
    batch = list(data.ALL_CARDS[:n])
    assert score_cards(data.BAD, batch, easy=False) == -n
    assert score_cards(data.BAD, batch, easy=True) == 0


def test_R11_R26_bad_takes_any_card_without_limit():
    orchard = empty_orchard()
    for c in data.ALL_CARDS[:12]:
        assert can_place(orchard, c, data.BAD)
        orchard[data.BAD].append(c)
    assert all(can_place(orchard, c, data.BAD) for c in data.ALL_CARDS)
    assert batch_scores(orchard, easy=False)[data.BAD] == -12


def test_R25_easy_mode_changes_only_the_bad_batch():
    orchard = orchard_with(
        mono=["Red h1 s2", "Red h4 s5"], special=["Green h5 s5"], bad=["Green h1 s1", "Gold h3 s3"]
    )
    normal, easy = batch_scores(orchard, easy=False), batch_scores(orchard, easy=True)
    assert normal[:data.BAD] == easy[:data.BAD]
    assert (normal[data.BAD], easy[data.BAD]) == (-2, 0)


# ----- §3.9 summary ranges ------------------------------------------------------------------------


def test_s3_9_total_is_the_sum_of_batch_scores():
    orchard = orchard_with(mono=["Red h1 s2"], feather=["Gold h2 s3", "Gold h4 s3"], bad=["Green h1 s1"])
    assert total_score(orchard, easy=False) == sum(batch_scores(orchard, easy=False)) == 1 + 2 - 1


def test_R37_tables_stay_as_uneven_as_published():
    six = 6
    assert score_cards(data.UNLUCKY, cards_with_sweetness(sweetness_totalling(13, six)), easy=False) == 36
    assert score_cards(data.FEATHER, distinct_cards(sweetness=1, count=six), easy=False) == 30
    assert score_cards(data.MONO, [c for c in data.ALL_CARDS if data.COLOUR[c] == 0][:six], easy=False) == 21
    assert score_cards(data.CONST, distinct_cards(height=1, count=six), easy=False) == 17
