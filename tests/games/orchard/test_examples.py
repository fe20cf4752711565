"""§8 worked examples: the scores E1-E7 and the legality examples L1-L4, each as a test."""

from __future__ import annotations

import pytest

from engine.core import IllegalMove
from engine.games.orchard import GAME
from engine.games.orchard.cards import BATCH_IDS
from engine.games.orchard.reasons import placement_problem
from engine.games.orchard.rules import can_place, score_cards

from .support import card, empty_orchard, move, orchard_with, play, stacked_game

SCORE_EXAMPLES = {
    "E1": ("mono", ["Red h1 s2", "Red h4 s5", "Red h3 s3", "Red h5 s1"], 10),
    "E2": ("feather", ["Gold h2 s3", "Red h4 s3", "Green h1 s3"], 6),
    "E3": ("unlucky", ["Red h1 s4", "Gold h5 s4", "Green h2 s3", "Red h3 s2"], 16),
    "E4": ("forte", ["Green h1 s2", "Red h5 s2", "Gold h2 s4", "Gold h3 s1", "Red h4 s4"], 10),
    "E5": ("sweet", ["Red h1 s3", "Gold h4 s3", "Green h2 s5", "Red h5 s5", "Gold h3 s2"], 14),
    "E6": ("const", ["Green h3 s1", "Gold h4 s2", "Red h4 s5", "Green h5 s3", "Gold h4 s4"], 13),
}


@pytest.mark.parametrize("example", sorted(SCORE_EXAMPLES))
def test_s8_1_score_examples_E1_to_E6(example):
    batch_id, texts, points = SCORE_EXAMPLES[example]
    batch = BATCH_IDS.index(batch_id)
    orchard = empty_orchard()
    for text in texts:  # every example is also a legal sequence of placements
        assert can_place(orchard, card(text), batch), text
        orchard[batch].append(card(text))
    assert score_cards(batch, orchard[batch], easy=False) == points


E7_PLACEMENTS = [
    ("Red h1 s2", "mono"),
    ("Red h4 s5", "mono"),
    ("Gold h2 s3", "feather"),
    ("Gold h4 s3", "feather"),
    ("Green h1 s1", "bad"),
    ("Green h5 s5", "special"),
    ("Gold h1 s5", "unlucky"),
    ("Red h2 s4", "unlucky"),
    ("Gold h3 s4", "unlucky"),
    ("Red h5 s1", "forte"),
    ("Gold h1 s1", "forte"),
    ("Gold h3 s2", "const"),
]
E7_SCORES = {"mono": 3, "feather": 2, "special": 20, "unlucky": 9, "forte": 8, "sweet": 0, "const": 3, "bad": -1}


@pytest.mark.parametrize(("easy", "total"), [(False, 44), (True, 45)])
def test_s8_1_E7_whole_orchard_played_as_a_solo_game(easy, total):
    state = stacked_game(1, [text for text, _ in E7_PLACEMENTS], easy=easy)
    state = play(state, E7_PLACEMENTS)
    assert GAME.is_over(state)
    view = GAME.view(state, None)
    expected = dict(E7_SCORES, bad=0 if easy else -1)
    assert view["orchards"][0]["scores"] == expected
    assert view["scores"] == [total]
    assert GAME.outcome(state).scores == [total]


def test_s8_2_L1_feather():
    orchard = orchard_with(feather=["Gold h2 s3", "Red h4 s3"])
    problem = placement_problem(orchard, card("Green h2 s1"), BATCH_IDS.index("feather"))
    assert problem is not None and "height closed when Red-h4-s3" in problem
    assert can_place(orchard, card("Green h5 s3"), BATCH_IDS.index("feather"))


def test_s8_2_L2_special():
    special = BATCH_IDS.index("special")
    in_mono = orchard_with(mono=["Red h2 s2"])
    assert not can_place(in_mono, card("Red h5 s5"), special)
    assert can_place(in_mono, card("Gold h5 s5"), special)
    in_bad = orchard_with(bad=["Red h2 s2"])
    assert can_place(in_bad, card("Red h5 s5"), special)


def test_s8_2_L3_const():
    orchard = orchard_with(const=["Gold h2 s1", "Red h3 s4"])
    const = BATCH_IDS.index("const")
    assert not can_place(orchard, card("Green h1 s2"), const)
    assert can_place(orchard, card("Green h4 s2"), const)


def test_s8_2_L4_forte():
    orchard = orchard_with(forte=["Gold h2 s1"])
    forte = BATCH_IDS.index("forte")
    assert not can_place(orchard, card("Red h2 s5"), forte)
    assert can_place(orchard, card("Red h4 s5"), forte)


def test_s8_2_L1_to_L4_through_the_game_interface():
    """The same refusals reach a player as IllegalMove with the reason, and the legal ones pass."""
    deck = ["Gold h2 s3", "Red h4 s3", "Red h2 s2",  # round 1
            "Green h2 s1", "Green h5 s3", "Gold h2 s1",  # round 2
            "Red h3 s4", "Green h1 s2", "Green h4 s2"]  # fmt: skip
    state = stacked_game(1, deck)
    state = play(state, [("Gold h2 s3", "feather"), ("Red h4 s3", "feather"), ("Red h2 s2", "mono")])
    with pytest.raises(IllegalMove, match="only takes sweetness 3"):
        GAME.apply(state, 0, move("Green h2 s1", "feather"))
    state = play(state, [("Green h5 s3", "feather"), ("Gold h2 s1", "const"), ("Green h2 s1", "bad")])
    state = play(state, [("Red h3 s4", "const")])
    with pytest.raises(IllegalMove, match="within 1 of the last"):
        GAME.apply(state, 0, move("Green h1 s2", "const"))
    with pytest.raises(IllegalMove, match="Monochrome batch is Red"):
        GAME.apply(state, 0, move("Green h1 s2", "mono"))
    state = play(state, [("Green h4 s2", "const")])
    assert GAME.view(state, None)["orchards"][0]["batches"]["const"] == ["Gold-h2-s1", "Red-h3-s4", "Green-h4-s2"]
