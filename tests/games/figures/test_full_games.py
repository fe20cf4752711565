"""Whole Figures matches with AI seats: the contract checks, game invariants and speed."""

from __future__ import annotations

import random

import pytest

from engine.games import get_game
from engine.games.figures import GAME
from engine.games.figures.cards import CARD_SET, FIGURES, VALUE
from engine.games.figures.model import FiguresState, next_seat
from tests.contract_checks import play_checked_game

OPTION_SETS = [
    {},
    {"mode": "pairs"},
    {"match_end": "hands"},
    {"mode": "pairs", "match_end": "hands", "number_of_hands": 3},
    {"target_score": 12},
]


def hand_secrets(state: FiguresState, seat: int) -> list[str]:
    return list(state.hands[seat])


# The finished hands' public records (2.11) name cards that have been dealt again since.
PAST_DEALS = ("results", "previous_history")


def test_registered():
    assert get_game("figures") is GAME


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("ai", ["random", "greedy"])
def test_full_games_checked_at_every_move(options, ai):
    play_checked_game(GAME, 4, 1, options, ai=ai, secrets=hand_secrets, past_keys=PAST_DEALS)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_more_full_games_checked_now_and_then(options):
    for seed in range(2, 16):
        play_checked_game(
            GAME,
            4,
            seed,
            options,
            ai="greedy" if seed % 2 else "random",
            secrets=hand_secrets,
            past_keys=PAST_DEALS,
            check_every=23,
        )


def test_stacked_first_deal_replays():
    deck = "Kd Kc Ks Kb 1d 1c 1s 1b".split()
    state, record = play_checked_game(
        GAME, 4, 7, {"deck": deck}, secrets=hand_secrets, past_keys=PAST_DEALS, check_every=5
    )
    assert GAME.is_over(state) and record.options["deck"] == deck


def test_stacked_later_deals_and_first_dealer_replay():
    decks = ["Kd Kc Ks Kb", "1d 1c 1s 1b", "Nd Nc"]
    options = {"decks": decks, "first_dealer": 4}
    state, record = play_checked_game(GAME, 4, 7, options, secrets=hand_secrets, past_keys=PAST_DEALS, check_every=5)
    assert GAME.is_over(state) and record.options == options
    assert [result.dealer for result in state.results[:2]] == [3, 0]


# ----- invariants ------------------------------------------------------------------------------------


def discarded(state: FiguresState) -> list[str]:
    cards: list[str] = []
    for entry in state.history:
        if entry.move == "pass":
            continue
        cards.extend(entry.move.split()[1:] if entry.move.startswith("kings") else [entry.move])
    return cards


def expected_individual(winner: int, left: list[int]) -> list[int]:
    """Places by sorting, then each tied block gets its lowest place (an independent reading of 3.1)."""
    others = sorted((left[s], s) for s in range(4) if s != winner)
    points = [0] * 4
    points[winner] = 10
    for count, s in others:
        last_place = max(i for i, (c, _) in enumerate(others) if c == count)
        points[s] = (5, 3, 1)[last_place]
    return points


def check_state(state: FiguresState) -> None:
    # Each card in exactly one place: a hand or this hand's discards (cards are conserved).
    places = [card for hand in state.hands for card in hand] + discarded(state)
    assert len(places) == 40 and set(places) == CARD_SET
    assert 0 <= state.passes <= 2 and 0 <= state.giro_left <= 3
    assert len(state.history) <= 4 * 40
    if state.phase == "FREE":
        assert state.top is None
    elif state.phase == "OPEN":
        assert state.top in FIGURES or VALUE[state.top] == 7
    elif state.phase == "BEAT":
        assert 1 <= VALUE[state.top] <= 6
    elif state.phase == "GIRO":
        assert state.top in FIGURES and state.giro_starter is not None and state.giro_left > 0
    assert state.kings_used == sorted(set(state.kings_used))
    assert sum(1 for entry in state.history if entry.move.startswith("kings")) == len(state.kings_used)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_invariants_through_whole_matches(options):
    rng = random.Random(11)
    for seed in range(6):
        ai = "greedy" if seed % 2 else "random"
        players = [GAME.ai_players()[ai]() for _ in range(4)]
        state = GAME.new_game(4, seed, options)
        check_state(state)
        while not GAME.is_over(state):
            seat = state.turn
            move = players[seat].choose(GAME, state, seat, rng)
            before = state
            state, events = GAME.apply(state, seat, move)
            check_state(state)
            if len(state.results) > len(before.results):  # the hand ended with this move
                result = state.results[-1]
                assert result.winner == seat and result.cards_left[seat] == 0
                assert any("goes out" in event.text for event in events)
                if state.mode == "pairs":
                    partner = state.table[(state.table.index(seat) + 2) % 4]
                    opponents = [s for s in range(4) if s not in (seat, partner)]
                    score = 5 + sum(result.cards_left[s] for s in opponents) - result.cards_left[partner]
                    assert result.points == [score if s in (seat, partner) else 0 for s in range(4)]
                else:
                    assert result.points == expected_individual(seat, result.cards_left)
                if not GAME.is_over(state):
                    assert state.dealer == next_seat(state, before.dealer)
                    assert state.turn == next_seat(state, state.dealer) and state.phase == "FREE"
                continue
            assert state.turn == next_seat(state, seat)  # 2.1: always the next seat
            if state.phase == "FREE" and before.phase == "BEAT":
                assert state.turn == before.owner  # three passes: the owner leads
            if state.phase == "FREE" and before.phase == "GIRO":
                assert state.turn == before.giro_starter  # the giro is over: its starter leads
        assert state.totals == [sum(r.points[s] for r in state.results) for s in range(4)]
