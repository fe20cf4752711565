"""§1 components, §2 set-up (official deal, Expert jokers, house variants), player counts, the
deck option, and the rulings about them (R1, R9, R25, R26, R29, R30)."""

from collections import Counter

import pytest

from engine.core import SetupError
from engine.games import get_game
from engine.games.vegetables import GAME
from engine.games.vegetables.cards import FAMILIES, NUMBERED, back_of, is_tractor
from engine.games.vegetables.model import H3, H5, OFFICIAL, PLAYING

from .helpers import check_conservation, new_game


def test_registered_under_vegetables():
    assert get_game("vegetables") is GAME
    assert GAME.title == "Vege tables"


def test_1_deck_has_88_cards_with_the_back_split_16_32_40():
    state = new_game()
    cards = [card for card, _ in _places(state)]
    assert len(cards) == 88
    backs = Counter(back_of(card) for card in cards)
    assert backs == {"red": 16, "white": 32, "green": 40}
    assert sum(1 for card in cards if is_tractor(card)) == 8
    assert sorted(c for c in cards if not is_tractor(c)) == sorted(NUMBERED)


def test_r1_backs_follow_the_numbers():
    assert {back_of(f"{f}{n}") for f in FAMILIES for n in range(1, 5)} == {"red"}
    assert {back_of(f"{f}{n}") for f in FAMILIES for n in range(5, 13)} == {"white"}
    assert {back_of(f"{f}{n}") for f in FAMILIES for n in range(13, 21)} == {"green"}
    assert back_of("T1") == "green"


@pytest.mark.parametrize("seed", range(5))
def test_2_1_official_deal(seed):
    state = new_game(seed=seed)
    assert state.variant == OFFICIAL
    for player in state.seats:
        assert len(player.farmland) == 4 and all(back_of(c) == "red" for c in player.farmland)  # step 4
        assert len(player.hand) == 8 and all(back_of(c) == "white" for c in player.hand)  # step 5
        assert len(player.well) == 6 and all(back_of(c) == "green" for c in player.well)  # step 6
        assert player.score == 0 and not player.well_taken  # step 8
    assert len(state.cells) == 16 and all(back_of(c) == "green" for c in state.cells)  # step 7
    assert state.rows == ["", "", "", ""]  # step 8: no row assigned
    assert all(stack == [] for stack in state.stacks.values()) and len(state.stacks) == 16
    check_conservation(state)


@pytest.mark.parametrize("seed", range(8))
def test_2_1_step_9_and_r9_holder_of_k1_starts_and_may_open_with_anything(seed):
    state = new_game(seed=seed)
    assert "K1" in state.seats[state.turn].farmland
    assert GAME.to_act(state) == (state.turn,)
    assert state.phase == PLAYING
    moves = GAME.legal_moves(state, state.turn)
    # Every Farmland of the starter can open, not only K1.
    assert {m.card for m in moves} == set(state.seats[state.turn].farmland)


def test_2_1_piles_are_shuffled_separately_and_deals_differ_by_seed():
    assert new_game(seed=1).seats[0].farmland != new_game(seed=2).seats[0].farmland or (
        new_game(seed=1).seats[0].hand != new_game(seed=2).seats[0].hand
    )
    assert GAME.encode_state(new_game(seed=3)) == GAME.encode_state(new_game(seed=3))


@pytest.mark.parametrize("seed", range(5))
def test_2_2_and_r29_expert_jokers_two_tractors_in_each_well_none_on_the_field(seed):
    state = new_game(seed=seed, expert_jokers=True)
    assert state.expert_jokers
    for player in state.seats:
        assert len(player.well) == 6
        assert sum(1 for card in player.well if is_tractor(card)) == 2
        assert len(player.farmland) == 4 and len(player.hand) == 8
    assert not any(is_tractor(card) for card in state.cells)
    assert len(state.cells) == 16
    check_conservation(state)


def test_2_3_refused_player_counts_have_clear_messages():
    for players in (1, 6, 7):
        with pytest.raises(SetupError, match="4 players"):
            GAME.new_game(players, 1)
    for players in (3, 5):
        with pytest.raises(SetupError, match="house_variant"):
            GAME.new_game(players, 1)


def test_house_variant_option_is_labelled_house_rules_and_off_by_default():
    option = {option.name: option for option in GAME.options}["house_variant"]
    assert option.house_rule and option.default is False
    expert = {option.name: option for option in GAME.options}["expert_jokers"]
    assert not expert.house_rule and expert.default is False


def test_house_variant_with_four_players_changes_nothing():
    plain = GAME.new_game(4, 9)
    flagged = GAME.new_game(4, 9, {"house_variant": True})
    assert plain == flagged


@pytest.mark.parametrize("players", [3, 5])
def test_r30_expert_jokers_refused_with_a_house_variant(players):
    with pytest.raises(SetupError, match="Expert jokers"):
        GAME.new_game(players, 1, {"house_variant": True, "expert_jokers": True})


@pytest.mark.parametrize("seed", range(6))
def test_2_3_h3_removes_one_family_other_than_black_and_two_tractors(seed):
    state = new_game(3, seed=seed)
    assert state.variant == H3
    assert state.removed_family in ("G", "R", "Y")
    assert state.families == [f for f in FAMILIES if f != state.removed_family]
    assert len(state.removed) == 20 and all(c[0] == state.removed_family for c in state.removed)
    assert len(state.rows) == 3 and len(state.cells) == 12  # 3 x 4 field
    assert len(state.stacks) == 12  # sequences in play
    tractors = [c for c, place in _places(state) if is_tractor(c)]
    assert sorted(tractors) == [f"T{n}" for n in range(1, 7)]
    for player in state.seats:
        assert len(player.farmland) == 4 and len(player.hand) == 8 and len(player.well) == 6
    assert state.well_threshold == 6
    check_conservation(state)
    # The removal is announced: the public view names the family.
    assert GAME.view(state, None)["removed_family"] == state.removed_family
    assert "out of this game" in GAME.render_board(GAME.view(state, None), ["A", "B", "C"])


def test_2_3_h3_removed_family_is_chosen_at_random():
    assert len({new_game(3, seed=seed).removed_family for seed in range(30)}) == 3


def test_2_3_h3_no_move_may_name_a_removed_card():
    state = new_game(3, seed=0)
    card = f"{state.removed_family}5"
    seat = state.turn
    assert "out of this game" in GAME.why_illegal(state, seat, GAME.parse_move(f"play {card}"))


@pytest.mark.parametrize("seed", range(6))
def test_2_3_h5_deal(seed):
    state = new_game(5, seed=seed)
    assert state.variant == H5
    start = state.deal_start
    order = [(start + k) % 5 for k in range(5)]
    assert [len(state.seats[s].farmland) for s in order] == [4, 3, 3, 3, 3]
    assert [len(state.seats[s].hand) for s in order] == [6, 7, 7, 6, 6]
    assert all(len(player.well) == 5 for player in state.seats)
    assert len(state.cells) == 16
    assert state.well_threshold == 4
    tractors = sorted(c for c, _ in _places(state) if is_tractor(c))
    assert tractors == sorted(f"T{n}" for n in range(1, 10))  # the boxed extra Tractor (R25)
    check_conservation(state)


def test_2_3_h5_seats_are_randomised_by_rotating_the_first_dealt_seat():
    assert len({new_game(5, seed=seed).deal_start for seed in range(40)}) == 5


def test_r25_the_spare_tractor_is_never_used():
    assert all("T10" not in [c for c, _ in _places(new_game(p, seed=2))] for p in (3, 4, 5))
    state = new_game(4)
    assert "T9" not in [c for c, _ in _places(state)]  # the extra one is for 5 players only


def test_deck_option_stacks_the_deal_exactly():
    red = [f"{f}{n}" for f in FAMILIES for n in range(1, 5)]
    white = [f"{f}{n}" for f in FAMILIES for n in range(5, 13)]
    green = [f"{f}{n}" for f in FAMILIES for n in range(13, 21)] + [f"T{n}" for n in range(1, 9)]
    deck = list(reversed(red)) + white + green
    state = GAME.new_game(4, 5, {"deck": " ".join(deck)})
    assert state.seats[0].farmland == ["Y4", "Y3", "Y2", "Y1"]
    assert state.seats[3].farmland == ["K4", "K3", "K2", "K1"]
    assert state.seats[1].hand == white[8:16]
    assert state.seats[2].well == green[12:18]
    assert state.cells == green[24:40]
    assert state.turn == 3  # the holder of K1


def test_deck_option_may_stack_only_the_top_of_each_pile():
    state = GAME.new_game(4, 5, {"deck": ["K1", "R3", "G2", "Y4", "K17"]})
    assert state.seats[0].farmland == ["K1", "R3", "G2", "Y4"]
    assert state.seats[0].well[0] == "K17"
    check_conservation(state)


def test_deck_option_cards_are_split_by_back_keeping_their_order():
    state = GAME.new_game(4, 5, {"deck": ["K5", "K1", "K13", "K2"]})
    assert state.seats[0].farmland[:2] == ["K1", "K2"]
    assert state.seats[0].hand[0] == "K5"
    assert state.seats[0].well[0] == "K13"


def test_deck_option_errors():
    with pytest.raises(SetupError, match="not a card"):
        GAME.new_game(4, 1, {"deck": ["K21"]})
    with pytest.raises(SetupError, match="twice"):
        GAME.new_game(4, 1, {"deck": ["K1", "k1"]})
    with pytest.raises(SetupError, match="T9"):
        GAME.new_game(4, 1, {"deck": ["T9"]})
    with pytest.raises(SetupError, match="removes"):
        GAME.new_game(3, 1, {"house_variant": True, "deck": ["G1", "R1", "Y1"]})


def test_deck_option_in_h3_decides_the_removed_family():
    state = GAME.new_game(3, 1, {"house_variant": True, "deck": ["G1", "R1"]})
    assert state.removed_family == "Y"


def test_deck_option_in_h5_deals_from_seat_1():
    state = GAME.new_game(5, 1, {"house_variant": True, "deck": ["K1"]})
    assert state.deal_start == 0
    assert len(state.seats[0].farmland) == 4
    assert [len(p.hand) for p in state.seats] == [6, 7, 7, 6, 6]


def test_deck_option_with_expert_jokers_stacks_tractors_into_wells():
    state = GAME.new_game(4, 1, {"expert_jokers": True, "deck": ["T5", "T6", "K13"]})
    assert state.seats[0].well[0] == "K13"
    assert state.seats[0].well[4:] == ["T5", "T6"]


def _places(state):
    from engine.games.vegetables.rules import card_places

    return [(card, place) for card, place in card_places(state) if place != "removed"]


def test_r26_superseded_two_players_play_the_two_player_game_which_has_no_options():
    # R26's refusal is superseded by the 2-player rules (docs/rules/vegetables-2p.md).
    assert GAME.new_game(2, 1).variant == "two"
    for option in ("house_variant", "expert_jokers"):
        with pytest.raises(SetupError, match=f"has no options; turn {option} off"):
            GAME.new_game(2, 1, {option: True})


@pytest.mark.parametrize("players", [3, 5])
def test_r30_expert_jokers_with_3_or_5_names_every_change_needed_at_once(players):
    with pytest.raises(SetupError) as refused:
        GAME.new_game(players, 1, {"expert_jokers": True})
    assert str(refused.value) == (
        "Expert jokers is an official deal for 4 players only; it cannot be combined with 3 or 5. "
        f"For {players} players turn expert_jokers off and set house_variant=true "
        "(house rules, not the published ones)."
    )
    with pytest.raises(SetupError) as refused:
        GAME.new_game(players, 1, {"expert_jokers": True, "house_variant": True})
    assert str(refused.value).endswith(
        f"For {players} players turn expert_jokers off (house rules, not the published ones)."
    )
