"""An independent model of §3, written from the spec alone, checked against the engine.

The model keeps FEATHER's "open values" step by step (§3.2's second wording) rather than the
engine's all-share test, computes the odd primes itself, and looks at whole orchards for SPECIAL.
Random walks then compare both on every card and batch at every step, legal or not.
"""

from __future__ import annotations

import random

import pytest

from engine.games.orchard.cards import ALL_CARDS, BATCH_IDS, COLOUR, HEIGHT, SWEETNESS
from engine.games.orchard.reasons import placement_problem
from engine.games.orchard.rules import batch_scores, can_place, placement_gain, score_cards, score_gain

MONO, FEATHER, SPECIAL, UNLUCKY, FORTE, SWEET, CONST, BAD = range(8)


def odd_primes(count):
    found, candidate = [], 3
    while len(found) < count:
        if all(candidate % divisor for divisor in range(3, int(candidate**0.5) + 1, 2)):
            found.append(candidate)
        candidate += 2
    return found


ODD_PRIMES = odd_primes(12)


def feather_open(cards):
    """The values still open after ``cards`` went into FEATHER in this order (§3.2, step by step)."""
    if not cards:
        return None  # anything goes
    opened = {("sweetness", SWEETNESS[cards[0]]), ("height", HEIGHT[cards[0]])}
    for card in cards[1:]:
        opened &= {("sweetness", SWEETNESS[card]), ("height", HEIGHT[card])}
        assert opened, "the model was fed an illegal FEATHER history"
    return opened


def model_legal(orchard, card, batch):
    cards = orchard[batch]
    if batch == MONO:
        return not cards or COLOUR[card] == COLOUR[cards[0]]
    if batch == FEATHER:
        opened = feather_open(cards)
        return opened is None or bool(opened & {("sweetness", SWEETNESS[card]), ("height", HEIGHT[card])})
    if batch == SPECIAL:
        elsewhere = [other for index, held in enumerate(orchard) if index not in (SPECIAL, BAD) for other in held]
        return not cards and all(COLOUR[other] != COLOUR[card] for other in elsewhere)
    if batch == FORTE:
        return len(cards) % 2 == 0 or HEIGHT[card] != HEIGHT[cards[-1]]
    if batch == SWEET:
        return len(cards) % 2 == 0 or SWEETNESS[card] == SWEETNESS[cards[-1]]
    if batch == CONST:
        return not cards or abs(HEIGHT[card] - HEIGHT[cards[-1]]) <= 1
    return True  # UNLUCKY, BAD


def model_scores(orchard, easy):
    mono, feather, special, unlucky, forte, sweet, const, bad = orchard
    scores = [len(mono) * (len(mono) + 1) // 2, len(feather) * (len(feather) - 1) if feather else 0]
    tree_ok = bool(special) and not any(
        COLOUR[other] == COLOUR[special[0]] for batch in (mono, feather, unlucky, forte, sweet, const) for other in batch
    )
    scores.append(20 if tree_ok else 0)
    scores.append(len(unlucky) ** 2 if sum(SWEETNESS[c] for c in unlucky) == 13 else 0)
    scores.append(sum(2 * abs(HEIGHT[forte[i]] - HEIGHT[forte[i + 1]]) for i in range(0, len(forte) - 1, 2)))
    scores.append(7 * (len(sweet) // 2))
    scores.append(ODD_PRIMES[len(const) - 1] if const else 0)
    scores.append(0 if easy else -len(bad))
    return scores


def random_walk(rng, length, easy, bias):
    """Build one orchard of ``length`` cards, checking engine against model at every step.

    ``bias`` is the batch the walk prefers, so that every batch gets long histories somewhere.
    """
    orchard = [[] for _ in BATCH_IDS]
    unused = list(ALL_CARDS)
    rng.shuffle(unused)
    while sum(map(len, orchard)) < length:
        offered = unused[:6]
        for card in ALL_CARDS:  # legality of every card in every batch, not only the offered ones
            for batch in range(8):
                expected = model_legal(orchard, card, batch)
                assert can_place(orchard, card, batch) == expected, (BATCH_IDS[batch], orchard, card)
                assert (placement_problem(orchard, card, batch) is None) == expected
        choices = [(card, batch) for card in offered for batch in range(8) if model_legal(orchard, card, batch)]
        assert choices, "R11: a legal placement always exists"
        preferred = [choice for choice in choices if choice[1] == bias]
        card, batch = rng.choice(preferred if preferred and rng.random() < 0.8 else choices)
        before = model_scores(orchard, easy)
        gain = placement_gain(orchard, card, batch, easy)
        orchard[batch].append(card)
        unused.remove(card)
        assert batch_scores(orchard, easy) == model_scores(orchard, easy), orchard
        assert gain == sum(model_scores(orchard, easy)) - sum(before)
    return orchard


@pytest.mark.parametrize("bias", range(8), ids=lambda b: BATCH_IDS[b])
def test_engine_matches_an_independent_model_of_every_batch(bias):
    rng = random.Random(bias)
    for walk in range(6):
        random_walk(rng, length=12, easy=walk % 2 == 1, bias=bias)


def test_model_reaches_the_extremes_of_the_summary_table():
    """Sanity of the model itself against §3.9's ranges (so the comparison above means something)."""
    assert ODD_PRIMES == [3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41]
    twelve = [[] for _ in BATCH_IDS]
    twelve[MONO] = [c for c in ALL_CARDS if COLOUR[c] == 0][:12]
    twelve[FEATHER] = [c for c in ALL_CARDS if SWEETNESS[c] == 1][:12]
    assert model_scores(twelve, easy=False)[:2] == [78, 132]


def test_score_gain_is_the_rescored_difference_for_any_batch_and_card():
    """``score_gain`` spares the views a rescoring; it must agree with ``score_cards`` everywhere,
    legal placements or not."""
    rng = random.Random(5)
    for round_number in range(800):
        batch = rng.choice([b for b in range(8) if b != SPECIAL])
        # Short batches half the time, so that UNLUCKY sums land on 13 before and after.
        cards = rng.sample(ALL_CARDS, rng.randrange(4) if round_number % 2 else rng.randrange(12))
        card = rng.choice([c for c in ALL_CARDS if c not in cards])
        for easy in (False, True):
            expected = score_cards(batch, [*cards, card], easy) - score_cards(batch, cards, easy)
            assert score_gain(batch, cards, card, easy) == expected, (BATCH_IDS[batch], cards, card)
