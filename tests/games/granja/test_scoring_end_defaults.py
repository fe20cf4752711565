"""Scoring and clean-up (3.9), the end of the game (3.10) and the timeout defaults (R42, R55)."""

from __future__ import annotations

from engine.games.granja import GAME, model
from engine.games.granja.notation import format_move
from engine.games.granja.rules import clean_up, to_act
from engine.games.granja.scoring import score_round

from . import support as S


def default(state, seat):
    return format_move(GAME.default_move(state, seat))


# ----- S1 and S2 -------------------------------------------------------------------------------------


def test_r31_r45_each_round_scores_market_markers_then_the_siesta():
    state = S.new(3, seed=1)
    state.siesta_space = [3, 0, 8]
    before = [farm.vp for farm in state.farms]
    events = []
    score_round(state, events)
    # Every seat owns its start hex: 1 VP each, then sections II, I and V.
    assert [farm.vp - old for farm, old in zip(state.farms, before, strict=True)] == [1 + 2, 1 + 0, 1 + 4]
    assert all("VP for market markers and" in text for text in S.texts(events))


def test_s2_clean_up_resets_discs_in_turn_order_clears_usage_and_reveals_roofs():
    state = S.new(3, seed=2)
    state.order = [2, 0, 1]
    state.siesta_space = [5, 2, 7]
    S.add_helper(state, 0, S.card_with(helper="H02"), used=True)
    state.round = 2
    clean_up(state, [])
    assert state.siesta_space == [0, 0, 0]
    assert sorted(range(3), key=lambda seat: -state.siesta_stamp[seat]) == [2, 0, 1]
    assert not state.farms[0].helpers[0].used
    assert state.round == 3 and state.phase == model.F1_PLAY and state.roofs_offer == state.roofs_future[2]


def test_s2_the_sixth_round_ends_in_the_final_window():
    state = S.new(2, seed=3)
    state.round = 6
    state.order = [1, 0]
    clean_up(state, [])
    assert state.phase == model.END_WINDOW and to_act(state) == (1,)


# ----- the end (3.10) --------------------------------------------------------------------------------


def test_3_10_final_window_then_liquidation_and_silver_to_vp():
    state = S.new(2, seed=4)
    state.round = 6
    state.order = [0, 1]
    clean_up(state, [])
    S.add_field(state, 0, S.card_with(field="GR"), crop=True)  # crops on fields score nothing
    S.add_barrow(state, 0, "C009", [True, False])  # nor partial barrows
    S.goods(state, 0, silver=3, vp=10, GR=1, OL=0, GP=2, PG=1, FD=1, WN=1, MT=1, TG=2)
    S.goods(state, 1, silver=0, vp=10, TG=0)
    state, _ = S.do(state, 0, "sell WN")  # an anytime action in the final window
    assert state.farms[0].silver == 7
    state, _ = S.do(state, 0, "done")
    assert state.phase == model.END_WINDOW and to_act(state) == (1,)
    state, events = S.do(state, 1, "done")
    assert state.phase == model.OVER and to_act(state) == ()
    farm = state.farms[0]
    # 7 + GR 1 + GP 2 + PG 2 + FD 3 + MT 3 + 2 TG x 4 = 26 $ -> 5 VP, 1 $ left.
    assert (farm.vp, farm.silver) == (15, 1)
    assert sum(farm.goods.values()) == 0
    assert GAME.outcome(state).scores == [15.0, 10.0]


def test_r32_ties_go_to_the_most_silver_left_then_stay_shared():
    state = S.new(3, seed=5)
    for seat, (vp, silver) in enumerate([(20, 3), (20, 4), (20, 4)]):
        S.goods(state, seat, vp=vp, silver=silver)
    state.phase = model.OVER
    outcome = GAME.outcome(state)
    assert outcome.ranks == [3, 1, 1] and outcome.winners == [1, 2]
    assert GAME.view(state, None)["winners"] == [1, 2]


# ----- defaults (R42, R55) ---------------------------------------------------------------------------


def test_r42_f1_default_plays_the_first_hand_card_as_a_field():
    state = S.new(2, seed=6)
    first = state.farms[0].hand[0]
    assert default(state, 0) == f"play {first} field"
    state, _ = S.do(state, 0, default(state, 0))
    assert default(state, 0) == f"play {state.farms[0].hand[1]} field"


def test_r42_t1_default_takes_the_marker_with_most_donkeys():
    state = S.new(2, seed=7)
    state.round = 3
    state.farms[0].donkeys = ["D4", "D1"]
    state.phase = model.T1_DONKEY
    for choice in state.choices:
        choice.waiting = True
    assert default(state, 0) == "donkey D3"


def test_r42_dice_default_takes_the_lowest_face_and_declines():
    state = S.new(2, seed=8)
    state.dice = [2, 3, 5, 6, 6]
    state = S.at_sequential(state, model.R2_PICK, 0, round_number=2)
    assert default(state, 0) == "take 2"
    state, _ = S.do(state, 0, "take 2")
    assert default(state, 0) == "pass"
    state.dice = [4]
    state = S.at_sequential(state, model.R4_SHARED, 0, round_number=2)
    state.tasks[0] = []
    assert default(state, 0) == "pass"


def test_r42_optional_turns_default_to_done():
    state = S.new(2, seed=9)
    state.farms[0].donkeys = ["D1", "D2"]
    for phase in (model.F4_ROOFS, model.T4_DELIVER, model.T5_EXTRA, model.END_WINDOW):
        state = S.at_sequential(state, phase, 0, round_number=2)
        assert default(state, 0) == "done"


def test_r42_market_default_is_the_lowest_hex_and_greengrocer_gives_grain():
    state = S.new(2, seed=10)
    state.farms[0].donkeys = ["D1", "D4"]
    state = S.at_sequential(state, model.T4_DELIVER, 0, round_number=2)
    S.add_barrow(state, 0, "C009", [True, False])
    S.goods(state, 0, GR=1)
    state, _ = S.do(state, 0, "deliver GR C009")
    assert default(state, 0) == "hex M08"  # M01 holds a start marker; M08 is the next 2-hex
    state = S.at_f1(S.new(2, seed=10), 2)
    state.farms[0].buildings = [4]
    for seat in range(2):
        state, _ = S.do(state, seat, f"play {state.farms[seat].hand[0]} field")
    assert state.phase == model.F3_PROMPT and default(state, 0) == "gain GR"


def test_r55_defaults_inside_an_effect():
    state = S.new(2, seed=11)
    state.roofs_offer = []
    state = S.at_sequential(state, model.F4_ROOFS, 0, round_number=2)
    S.add_field(state, 0, S.card_with(field="GR"), crop=True)
    S.goods(state, 0, GR=1, OL=1, TG=2, silver=0, vp=1)
    state, _ = S.do(state, 0, "tg upgrade 2")
    assert default(state, 0) == "upgrade GR"  # goods order, store before field
    state, _ = S.do(state, 0, default(state, 0))
    assert default(state, 0) == "pass"  # the optional second upgrade
    state, _ = S.do(state, 0, "pass", "tg play")
    state.farms[0].hand.sort(reverse=True)  # hand order is draw order; the default goes by card id
    assert default(state, 0) == f"play {min(state.farms[0].hand)} field" != f"play {state.farms[0].hand[0]} field"
    ext = state.farms[0].hand[0]
    state, _ = S.do(state, 0, f"play {ext} ext")
    assert default(state, 0) == "pay GR@field"
    for card in ("C012", "C013", "C014"):
        S.add_barrow(state, 0, card)
    state.tasks[0] = []
    S.goods(state, 0, TG=1)
    state, _ = S.do(state, 0, "tg play", f"play {state.farms[0].hand[0]} barrow")
    assert default(state, 0) == "discard C012"  # the leftmost slot


def test_r42_f3_flexible_field_defaults_to_none():
    state = S.at_f1(S.new(2, seed=12), 2)
    S.add_helper(state, 0, S.card_with(helper="H17"))
    for seat in range(2):
        state, _ = S.do(state, seat, f"play {state.farms[seat].hand[0]} field")
    assert state.phase == model.F3_PROMPT and default(state, 0) == "flex none"


def test_defaults_are_always_legal_in_random_games():
    import random

    rng = random.Random(5)
    for players in (2, 3, 4):
        state = GAME.new_game(players, players)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            fallback = GAME.default_move(state, seat)
            assert fallback in GAME.legal_moves(state, seat)
            chosen = fallback if rng.random() < 0.3 else rng.choice(GAME.legal_moves(state, seat))
            if chosen.kind in ("buy", "sell", "upgrade", "tg", "use") and rng.random() < 0.7:
                chosen = fallback
            state, _ = GAME.apply(state, seat, chosen)
        assert state.round == 6
