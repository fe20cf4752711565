"""Section 2 of the Figures spec (play, except three kings) and rulings R2, R3 and R9-R27, R33."""

from __future__ import annotations

import pytest

from engine.games.figures import GAME
from engine.games.figures.cards import FIGURES

from .helpers import assert_refused_unchanged, legal, play, position, refusal, seat

# ----- 2.1 turn order ----------------------------------------------------------------------------


def test_2_1_every_move_passes_the_turn_to_the_next_seat():
    state = position({1: "2d 5d", 2: "3c Jc", 3: "1b Nb", 4: "4s 6s"}, turn=1)
    order = []
    for player, text in ((1, "2d"), (2, "3c"), (3, "Nb"), (4, "pass"), (1, "pass"), (2, "Jc")):
        state, _ = play(state, player, text)
        order.append(state.turn)
    # After the giro started by P3 ends, the turn is back with P3 (the next seat after P2).
    assert order == [seat(2), seat(3), seat(4), seat(1), seat(2), seat(3)]


# ----- 2.2 table -----------------------------------------------------------------------------------


def test_2_2_top_card_and_owner_and_clearing():
    state = position({1: "2d 5d", 2: "3c 4c", 3: "1b 2b", 4: "1s 2s"}, turn=1)
    state, _ = play(state, 1, "5d")
    assert (state.top, state.owner) == ("5d", seat(1))
    for player in (2, 3, 4):
        state, _ = play(state, player, "pass")
    assert state.top is None and state.owner is None  # cleared: no top card
    assert "5d" not in {card for hand in state.hands for card in hand}  # never comes back


# ----- 2.3 moves and forced passes ---------------------------------------------------------------


def test_2_3_R20_pass_only_when_no_single_is_legal():
    beat = position({1: "2d 6d Jd"}, turn=1, phase="BEAT", top="5c", owner=4)
    assert legal(beat, 1) == {"6d", "Jd"}
    assert "cannot pass" in refusal(beat, 1, "pass")
    stuck = position({1: "2d 5d"}, turn=1, phase="BEAT", top="5c", owner=4)
    assert legal(stuck, 1) == {"pass"}


@pytest.mark.parametrize("phase", ["FREE", "OPEN"])
def test_2_3_no_pass_in_free_or_open(phase):
    state = position({1: "2d"}, turn=1, phase=phase, top="7c" if phase == "OPEN" else None, owner=4)
    assert legal(state, 1) == {"2d"}
    assert "cannot pass" in refusal(state, 1, "pass")


# ----- 2.4 states and legal singles --------------------------------------------------------------

HAND = "1d 2c 3s 4b 5d 6c 7s Jb Nd Kc"


@pytest.mark.parametrize(
    ("phase", "top", "expected"),
    [
        ("FREE", None, set(HAND.split())),
        ("OPEN", "7b", set(HAND.split())),
        ("BEAT", "1b", set(HAND.split()) - {"1d"}),
        ("BEAT", "4c", {"5d", "6c", "7s", "Jb", "Nd", "Kc"}),
        ("BEAT", "6d", {"7s", "Jb", "Nd", "Kc"}),
        ("GIRO", "Ns", {"Jb", "Nd", "Kc"}),
    ],
)
def test_2_4_legal_singles_in_each_state(phase, top, expected):
    extra = {"giro_starter": 4, "giro_left": 3} if phase == "GIRO" else {}
    state = position({1: HAND}, turn=1, phase=phase, top=top, owner=4 if top else None, **extra)
    assert legal(state, 1) == expected


def test_2_4_R11_equal_is_not_higher_and_suit_never_matters():
    state = position({1: "4d 4c 5b"}, turn=1, phase="BEAT", top="4s", owner=4)
    assert legal(state, 1) == {"5b"}
    assert "only equals the 4" in refusal(state, 1, "4d")
    assert "does not beat" in refusal(position({1: "3d 5b"}, turn=1, phase="BEAT", top="4s", owner=4), 1, "3d")


def test_2_4_not_your_turn_and_cards_you_do_not_hold():
    state = position({1: "4d", 2: "5c"}, turn=1)
    assert GAME.legal_moves(state, seat(2)) == []
    assert refusal(state, 2, "5c") == "It is not your turn."
    assert refusal(state, 1, "5c") == "You do not hold 5c."


# ----- 2.5 effect of a single outside a giro -----------------------------------------------------


@pytest.mark.parametrize(
    ("card", "phase"),
    [("1d", "BEAT"), ("6c", "BEAT"), ("7s", "OPEN"), ("Jb", "GIRO"), ("Nd", "GIRO"), ("Kc", "GIRO")],
)
def test_2_5_what_each_single_leaves(card, phase):
    state = position({1: HAND}, turn=1)
    state, _ = play(state, 1, card)
    assert (state.phase, state.top, state.owner, state.turn, state.passes) == (phase, card, 0, 1, 0)
    if phase == "GIRO":
        assert (state.giro_starter, state.giro_left) == (seat(1), 3)


def test_2_5_R13_R14_a_figure_is_legal_on_every_turn_outside_a_giro():
    for phase, top in (("FREE", None), ("OPEN", "7d"), ("BEAT", "1d"), ("BEAT", "6d")):
        state = position({2: "Jc 2s"}, turn=2, phase=phase, top=top, owner=1 if top else None)
        assert "Jc" in legal(state, 2)


# ----- 2.6 the giro di figure ---------------------------------------------------------------------


def _giro(hands):
    """P1 has just started a giro with Kd."""
    return position(hands, turn=2, phase="GIRO", top="Kd", owner=1, giro_starter=1, giro_left=3)


def test_2_6_one_lap_then_the_starter_leads_in_free():
    state = _giro({1: "2d 3d", 2: "Jc 4c", 3: "Nc 5c", 4: "Kc 6c"})
    for player, card in ((2, "Jc"), (3, "Nc"), (4, "Kc")):
        assert state.turn == seat(player)
        state, _ = play(state, player, card)
    assert (state.phase, state.top, state.turn, state.giro_left) == ("FREE", None, seat(1), 0)
    assert state.history[-1].clears


def test_2_6_item_3_R17_giro_discard_is_compulsory_and_needs_no_rank():
    state = _giro({2: "Jc 4c", 3: "5c"})
    assert legal(state, 2) == {"Jc"}  # a fante answers a re: no comparison (R16)
    assert "not a figure" in refusal(state, 2, "4c")
    assert "cannot pass" in refusal(state, 2, "pass")
    state, _ = play(state, 2, "Jc")
    assert legal(state, 3) == {"pass"}
    assert "must pass" in refusal(state, 3, "5c")


def test_2_6_item_3_no_three_kings_on_a_giro_turn():
    state = _giro({2: "Kc Ks Kb 2d 3d"})
    assert legal(state, 2) == {"Kc", "Ks", "Kb"}
    assert "giro turn" in refusal(state, 2, "kings Kc Ks Kb")


def test_2_6_item_4_R19_no_giro_inside_a_giro():
    state = _giro({2: "Jc 4c", 3: "Nc"})
    state, _ = play(state, 2, "Jc")
    assert (state.phase, state.giro_starter, state.giro_left) == ("GIRO", seat(1), 2)
    assert (state.top, state.owner) == ("Jc", seat(2))  # R33: the top card is the last figure


def test_2_6_item_6_R15_R18_the_giro_ends_even_if_nobody_answers():
    state = _giro({1: "2d", 2: "4c", 3: "5c", 4: "6c"})
    for player in (2, 3, 4):
        state, _ = play(state, player, "pass")
    assert (state.phase, state.turn, state.top, state.passes) == ("FREE", seat(1), None, 0)


def test_2_6_giro_passes_do_not_count_as_all_pass():
    state = _giro({1: "2d", 2: "4c", 3: "Nc 5c", 4: "6c"})
    state, _ = play(state, 2, "pass")
    state, _ = play(state, 3, "Nc")
    state, _ = play(state, 4, "pass")
    assert state.passes == 0 and state.phase == "FREE"


# ----- 2.7 all pass -----------------------------------------------------------------------------


def test_2_7_R21_three_passes_clear_and_the_owner_leads():
    state = position({1: "6d 1d", 2: "2c", 3: "3c", 4: "4c"}, turn=2, phase="BEAT", top="5d", owner=1)
    state, _ = play(state, 2, "pass")
    assert (state.phase, state.top, state.passes) == ("BEAT", "5d", 1)  # same BEAT(5)
    state, _ = play(state, 3, "pass")
    assert state.passes == 2
    state, events = play(state, 4, "pass")
    assert (state.phase, state.turn, state.top, state.passes) == ("FREE", seat(1), None, 0)
    assert legal(state, 1) == {"1d", "6d"}  # no need to beat the own card
    assert "{p0} leads" in events[-1]


def test_2_7_any_discard_resets_the_pass_count():
    state = position({1: "1d", 2: "2c", 3: "6c 1c", 4: "4c"}, turn=1, phase="BEAT", top="5d", owner=4)
    state, _ = play(state, 1, "pass")
    state, _ = play(state, 2, "pass")
    state, _ = play(state, 3, "6c")
    assert (state.passes, state.owner) == (0, seat(3))


def test_2_7_R22_a_pass_does_not_bar_later_turns():
    state = position({1: "1d 7d", 2: "2c", 3: "3c", 4: "Kc 4c 5c"}, turn=2, phase="BEAT", top="5d", owner=1)
    state, _ = play(state, 2, "pass")
    state, _ = play(state, 3, "pass")
    state, _ = play(state, 4, "Kc")  # a giro
    state, _ = play(state, 1, "pass")
    state, _ = play(state, 2, "pass")
    state, _ = play(state, 3, "pass")
    state, _ = play(state, 4, "4c")
    assert legal(state, 1) == {"7d"}  # P1 passed earlier but plays now


# ----- 2.9 end of hand --------------------------------------------------------------------------


def test_2_9_R26_going_out_with_a_single_ends_the_hand_at_once():
    state = position({1: "1d", 2: "2c 3c", 3: "4c 5c 6c", 4: "Kc"}, turn=1, phase="FREE")
    state, events = play(state, 1, "1d")
    result = state.results[-1]
    assert (result.winner, result.cards_left) == (seat(1), [0, 2, 3, 1])
    assert state.hand_number == 2 and len(state.history) == 0  # the next hand is dealt
    assert events[0] == "{p0} plays 1d."
    assert "goes out" in events[1]


def test_2_9_R27_going_out_with_a_figure_starts_no_giro():
    state = position({1: "Nd", 2: "2c"}, turn=1, phase="BEAT", top="6c", owner=4)
    state, events = play(state, 1, "Nd")
    assert state.results[-1].winner == seat(1)
    assert not any("giro" in text for text in events)


def test_2_9_R27_going_out_on_a_giro_turn_abandons_the_giro():
    state = _giro({1: "2d", 2: "4c 5c", 3: "Nc", 4: "Jc 6c"})
    state, _ = play(state, 2, "pass")
    state, _ = play(state, 3, "Nc")
    assert state.results[-1].winner == seat(3)
    assert state.results[-1].cards_left == [1, 2, 0, 2]


# ----- 2.10 transition table ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("phase", "top", "card", "after"),
    [
        ("FREE", None, "3d", "BEAT"),
        ("OPEN", "7c", "3d", "BEAT"),
        ("BEAT", "2c", "3d", "BEAT"),
        ("FREE", None, "7d", "OPEN"),
        ("BEAT", "6c", "7d", "OPEN"),
        ("OPEN", "7c", "Jd", "GIRO"),
        ("BEAT", "6c", "Kd", "GIRO"),
    ],
)
def test_2_10_single_transitions(phase, top, card, after):
    state = position({3: f"{card} 1b"}, turn=3, phase=phase, top=top, owner=2 if top else None, passes=1 if phase == "BEAT" else 0)
    state, _ = play(state, 3, card)
    assert (state.phase, state.top, state.owner, state.passes, state.turn) == (after, card, seat(3), 0, seat(4))


def test_2_10_illegal_moves_change_nothing():
    state = position({1: "2d"}, turn=1, phase="BEAT", top="5c", owner=4)
    assert_refused_unchanged(state, 1, "2d", "does not beat")


# ----- rulings on reading the seed -----------------------------------------------------------------


def test_R2_R9_every_player_facing_a_1_to_6_must_beat_it_once_per_turn():
    """The 'third player' rule is read once, and applies to whoever is on turn (not only P3)."""
    state = position({1: "2d 3d", 2: "3c 4c", 3: "4b 5b", 4: "5s 6s"}, turn=1)
    for player, card, bar in ((1, "2d", 2), (2, "3c", 3), (3, "4b", 4), (4, "5s", 5)):
        state, _ = play(state, player, card)
        assert GAME.view(state, None)["beat"] == bar


def test_R3_a_pass_is_announced_as_passo():
    state = position({1: "2d"}, turn=1, phase="BEAT", top="5c", owner=4)
    _, events = play(state, 1, "pass")
    assert events == ["{p0}: Passo."]
    assert GAME.parse_move("passo") == GAME.parse_move("pass")


def test_R12_after_a_seven_anything_even_another_seven_or_a_figure():
    state = position({1: "7d 2d", 2: "7c 1c Jc"}, turn=1)
    state, _ = play(state, 1, "7d")
    assert legal(state, 2) == {"7c", "1c", "Jc"}


def test_R12_a_seven_beats_every_number_card_1_to_6():
    for top in ("1c", "6c"):
        assert "7d" in legal(position({1: "7d"}, turn=1, phase="BEAT", top=top, owner=4), 1)


def test_R16_giro_figures_need_not_follow_rank_or_suit():
    """Against the re di denari, a fante of another suit, a cavallo, and a fante again are all accepted."""
    state = _giro({1: "2d", 2: "Jb 1b", 3: "Ns 1s", 4: "Jc 1c"})
    for player, card in ((2, "Jb"), (3, "Ns"), (4, "Jc")):
        assert legal(state, player) == {card}
        state, _ = play(state, player, card)
    assert (state.phase, state.turn) == ("FREE", seat(1))
    assert [entry.move for entry in state.history] == ["Jb", "Ns", "Jc"]
    assert all(card in FIGURES for card in ("Jb", "Ns", "Jc"))


def test_R33_during_a_giro_the_top_card_is_the_last_figure():
    state = _giro({2: "Jc 2c", 3: "5c"})
    view = GAME.view(state, None)
    assert (view["top"], view["owner"]) == ("Kd", seat(1))
    state, _ = play(state, 2, "Jc")
    assert (GAME.view(state, None)["top"], GAME.view(state, None)["owner"]) == ("Jc", seat(2))
    state, _ = play(state, 3, "pass")
    assert GAME.view(state, None)["top"] == "Jc"  # a pass leaves it


def test_R1_R4_R6_no_rules_beyond_single_pass_and_three_kings():
    """The seed's narration and typos add nothing: the only moves are a card, a pass or three kings."""
    state = GAME.new_game(4, 12)
    kinds = {type(move).__name__ for move in GAME.legal_moves(state, state.turn)}
    assert kinds <= {"Single", "Pass", "ThreeKings"}


def test_R10_the_card_showing_is_the_last_discard():
    state = position({1: "2d 6d", 2: "3c 4c", 3: "5b 1b", 4: "6s 2s"}, turn=1)
    for player, card in ((1, "2d"), (2, "4c"), (3, "5b")):
        state, _ = play(state, player, card)
    assert GAME.view(state, None)["top"] == "5b"
    assert legal(state, 4) == {"6s"}  # judged against 5b only, not the earlier cards


def test_R31_passing_hands_the_turn_on_and_no_cards():
    state = position({1: "2d 6d", 2: "3c 4c", 3: "5b 1b", 4: "6s 2s"}, turn=1, phase="BEAT", top="6c", owner=4)
    hands_before = [list(hand) for hand in state.hands]
    state, _ = play(state, 1, "pass")
    assert state.turn == seat(2) and state.hands == hands_before


# ----- why_illegal: one clear reason for each kind of illegal move ---------------------------------


def _over():
    state = position({1: "7d", 2: "1c"}, turn=1, totals=(30, 0, 0, 0))
    state, _ = play(state, 1, "7d")
    assert GAME.is_over(state)
    return state


@pytest.mark.parametrize(
    ("state", "player", "text", "reason"),
    [
        (position({1: "4d", 2: "5c"}, turn=1), 2, "5c", "It is not your turn."),
        (position({1: "4d"}, turn=1), 1, "5c", "You do not hold 5c."),
        (
            position({1: "3d 3c 6d Kc"}, turn=1, phase="BEAT", top="3b", owner=4), 1, "3d",
            "3d only equals the 3 on the table; a card must be strictly higher: "
            "play a higher number card or a figure (6d, Kc).",
        ),
        (
            position({1: "2d 6d"}, turn=1, phase="BEAT", top="3b", owner=4), 1, "2d",
            "2d does not beat the 3 on the table: play a higher number card or a figure (6d).",
        ),
        (
            position({1: "2d 3d"}, turn=1, phase="BEAT", top="3b", owner=4), 1, "2d",
            "2d does not beat the 3 on the table, and you hold no higher card and no figure: you must pass.",
        ),
        (
            _giro({2: "4c Jc Kc"}), 2, "4c",
            "4c is not a figure: on a giro turn discard a figure (Jc, Kc).",
        ),
        (
            _giro({2: "4c"}), 2, "4c",
            "4c is not a figure: on a giro turn you may only discard a figure, so you must pass.",
        ),
        (
            _giro({2: "Kd Kc Ks"}), 2, "kings Kd Kc Ks",
            "Three kings cannot be used on a giro turn: discard a figure, or pass if you hold none.",
        ),
        (_over(), 1, "1c", "The match is over."),
    ],
)
def test_why_illegal_names_the_reason_for_each_kind_of_illegal_move(state, player, text, reason):
    assert refusal(state, player, text) == reason


@pytest.mark.parametrize(
    ("state", "player", "reason"),
    [
        (position({1: "4d"}, turn=1), 1, "You cannot pass: the table is clear, so discard any card."),
        (
            position({1: "4d"}, turn=1, phase="OPEN", top="7c", owner=4), 1,
            "You cannot pass: the table is open, so discard any card.",
        ),
        (
            position({1: "4d 6d"}, turn=1, phase="BEAT", top="5c", owner=4), 1,
            "You cannot pass while you can play: 6d.",
        ),
        (
            _giro({2: "4c Jc"}), 2,
            "You cannot pass on a giro turn while you hold a figure: discard one (Jc).",
        ),
    ],
)
def test_why_illegal_names_the_reason_a_pass_is_refused(state, player, reason):
    assert refusal(state, player, "pass") == reason
