"""Notation (round trip, forgiving reading, hints), views (1.14, R37, R58) and rendering."""

from __future__ import annotations

import random

import pytest

from engine.core import BadNotation
from engine.games.granja import GAME
from engine.games.granja.cards import CARDS
from engine.games.granja.model import F3_PROMPT, T1_DONKEY, T4_DELIVER, Move
from engine.games.granja.notation import HELP, KINDS, dice_lines, format_move, parse_move

from . import support as S

CANONICAL = [
    "play C012 field", "play C001 ext", "discard C003", "back", "pay GR", "pay OL@field", "pay $", "pay VP",
    "done", "pass", "take 3", "die pig", "die crop GR", "die crops GR OL", "die silver", "die vp",
    "die draw", "die play", "die upgrade", "die upgrade 2", "die upgrade siesta", "die siesta 2",
    "die deliver", "nudge up", "nudge down", "tg silver", "tg crops OL GP", "use R1-B crops GR GP",
    "use R2-B siesta 1", "use C012", "use C006 GR@field", "roof R1-A", "buy PG", "sell MT",
    "upgrade GP@field", "deliver GR b4", "deliver GR@field C012", "deliver TG b4 as GR", "extra PG b6",
    "extra TG C013 as FD", "gain OL", "hex M05", "donkey D3", "donkey D3 +1", "flex GR OL", "flex none",
]  # fmt: skip


@pytest.mark.parametrize("text", CANONICAL)
def test_notation_round_trips(text):
    move = parse_move(text)
    assert format_move(move) == text
    assert parse_move(format_move(move)) == move


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("PLAY c12 Extension", "play C012 ext"),
        ("play 7 left", "play C007 field"),
        ("pay grain", "pay GR"),
        ("pay ol field", "pay OL@field"),
        ("pay silver", "pay $"),
        ("deliver wine to the butcher", "deliver WN b6"),
        ("deliver tg greengrocer as grain", "deliver TG b4 as GR"),
        ("deliver olive field c12", "deliver OL@field C012"),
        ("die crops olive grain", "die crops GR OL"),
        ("tg upgrade+siesta", "tg upgrade siesta"),
        ("use r1b crops gr gp", "use R1-B crops GR GP"),
        ("donkey 2 push", "donkey D2 +1"),
        ("market 5", "hex M05"),
        ("end", "done"),
        ("decline", "pass"),
        ("use r2-b siesta2", "use R2-B siesta 2"),
    ],
)
def test_notation_reads_forgiving_forms(text, canonical):
    assert format_move(parse_move(text)) == canonical


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("", "Write a move"),
        ("plant", "Write it as"),
        ("jump", "do not know the verb"),
        ("play C999 field", "cards are C001 to C060"),
        ("play C012 roof", "field, barrow, helper or ext"),
        ("pay TG@field", "Only a crop"),
        ("deliver", "Write deliver GR b4"),
        ("deliver GR@field", "Say where"),
        ("deliver GR b4 as OL", "Only a trade good"),
        ("die crops GR GR", "different types"),
        ("hex M40", "M01 to M29"),
        ("donkey D5", "not a donkey marker"),
        ("use R7-A", "not a roof"),
        ("take 7", "1 to 6"),
        ("die fly", "not an option"),
    ],
)
def test_notation_refuses_with_a_hint(text, hint):
    with pytest.raises(BadNotation) as error:
        parse_move(text)
    assert hint in str(error.value)


def test_notation_help_names_every_verb():
    for kind in KINDS:
        assert kind in HELP
    assert GAME.notation_help == HELP and GAME.summary


def test_the_rules_summary_spells_out_the_configured_dice_and_trade_good():
    # The summary is one whole message for translators, so its last lines are written out: they
    # must still say what the configuration's dice faces and trade good give.
    assert GAME.summary.endswith("\n" + dice_lines())
    assert len(GAME.notation_help) <= 1024  # an embed field


def test_every_legal_move_in_random_games_round_trips():
    rng = random.Random(3)
    wanted = {"play", "pay", "take", "die", "donkey", "deliver", "extra", "done", "hex"}
    seen: set[str] = set()
    # Random play completes a barrow (hex) only in some games: play more until every kind is seen.
    for game_number, players in enumerate((2, 3, 4, 2, 3, 4, 2, 3, 4)):
        if game_number >= 3 and seen >= wanted:
            break
        state = GAME.new_game(players, players + 40 + len(seen))
        player = GAME.ai_players()["random"]()
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            for move in GAME.legal_moves(state, seat):
                text = format_move(move)
                seen.add(text.split()[0])
                assert parse_move(text) == move and isinstance(move, Move)
            state, _ = GAME.apply(state, seat, player.choose(GAME, state, seat, rng))
    assert seen >= wanted


# ----- views ----------------------------------------------------------------------------------------


def test_1_14_public_view_shows_the_board_and_hides_hands_deck_and_rng():
    state = S.new(4, seed=1)
    view = S.public(state)
    assert view["players"] == 4 and "rng" not in view and "deck" not in view
    text = str(view)
    for seat in range(4):
        assert not set(S.secrets(state, seat)) & {word.strip("'[],") for word in text.split()}
        assert view["farms"][seat]["hand_size"] == 4
    for card in state.deck:
        assert card not in text
    assert view["deck_size"] == len(state.deck)


def test_r37_scores_are_public():
    state = S.new(2, seed=2)
    S.goods(state, 1, vp=17)
    assert S.public(state)["scores"][1] == 17 and S.public(state)["farms"][1]["vp"] == 17


def test_1_14_a_seat_sees_its_hand_and_pending_choice_only():
    state = S.new(3, seed=3)
    card = state.farms[0].hand[0]
    state, _ = S.do(state, 0, f"play {card} barrow")
    mine, other = GAME.view(state, 0), GAME.view(state, 1)
    assert [entry["card"] for entry in mine["hand"]] == state.farms[0].hand
    assert mine["choice"]["plays"] == [{"card": card, "position": "barrow", "discard": "", "payment": []}]
    assert other["choice"]["plays"] == []
    assert card not in str(other) and card not in str(S.public(state))


def test_render_board_fits_a_board_embed_at_four_players_late_in_a_busy_game():
    state = S.new(4, seed=4)
    names = ["Alejandra", "Bartolomeo", "Concepción", "Desiderio"]
    for seat in range(4):
        for card in state.farms[seat].hand[:3]:
            S.add_barrow(state, seat, card)
        for card in state.deck[:3]:
            S.add_helper(state, seat, card, used=True)
        for card in state.deck[:4]:
            S.add_field(state, seat, card, crop=True)
        for card in state.deck[:3]:
            S.add_extension(state, seat, card)
        for roof in ("R1-A", "R2-B", "R3-C", "R4-D", "R5-A"):
            S.add_roof(state, seat, roof, used=seat % 2 == 0)
        S.goods(state, seat, GR=3, OL=2, GP=5, FD=1, WN=2, MT=1, PG=2, TG=3, silver=12, vp=48)
        state.farms[seat].donkeys = ["D1", "D2", "D3", "D4", "D1"]
        state.farms[seat].buildings = [1, 2, 3]
    for building in state.buildings:
        building.order_marker = 0
        building.finishers = [0, 1]
        for row in building.rows[2:]:
            row[:-1] = [True] * (len(row) - 1)
    text = GAME.render_board(S.public(state), names)
    # The board is a code block in an embed description (4,096 characters, the clocks go in a
    # field of their own); spelt-out goods made it longer than one plain message (2,000).
    assert len(text) <= 3400, len(text)
    assert "Market" in text and "Siesta" in text and "Alejandra" in text
    # No line much wider than the 100 columns the local table lays boards out for.
    assert max(len(line) for line in text.splitlines()) <= 105


def test_render_private_shows_hand_and_secret_choice_but_not_the_moves_again():
    state = S.new(2, seed=5)
    card = state.farms[0].hand[0]
    state, _ = S.do(state, 0, f"play {card} helper")
    view = GAME.view(state, 0)
    text = GAME.render_private(view, ["Ana", "Ben"])
    assert card in text and "secret choice" in text
    # Front ends list the legal moves (numbered, or as buttons): the view does not repeat them.
    assert "Options:" not in text
    assert not any(move in text for move in view["options"] if move.startswith("play "))
    other = GAME.render_private(GAME.view(state, 1), ["Ana", "Ben"])
    assert card not in other


# ----- help, legend and prompts: what a player reads ----------------------------------------------


def test_rules_texts_fit_the_discord_embed_limits():
    # /rules shows the notation help in one embed field (1024 characters) and the summary as the
    # embed description (4096): anything longer is cut off in front of the players.
    assert len(GAME.notation_help) <= 1024
    assert len(GAME.summary) <= 4096


def test_every_board_abbreviation_is_explained_in_the_rules_text():
    legend = GAME.summary
    for word in ("full/all", "✓", "BLOCKED", "done", "hex:value@seat", "bottom..top", "straw hats",
                 "extra deliveries", "income", "building markers", "donkey markers by round"):
        assert word in legend, word
    for face in range(1, 7):
        assert f"{face} = " in legend
    for name in ("Wagon Maker", "Village Shop", "Trading House", "Greengrocer", "Delicatessen", "Butcher"):
        assert name in legend


def test_take_accepts_the_word_die():
    assert parse_move("take die 3") == parse_move("pick 3") == Move("take", ("3",))


def test_a_roof_with_a_single_option_needs_no_option_word():
    assert parse_move("use R1-A") == Move("use", ("R1-A", "deliver"))
    assert parse_move("use R6-B") == Move("use", ("R6-B", "crop", "GP"))
    assert parse_move("use R3-B") == Move("use", ("R3-B", "silver"))
    with pytest.raises(BadNotation, match="Name the option"):
        parse_move("use R1-B")  # two different crops: which ones?


def test_private_view_explains_roofs_on_offer_and_owned_roofs():
    state = S.new(2, seed=6)
    state.roofs_offer = ["R2-A", "R2-B"]
    S.add_roof(state, 0, "R1-C")
    S.add_roof(state, 0, "R1-A", used=True)
    state = S.at_sequential(state, "F4", 0, round_number=2)
    text = GAME.render_private(GAME.view(state, 0), ["Ana", "Ben"])
    assert "R2-A 1 free upgrade" in text and "R2-B siesta +1 or siesta +2" in text
    assert "R1-C play a card or draw a card" in text and "R1-A 1 delivery" not in text
    board = GAME.render_board(S.public(state), ["Ana", "Ben"])
    assert "Roofs (2 $): R2-A 1 free upgrade; R2-B siesta +1 or siesta +2" in board


def test_private_view_shows_donkeys_and_hats_and_the_die_options():
    state = S.new(2, seed=7)
    state.round, state.phase = 2, T1_DONKEY
    state.farms[0].donkeys = ["D2"]
    for choice in state.choices:
        choice.waiting = True
    text = GAME.render_private(GAME.view(state, 0), ["Ana", "Ben"])
    assert "D1 (1 donkey, 3 hats), D3 (3 donkeys, 1 hat), D4 (4 donkeys, 0 hats)" in text
    state = S.new(2, seed=7)
    state.dice = [5, 5, 6, 6, 6]
    state = S.at_sequential(state, "R2", state.order[0])
    seat = state.order[0]
    S.goods(state, seat, GR=1)
    state, _ = S.do(state, seat, "take 5")
    prompt = GAME.view(state, seat)["private_prompt"]
    assert "up to 2 free upgrades (die upgrade 2)" in prompt
    assert "1 free upgrade and siesta +1 (die upgrade siesta)" in prompt and "siesta +2 (die siesta 2)" in prompt


def test_the_public_prompt_says_what_the_acting_seat_is_choosing():
    state = S.new(2, seed=8)
    state.farms[0].donkeys = ["D1", "D2"]
    S.add_barrow(state, 0, "C009", [True, False])  # OL+GR: grain completes it
    S.goods(state, 0, GR=1)
    state = S.at_sequential(state, T4_DELIVER, 0, round_number=2)
    state, _ = S.do(state, 0, "deliver GR C009")
    assert "placing a market marker" in S.public(state)["prompt"]
    board = GAME.render_board(S.public(state), ["Ana", "Ben"])
    assert "placing a market marker" in board


def test_the_harvest_prompt_names_only_the_choices_the_seat_has():
    state = S.at_f1(S.new(2, seed=12), 2)
    S.add_helper(state, 0, S.card_with(helper="H17"))
    for seat in range(2):
        state, _ = S.do(state, seat, f"play {state.farms[seat].hand[0]} field")
    assert state.phase == F3_PROMPT
    prompt = GAME.view(state, 0)["private_prompt"]
    assert "Flexible field" in prompt and "Greengrocer" not in prompt


def test_the_board_shows_the_reversed_roof_order_of_round_one():
    state = S.new(3, seed=2)
    state.order = [0, 1, 2]
    state = S.at_sequential(state, "F4", 2, round_number=1)
    board = GAME.render_board(S.public(state), ["Ana", "Ben", "Cara"])
    assert "Turn order: 1 > 2 > 3 (roofs now: 3 > 2 > 1)" in board
    state = S.at_sequential(state, "F4", 0, round_number=2)
    assert "roofs now" not in GAME.render_board(S.public(state), ["Ana", "Ben", "Cara"])


# ----- a board a first game can read ---------------------------------------------------------------


def test_farms_spell_their_goods_out_and_the_board_explains_the_building_codes():
    state = S.new(2, seed=3)
    S.goods(state, 0, GR=2, WN=1, TG=1, PG=1, silver=3, vp=5)
    assert CARDS["C003"].barrow == ("WN", "FD", "GR") and CARDS["C003"].barrow_vp == 6
    S.add_barrow(state, 0, "C003", [True, False, False])
    board = GAME.render_board(S.public(state), ["Ana", "Ben"])
    farm = board[board.index("1 Ana:") :]
    assert "1 Ana: 5 VP, 3 $ · hand" in farm
    assert "goods: grain 2, wine 1, trade good 1, pigs 1/" in farm
    assert "wine✓+food+grain 6 VP" in farm
    for code in ("TG1", "PG1/", "xd1", "inc0", "brw", "[WN"):
        assert code not in farm, code
    # The building rows keep the codes that deliveries are written with, under a legend.
    assert "(GR grain, OL olive, GP grape, PG pig, FD food, WN wine, MT meat, TG trade good)" in board
    assert "✓ delivered" in board


def test_the_hand_names_each_side_of_a_card_in_words():
    state = S.new(2, seed=3)
    assert CARDS["C003"].extension == "E-DP"
    S.set_hand(state, 0, ["C003"])
    text = GAME.render_private(GAME.view(state, 0), ["Ana", "Ben"])
    assert "barrow: wine+food+grain = 6 VP" in text and "extension: extra delivery+pigsty" in text


def test_each_die_move_is_described_by_its_effect_and_keeps_its_notation():
    assert GAME.describe_move(parse_move("take 4")) == "4 $"
    assert GAME.describe_move(parse_move("take 6")) == "1 delivery or 2 $"
    assert GAME.describe_move(parse_move("take 1")) == "1 pig"
    assert format_move(parse_move("take 4")) == "take 4"  # the description is beside, not in, the move
    assert GAME.describe_move(parse_move("donkey D3")) == "3 deliveries, 1 hat"
    assert GAME.describe_move(parse_move("done")) == ""
    state = S.new(2, seed=7)
    state.dice = [1, 4, 6, 6, 6]
    state = S.at_sequential(state, "R2", state.order[0])
    prompt = GAME.view(state, state.order[0])["private_prompt"]
    assert "take 1: 1 pig; take 4: 4 $; take 6: 1 delivery or 2 $" in prompt
