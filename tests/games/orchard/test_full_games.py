"""Random full games with AI seats at every player count and option combination, plus invariants."""

from __future__ import annotations

import random

import pytest

from engine.games.orchard import GAME
from engine.games.orchard.cards import ALL_CARDS, BATCH_IDS, CODE, SPECIAL
from engine.games.orchard.rules import batch_scores, can_place, placement_gain, total_score
from tests.contract_checks import play_checked_game

from .support import deck_secrets, empty_orchard

COUNTS = range(1, 7)
OPTION_SETS = [
    {"easy": False, "first_picker": "random"},
    {"easy": True, "first_picker": "random"},
    {"easy": False, "first_picker": "host"},
    {"easy": True, "first_picker": "host"},
]


def check_final_state(state, players):
    assert GAME.is_over(state)
    assert [sum(map(len, orchard)) for orchard in state.orchards] == [12] * players
    assert len(state.deck) == 75 - 12 * players >= 3  # never exhausted
    placed = [card for orchard in state.orchards for batch in orchard for card in batch]
    assert sorted(placed + state.deck) == list(ALL_CARDS)
    view = GAME.view(state, None)
    outcome = GAME.outcome(state)
    for seat, orchard in enumerate(state.orchards):
        scores = batch_scores(orchard, state.easy)
        assert view["orchards"][seat]["scores"] == dict(zip(BATCH_IDS, scores, strict=True))
        assert outcome.scores[seat] == view["scores"][seat] == sum(scores) == view["orchards"][seat]["total"]
        check_batch_rules_hold(orchard)


def check_batch_rules_hold(orchard):
    """Rebuild each batch card by card: every placement in its history met the batch's own rule."""
    assert len(orchard[SPECIAL]) <= 1
    for batch, cards in enumerate(orchard):
        if batch == SPECIAL:
            continue  # its rule looks at the other batches at placement time, checked step by step below
        rebuilt = empty_orchard()
        for card in cards:
            assert can_place(rebuilt, card, batch), (BATCH_IDS[batch], [CODE[c] for c in cards])
            rebuilt[batch].append(card)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: f"easy={o['easy']}-{o['first_picker']}")
@pytest.mark.parametrize("players", COUNTS)
def test_random_games_checked_at_every_step(players, options):
    seed = players * 10 + OPTION_SETS.index(options)
    state, record = play_checked_game(GAME, players, seed, options, secrets=deck_secrets, check_every=1)
    check_final_state(state, players)
    assert len(record.moves) == 12 * players


@pytest.mark.parametrize("easy", [False, True])
@pytest.mark.parametrize("players", COUNTS)
def test_many_random_and_greedy_games(players, easy):
    options = {"easy": easy}
    for seed in range(2, 10):
        ai = "greedy" if seed % 2 else "random"
        state, _ = play_checked_game(GAME, players, seed, options, ai=ai, secrets=deck_secrets, check_every=9)
        check_final_state(state, players)


@pytest.mark.parametrize("players", COUNTS)
def test_replay_is_deterministic(players):
    _, first = play_checked_game(GAME, players, 77, {"easy": True}, check_every=50)
    _, second = play_checked_game(GAME, players, 77, {"easy": True}, check_every=50)
    assert first == second


@pytest.mark.parametrize("players", [1, 3, 5, 6])
def test_step_invariants(players):
    """At every step: cards conserved, R11 (every pool card has a legal batch), why_illegal agrees
    with legal_moves for every card and batch, and each listed gain is the true change."""
    rng = random.Random(players)
    state = GAME.new_game(players, seed=players * 13)
    greedy = GAME.ai_players()["greedy"]()
    while not GAME.is_over(state):
        placed = [card for orchard in state.orchards for batch in orchard for card in batch]
        assert sorted(placed + state.pool + state.deck) == list(ALL_CARDS)
        seat = GAME.to_act(state)[0]
        legal = set(GAME.legal_moves(state, seat))
        assert {move.card for move in legal} == set(state.pool)
        for card in ALL_CARDS:
            for batch in range(8):
                move = type(next(iter(legal)))(card, batch)
                problem = GAME.why_illegal(state, seat, move)
                assert (problem is None) == (move in legal), (GAME.format_move(move), problem)
                assert problem is None or "cannot go in" not in problem  # always a specific reason
        orchard = state.orchards[seat]
        before = total_score(orchard, state.easy)
        for move in rng.sample(sorted(legal, key=GAME.format_move), min(6, len(legal))):
            after, _ = GAME.apply(state, seat, move)
            assert total_score(after.orchards[seat], state.easy) - before == placement_gain(
                orchard, move.card, move.batch, state.easy
            )
        state, _ = GAME.apply(state, seat, greedy.choose(GAME, state, seat, rng))


def test_greedy_scores_what_the_base_greedy_would():
    """The fast greedy agrees with the contract's GreedyPlayer.value on every legal move."""
    greedy = GAME.ai_players()["greedy"]()
    state = GAME.new_game(2, seed=3)
    rng = random.Random(3)
    for _ in range(15):
        seat = GAME.to_act(state)[0]
        orchard = state.orchards[seat]
        for move in GAME.legal_moves(state, seat):
            after, _ = GAME.apply(state, seat, move)
            assert greedy.value(GAME, state, after, seat) == placement_gain(orchard, move.card, move.batch, state.easy)
        chosen = greedy.choose(GAME, state, seat, rng)
        best = max(placement_gain(orchard, m.card, m.batch, state.easy) for m in GAME.legal_moves(state, seat))
        assert placement_gain(orchard, chosen.card, chosen.batch, state.easy) == best
        state, _ = GAME.apply(state, seat, chosen)


def test_greedy_beats_random_on_average():
    totals = {"greedy": 0, "random": 0}
    for seed in range(30):
        rng = random.Random(seed)
        seats = [GAME.ai_players()["greedy"](), GAME.ai_players()["random"]()]
        state = GAME.new_game(2, seed=seed)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            state, _ = GAME.apply(state, seat, seats[seat].choose(GAME, state, seat, rng))
        totals["greedy"] += total_score(state.orchards[0], state.easy)
        totals["random"] += total_score(state.orchards[1], state.easy)
    assert totals["greedy"] > totals["random"]


def test_a_stacked_deck_game_replays_from_its_record():
    deck = [CODE[card] for card in reversed(ALL_CARDS)]  # the whole deck, in reverse card order
    state, record = play_checked_game(GAME, 3, 5, {"deck": deck}, secrets=deck_secrets, check_every=4)
    assert record.options["deck"] == deck
    check_final_state(state, 3)
    placed = {card for orchard in state.orchards for batch in orchard for card in batch}
    assert placed == set(ALL_CARDS[75 - 36 :])  # exactly the top 36 cards were dealt
