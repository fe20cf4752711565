"""The spec's worked examples (section 6), E1-E7, step by step."""

from __future__ import annotations

import pytest

from engine.games.granja import GAME
from engine.games.granja.config import CONFIG
from engine.games.granja.model import F3_PROMPT, F4_ROOFS, T1_DONKEY, T4_DELIVER
from engine.games.granja.rules import available_donkeys
from engine.games.granja.scoring import score_round

from . import support as S

NO_GOODS = dict(GR=0, OL=0, GP=0, PG=0, FD=0, WN=0, MT=0)


def empty_market(state):
    state.market = [-1] * len(state.market)


def hex_index(name):
    return int(name[1:]) - 1


# ----- Example 1 -----------------------------------------------------------------------------------


def example_1_state():
    state = S.at_f1(S.new(2, seed=3), 3)
    ana = 0
    S.add_extension(state, ana, "C001")  # E-DI
    S.add_extension(state, ana, "C002")  # E-IP
    S.goods(state, ana, silver=2, vp=5, TG=1, **(NO_GOODS | {"GR": 2}))
    S.add_field(state, ana, S.card_with(field="OL"), crop=True)
    dp = S.card_with(extension="E-DP", avoid=["C003"])
    others = [S.card_with(extension="E-DI", avoid=["C001", "C005", "C008", "C010"]), "C020", "C021"]
    S.set_hand(state, ana, [dp, *others])
    return state, dp


def test_example_1_third_extension_cost():
    state, dp = example_1_state()
    ana, ben = 0, 1
    farm = state.farms[ana]
    assert (farm.hand_limit, farm.extra_delivery_limit, farm.income, farm.pig_capacity) == (5, 2, 2, 4)
    state, _ = S.do(state, ana, f"play {dp} ext")
    assert "3 farm goods" in GAME.view(state, ana)["task"]
    # 1. GR, GR, $: the types are not all different.
    after_grain, _ = S.do(state, ana, "pay GR")
    assert "different type" in S.refused(after_grain, ana, "pay GR")
    assert "pay GR@field" not in S.options(after_grain, ana)
    # 2. GR, $, TG: a trade good is not a farm good.
    after_silver, _ = S.do(state, ana, "pay GR", "pay $")
    assert "not a farm good" in S.refused(after_silver, ana, "pay TG")
    # 3. GR (store), OL (field), 1 VP: accepted; nothing is taken before the reveal.
    state, _ = S.do(state, ana, "pay GR", "pay OL@field", "pay VP")
    assert GAME.to_act(state) == (ben,)
    shown = S.public(state)["farms"][ana]
    assert (shown["silver"], shown["vp"], shown["goods"]["GR"], shown["hand_size"]) == (2, 5, 2, 4)
    assert shown["fields"][0]["full"] and len(shown["extensions"]) == 2
    state, events = S.do(state, ben, f"play {state.farms[ben].hand[0]} field")
    farm = state.farms[ana]
    # Reveal: 2 $, 4 VP, GR 1, olive field emptied; then refill 3 -> 6, F2 +2 $, F3b regrows the olive.
    assert (farm.vp, farm.goods["GR"], farm.goods["TG"]) == (4, 1, 1)
    assert (farm.hand_limit, farm.extra_delivery_limit, farm.income, farm.pig_capacity) == (6, 3, 2, 6)
    assert len(farm.hand) == 6 and farm.silver == 4
    assert farm.fields[0].crop
    public_texts = S.texts(events)
    assert any("{p0} draws 3 cards" in text for text in public_texts)
    assert any("{p0} receives 2 $ income" in text for text in public_texts)
    reveal = next(i for i, text in enumerate(public_texts) if f"plays {dp} as an extension" in text)
    income = next(i for i, text in enumerate(public_texts) if "{p0} receives 2 $" in text)
    grow = next(i for i, text in enumerate(public_texts) if "{p0}'s fields grow" in text)
    assert reveal < income < grow
    assert state.phase == F4_ROOFS


# ----- Example 2 -----------------------------------------------------------------------------------


def test_example_2_market_placement_and_displacement():
    state = S.new(4, seed=2)
    ana, ben, cara, dan = 0, 1, 2, 3
    empty_market(state)
    for name, owner in {"M04": ben, "M11": dan, "M12": cara, "M13": ben, "M01": ana, "M07": dan}.items():
        state.market[hex_index(name)] = owner
    S.add_barrow(state, cara, "C059", [True, True, False])  # FD+FD+FD, printed 6 VP
    S.goods(state, cara, FD=1, TG=1, vp=1)
    for farm in state.farms:
        farm.donkeys = ["D1", "D3"]
    state = S.at_sequential(state, T4_DELIVER, cara, round_number=2)
    state, _ = S.do(state, cara, "deliver FD C059")
    assert state.farms[cara].vp == 7 and state.farms[cara].goods["TG"] == 2
    assert "C059" in state.discard and not state.farms[cara].barrows
    assert S.options(state, cara) == ["hex M05", "hex M18", "hex M22", "hex M28"]
    state, events = S.do(state, cara, "hex M05")
    assert state.farms[cara].vp == 11  # +6 for the barrow, +4 for the removed markers
    owners = {f"M{i + 1:02d}": owner for i, owner in enumerate(state.market) if owner >= 0}
    assert owners == {"M05": cara, "M12": cara, "M07": dan}
    assert sum("removes" in text for text in S.texts(events)) == 4


# ----- Example 3 -----------------------------------------------------------------------------------


def example_3_state():
    state = S.new(3, seed=5)
    ana, ben, cara = 0, 1, 2
    for building in state.buildings:
        building.order_marker = 0
    state.buildings[1].order_marker = 1  # Village Shop
    state.buildings[4].order_marker = 2  # Delicatessen
    state.buildings[5].order_marker = 3  # Butcher
    state.buildings[3].rows[ana] = [True, True, True, False]  # Greengrocer: GR OL GP covered
    S.goods(state, ana, vp=10, FD=1, GR=2, PG=1, OL=0, GP=0)
    for farm in state.farms:
        farm.donkeys = ["D1", "D3"]
    state.order = [ana, ben, cara]
    return S.at_sequential(state, T4_DELIVER, ana, round_number=2)


def test_example_3_building_completion_first_finisher_and_unblocking():
    state = example_3_state()
    ana, ben, cara = 0, 1, 2
    assert state.budget == 3
    assert "deliver GR b2" not in S.options(state, ana)  # blocked
    state, events = S.do(state, ana, "deliver FD b4")
    log = S.texts(events)
    order = ["completes the Greengrocer", "first to finish", "Building-order marker 1 leaves", "building marker"]
    positions = [next(i for i, text in enumerate(log) if part in text) for part in order]
    assert positions == sorted(positions)
    assert state.buildings[3].finishers == [ana] and not state.buildings[3].hex_vp
    assert state.buildings[1].order_marker == 0
    assert S.options(state, ana) == ["gain GR", "gain OL", "gain GP", "gain PG"]
    state, _ = S.do(state, ana, "gain PG")
    farm = state.farms[ana]
    assert farm.goods["PG"] == 2 and farm.vp == 14 and farm.buildings == [4]
    assert state.budget == 2
    state, _ = S.do(state, ana, "deliver GR b2", "deliver PG b2")
    assert state.buildings[1].rows[ana] == [True, False, True, False]
    assert state.budget == 0
    # Round 3: through T5 and scoring to the next F1, then the Greengrocer prompt in F3.
    state, _ = S.do(state, ana, "done")
    state, _ = S.do(state, ben, "done")
    state, _ = S.do(state, cara, "done")
    for seat in list(state.order):
        state, _ = S.do(state, seat, "done")
    assert state.round == 3
    for seat in range(3):
        state, _ = S.do(state, seat, f"play {state.farms[seat].hand[0]} field")
    assert state.phase == F3_PROMPT and GAME.to_act(state) == (ana,)
    olives = state.farms[ana].goods["OL"]
    state, _ = S.do(state, ana, "gain OL")
    assert state.farms[ana].goods["OL"] == olives + 1
    # Ben completes the Greengrocer in round 3: marker, +3 VP, a resource; no hex VP, no unblocking.
    state.buildings[3].rows[ben] = [True, True, True, False]
    S.goods(state, ben, FD=1)
    state.farms[ben].donkeys = ["D1", "D3", "D2"]
    state = S.at_sequential(state, T4_DELIVER, ben, round_number=3)
    before = state.farms[ben].vp
    blocked = [building.order_marker for building in state.buildings]
    state, events = S.do(state, ben, "deliver FD b4")
    assert state.farms[ben].vp == before + 3
    assert [building.order_marker for building in state.buildings] == blocked
    assert state.buildings[3].finishers == [ana, ben]
    assert not any("first to finish" in text for text in S.texts(events))
    assert S.options(state, ben)[0] == "gain GR"


# ----- Example 4 -----------------------------------------------------------------------------------


def test_example_4_r22_donkey_marker_availability():
    state = S.new(2, seed=4)
    ana, ben = 0, 1
    picks = {1: "D2", 2: "D4", 3: "D1", 4: "D3", 5: "D4"}
    offered = {1: "D1 D2 D3 D4", 2: "D1 D3 D4", 3: "D1 D3", 4: "D1 D2 D3 D4", 5: "D1 D2 D4", 6: "D1 D2"}
    for round_number in range(1, 7):
        state.round = round_number
        state.phase = T1_DONKEY
        for choice in state.choices:
            choice.waiting = True
        assert " ".join(available_donkeys(state, ana)) == offered[round_number]
        assert [text for text in S.options(state, ana) if text.startswith("donkey")] == [
            f"donkey {marker}" for marker in offered[round_number].split()
        ]
        if round_number == 5:
            assert "already chose D3" in S.refused(state, ana, "donkey D3")
        if round_number == 6:
            break
        state, _ = S.do(state, ana, f"donkey {picks[round_number]}")
        state, _ = S.do(state, ben, f"donkey {available_donkeys(state, ben)[0]}")
        assert state.farms[ana].donkeys[-1] == picks[round_number]
    assert state.farms[ana].donkeys == ["D2", "D4", "D1", "D3", "D4"]


# ----- Example 5 -----------------------------------------------------------------------------------


def test_example_5_pig_breeding_with_a_full_pigsty():
    state = S.at_f1(S.new(2, seed=6), 3)
    dan, other = 0, 1
    S.goods(state, dan, PG=2, silver=1)
    dp = S.card_with(extension="E-DP", avoid=["C003"])
    S.set_hand(state, dan, [S.card_with(field="GR", avoid=[dp]), dp, "C020"])

    def through_f1(state, dan_moves):
        state, _ = S.do(state, dan, *dan_moves)
        state, events = S.do(state, other, f"play {state.farms[other].hand[0]} field")
        assert state.phase == F4_ROOFS
        return state, events

    state, _ = through_f1(state, [f"play {state.farms[dan].hand[0]} field"])
    assert state.farms[dan].goods["PG"] == 2  # round 3: no free space, no piglet
    state = S.at_f1(state, 4)
    state, _ = through_f1(state, [f"play {dp} ext", "pay $"])
    farm = state.farms[dan]
    assert farm.extensions == [dp] and farm.pig_capacity == 4 and farm.goods["PG"] == 3
    state = S.at_f1(state, 5)
    state, _ = through_f1(state, [f"play {state.farms[dan].hand[0]} field"])
    assert state.farms[dan].goods["PG"] == 4
    # Round 5 R2: a die showing 1, and no room for the pig: it is sold at once.
    state.dice = [1, 3, 4, 5, 6]
    state = S.at_sequential(state, "R2", dan, round_number=5)
    silver = state.farms[dan].silver
    state, events = S.do(state, dan, "take 1", "die pig")
    assert state.farms[dan].goods["PG"] == 4 and state.farms[dan].silver == silver + 2
    assert any("sells it for 2 $" in text for text in S.texts(events))
    state = S.at_f1(state, 6)
    state, _ = through_f1(state, [f"play {state.farms[dan].hand[0]} field"])
    assert state.farms[dan].goods["PG"] == 4


# ----- Example 6 -----------------------------------------------------------------------------------


def test_example_6_full_case_with_a_market_refuge():
    state = S.new(3, seed=7)
    ana, ben, cara = 0, 1, 2
    empty_market(state)
    for name, owner in {"M05": ben, "M07": cara, "M18": ana, "M06": cara}.items():
        state.market[hex_index(name)] = owner
    S.add_helper(state, ben, S.card_with(helper="H08"))
    S.add_helper(state, cara, S.card_with(helper="H07", param="silver"))
    S.add_barrow(state, ana, "C059", [True, True, False])
    S.goods(state, ana, FD=1, vp=3, TG=0)
    S.goods(state, cara, silver=0, vp=2)
    for farm in state.farms:
        farm.donkeys = ["D1"]
    state = S.at_sequential(state, T4_DELIVER, ana, round_number=1)
    state, _ = S.do(state, ana, "deliver FD C059")
    assert S.options(state, ana) == ["hex M05", "hex M07"]
    state, events = S.do(state, ana, "hex M05")
    owners = {f"M{i + 1:02d}": owner for i, owner in enumerate(state.market) if owner >= 0}
    assert owners == {"M05": ana, "M15": ben, "M07": cara, "M18": ana}
    assert state.farms[ben].helpers[0].used
    assert state.farms[ana].vp == 3 + 7 and state.farms[ana].goods["TG"] == 1
    assert state.farms[cara].silver == 2 and state.farms[cara].vp == 2
    assert sum(owner == ben for owner in state.market) == 1
    assert any("Market refuge moves their marker from M05 to M15" in text for text in S.texts(events))


# ----- Example 7 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
def test_example_7_siesta_top_space(seed):
    state = S.new(3, seed=seed)
    a, b, c = 0, 1, 2
    state.round = 5
    state.order = [a, b, c]
    state.siesta_space = [8, 6, 0]
    state.siesta_stamp = [5, 6, 7]
    state.siesta_clock = 7
    for farm in state.farms:
        farm.donkeys = ["D4", "D4", "D4", "D3"]
    state.phase = T1_DONKEY
    for choice in state.choices:
        choice.waiting = True
    state, _ = S.do(state, a, "donkey D1")
    state, _ = S.do(state, b, "donkey D2")
    state, _ = S.do(state, c, "donkey D4")
    assert state.siesta_space == [8, 8, 0]
    assert state.siesta_stamp[a] == 5 and state.siesta_stamp[b] > state.siesta_stamp[a]
    assert S.public(state)["siesta_stacks"]["8"] == [a, b]  # bottom to top
    assert state.order == [b, a, c]
    empty_market(state)
    before = [farm.vp for farm in state.farms]
    score_round(state, [])
    assert [farm.vp - old for farm, old in zip(state.farms, before, strict=True)] == [4, 4, 0]
    assert CONFIG.section_vp(8) == 4
