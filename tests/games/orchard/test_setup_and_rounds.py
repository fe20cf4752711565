"""§1 components, §2 set-up, rounds and turns, and the rulings about them (R1-R9, R31-R36)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.core import IllegalMove, NotYourTurn, SetupError
from engine.games import get_game
from engine.games.orchard import GAME
from engine.games.orchard.cards import (
    ALL_CARDS,
    BAD,
    CODE,
    COLOUR,
    COLOURS,
    DECK_SIZE,
    HEIGHT,
    SWEETNESS,
    picks_per_round,
    rounds_for,
)
from engine.games.orchard.model import Place
from engine.games.orchard.rules import current_picker, round_first_picker

from .support import card, move, stacked_game


def test_registry_knows_orchard():
    assert get_game("orchard") is GAME
    assert GAME.title == "Draft Cider"
    assert set(GAME.ai_players()) == {"random", "greedy", "easy", "normal", "strong"}


# ----- §1.1 the deck ------------------------------------------------------------------------------


def test_R1_deck_has_one_card_per_colour_height_sweetness():
    assert DECK_SIZE == 75
    combos = {(COLOUR[c], HEIGHT[c], SWEETNESS[c]) for c in ALL_CARDS}
    assert len(combos) == 75
    assert Counter(COLOUR[c] for c in ALL_CARDS) == {0: 25, 1: 25, 2: 25}
    assert Counter(HEIGHT[c] for c in ALL_CARDS) == {v: 15 for v in range(1, 6)}
    assert Counter(SWEETNESS[c] for c in ALL_CARDS) == {v: 15 for v in range(1, 6)}
    assert len(set(CODE)) == 75


def test_R1_same_height_and_sweetness_means_different_colour():
    for a in ALL_CARDS:
        for b in ALL_CARDS:
            if a != b and HEIGHT[a] == HEIGHT[b] and SWEETNESS[a] == SWEETNESS[b]:
                assert COLOUR[a] != COLOUR[b]


def test_R31_colour_names():
    assert COLOURS == ("Green", "Gold", "Red")


@pytest.mark.parametrize("players", range(1, 7))
def test_s2_1_setup_uses_every_card_once(players):
    state = GAME.new_game(players, seed=players)
    assert sorted(state.deck + state.pool) == list(ALL_CARDS)
    assert all(batch == [] for orchard in state.orchards for batch in orchard)
    assert len(state.orchards) == players and all(len(orchard) == 8 for orchard in state.orchards)


def test_s2_1_shuffle_depends_on_seed_only():
    assert GAME.new_game(4, seed=5) == GAME.new_game(4, seed=5)
    assert GAME.new_game(4, seed=5).deck != GAME.new_game(4, seed=6).deck


# ----- §1.3 player counts, pool sizes and rounds --------------------------------------------------

TABLE = {  # players: (k, pool, rounds, left in deck at the end)
    1: (3, 3, 4, 63),
    2: (3, 6, 4, 51),
    3: (2, 6, 6, 39),
    4: (3, 12, 4, 27),
    5: (3, 15, 4, 15),
    6: (2, 12, 6, 3),
}


@pytest.mark.parametrize("players", sorted(TABLE))
def test_s1_3_R3_R4_table_of_pool_sizes_and_rounds(players):
    k, pool, rounds, left = TABLE[players]
    assert picks_per_round(players) == k
    assert rounds_for(players) == rounds
    assert k * rounds == 12
    state = GAME.new_game(players, seed=3)
    assert len(state.pool) == pool
    assert len(state.deck) == 75 - pool
    view = GAME.view(state, None)
    assert (view["rounds"], view["picks_per_round"], view["picks_this_round"]) == (rounds, k, pool)
    # Play it out: the deck keeps exactly the listed number of cards, never running out.
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, GAME.default_move(state, seat))
    assert len(state.deck) == left
    assert all(sum(map(len, orchard)) == 12 for orchard in state.orchards)


@pytest.mark.parametrize("players", [0, 7, 8])
def test_R2_player_counts_outside_one_to_six_cannot_start(players):
    with pytest.raises(SetupError, match="1 to 6"):
        GAME.new_game(players, seed=1)


def test_R3_solo_pool_is_three_cards():
    assert len(GAME.new_game(1, seed=1).pool) == 3


# ----- §2.1 options -------------------------------------------------------------------------------


def test_options_defaults_and_validation():
    assert GAME.resolve_options(2) == {"easy": False, "first_picker": "random"}
    assert GAME.resolve_options(2, {"easy": "on", "first_picker": "HOST"}) == {"easy": True, "first_picker": "host"}
    with pytest.raises(SetupError):
        GAME.resolve_options(2, {"first_picker": "youngest"})
    with pytest.raises(SetupError):
        GAME.resolve_options(2, {"variant": "x"})


def test_R7_first_picker_is_random_over_seats():
    firsts = {GAME.new_game(4, seed=seed).first_picker for seed in range(60)}
    assert firsts == {0, 1, 2, 3}


@pytest.mark.parametrize("seed", range(10))
def test_R35_host_option_makes_seat_0_pick_first(seed):
    state = GAME.new_game(5, seed=seed, options={"first_picker": "host"})
    assert state.first_picker == 0
    assert GAME.to_act(state) == (0,)


def test_deck_option_stacks_the_top_of_the_deck_in_order():
    top = ["Red h5 s5", "Green h1 s1", "Gold h3 s2", "Gold h3 s3", "Red h1 s4", "Green h2 s2", "Red h2 s2"]
    state = stacked_game(2, top)
    # The first six dealt form the pool (shown sorted); the seventh is the top of the deck.
    assert sorted(state.pool) == sorted(card(text) for text in top[:6])
    assert state.deck[0] == card("Red h2 s2")
    assert sorted(state.deck + state.pool) == list(ALL_CARDS)


def test_deck_option_accepts_a_string_and_variant_spellings():
    state = GAME.new_game(1, seed=9, options={"deck": "go25, red-1-1 Green-h3-s4"})
    assert state.pool == sorted([card("Gold h2 s5"), card("Red h1 s1"), card("Green h3 s4")])


def test_deck_option_refuses_duplicates_and_unreadable_codes():
    with pytest.raises(SetupError, match="twice"):
        GAME.new_game(1, seed=1, options={"deck": ["Gold-h2-s5", "go25"]})
    with pytest.raises(SetupError, match="Deck option"):
        GAME.new_game(1, seed=1, options={"deck": ["Purple-h2-s5"]})


# ----- §2.2 rounds and §2.3 turns -----------------------------------------------------------------


def picking_order(players: int, seed: int = 2, **options):
    """(round, seat) of every pick of a whole game played with default moves."""
    state = GAME.new_game(players, seed=seed, options=options)
    order = []
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        order.append((state.current_round, seat))
        state, _ = GAME.apply(state, seat, GAME.default_move(state, seat))
    return GAME.new_game(players, seed=seed, options=options).first_picker, order


@pytest.mark.parametrize("players", range(1, 7))
def test_R6_R8_seat_order_laps_and_first_pick_passes_on(players):
    first, order = picking_order(players)
    k = picks_per_round(players)
    for round_number in range(1, rounds_for(players) + 1):
        seats = [seat for r, seat in order if r == round_number]
        start = (first + round_number - 1) % players
        assert seats == [(start + index) % players for index in range(k * players)]
        assert Counter(seats) == {seat: k for seat in range(players)}


def test_s2_2_R34_each_round_deals_a_fresh_pool_from_the_top():
    top = [f"Red h{h} s{s}" for h in range(1, 6) for s in range(1, 6)][:12]
    state = stacked_game(2, top, first_picker="host")
    assert state.pool == sorted(cards_of(top[:6]))
    for text in sorted(top[:6], key=card):
        state, events = GAME.apply(state, GAME.to_act(state)[0], move(text, "bad"))
    assert state.current_round == 2 and state.picks_made == 0
    assert state.pool == sorted(cards_of(top[6:12]))
    assert "Round 2" in events[-1].text and "{p1} picks first" in events[-1].text


def cards_of(texts):
    return [card(text) for text in texts]


@pytest.mark.parametrize(
    ("players", "first_counts"),
    [(1, {0: 4}), (2, {0: 2, 1: 2}), (3, {0: 2, 1: 2, 2: 2}), (4, {0: 1, 1: 1, 2: 1, 3: 1}),
     (6, {seat: 1 for seat in range(6)})],
)  # fmt: skip
def test_R36_how_often_each_seat_picks_first(players, first_counts):
    state = GAME.new_game(players, seed=4, options={"first_picker": "host"})
    seen = Counter()
    for round_number in range(1, rounds_for(players) + 1):
        state.current_round = round_number
        seen[round_first_picker(state)] += 1
    assert seen == first_counts


def test_R36_five_players_one_seat_never_picks_first():
    for seed in range(5):
        first, order = picking_order(5, seed=seed)
        round_starters = {seat for index, (r, seat) in enumerate(order) if index % 15 == 0}
        assert round_starters == {(first + offset) % 5 for offset in range(4)}
        assert (first + 4) % 5 not in round_starters


def test_R5_the_card_must_come_from_the_pool():
    state = GAME.new_game(2, seed=1)
    seat = GAME.to_act(state)[0]
    outside = state.deck[0]
    reason = GAME.why_illegal(state, seat, Place(outside, BAD))
    assert reason is not None and "not in the pool" in reason and CODE[state.pool[0]] in reason
    with pytest.raises(IllegalMove, match="not in the pool"):
        GAME.apply(state, seat, Place(outside, BAD))


def test_s2_3_only_the_picker_may_move_and_nobody_after_the_end():
    state = GAME.new_game(3, seed=1, options={"first_picker": "host"})
    assert GAME.to_act(state) == (0,)
    assert GAME.legal_moves(state, 1) == []
    assert "not your turn" in GAME.why_illegal(state, 1, Place(state.pool[0], BAD))
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 1, Place(state.pool[0], BAD))
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, GAME.default_move(state, seat))
    assert GAME.to_act(state) == ()
    assert current_picker(state) is None
    assert GAME.why_illegal(state, 0, Place(0, BAD)) == "The game is over."
    with pytest.raises(IllegalMove, match="over"):
        GAME.apply(state, 0, Place(0, BAD))


def test_R9_illegal_placement_is_refused_without_effect_and_the_same_player_picks_again():
    state = stacked_game(2, ["Red h2 s2", "Red h2 s3", "Gold h1 s1", "Gold h2 s1", "Gold h3 s1", "Gold h4 s1"],
                         first_picker="host")  # fmt: skip
    state, _ = GAME.apply(state, 0, move("Red h2 s2", "forte"))
    state, _ = GAME.apply(state, 1, move("Gold h1 s1", "bad"))
    before = GAME.encode_state(state)
    with pytest.raises(IllegalMove, match="heights of a pair must differ"):
        GAME.apply(state, 0, move("Red h2 s3", "forte"))
    assert GAME.encode_state(state) == before
    assert GAME.to_act(state) == (0,)
    state, _ = GAME.apply(state, 0, move("Red h2 s3", "sweet"))  # no penalty: any legal move goes
    assert GAME.to_act(state) == (1,)


def test_R9_there_is_no_pass_move():
    state = GAME.new_game(2, seed=1)
    seat = GAME.to_act(state)[0]
    assert all(isinstance(m, Place) for m in GAME.legal_moves(state, seat))
    assert GAME.why_illegal(state, seat, "pass") is not None


def test_s2_4_game_ends_after_the_last_round_with_twelve_cards_each():
    state = GAME.new_game(6, seed=8)
    moves = 0
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        state, events = GAME.apply(state, seat, GAME.default_move(state, seat))
        moves += 1
    assert moves == 72
    assert state.current_round == 6
    assert [sum(map(len, orchard)) for orchard in state.orchards] == [12] * 6
    assert events[-1].text.startswith("Game over")


def test_s9_default_move_is_the_first_pool_card_into_bad():
    state = stacked_game(2, ["Red h1 s1", "Gold h5 s5", "Green h4 s4", "Gold h1 s1", "Red h5 s5", "Green h5 s5"])
    seat = GAME.to_act(state)[0]
    assert GAME.default_move(state, seat) == move("Green h4 s4", "bad")
    assert GAME.default_move(state, seat) in GAME.legal_moves(state, seat)
    assert GAME.automatic_move(state, seat) is None  # never a forced choice: UNLUCKY and BAD take anything


def test_s1_2_R32_placed_cards_never_move():
    state = GAME.new_game(4, seed=21)
    greedy = GAME.ai_players()["greedy"]()
    rng = random.Random(21)
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        before = [[list(batch) for batch in orchard] for orchard in state.orchards]
        chosen = greedy.choose(GAME, state, seat, rng)
        state, _ = GAME.apply(state, seat, chosen)
        for who, orchard in enumerate(state.orchards):
            for batch, cards_now in enumerate(orchard):
                grew = who == seat and batch == chosen.batch
                assert cards_now == before[who][batch] + ([chosen.card] if grew else [])


# ----- §5 options ---------------------------------------------------------------------------------


def test_s5_1_solo_takes_all_three_pool_cards_in_any_order():
    deck = ["Gold h2 s2", "Gold h4 s2", "Red h3 s2"]
    for order in (deck, list(reversed(deck))):
        state = stacked_game(1, deck + ["Green h1 s1"])
        for text in order:
            assert GAME.to_act(state) == (0,)
            assert {CODE[m.card] for m in GAME.legal_moves(state, 0)} == {CODE[c] for c in state.pool}
            state, _ = GAME.apply(state, 0, move(text, "forte"))
        assert state.current_round == 2 and card("Green h1 s1") in state.pool


def test_s5_1_solo_placement_order_matters():
    # The same three cards into FORTE score differently depending on which two pair up.
    def forte_score(order):
        state = stacked_game(1, order)
        for text in order:
            state, _ = GAME.apply(state, 0, move(text, "forte"))
        return GAME.view(state, None)["orchards"][0]["scores"]["forte"]

    assert forte_score(["Gold h1 s2", "Gold h5 s2", "Red h3 s2"]) == 8
    assert forte_score(["Gold h1 s2", "Red h3 s2", "Gold h5 s2"]) == 4


def test_s5_1_s5_2_solo_combines_with_easy_mode():
    state = GAME.new_game(1, seed=2, options={"easy": True})
    while not GAME.is_over(state):
        state, _ = GAME.apply(state, 0, GAME.default_move(state, 0))
    assert GAME.outcome(state).scores == [0]  # twelve cards in BAD cost nothing in easy mode
    assert GAME.view(state, None)["easy"] is True


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_R7_random_first_picker_is_roughly_uniform(players):
    counts = Counter(GAME.new_game(players, seed=seed).first_picker for seed in range(100 * players))
    assert set(counts) == set(range(players))
    assert all(50 <= count <= 150 for count in counts.values()), counts


def test_s2_1_shuffle_spreads_every_card_over_the_first_pool():
    # 750 solo deals of 3 cards: each card is expected 30 times in the opening pool.
    counts = Counter(card for seed in range(750) for card in GAME.new_game(1, seed=seed).pool)
    assert set(counts) == set(ALL_CARDS)
    assert all(8 <= count <= 60 for count in counts.values()), counts.most_common(3)
