"""Farm phase (3.2, 3.4): secret card plays, reveal and refill, income, harvest, roofs."""

from __future__ import annotations

from engine.games.granja import GAME
from engine.games.granja.model import F1_PLAY, F3_PROMPT, F4_ROOFS, R2_PICK, Field
from engine.games.granja.rules import harvest, to_act

from . import support as S

ANYTIME = {"buy", "sell", "upgrade", "tg", "use"}


def play_fields_for_others(state, *seats):
    """Each named seat commits its first uncommitted card as a field (name a seat twice in round 1)."""
    for seat in seats:
        committed = {play.card for play in state.choices[seat].plays}
        card = next(card for card in state.farms[seat].hand if card not in committed)
        state, _ = S.do(state, seat, f"play {card} field")
    return state


# ----- F1 PLAY ------------------------------------------------------------------------------------


def test_r4_card_play_is_mandatory_there_is_no_pass():
    state = S.new(2, seed=1)
    assert S.kinds(state, 0) <= {"play"} | ANYTIME
    assert "pass" not in S.kinds(state, 0) and "done" not in S.kinds(state, 0)
    assert "cannot" not in S.refused(state, 0, "done")


def test_s01_two_plays_in_round_one_then_one_per_round():
    state = S.new(2, seed=2)
    first, second = state.farms[0].hand[:2]
    state, _ = S.do(state, 0, f"play {first} field")
    assert 0 in to_act(state)
    assert f"play {first} barrow" not in S.options(state, 0)  # a committed card cannot be chosen again
    assert "already committed" in S.refused(state, 0, f"play {first} helper")
    state, _ = S.do(state, 0, f"play {second} field")
    assert 0 not in to_act(state)
    state = S.at_f1(state, 2)
    state.phase = F1_PLAY
    state, _ = S.do(state, 1, f"play {state.farms[1].hand[0]} field")
    assert 1 not in to_act(state)


def test_3_1_a_seat_without_cards_commits_nothing_but_keeps_its_window():
    state = S.at_f1(S.new(2, seed=2), 2)
    S.set_hand(state, 0, [])
    S.goods(state, 0, GR=1, TG=1, silver=2)
    assert to_act(state) == (0, 1)
    assert {"sell", "buy", "tg", "done"} <= S.kinds(state, 0) and "play" not in S.kinds(state, 0)
    state, events = S.do(state, 0, "sell GR", "buy OL", "tg silver")
    assert state.farms[0].silver == 2 + 1 - 2 + 4 and S.texts(events)  # anytime actions are public (3.1)
    state, events = S.do(state, 0, "done")
    assert to_act(state) == (1,) and "has no card to play" in " ".join(S.texts(events))
    assert "ended your window" in S.refused(state, 0, "sell OL")
    state = play_fields_for_others(state, 1)
    assert state.phase != F1_PLAY


def test_3_1_a_seat_with_cards_cannot_skip_its_play():
    state = S.at_f1(S.new(2, seed=2), 2)
    assert "done" not in S.kinds(state, 0)
    assert "not optional" in S.refused(state, 0, "done")


def test_3_2_a_card_drawn_in_the_window_must_be_played():
    state = S.at_f1(S.new(2, seed=2), 2)
    S.set_hand(state, 0, [])
    S.goods(state, 0, TG=1)
    state, _ = S.do(state, 0, "tg draw")
    assert len(state.farms[0].hand) == 1 and "done" not in S.kinds(state, 0) and "play" in S.kinds(state, 0)


def test_3_2_second_play_is_checked_against_the_first():
    state = S.new(2, seed=3)
    ext_a, ext_b = S.card_with(extension="E-DI"), S.card_with(extension="E-DP")
    S.set_hand(state, 0, [ext_a, ext_b, "C030"])
    S.goods(state, 0, silver=1, vp=1, TG=1)
    state, _ = S.do(state, 0, f"play {ext_a} ext", "pay VP")
    # The second extension costs 2 different types; only silver is left (the VP is promised).
    assert f"play {ext_b} ext" not in S.options(state, 0)
    assert "2nd extension costs 2" in S.refused(state, 0, f"play {ext_b} ext")
    S.goods(state, 0, GR=1)
    state, _ = S.do(state, 0, f"play {ext_b} ext", "pay GR")
    assert S.options(state, 0) == ["pay $", "back"]  # grain is taken, VP is promised to the first play
    state, _ = S.do(state, 0, "pay $")
    state = play_fields_for_others(state, 1, 1)
    farm = state.farms[0]
    assert farm.extensions == [ext_a, ext_b] and (farm.vp, farm.silver, farm.goods["GR"]) == (0, 0 + farm.income, 0)


def test_3_2_extension_needs_a_payable_cost():
    state = S.new(2, seed=4)
    S.goods(state, 0, silver=0, vp=0, TG=3)
    assert not any(text.endswith(" ext") for text in S.options(state, 0))
    assert "not trade goods" in S.refused(state, 0, f"play {state.farms[0].hand[0]} ext")


def test_r3_first_extension_costs_one_farm_good_of_any_type_but_never_a_trade_good():
    state = S.new(2, seed=5)
    S.add_field(state, 0, S.card_with(field="GR"), crop=True)
    S.goods(state, 0, silver=1, vp=1, TG=1, PG=1, WN=1)
    card = state.farms[0].hand[0]
    state, _ = S.do(state, 0, f"play {card} ext")
    assert S.options(state, 0) == ["pay GR@field", "pay PG", "pay WN", "pay $", "pay VP", "back"]
    assert "not a farm good" in S.refused(state, 0, "pay TG")


def test_r41_full_barrow_slots_ask_which_barrow_goes_and_its_goods_are_lost():
    state = S.new(2, seed=6)
    for card in ("C012", "C013", "C014"):
        S.add_barrow(state, 0, card)
    state.farms[0].barrows[1].covered = [True, False]
    S.set_hand(state, 0, ["C040", "C041", "C042"])
    state, _ = S.do(state, 0, "play C040 barrow")
    assert S.options(state, 0) == ["discard C012", "discard C013", "discard C014", "back"]
    state, _ = S.do(state, 0, "discard C013", "play C041 field")
    assert [barrow.card for barrow in state.farms[0].barrows] == ["C012", "C013", "C014"]  # not before the reveal
    state = play_fields_for_others(state, 1, 1)
    farm = state.farms[0]
    assert [barrow.card for barrow in farm.barrows] == ["C012", "C040", "C014"]  # R41: markers gone with it
    assert farm.barrows[1].covered == [False, False]
    assert "C013" in state.discard


def test_s06_full_helper_slots_discard_one_and_its_usage_marker_returns():
    state = S.at_f1(S.new(2, seed=7), 2)
    for card, used in (("C009", False), ("C010", True), ("C011", False)):
        S.add_helper(state, 0, card, used=used)
    S.set_hand(state, 0, ["C022", "C023", "C024"])
    state, _ = S.do(state, 0, "play C022 helper", "discard C010")
    state = play_fields_for_others(state, 1)
    assert [helper.card for helper in state.farms[0].helpers] == ["C009", "C022", "C011"]
    assert "C010" in state.discard and not state.farms[0].helpers[1].used


def test_r5_refill_to_the_current_limit_in_turn_order_and_a_bigger_hand_is_kept():
    state = S.at_f1(S.new(3, seed=8), 2)
    state.order = [2, 0, 1]
    ext = S.card_with(extension="E-DI")
    S.set_hand(state, 0, [ext, "C030"])
    S.goods(state, 0, silver=1)
    S.set_hand(state, 1, ["C031", "C032", "C033", "C034", "C035", "C036"])
    S.set_hand(state, 2, ["C037"])
    state, _ = S.do(state, 0, f"play {ext} ext", "pay $")
    state, _ = S.do(state, 1, "play C031 field")
    deck_top = list(state.deck[:6])
    state, events = S.do(state, 2, "play C037 field")
    assert len(state.farms[0].hand) == 4  # limit 4 counts the extension just played
    assert len(state.farms[1].hand) == 5  # above the limit: kept
    assert len(state.farms[2].hand) == 3
    assert state.farms[2].hand == deck_top[:3] and state.farms[0].hand[1:] == deck_top[3:6]
    draws = [text for text in S.texts(events) if "draws" in text]
    assert draws == ["{p2} draws 3 cards.", "{p0} draws 3 cards."]


def test_r23_plays_are_revealed_together():
    state = S.at_f1(S.new(3, seed=9), 2)
    for seat in range(3):
        assert all(not farm.fields for farm in state.farms)
        state, _ = S.do(state, seat, f"play {state.farms[seat].hand[0]} field")
    assert all(len(farm.fields) == 1 for farm in state.farms)


def test_r23_reveal_order_follows_turn_order():
    state = S.at_f1(S.new(3, seed=9), 2)
    state.order = [1, 2, 0]
    state, _ = S.do(state, 0, f"play {state.farms[0].hand[0]} field")
    state, _ = S.do(state, 2, f"play {state.farms[2].hand[0]} field")
    state, events = S.do(state, 1, f"play {state.farms[1].hand[0]} field")
    plays = [text[:4] for text in S.texts(events) if " plays " in text]
    assert plays == ["{p1}", "{p2}", "{p0}"]


def test_r58_a_committed_play_leaves_no_public_trace():
    state = S.new(2, seed=10)
    S.add_helper(state, 0, "C009")
    S.goods(state, 0, GR=1)
    before_public, before_other = S.public(state), GAME.view(state, 1)
    ext = state.farms[0].hand[0]
    state, events = S.do(state, 0, f"play {ext} ext", "pay GR")
    after_public, after_other = S.public(state), GAME.view(state, 1)
    for before, after in ((before_public, after_public), (before_other, after_other)):
        assert before["farms"] == after["farms"]  # hand size, goods, cards: all unchanged
        assert {key for key in before if before[key] != after[key]} <= {"prompt", "to_act"}
    assert all(event.visible_to == (0,) for event in events if ext in event.text)
    assert GAME.view(state, 0)["choice"]["plays"][0]["card"] == ext


def test_3_1_the_f1_window_closes_when_the_commitment_starts():
    state = S.new(2, seed=11)
    S.goods(state, 0, silver=5)
    assert "buy GR" in S.options(state, 0)
    state, _ = S.do(state, 0, f"play {state.farms[0].hand[0]} field")
    assert not S.kinds(state, 0) & ANYTIME
    assert "F1 window closed" in S.refused(state, 0, "buy GR")


def test_3_1_anytime_actions_in_f1_are_public_at_once():
    state = S.new(2, seed=11)
    S.goods(state, 0, silver=5)
    state, events = S.do(state, 0, "buy OL")
    assert state.farms[0].goods["OL"] == 1 and S.public(state)["farms"][0]["goods"]["OL"] == 1
    assert any(event.visible_to is None and "buys olive" in event.text for event in events)


def test_r43_an_empty_deck_is_refilled_from_the_discard_pile_and_else_skipped():
    state = S.at_f1(S.new(2, seed=12), 2)
    state.order = [0, 1]
    S.set_hand(state, 0, ["C030"])
    S.set_hand(state, 1, ["C031", "C032", "C033"])
    state.discard, rest = state.deck[:2], state.deck[2:]
    state.deck = []
    state.farms[1].fields.extend(Field(card=card) for card in rest)  # out of the way, still counted
    reshuffled = set(state.discard)
    state, _ = S.do(state, 0, "play C030 field")
    state, events = S.do(state, 1, "play C031 field")
    assert set(state.farms[0].hand) == reshuffled and len(state.farms[0].hand) == 2
    assert len(state.farms[1].hand) == 2  # nothing left to draw: skipped
    assert not state.deck and not state.discard
    assert "The discard pile is shuffled into a new deck." in S.texts(events)


# ----- F2 and F3 ------------------------------------------------------------------------------------


def test_3_2_f2_income_from_extensions_and_steward():
    state = S.at_f1(S.new(2, seed=13), 2)
    S.add_extension(state, 0, "C001")  # E-DI
    S.add_extension(state, 0, "C002")  # E-IP
    S.add_helper(state, 0, S.card_with(helper="H14"))
    S.add_barrow(state, 0, "C012")
    S.goods(state, 0, silver=0)
    state = play_fields_for_others(state, 0, 1)
    assert state.farms[0].silver == 2 + 1


def test_r1_building_income_comes_at_the_start_of_f3_before_fields_and_pigs():
    state = S.at_f1(S.new(2, seed=14), 2)
    farm = state.farms[0]
    farm.buildings = [3, 5, 4]  # Trading House, Delicatessen, Greengrocer
    S.add_extension(state, 0, S.card_with(extension="E-IP"))  # capacity 4
    S.goods(state, 0, PG=1, silver=0, TG=0)
    state = play_fields_for_others(state, 0, 1)
    assert state.phase == F3_PROMPT and to_act(state) == (0,)
    state, events = S.do(state, 0, "gain PG")
    farm = state.farms[0]
    assert farm.silver == 1 + 3 and farm.goods["TG"] == 1
    assert farm.goods["PG"] == 3  # the Greengrocer pig made two, so one piglet
    log = S.texts(events)
    assert log.index("{p0}'s Trading House pays 3 $.") < next(i for i, t in enumerate(log) if "breed" in t)


def test_3_2_f3b_only_empty_fields_grow():
    state = S.new(2, seed=15)
    S.add_field(state, 0, S.card_with(field="GR"), crop=True)
    S.add_field(state, 0, S.card_with(field="OL"), crop=False)
    harvest(state, [])
    assert [field.crop for field in state.farms[0].fields] == [True, True]
    assert state.farms[0].goods["GR"] == 0 and state.farms[0].goods["OL"] == 0


def test_r28_breeding_gives_one_piglet_and_needs_two_pigs_and_room():
    state = S.new(2, seed=16)
    S.add_extension(state, 0, S.card_with(extension="E-DP"))
    for pigs, expected in ((1, 1), (2, 3), (3, 4), (4, 4)):
        S.goods(state, 0, PG=pigs)
        harvest(state, [])
        assert state.farms[0].goods["PG"] == expected


def test_r35_greengrocer_pig_without_room_is_sold():
    state = S.at_f1(S.new(2, seed=17), 2)
    state.farms[0].buildings = [4]
    S.goods(state, 0, PG=2, silver=0)
    state = play_fields_for_others(state, 0, 1)
    state, _ = S.do(state, 0, "gain PG")
    assert state.farms[0].goods["PG"] == 2 and state.farms[0].silver == 2


def test_r53_the_f3_prompt_goes_only_to_players_with_a_choice_and_is_no_window():
    state = S.at_f1(S.new(3, seed=18), 2)
    state.farms[1].buildings = [4]
    h17 = S.card_with(helper="H17")
    S.add_helper(state, 2, h17)
    S.add_helper(state, 0, S.card_with(helper="H17", avoid=[h17]))  # but no empty field
    S.goods(state, 1, silver=9)
    state, _ = S.do(state, 0, f"play {state.farms[0].hand[0]} barrow")
    state = play_fields_for_others(state, 1, 2)
    assert state.phase == F3_PROMPT and to_act(state) == (1, 2)
    assert S.kinds(state, 1) == {"gain"}
    assert S.kinds(state, 2) == {"flex"}
    assert "not a window" in S.refused(state, 1, "buy GR")
    state, _ = S.do(state, 1, "gain OL")
    assert to_act(state) == (2,)  # the answers stay hidden until both are in
    assert S.public(state)["farms"][1]["goods"]["OL"] == 0
    state, _ = S.do(state, 2, "flex none")
    assert state.phase == F4_ROOFS and state.farms[1].goods["OL"] == 1


def test_r52_flexible_field_puts_the_chosen_crop_in_store_and_the_field_stays_empty():
    state = S.at_f1(S.new(2, seed=19), 2)
    S.add_helper(state, 0, S.card_with(helper="H17"))
    S.add_field(state, 0, S.card_with(field="GR"))
    S.add_field(state, 0, S.card_with(field="GR", avoid=[S.card_with(field="GR")]))
    state = play_fields_for_others(state, 0, 1)  # seat 0's new field is one more empty field
    assert "flex GR GP" in S.options(state, 0) and "flex none" in S.options(state, 0)
    state, _ = S.do(state, 0, "flex GR GP")
    farm = state.farms[0]
    assert farm.goods["GP"] == 1
    assert sum(not field.crop for field in farm.fields) == 1
    assert farm.helpers[0].used and state.phase == F4_ROOFS


def test_r56_crop_specialist_needs_one_field_and_prolific_pigs_breed_from_one():
    state = S.new(2, seed=20)
    S.add_helper(state, 0, S.card_with(helper="H11", param="OL"))
    S.add_field(state, 0, S.card_with(field="OL"), crop=True)
    S.add_helper(state, 0, S.card_with(helper="H12"))
    S.add_extension(state, 0, S.card_with(extension="E-DP"))
    S.goods(state, 0, PG=1, OL=0)
    harvest(state, [])
    assert state.farms[0].goods["OL"] == 1  # even though the field already held its crop
    assert state.farms[0].goods["PG"] == 3  # one pig, two piglets
    harvest(state, [])
    assert state.farms[0].goods["PG"] == 4  # limited by free spaces


# ----- F4 ROOFS -------------------------------------------------------------------------------------


def test_s21_roofs_in_reverse_order_in_round_one_then_turn_order():
    state = S.at_f1(S.new(3, seed=21), 1)
    state.order = [2, 0, 1]
    for _ in range(2):
        state = play_fields_for_others(state, 0, 1, 2)
    assert state.phase == F4_ROOFS
    assert S.public(state)["turn_order"] == [1, 0, 2] and to_act(state) == (1,)
    state = S.at_sequential(state, F4_ROOFS, 2, round_number=2)
    assert S.public(state)["turn_order"] == [2, 0, 1]


def test_r20_roof_price_vp_leftmost_space_and_usable_at_once():
    state = S.new(2, seed=22)
    state.roofs_offer = ["R1-A", "R1-D"]
    state = S.at_sequential(state, F4_ROOFS, 0, round_number=1)
    S.goods(state, 0, silver=3, vp=1)
    state, _ = S.do(state, 0, "roof R1-D")
    farm = state.farms[0]
    assert farm.silver == 2 and farm.vp == 2 and farm.roofs[0].id == "R1-D"
    assert "roof R1-A" not in S.options(state, 0)  # R21: one per round
    assert "already bought a roof" in S.refused(state, 0, "roof R1-A")
    assert "use R1-D pig" in S.options(state, 0)  # usable in the same F4 turn
    state, _ = S.do(state, 0, "use R1-D pig")
    assert farm.goods["PG"] == 0 and state.farms[0].goods["PG"] == 1 and state.farms[0].roofs[0].used


def test_r20_roof_spaces_give_1_to_5_vp_and_a_full_row_buys_nothing():
    state = S.new(2, seed=23)
    for number, roof in enumerate(("R1-A", "R2-A", "R3-A", "R4-A"), start=1):
        S.add_roof(state, 0, roof)
        assert number == len(state.farms[0].roofs)
    state.roofs_offer = list(state.roofs_future[4])
    state = S.at_sequential(state, F4_ROOFS, 0, round_number=5)
    S.goods(state, 0, silver=20, vp=0)
    roof = state.roofs_offer[0]
    state, _ = S.do(state, 0, f"roof {roof}")
    assert state.farms[0].vp == 5 and state.farms[0].silver == 15
    state.roofs_offer = list(state.roofs_future[5])
    state = S.at_sequential(state, F4_ROOFS, 0, round_number=6)
    assert not any(text.startswith("roof") for text in S.options(state, 0))
    assert "five of your roof spaces" in S.refused(state, 0, f"roof {state.roofs_offer[0]}")


def test_r21_only_this_rounds_roofs_with_enough_silver():
    state = S.new(2, seed=24)
    state.roofs_offer = list(state.roofs_future[2])
    state = S.at_sequential(state, F4_ROOFS, 0, round_number=3)
    S.goods(state, 0, silver=2)
    assert not any(text.startswith("roof") for text in S.options(state, 0))
    assert "costs 3 $" in S.refused(state, 0, f"roof {state.roofs_offer[0]}")
    S.goods(state, 0, silver=3)
    assert "not on offer" in S.refused(state, 0, "roof R1-A")


def test_r20_unbought_roofs_leave_the_game_after_f4():
    state = S.new(2, seed=25)
    offered = list(state.roofs_offer)
    state = S.at_sequential(state, F4_ROOFS, state.order[-1], round_number=1)
    state, _ = S.do(state, state.order[-1], "done")
    state, events = S.do(state, state.order[0], "done")
    assert state.phase == R2_PICK and state.roofs_offer == []
    assert f"Unbought roofs leave the game: {', '.join(offered)}." in S.texts(events)
    assert len(state.dice) == 5


def test_an_unfinished_secret_play_can_be_taken_back():
    state = S.new(2, seed=26)
    S.goods(state, 0, GR=1, silver=5)
    card = state.farms[0].hand[0]
    state, _ = S.do(state, 0, f"play {card} ext")
    assert S.options(state, 0)[-1] == "back"
    state, events = S.do(state, 0, "back")
    assert not state.tasks[0] and not state.choices[0].plays and 0 in to_act(state)
    assert all(event.visible_to == (0,) for event in events)
    assert "buy GR" in S.options(state, 0)  # nothing was committed: the window is still open
