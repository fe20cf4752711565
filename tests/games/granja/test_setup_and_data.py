"""Components (section 1), configuration (1.13), the deck (1.12.4, R57) and set-up (section 2)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from engine.core import SetupError
from engine.games.granja import GAME
from engine.games.granja.cards import CARDS, DECK, EXAMPLE_CARDS, Card, deck_problems
from engine.games.granja.config import (
    BUILDINGS,
    CONFIG,
    DONKEYS,
    EXTENSION_ICONS,
    MARKET,
    ROOFS,
    START_HEXES,
)
from engine.games.granja.model import F1_PLAY, NEIGHBOURS, Farm
from engine.games.granja.rules import to_act

from .support import all_cards, new, public

# The project's own rules document, found from this file so that the test reads nothing outside
# the repository (tests/games/granja/ -> the repository root).
RULES_DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "granja.md"


# ----- the deck ------------------------------------------------------------------------------------


def test_1_12_4_deck_satisfies_every_composition_constraint():
    assert deck_problems(DECK, CONFIG.barrow_weights) == []


def test_r57_the_eight_example_cards_are_c001_to_c008():
    assert DECK[:8] == EXAMPLE_CARDS
    assert [card.id for card in DECK] == [f"C{n:03d}" for n in range(1, 61)]


def test_1_12_5_the_example_cards_match_the_rules_document():
    # Only C001-C008 are fixed card by card by the rules; the rest of the deck is checked against
    # the composition constraints (deck_problems), so its faces may be redistributed freely.
    text = RULES_DOC.read_text(encoding="utf-8")
    rows = re.findall(r"^\| (C00\d) \| (GR|OL|GP) \| ([A-Z, ]+) → (\d) \| (H\d\d) [^|(]*(?:\((.*?)\))? \| (E-\w\w) \|$", text, re.M)
    assert [row[0] for row in rows] == [f"C{n:03d}" for n in range(1, 9)]
    params = {"1 $": "silver", "1 crop": "crop", "2 $ → 1 PG": "2$>PG"}
    for card_id, field, goods, vp, helper, param, extension in rows:
        param = params.get(param, param)
        assert CARDS[card_id] == Card(card_id, field, tuple(goods.split(", ")), int(vp), helper, param, extension)


def test_1_12_4_the_checker_notices_broken_decks():
    broken = list(DECK)
    broken[20] = Card("C021", "GR", ("GR", "GR"), 2, broken[20].helper, broken[20].param, broken[20].extension)
    problems = deck_problems(broken, CONFIG.barrow_weights)
    assert any("only its own field crop" in problem for problem in problems)
    assert any("field faces" in problem for problem in problems)
    wrong_vp = list(DECK)
    wrong_vp[30] = Card("C031", DECK[30].field, DECK[30].barrow, DECK[30].barrow_vp + 1, DECK[30].helper,
                        DECK[30].param, DECK[30].extension)
    assert any("weight rule" in problem for problem in deck_problems(wrong_vp, CONFIG.barrow_weights))
    assert any("60" in problem for problem in deck_problems(DECK[:59], CONFIG.barrow_weights))


def _mutate(index, **changes):
    deck = list(DECK)
    deck[index] = replace(deck[index], **changes)
    return deck


def _swap_symbols(old, new):
    return [replace(card, barrow=tuple(new if good == old else good for good in card.barrow)) for card in DECK]


BROKEN_DECKS = {
    "extension faces": _mutate(20, extension="E-DP" if DECK[20].extension != "E-DP" else "E-DI"),
    # GP x E-DP occurs 6 times: one less is too few (and GP x E-DI 8 times too many).
    "occurs": _mutate(next(i for i, c in enumerate(DECK) if (c.field, c.extension) == ("GP", "E-DP")), extension="E-DI"),
    "barrow symbols": _mutate(12, barrow=("GR", "OL", "GP", "GR", "OL", "GP"), barrow_vp=6),
    "more than one trade good": _mutate(30, barrow=("TG", "TG"), barrow_vp=4),
    "barrow VP counts": _mutate(9, barrow=("GP", "OL", "GR"), barrow_vp=3),
    "helper counts": _mutate(9, helper="H02"),
    "H04 parameters": _mutate(next(i for i, c in enumerate(DECK) if c.helper == "H04" and c.param != "GR>OL"), param="GR>OL"),
    "parameters on helpers that take none": _mutate(
        next(i for i, c in enumerate(DECK) if i >= 8 and c.helper not in ("H03", "H04", "H07", "H11")), param="GR"
    ),
    "C001-C008": _mutate(0, helper="H05"),
    "card ids repeat": _mutate(10, id="C010"),
    "GR appears": _swap_symbols("GR", "OL"),
    "FD appears": _swap_symbols("FD", "PG"),
    "WN on": _swap_symbols("WN", "MT"),
    "PG or MT on": _swap_symbols("MT", "WN"),
    "TG on": _swap_symbols("PG", "TG"),
}


@pytest.mark.parametrize("problem", sorted(BROKEN_DECKS))
def test_1_12_4_the_checker_catches_each_broken_constraint(problem):
    found = deck_problems(BROKEN_DECKS[problem], CONFIG.barrow_weights)
    assert any(problem in text for text in found), found


def test_1_12_4_card_records_follow_the_spec_format():
    assert CARDS["C003"].record() == {
        "id": "C003", "field": "GP", "barrow": {"goods": ["WN", "FD", "GR"], "vp": 6},
        "helper": {"type": "H08", "params": {}}, "extension": {"type": "E-DP"},
    }  # fmt: skip
    assert CARDS["C006"].record()["helper"] == {"type": "H04", "params": {"pair": "2$>PG"}}
    assert CARDS["C005"].record()["helper"]["params"] == {"crop": "OL"}


def test_no_published_card_names_only_ids_and_faces():
    # Cards carry no names or texts at all: an id and four faces of symbols.
    assert all(set(vars(card)) == {"id", "field", "barrow", "barrow_vp", "helper", "param", "extension"} for card in DECK)


# ----- configuration (1.13) ------------------------------------------------------------------------


def test_1_13_every_decided_value_is_in_the_configuration_table():
    assert CONFIG.siesta_section_vp == (0, 1, 1, 2, 2, 3, 3, 4, 4)
    assert CONFIG.roof_space_vp == (1, 2, 3, 4, 5)
    assert (CONFIG.base_pigsties, CONFIG.pigsty_size, CONFIG.base_income) == (1, 2, 0)
    assert CONFIG.buy_price == {"GR": 2, "OL": 2, "GP": 2, "PG": 3}
    assert CONFIG.sell_price == {"GR": 1, "OL": 1, "GP": 1, "PG": 2, "FD": 3, "WN": 4, "MT": 3}
    assert CONFIG.upgrade_cost["PG"] == 1
    assert CONFIG.buildings == BUILDINGS and CONFIG.market == MARKET and CONFIG.roofs == ROOFS
    assert CONFIG.deck == DECK
    assert CONFIG.end_silver_per_vp == 5
    assert (CONFIG.h11_min_fields, CONFIG.h12_min_pigs, CONFIG.h12_max_piglets) == (1, 1, 2)


# ----- components ----------------------------------------------------------------------------------


def test_r44_farm_base_values():
    farm = Farm(silver=0, vp=0, goods={})
    assert (farm.hand_limit, farm.extra_delivery_limit, farm.income, farm.pig_capacity) == (3, 1, 0, 2)


@pytest.mark.parametrize("extension", ["E-DI", "E-DP", "E-IP"])
def test_r2_an_extension_gives_one_hand_limit_and_exactly_its_two_icons(extension):
    card = next(card for card in DECK if card.extension == extension)
    farm = Farm(silver=0, vp=0, goods={"PG": 0}, extensions=[card.id])
    icons = EXTENSION_ICONS[extension]
    assert len(icons) == 2
    assert farm.hand_limit == 4
    assert farm.extra_delivery_limit == 1 + ("delivery" in icons)
    assert farm.income == ("income" in icons)
    assert farm.pig_capacity == 2 * (1 + ("pigsty" in icons))


def test_1_3_donkey_markers_sum_to_four():
    assert DONKEYS == {"D1": 1, "D2": 2, "D3": 3, "D4": 4}


def test_1_6_roof_catalogue_four_per_round_price_is_the_round():
    per_round = Counter(number for number, _ in ROOFS.values())
    assert per_round == Counter({number: 4 for number in range(1, 7)})
    assert all(roof_id.startswith(f"R{number}-") for roof_id, (number, _) in ROOFS.items())


def test_1_7_buildings_rows_as_designed():
    rows = {spec.name: spec.row for spec in BUILDINGS}
    assert rows == {
        "Wagon Maker": ("GR", "OL", "WN", "TG"), "Village Shop": ("GR", "GP", "PG", "FD"),
        "Trading House": ("OL", "GP", "TG", "TG"), "Greengrocer": ("GR", "OL", "GP", "FD"),
        "Delicatessen": ("GR", "OL", "FD", "WN"), "Butcher": ("PG", "PG", "MT"),
    }  # fmt: skip


def test_r16_market_map_has_the_published_properties():
    small = Counter(spec.value for spec in MARKET[:19])
    large = Counter(spec.value for spec in MARKET)
    assert small == Counter({2: 6, 3: 4, 4: 3, 5: 3, 6: 3})
    assert large == Counter({2: 8, 3: 6, 4: 5, 5: 5, 6: 5})
    assert [MARKET[index].value for index in START_HEXES] == [2, 3, 4, 5]
    assert all(spec.four_players_only == (index >= 19) for index, spec in enumerate(MARKET))


def test_r16_neighbours_match_the_spec_table():
    text = RULES_DOC.read_text(encoding="utf-8").replace("−", "-")
    rows = re.findall(r"^\| (M\d\d) \| (-?\d+),(-?\d+) \| (\d) \| (?:all|4p) \| \S+ \| (.*?) \| (.*?) \|$", text, re.M)
    assert len(rows) == 29
    for hex_id, q, r, value, small_text, large_text in rows:
        index = int(hex_id[1:]) - 1
        spec = MARKET[index]
        assert (spec.q, spec.r, spec.value) == (int(q), int(r), int(value))
        small = [] if small_text == "–" else [name.strip() for name in small_text.split(",")]
        if large_text == "same":
            large = small
        elif large_text.startswith("+"):
            large = small + [name.strip() for name in large_text[1:].split(",")]
        else:
            large = [name.strip() for name in large_text.split(",")]
        found = sorted(MARKET[other].id for other in NEIGHBOURS[index])
        assert found == sorted(large), hex_id
        if index < 19:
            assert sorted(name for name in found if int(name[1:]) <= 19) == sorted(small), hex_id


# ----- set-up (section 2) --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_2_1_and_2_2_set_up_by_player_count(players):
    state = new(players, seed=players)
    view = public(state)
    assert state.phase == F1_PLAY and state.round == 1
    assert sorted(state.order) == list(range(players))
    assert state.order == [(state.start_player + k) % players for k in range(players)]
    for farm in state.farms:
        assert (farm.silver, farm.vp, farm.goods["TG"], len(farm.hand)) == (1, 1, 1, 4)
        assert sum(farm.goods.values()) == 1 and not farm.fields
    assert len(state.deck) == 60 - 4 * players
    assert sorted(all_cards(state)) == sorted(CARDS)
    assert [len(roofs) for roofs in state.roofs_future] == [players] * 6
    assert state.roofs_offer == state.roofs_future[0]
    assert sorted(building.order_marker for building in state.buildings) == [0, 0, 0, 1, 2, 3]
    assert all(len(building.rows) == players for building in state.buildings)
    assert all(building.hex_vp for building in state.buildings)
    assert len(view["market"]) == (29 if players == 4 else 19)
    for position, seat in enumerate(state.order):
        assert state.market[START_HEXES[position]] == seat  # R14
    assert sum(owner >= 0 for owner in state.market) == players
    assert view["siesta_stacks"] == {"0": list(reversed(state.order))}  # start player on top
    assert to_act(state) == tuple(range(players))


def test_2_1_roofs_of_later_rounds_and_removed_roofs_stay_hidden():
    state = new(2, seed=9)
    shown = str(public(state)) + str(GAME.view(state, 0)) + str(GAME.view(state, 1))
    for number, roofs in enumerate(state.roofs_future[1:], start=2):
        for roof in roofs:
            assert roof not in shown, (number, roof)
    removed = [roof for roof in ROOFS if roof.startswith("R1-") and roof not in state.roofs_future[0]]
    assert len(removed) == 2 and not any(roof in shown for roof in removed)
    assert "rng" not in public(state) and "deck" not in public(state)


def test_2_1_set_up_is_determined_by_the_seed():
    assert new(3, seed=11) == new(3, seed=11)
    assert new(3, seed=11) != new(3, seed=12)


def test_2_1_stacked_deck_option_deals_the_named_cards_first():
    state = GAME.new_game(2, 1, {"deck": "C010 C011 C012 C013 C014 C015 C016 C017"})
    assert state.farms[0].hand == ["C010", "C011", "C012", "C013"]
    assert state.farms[1].hand == ["C014", "C015", "C016", "C017"]
    with pytest.raises(SetupError):
        GAME.new_game(2, 1, {"deck": "C010 C010"})
    with pytest.raises(SetupError):
        GAME.new_game(2, 1, {"deck": "C099"})


@pytest.mark.parametrize("players", [1, 5])
def test_r33_solo_and_too_many_players_are_refused(players):
    with pytest.raises(SetupError) as error:
        GAME.new_game(players, 1)
    if players == 1:
        assert "solo" in str(error.value)


def test_r14_start_markers_go_in_turn_order_onto_values_2_3_4_5():
    state = new(4, seed=21)
    values = [MARKET[state.market.index(seat)].value for seat in state.order]
    assert values == [2, 3, 4, 5]


def test_r15_outer_hexes_exist_only_with_four_players():
    for players in (2, 3):
        view = public(new(players, seed=22))
        assert [cell["hex"] for cell in view["market"]] == [f"M{n:02d}" for n in range(1, 20)]
    assert len(public(new(4, seed=22))["market"]) == 29


def test_r17_every_seat_has_its_own_identical_row_on_every_building():
    state = new(3, seed=23)
    view = public(state)
    for spec, building in zip(BUILDINGS, view["buildings"], strict=True):
        assert building["row"] == list(spec.row)
        assert building["rows"] == [[False] * len(spec.row)] * 3


def test_r18_siesta_track_spaces_0_to_8_in_five_sections():
    assert CONFIG.siesta_top == 8
    assert [CONFIG.section_vp(space) for space in range(9)] == [0, 1, 1, 2, 2, 3, 3, 4, 4]
