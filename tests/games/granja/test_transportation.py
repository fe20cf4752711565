"""Transportation phase (3.5-3.8): donkey markers, siesta, order, deliveries, completions, market."""

from __future__ import annotations

from engine.games.granja import GAME
from engine.games.granja.model import T1_DONKEY, T4_DELIVER, T5_EXTRA
from engine.games.granja.rules import to_act

from . import support as S


def at_t1(players=2, seed=1, round_number=2):
    state = S.new(players, seed=seed)
    state.round = round_number
    state.phase = T1_DONKEY
    for farm in state.farms:
        farm.donkeys = ["D1", "D2", "D3", "D1", "D2"][: round_number - 1]
    for choice in state.choices:
        choice.waiting = True
    return state


def at_t4(seat=0, players=2, seed=1, marker="D4", round_number=2):
    state = S.new(players, seed=seed)
    for farm in state.farms:
        farm.donkeys = ["D1"] * (round_number - 1) + [marker]
    state.order = list(range(players))
    return S.at_sequential(state, T4_DELIVER, seat, round_number=round_number)


def clear_market(state):
    state.market = [-1] * len(state.market)


def put(state, **owners):
    for name, owner in owners.items():
        state.market[int(name[1:]) - 1] = owner


# ----- T1, T2, T3 ----------------------------------------------------------------------------------


def test_s27_donkey_choices_are_secret_until_everyone_has_chosen():
    state = at_t1()
    S.add_helper(state, 0, S.card_with(helper="H06"))
    before = S.public(state)
    state, events = S.do(state, 0, "donkey D3 +1")
    after = S.public(state)
    assert before["farms"] == after["farms"]  # R58: no H06 usage marker yet, no marker shown
    assert {key for key in before if before[key] != after[key]} <= {"prompt", "to_act"}
    assert "D3" not in str(GAME.view(state, 1)["choice"]) and GAME.view(state, 0)["choice"]["donkey"] == "D3"
    assert all("D3" not in event.text or event.visible_to == (0,) for event in events)
    assert to_act(state) == (1,)
    assert "chosen your donkey marker" in S.refused(state, 0, "donkey D4")
    state, events = S.do(state, 1, "donkey D4")
    assert state.farms[0].donkeys[-1] == "D3" and state.farms[0].helpers[0].used
    assert "{p0} reveals donkey marker D3 and 1 Siesta push." in S.texts(events)
    assert state.phase == T4_DELIVER


def test_3_1_t1_is_a_window_until_the_marker_is_chosen():
    state = at_t1()
    S.goods(state, 0, silver=4)
    assert "buy GR" in S.options(state, 0)
    state, _ = S.do(state, 0, "buy GR")
    assert state.phase == T1_DONKEY and 0 in to_act(state)


def test_h06_siesta_push_needs_an_unused_helper():
    state = at_t1()
    assert "donkey D3 +1" not in S.options(state, 0)
    assert "Siesta push" in S.refused(state, 0, "donkey D3 +1")


def test_3_5_t2_hats_wagon_maker_and_push_make_one_move_and_t3_sets_the_order():
    state = at_t1(players=3)
    state.order = [0, 1, 2]
    state.farms[1].buildings = [1]  # Wagon Maker: +1
    S.add_helper(state, 2, S.card_with(helper="H06"))
    state, _ = S.do(state, 0, "donkey D4")  # 0 hats
    state, _ = S.do(state, 1, "donkey D4")  # 0 hats + 1
    state, _ = S.do(state, 2, "donkey D3 +1")  # 1 hat + 1
    assert state.siesta_space == [0, 1, 2]
    assert state.order == [2, 1, 0]


def test_r19_a_disc_that_does_not_move_keeps_its_stack_place():
    state = at_t1(players=3)
    state.order = [1, 2, 0]  # discs on 0: seat 1 on top, then 2, then 0
    state.siesta_stamp = [1, 3, 2]
    for seat in range(3):
        state, _ = S.do(state, seat, "donkey D4")
    assert state.order == [1, 2, 0]


def test_r48_a_disc_on_top_stays_and_overflow_is_lost():
    state = at_t1(players=2, round_number=4)
    state.siesta_space = [8, 7]
    state.siesta_stamp = [1, 2]
    state, _ = S.do(state, 0, "donkey D1")
    state, _ = S.do(state, 1, "donkey D1")
    assert state.siesta_space == [8, 8] and state.order == [1, 0]


# ----- T4 --------------------------------------------------------------------------------------------


def test_s34_each_donkey_is_one_delivery_and_unused_ones_are_lost():
    state = at_t4(marker="D2")
    S.add_barrow(state, 0, "C012")  # OL+OL
    S.goods(state, 0, OL=3)
    assert state.budget == 2
    state, _ = S.do(state, 0, "deliver OL C012")
    assert state.budget == 1
    state, _ = S.do(state, 0, "done")
    assert to_act(state) == (1,) and state.farms[0].barrows[0].covered == [True, False]


def test_3_5_t4_anytime_actions_between_deliveries_and_only_the_active_seat():
    state = at_t4(marker="D3")
    S.add_barrow(state, 0, "C035")  # GR+GP+FD
    S.goods(state, 0, GR=2, silver=5)
    assert "deliver FD C035" not in S.options(state, 0)
    state, _ = S.do(state, 0, "deliver GR C035", "upgrade GR")
    assert "deliver FD C035" in S.options(state, 0)
    assert to_act(state) == (0,) and GAME.legal_moves(state, 1) == []


def test_r8_wagon_maker_gained_in_t4_does_not_raise_this_turns_allowance():
    state = at_t4(marker="D1")
    state.buildings[0].order_marker = 0
    state.buildings[0].rows[0] = [True, True, True, False]
    S.goods(state, 0, TG=2)
    assert state.budget == 1
    state, _ = S.do(state, 0, "deliver TG b1")
    assert state.farms[0].buildings == [1] and state.budget == 0
    assert S.options(state, 0)[-1] == "pass"  # the immediate delivery instead (optional)


def test_r8_wagon_maker_gained_before_t4_adds_a_delivery_and_a_siesta_step():
    state = at_t4(marker="D2")
    state.farms[0].buildings = [1]
    state = S.at_sequential(state, T4_DELIVER, 0)
    assert state.budget == 3
    state = at_t1()
    state.farms[0].buildings = [1]
    state, _ = S.do(state, 0, "donkey D4")
    state, _ = S.do(state, 1, "donkey D4")
    assert state.siesta_space == [1, 0]


def test_h05_extra_donkey_adds_one_delivery_this_turn():
    state = at_t4(marker="D1")
    helper = S.card_with(helper="H05")
    S.add_helper(state, 0, helper)
    S.add_barrow(state, 0, "C034")  # OL+OL+FD
    S.goods(state, 0, OL=2)
    state, _ = S.do(state, 0, "deliver OL C034")
    assert state.budget == 0 and f"use {helper}" in S.options(state, 0)
    state, _ = S.do(state, 0, f"use {helper}", "deliver OL C034")
    assert state.farms[0].helpers[0].used
    assert "only in your T4 turn" in S.refused(S.at_sequential(state, T5_EXTRA, 0), 0, f"use {helper}")


def test_r39_no_delivery_to_blocked_or_finished_buildings_or_other_barrows():
    state = at_t4()
    S.goods(state, 0, GR=1, OL=1)
    blocked = next(number for number, building in enumerate(state.buildings, 1) if building.order_marker)
    assert not any(text.endswith(f" b{blocked}") for text in S.options(state, 0))
    assert "blocked by building-order marker" in S.refused(state, 0, f"deliver GR b{blocked}")
    open_one = next(number for number, building in enumerate(state.buildings, 1) if not building.order_marker)
    state.buildings[open_one - 1].finishers = [0]
    assert "cannot deliver there again" in S.refused(state, 0, f"deliver GR b{open_one}")
    S.add_barrow(state, 1, "C012")
    assert "not one of your barrows" in S.refused(state, 0, "deliver OL C012")


def test_s35_deliveries_take_crops_from_fields_and_empty_them():
    state = at_t4()
    S.add_barrow(state, 0, "C009")  # OL+GR
    S.add_field(state, 0, S.card_with(field="GR"), crop=True)
    S.goods(state, 0, GR=1)
    assert {"deliver GR C009", "deliver GR@field C009"} <= set(S.options(state, 0))
    state, _ = S.do(state, 0, "deliver GR@field C009")
    assert not state.farms[0].fields[0].crop and state.farms[0].goods["GR"] == 1


# ----- T5 --------------------------------------------------------------------------------------------


def test_r29_extra_deliveries_cost_one_silver_each_up_to_the_limit_fixed_at_turn_start():
    state = S.new(2, seed=3)
    state.order = [0, 1]
    S.add_extension(state, 0, S.card_with(extension="E-DI"))  # limit 2
    S.add_barrow(state, 0, "C009")  # OL+GR
    S.goods(state, 0, OL=1, GR=1, silver=1)
    state = S.at_sequential(state, T5_EXTRA, 0, round_number=2)
    assert state.budget == 2
    state, _ = S.do(state, 0, "extra OL C009")
    assert state.farms[0].silver == 0
    assert "none" in S.refused(state, 0, "extra GR C009")
    S.goods(state, 0, silver=3, TG=1)
    # An extension played now (trade good -> play) does not raise this turn's limit.
    ext = next(card for card in state.farms[0].hand)
    state, _ = S.do(state, 0, "tg play", f"play {ext} ext", "pay $", "pay VP")
    assert state.farms[0].extra_delivery_limit >= 2 and state.budget == 1
    state, events = S.do(state, 0, "extra GR C009")
    assert state.budget == 0 and not any(text.startswith("extra") for text in S.options(state, 0))


def test_r29_silver_from_one_extra_delivery_pays_for_the_next():
    state = S.new(2, seed=4)
    S.add_extension(state, 0, S.card_with(extension="E-DI"))  # limit 2
    S.add_barrow(state, 0, "C009", [True, False])  # OL+GR: the grain completes it
    S.add_barrow(state, 0, "C012")  # OL+OL
    S.add_helper(state, 0, S.card_with(helper="H03", param="silver", avoid=["C009"]))
    S.goods(state, 0, OL=1, GR=1, silver=1)
    state = S.at_sequential(state, T5_EXTRA, 0, round_number=2)
    state, _ = S.do(state, 0, "extra GR C009")
    assert state.farms[0].silver == 1  # paid 1, Barrow bonus paid 1
    state, _ = S.do(state, 0, next(text for text in S.options(state, 0) if text.startswith("hex")))
    state, _ = S.do(state, 0, "extra OL C012")
    assert state.farms[0].silver == 0 and state.budget == 0


def test_r54_extra_deliveries_need_a_legal_target():
    state = S.new(2, seed=5)
    S.goods(state, 0, silver=5, GR=0, OL=0, GP=0, PG=0, FD=0, WN=0, MT=0, TG=0)
    state = S.at_sequential(state, T5_EXTRA, 0, round_number=2)
    assert not S.kinds(state, 0) & {"extra"}


# ----- building completion (3.7) ---------------------------------------------------------------------


def test_r6_building_order_markers_leave_lowest_first_and_only_on_a_first_completion():
    state = at_t4(players=2, marker="D4")
    for building in state.buildings:
        building.order_marker = 0
    state.buildings[4].order_marker = 2
    state.buildings[1].order_marker = 3
    state.buildings[2].order_marker = 1
    state.buildings[3].rows[0] = [True, True, True, False]
    state.buildings[3].rows[1] = [True, True, True, False]
    S.goods(state, 0, FD=1, OL=1)
    vp = state.farms[0].vp
    state, _ = S.do(state, 0, "deliver FD b4", "gain GR")
    assert [b.order_marker for b in state.buildings] == [0, 3, 0, 0, 2, 0]
    assert state.farms[0].vp == vp + 1 + 1 + 2
    state, _ = S.do(state, 0, "deliver OL b3")  # the Trading House is open at once (R7)
    S.goods(state, 1, FD=1)
    state = S.at_sequential(state, T4_DELIVER, 1)
    state.farms[1].donkeys = ["D1", "D4"]
    state = S.at_sequential(state, T4_DELIVER, 1)
    state, _ = S.do(state, 1, "deliver FD b4", "gain GR")
    assert [b.order_marker for b in state.buildings] == [0, 3, 0, 0, 2, 0]


def test_r7_r10_wagon_maker_delivery_may_go_to_the_building_it_opened_and_scores_the_siesta():
    state = at_t4(marker="D1")
    for building in state.buildings:
        building.order_marker = 0
    state.buildings[2].order_marker = 1  # Trading House blocked
    state.buildings[0].rows[0] = [True, True, False, True]
    state.siesta_space[0] = 5
    S.goods(state, 0, WN=1, OL=1, vp=0)
    state, _ = S.do(state, 0, "deliver WN b1")
    assert state.farms[0].vp == 1 + 1 + 2 + 3  # hex, order marker, round 2, siesta section 3
    assert "deliver OL b3" in S.options(state, 0) and "pass" in S.options(state, 0)
    state, _ = S.do(state, 0, "deliver OL b3")
    assert state.buildings[2].rows[0][0] and state.budget == 0


def test_r10_the_wagon_maker_delivery_may_be_declined():
    state = at_t4(marker="D1")
    state.buildings[0].order_marker = 0
    state.buildings[0].rows[0] = [True, True, False, True]
    S.goods(state, 0, WN=1, GR=1)
    state, _ = S.do(state, 0, "deliver WN b1", "pass")
    assert state.farms[0].goods["GR"] == 1 and "done" in S.options(state, 0)


def test_r9_village_shop_bonus_only_for_later_markers_and_h13_pays():
    state = at_t4(marker="D4")
    for building in state.buildings:
        building.order_marker = 0
    S.add_helper(state, 0, S.card_with(helper="H13"))
    state.buildings[1].rows[0] = [True, True, True, False]  # Village Shop needs FD
    state.buildings[5].rows[0] = [True, True, False]  # Butcher needs MT
    S.goods(state, 0, FD=1, MT=1, vp=0, silver=0)
    state, _ = S.do(state, 0, "deliver FD b2")
    assert state.farms[0].vp == 1 + 2 + 2 and state.farms[0].silver == 2  # hex, round, effect
    state, _ = S.do(state, 0, "deliver MT b6")
    assert state.farms[0].vp == 5 + 1 + 2 + 2 + 0 and state.farms[0].silver == 4  # +2 Village Shop


def test_3_7_trading_house_delicatessen_and_butcher_effects():
    state = at_t4(marker="D4")
    for building in state.buildings:
        building.order_marker = 0
    state.buildings[2].rows[0] = [True, True, True, False]
    state.buildings[4].rows[0] = [True, True, True, False]
    state.buildings[5].rows[0] = [True, True, False]
    S.add_barrow(state, 0, "C012")
    S.add_barrow(state, 0, "C013")
    S.goods(state, 0, TG=2, WN=1, MT=1, silver=0, vp=0)
    state, _ = S.do(state, 0, "deliver TG b3")
    assert state.farms[0].silver == 3
    state, _ = S.do(state, 0, "deliver WN b5")
    assert state.farms[0].goods["TG"] == 2
    vp = state.farms[0].vp
    state, _ = S.do(state, 0, "deliver MT b6")
    assert state.farms[0].vp == vp + 1 + 2 + 2  # hex, round 2, two barrows


# ----- barrows and the market (3.8) ------------------------------------------------------------------


def test_r38_barrow_completion_order_vp_trade_good_bonus_discard_market():
    state = at_t4(marker="D4")
    S.add_helper(state, 0, S.card_with(helper="H03", param="silver", avoid=["C009"]))
    S.add_helper(state, 0, S.card_with(helper="H03", param="crop"))
    S.add_barrow(state, 0, "C009", [True, False])  # OL+GR, 2 VP
    S.goods(state, 0, GR=1, vp=0, silver=0, TG=0)
    state, events = S.do(state, 0, "deliver GR C009")
    farm = state.farms[0]
    assert (farm.vp, farm.goods["TG"], farm.silver) == (2, 1, 1) and "C009" in state.discard
    assert S.options(state, 0) == ["gain GR", "gain OL", "gain GP"]  # H03 crop before the market
    state, _ = S.do(state, 0, "gain OL")
    assert all(text.startswith("hex") for text in S.options(state, 0))


def test_r12_no_placement_when_every_hex_of_the_value_is_ones_own():
    state = at_t4(marker="D4")
    clear_market(state)
    put(state, M05=0, M07=0, M18=0)
    S.add_barrow(state, 0, "C054", [True, False])  # WN+MT, 6 VP
    S.goods(state, 0, MT=1, vp=0)
    state, events = S.do(state, 0, "deliver MT C054")
    assert state.farms[0].vp == 6 and state.farms[0].goods["TG"] == 2
    assert "hex" not in S.kinds(state, 0)
    assert any("no placement" in text for text in S.texts(events))


def test_r11_own_markers_are_never_removed_and_higher_or_equal_values_stay():
    state = at_t4(marker="D4", players=3)
    clear_market(state)
    put(state, M05=0, M07=0, M18=0, M01=0, M06=1, M04=2, M12=1)  # every 6-hex in play is seat 0's
    S.add_barrow(state, 0, "C054", [True, False])
    S.goods(state, 0, MT=1, vp=0)
    state, _ = S.do(state, 0, "deliver MT C054")
    assert "hex" not in S.kinds(state, 0)  # every 6-hex holds the player's own marker
    state = at_t4(marker="D4", players=3)
    clear_market(state)
    put(state, M05=1, M07=0, M18=2, M01=0, M06=1, M12=2)
    S.add_barrow(state, 0, "C054", [True, False])
    S.goods(state, 0, MT=1, vp=0)
    state, _ = S.do(state, 0, "deliver MT C054")
    assert S.options(state, 0) == ["hex M05", "hex M18"]
    state, _ = S.do(state, 0, "hex M05")
    # Full case: seat 1's M05 marker removed (+1), then the sweep: M06 (4) and M12 (5) removed; own M01 stays.
    assert state.farms[0].vp == 6 + 3
    assert state.market[0] == 0 and state.market[4] == 0 and state.market[5] == -1 and state.market[11] == -1


def test_3_8_the_sweep_leaves_equal_values():
    state = at_t4(marker="D4", players=2)
    clear_market(state)
    put(state, M01=1, M03=1)  # M01 value 2, M03 value 4
    S.add_barrow(state, 0, "C034", [True, True, False])  # OL OL FD: 4 VP
    S.goods(state, 0, FD=1, vp=0)
    state, _ = S.do(state, 0, "deliver FD C034")
    assert "hex M06" in S.options(state, 0)
    state, _ = S.do(state, 0, "hex M06")  # M06 touches M01 (2, removed), not M03 (4)
    assert state.market[0] == -1 and state.market[2] == 1 and state.farms[0].vp == 5


def test_r40_butcher_adds_a_point_per_barrow_but_not_to_the_market_value():
    state = at_t4(marker="D4")
    state.farms[0].buildings = [6]
    clear_market(state)
    S.add_barrow(state, 0, "C009", [True, False])  # 2 VP
    S.goods(state, 0, GR=1, vp=0)
    state, _ = S.do(state, 0, "deliver GR C009")
    assert state.farms[0].vp == 3
    assert all(GAME.view(state, 0)["market"][int(text[5:]) - 1]["value"] == 2 for text in S.options(state, 0))


def test_r13_r50_relocations_score_nothing_and_h07_pays_per_removed_marker():
    state = at_t4(marker="D4", players=3)
    clear_market(state)
    # Seat 1 owns two markers next to M05 (6) and one Market refuge; seat 2 has compensation (VP).
    put(state, M04=1, M06=1, M13=2, M11=2)
    S.add_helper(state, 1, S.card_with(helper="H08"))
    S.add_helper(state, 2, S.card_with(helper="H07", param="vp"))
    S.add_barrow(state, 0, "C054", [True, False])
    S.goods(state, 0, MT=1, vp=0)
    vp2 = state.farms[2].vp
    state, events = S.do(state, 0, "deliver MT C054", "hex M05")
    # M04 (5) is relocated (highest first) to the best empty 5-hex away from M05; M06 (4) is removed.
    assert state.market[3] == -1 and state.market[14] == 1 and state.market[5] == -1
    assert state.farms[0].vp == 6 + 3  # M06, M13, M11 removed; the relocation scores nothing
    assert state.farms[2].vp == vp2 + 2


def test_r30_markers_are_unlimited():
    state = at_t4(marker="D4", players=2)
    for index in range(19):
        state.market[index] = 0 if index != 7 else -1
    S.add_barrow(state, 0, "C009", [True, False])
    S.goods(state, 0, GR=1)
    state, _ = S.do(state, 0, "deliver GR C009", "hex M08")
    assert sum(owner == 0 for owner in state.market) == 19


def test_h16_crate_substitute_lets_a_trade_good_cover_any_other_symbol_once():
    state = at_t4(marker="D4")
    S.add_helper(state, 0, S.card_with(helper="H16"))
    S.add_barrow(state, 0, "C012")  # OL+OL
    S.goods(state, 0, TG=2, OL=0)
    assert "deliver TG C012 as OL" in S.options(state, 0)
    open_b = next(n for n, b in enumerate(state.buildings, 1) if not b.order_marker)
    assert any(text.startswith(f"deliver TG b{open_b} as") for text in S.options(state, 0))
    state, _ = S.do(state, 0, "deliver TG C012 as OL")
    assert state.farms[0].barrows[0].covered == [True, False] and state.farms[0].helpers[0].used
    assert "deliver TG C012 as OL" not in S.options(state, 0)
    assert "Crate substitute" in S.refused(state, 0, "deliver TG C012 as OL")


def test_roof_delivery_in_a_window_completes_at_once():
    state = at_t1()
    S.add_roof(state, 0, "R1-A")
    S.add_barrow(state, 0, "C009", [True, False])
    S.goods(state, 0, GR=1, vp=0)
    state, _ = S.do(state, 0, "use R1-A deliver", "deliver GR C009")
    assert state.farms[0].vp == 2 and "hex" in S.kinds(state, 0)
    assert state.phase == T1_DONKEY and 0 in to_act(state)


def test_r15_placements_never_use_outer_hexes_below_four_players():
    state = at_t4(marker="D4", players=3)
    clear_market(state)
    put(state, M05=1, M07=2, M18=1)  # every 6-hex in play is taken; M22 and M28 are not in play
    S.add_barrow(state, 0, "C054", [True, False])
    S.goods(state, 0, MT=1)
    state, _ = S.do(state, 0, "deliver MT C054")
    assert S.options(state, 0) == ["hex M05", "hex M07", "hex M18"]
    assert "only in play with 4 players" in S.refused(state, 0, "hex M22")
