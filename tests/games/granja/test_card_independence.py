"""1.12.4: "helper type is independent of the other faces" — the deck and the check of it."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from engine.games.granja.cards import DECK, EXAMPLE_CARDS, Card, helper_spread_problems


def _with_helpers(deck: list[Card], faces: dict[str, tuple[str, str]]) -> list[Card]:
    return [replace(card, helper=faces[card.id][0], param=faces[card.id][1]) if card.id in faces else card
            for card in deck]


def test_1_12_4_every_helper_is_spread_over_extension_types_fields_and_barrow_values():
    assert helper_spread_problems(DECK) == []
    for helper in sorted({card.helper for card in DECK}):
        cards = [card for card in DECK if card.helper == helper]
        assert len({card.extension for card in cards}) >= 2, helper
        assert len({card.field for card in cards}) >= 2, helper


def test_1_12_4_the_example_cards_keep_their_helpers():
    assert DECK[:8] == EXAMPLE_CARDS


def test_1_12_4_a_helper_concentrated_on_one_extension_type_is_caught():
    # The old deck's flaw: all three Guild patrons (H13) on grape-field E-DI cards. Move them there.
    patrons = [card for card in DECK if card.helper == "H13"]
    targets = [card for card in DECK[8:] if (card.field, card.extension) == ("GP", "E-DI")][:3]
    faces: dict[str, tuple[str, str]] = {}
    for patron, target in zip(patrons, targets, strict=True):
        faces[patron.id], faces[target.id] = (target.helper, target.param), (patron.helper, patron.param)
    problems = helper_spread_problems(_with_helpers(list(DECK), faces))
    assert any(text.startswith("H13: 3 of its 3 copies share extension E-DI") for text in problems), problems
    assert any(text.startswith("H13: 3 of its 3 copies share field GP") for text in problems), problems


def _lopsidedness(helpers: list[str], extensions: list[str]) -> float:
    """Chi-square statistic of the helper type x extension type table: 0 when every helper is
    spread exactly in proportion, large when helpers cluster on one extension type."""
    table = Counter(zip(helpers, extensions, strict=True))
    totals, columns = Counter(helpers), Counter(extensions)
    size = len(helpers)
    return sum(
        (table[h, e] - totals[h] * columns[e] / size) ** 2 / (totals[h] * columns[e] / size)
        for h in totals
        for e in columns
    )


def permutation_p_value(deck: list[Card], rounds: int = 1000) -> float:
    """How often helper faces dealt at random to C009-C060 (C001-C008 as the spec fixes them)
    cluster on extension types at least as much as in ``deck``."""
    helpers = [card.helper for card in deck]
    extensions = [card.extension for card in deck]
    ours = _lopsidedness(helpers, extensions)
    rng = random.Random(14)
    tail = helpers[8:]
    at_least = 0
    for _ in range(rounds):
        rng.shuffle(tail)
        at_least += _lopsidedness(helpers[:8] + tail, extensions) >= ours - 1e-9
    return at_least / rounds


def test_1_12_4_helper_faces_do_not_cluster_on_extension_types_more_than_chance():
    assert permutation_p_value(list(DECK)) > 0.05  # not significantly clustered (the old deck: 0.026)
