"""Anytime actions (1.11, 3.1), helper abilities (1.12.3) and roof abilities (1.6)."""

from __future__ import annotations

import pytest

from engine.games.granja import GAME
from engine.games.granja.config import CONFIG, CROPS, ROOFS
from engine.games.granja.effects import effect_args
from engine.games.granja.farm import gain_pigs, upgrade_price
from engine.games.granja.model import F3_PROMPT, F4_ROOFS, R2_PICK, T4_DELIVER
from engine.games.granja.rules import clean_up, harvest
from engine.games.granja.scoring import liquidate

from . import support as S

NOTHING = dict(GR=0, OL=0, GP=0, PG=0, FD=0, WN=0, MT=0, TG=0)


def window(players=2, seed=1, phase=F4_ROOFS, seat=0):
    """Seat 0 in its F4 turn of round 2 (a window), with an empty store."""
    state = S.new(players, seed=seed)
    state.order = list(range(players))
    state.roofs_offer = []
    S.goods(state, seat, silver=0, vp=5, **NOTHING)
    return S.at_sequential(state, phase, seat, round_number=2)


# ----- prices (1.11, R25, R26) -----------------------------------------------------------------------


def test_1_11_buy_and_sell_prices():
    state = window()
    S.goods(state, 0, silver=10)
    state, _ = S.do(state, 0, "buy GR", "buy PG")
    assert state.farms[0].silver == 10 - 2 - 3
    S.goods(state, 0, FD=1, WN=1, MT=1)
    state, _ = S.do(state, 0, "sell GR", "sell PG", "sell FD", "sell WN", "sell MT")
    assert state.farms[0].silver == 5 + 1 + 2 + 3 + 4 + 3


@pytest.mark.parametrize(("source", "result", "price"), [("GR", "FD", 2), ("OL", "FD", 2), ("GP", "WN", 3), ("PG", "MT", 1)])
def test_1_11_upgrade_prices(source, result, price):
    state = window()
    S.goods(state, 0, silver=price, **{source: 1})
    state, _ = S.do(state, 0, f"upgrade {source}")
    assert state.farms[0].goods[result] == 1 and state.farms[0].silver == 0
    S.goods(state, 0, silver=price - 1, **{source: 1})
    assert "costs" in S.refused(state, 0, f"upgrade {source}")


@pytest.mark.parametrize("discounts", [0, 1, 2])
def test_r25_r49_no_buy_upgrade_sell_loop_gains_silver(discounts):
    state = S.new(2)
    for card in ("C028", "C035", "C041")[:discounts]:  # the H01 cards
        S.add_helper(state, 0, card)
    farm = state.farms[0]
    for resource, result in (("GR", "FD"), ("OL", "FD"), ("GP", "WN"), ("PG", "MT")):
        loop = -CONFIG.buy_price[resource] - upgrade_price(farm, resource) + CONFIG.sell_price[result]
        assert loop <= 0, (resource, discounts)


def test_r26_crops_on_fields_cannot_be_sold_but_can_be_upgraded_and_paid():
    state = window()
    S.add_field(state, 0, S.card_with(field="GR"), crop=True)
    S.goods(state, 0, silver=2)
    assert "sell GR" not in S.options(state, 0)
    assert "Crops on fields cannot be sold" in S.refused(state, 0, "sell GR")
    assert "upgrade GR@field" in S.options(state, 0)


def test_1_11_a_pig_is_bought_only_into_a_free_space():
    state = window()
    S.goods(state, 0, silver=5, PG=2)
    assert "buy PG" not in S.options(state, 0)
    assert "pigsty is full" in S.refused(state, 0, "buy PG")


# ----- trade goods (R27) -----------------------------------------------------------------------------


def test_r27_trade_good_exchange_list():
    state = window()
    S.goods(state, 0, TG=1, GR=1)
    tg = [text for text in S.options(state, 0) if text.startswith("tg")]
    assert tg == ["tg silver", "tg crops GR OL", "tg crops GR GP", "tg crops OL GP", "tg play", "tg draw", "tg pig",
                  "tg upgrade 2"]


@pytest.mark.parametrize(
    ("move", "check"),
    [
        ("tg silver", lambda farm: farm.silver == 4),
        ("tg crops OL GP", lambda farm: (farm.goods["OL"], farm.goods["GP"]) == (1, 1)),
        ("tg pig", lambda farm: farm.goods["PG"] == 1),
        ("tg draw", lambda farm: len(farm.hand) == 5),
    ],
)
def test_r27_trade_good_effects(move, check):
    state = window()
    S.goods(state, 0, TG=1)
    state, _ = S.do(state, 0, move)
    assert check(state.farms[0]) and state.farms[0].goods["TG"] == 0


def test_r27_trade_good_upgrades_up_to_two_for_free():
    state = window()
    S.goods(state, 0, TG=1, GP=2)
    state, _ = S.do(state, 0, "tg upgrade 2", "upgrade GP", "upgrade GP")
    assert state.farms[0].goods["WN"] == 2 and state.farms[0].silver == 0


# ----- windows (3.1, R24) ----------------------------------------------------------------------------


def test_r24_anytime_actions_only_for_the_active_seat_and_never_in_automatic_steps():
    state = window()
    S.goods(state, 1, silver=9)
    assert GAME.legal_moves(state, 1) == []
    assert "not your turn" in S.refused(state, 1, "buy GR")
    state.phase = F3_PROMPT
    state.choices[0].waiting = True
    state.farms[0].buildings = [4]
    assert not S.kinds(state, 0) & {"buy", "sell", "upgrade", "tg", "use"}


def test_r24_no_anytime_action_while_a_choice_is_pending():
    state = window()
    S.goods(state, 0, TG=2, GR=2, silver=5)
    state, _ = S.do(state, 0, "tg upgrade 2", "upgrade GR")
    assert S.options(state, 0) == ["upgrade GR", "pass"]  # the optional second upgrade comes first
    assert "First finish" in S.refused(state, 0, "buy OL")


# ----- helpers (1.12.3) ------------------------------------------------------------------------------


def test_h01_upgrade_discount_and_r49_copies_count_once():
    state = window()
    S.add_helper(state, 0, "C028")
    S.add_helper(state, 0, "C035")
    S.goods(state, 0, silver=2, GP=1)
    state, _ = S.do(state, 0, "upgrade GP")
    assert state.farms[0].silver == 0  # 3 - 1, not 3 - 2


def test_h02_r36_free_upgrade_once_per_round_and_usable_the_step_it_is_played():
    state = window()
    h02 = S.card_with(helper="H02")
    S.goods(state, 0, TG=1, PG=1)
    S.set_hand(state, 0, [h02, "C030"])
    state, _ = S.do(state, 0, "tg play", f"play {h02} helper")
    assert f"use {h02}" in S.options(state, 0)
    state, _ = S.do(state, 0, f"use {h02}", "upgrade PG")
    assert state.farms[0].goods["MT"] == 1 and state.farms[0].silver == 0
    assert f"use {h02}" not in S.options(state, 0)
    assert "usage marker" in S.refused(state, 0, f"use {h02}")
    clean_up(state, [])  # R36: usage markers come off in S2
    assert not state.farms[0].helpers[0].used


@pytest.mark.parametrize(
    ("pair", "setup", "move_suffix", "check"),
    [
        ("GR>OL", {"GR": 1}, " GR", lambda f: (f.goods["GR"], f.goods["OL"]) == (0, 1)),
        ("OL>GP", {"OL": 1}, " OL", lambda f: f.goods["GP"] == 1),
        ("GP>GR", {"GP": 1}, " GP", lambda f: f.goods["GR"] == 1),
        ("2$>PG", {"silver": 2}, "", lambda f: f.goods["PG"] == 1 and f.silver == 0),
        ("3$>TG", {"silver": 3}, "", lambda f: f.goods["TG"] == 1 and f.silver == 0),
        ("1VP>2$", {"vp": 1}, "", lambda f: f.vp == 0 and f.silver == 2),
    ],
)
def test_h04_exchange_pairs(pair, setup, move_suffix, check):
    state = window()
    card = S.card_with(helper="H04", param=pair)
    S.add_helper(state, 0, card)
    S.goods(state, 0, **setup)
    state, _ = S.do(state, 0, f"use {card}{move_suffix}")
    assert check(state.farms[0]) and state.farms[0].helpers[0].used


def test_h04_a_crop_may_come_from_a_field_and_a_pig_needs_room():
    state = window()
    card = S.card_with(helper="H04", param="GR>OL")
    S.add_helper(state, 0, card)
    S.add_field(state, 0, S.card_with(field="GR"), crop=True)
    assert S.options(state, 0).count(f"use {card} GR@field") == 1
    pig = S.card_with(helper="H04", param="2$>PG")
    S.add_helper(state, 0, pig)
    S.goods(state, 0, silver=2, PG=2)
    assert f"use {pig}" not in S.options(state, 0)


def test_h10_quick_planting_costs_a_vp_and_plays_a_card():
    state = window()
    card = S.card_with(helper="H10")
    S.add_helper(state, 0, card)
    hand = list(state.farms[0].hand)
    state, _ = S.do(state, 0, f"use {card}", f"play {hand[0]} field")
    assert state.farms[0].vp == 4 and state.farms[0].fields[0].card == hand[0]
    S.goods(state, 0, vp=0)
    state.farms[0].helpers[0].used = False
    assert f"use {card}" not in S.options(state, 0)


def test_h15_r51_haggler_adds_to_the_first_sale_of_the_round_overflow_and_liquidation_included():
    state = window()
    S.add_helper(state, 0, S.card_with(helper="H15"))
    S.goods(state, 0, GR=2)
    state, _ = S.do(state, 0, "sell GR", "sell GR")
    assert state.farms[0].silver == 1 + 1 + 1
    clean_up(state, [])
    S.goods(state, 0, PG=2, silver=0)
    gain_pigs(state, 0, 1, [])
    assert state.farms[0].silver == 2 + 1
    clean_up(state, [])
    S.goods(state, 0, silver=0, vp=5, FD=1, PG=0)
    liquidate(state, [])
    assert state.farms[0].silver == 3 + 1 and state.farms[0].vp == 5


def test_r51_the_liquidation_is_a_sale_when_it_turns_anything_into_silver_trade_goods_alone_included():
    state = window()
    S.add_helper(state, 0, S.card_with(helper="H15"))
    S.add_helper(state, 1, S.card_with(helper="H15", avoid=[state.farms[0].helpers[0].card]))
    for seat in (0, 1):
        S.goods(state, seat, silver=0, vp=0, **dict.fromkeys(("GR", "OL", "GP", "PG", "FD", "WN", "MT", "TG"), 0))
    S.goods(state, 0, TG=1)
    liquidate(state, [])
    # Trade goods alone are a sale: 4 $ + 1 $ (Haggler) = 5 $ = 1 VP at the end rate.
    assert (state.farms[0].vp, state.farms[0].silver) == (1, 0) and state.farms[0].helpers[0].used
    assert (state.farms[1].vp, state.farms[1].silver) == (0, 0) and not state.farms[1].helpers[0].used


def test_h15_two_copies_both_pay_on_the_first_sale_and_nothing_after_it():
    # Each copy of a 1x helper is its own ability: both watch the round's first sale.
    state = window()
    S.add_helper(state, 0, S.card_with(helper="H15"))
    S.add_helper(state, 0, S.card_with(helper="H15", avoid=[state.farms[0].helpers[0].card]))
    S.goods(state, 0, GR=2)
    state, events = S.do(state, 0, "sell GR")
    assert state.farms[0].silver == 1 + 2
    assert all(helper.used for helper in state.farms[0].helpers)
    state, _ = S.do(state, 0, "sell GR")
    assert state.farms[0].silver == 1 + 2 + 1


def test_h15_a_haggler_placed_after_the_first_sale_of_the_round_waits_for_the_next_round():
    state = window()
    S.goods(state, 0, GR=2, PG=1)
    state, _ = S.do(state, 0, "sell GR")
    S.add_helper(state, 0, S.card_with(helper="H15"))
    state, _ = S.do(state, 0, "sell GR")
    assert state.farms[0].silver == 2 and not state.farms[0].helpers[0].used
    clean_up(state, [])
    state = S.at_sequential(state, F4_ROOFS, 0)
    state, _ = S.do(state, 0, "sell PG")
    assert state.farms[0].silver == 2 + 2 + 1


def test_r49_identical_passive_helpers_do_not_add_but_different_parameters_do():
    state = S.new(2)
    S.add_helper(state, 0, S.card_with(helper="H11", param="OL"))
    S.add_field(state, 0, S.card_with(field="OL"))
    harvest(state, [])
    assert state.farms[0].goods["OL"] == 1
    S.add_helper(state, 0, S.card_with(helper="H07", param="vp"))
    S.add_helper(state, 0, S.card_with(helper="H07", param="silver"))
    assert state.farms[0].passive("H07") == {"vp", "silver"}
    S.add_helper(state, 1, "C016")
    S.add_helper(state, 1, "C042")  # two H07 (VP): one reward
    assert state.farms[1].passive("H07") == {"vp"}


# ----- roofs (1.6, R46) ------------------------------------------------------------------------------


@pytest.mark.parametrize("roof", sorted(ROOFS))
def test_1_6_every_roof_offers_its_catalogue_options(roof):
    state = window()
    S.add_roof(state, 0, roof)
    S.goods(state, 0, GR=1, OL=1)
    S.add_barrow(state, 0, "C009")  # OL+GR: a delivery exists
    expected = [" ".join(("use", roof, *args)) for template in ROOFS[roof][1] for args in effect_args(template)]
    assert [text for text in S.options(state, 0) if text.startswith(f"use {roof}")] == expected


def test_r46_a_roof_ability_works_once_per_game():
    state = window()
    S.add_roof(state, 0, "R3-B")
    state, _ = S.do(state, 0, "use R3-B silver")
    assert state.farms[0].silver == 2 and state.farms[0].roofs[0].used
    clean_up(state, [])
    assert state.farms[0].roofs[0].used
    state = S.at_sequential(state, F4_ROOFS, 0, round_number=3)
    assert "once per game" in S.refused(state, 0, "use R3-B silver")


def test_r46_r2d_gives_a_pig_or_a_crop_and_r5d_an_upgrade():
    state = window()
    S.add_roof(state, 0, "R2-D")
    S.add_roof(state, 0, "R5-D")
    S.goods(state, 0, OL=1)
    roof_moves = [text for text in S.options(state, 0) if text.startswith("use R")]
    assert roof_moves == ["use R2-D pig"] + [f"use R2-D crop {crop}" for crop in CROPS] + ["use R5-D upgrade"]


def test_r47_roof_options_without_effect_are_not_offered():
    state = window()
    S.add_roof(state, 0, "R2-B")
    S.add_roof(state, 0, "R1-A")
    state.siesta_space[0] = 8
    assert not any(text.startswith(("use R2-B", "use R1-A")) for text in S.options(state, 0))
    assert "top space" in S.refused(state, 0, "use R2-B siesta 1")
    assert "No delivery is possible" in S.refused(state, 0, "use R1-A deliver")


def test_roofs_carry_over_between_rounds_and_are_used_in_any_window():
    state = window(phase=R2_PICK)
    state.dice = [1, 2, 3, 4, 5]
    S.add_roof(state, 0, "R1-B")
    state, _ = S.do(state, 0, "use R1-B crops GR GP")
    assert (state.farms[0].goods["GR"], state.farms[0].goods["GP"]) == (1, 1)
    assert S.kinds(state, 0) == {"take", "sell"}  # the die is still to take


def test_3_4_extension_played_outside_f1_counts_every_extension_on_the_farm():
    state = S.new(2)
    state.farms[0].donkeys = ["D1", "D2"]
    state = S.at_sequential(state, T4_DELIVER, 0, round_number=2)
    S.add_extension(state, 0, S.card_with(extension="E-DI"))
    S.goods(state, 0, TG=1, silver=1, GR=1)
    card = state.farms[0].hand[0]
    state, _ = S.do(state, 0, "tg play", f"play {card} ext")
    assert "2 farm goods" in GAME.view(state, 0)["task"]
    state, _ = S.do(state, 0, "pay GR", "pay $")
    assert len(state.farms[0].extensions) == 2
