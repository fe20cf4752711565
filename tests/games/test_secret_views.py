"""Each game's ``secret_view``: exactly what only that seat knows, so that the referee re-sends a
seat's hand when it changed (dealt, received) and not merely because a turn went by."""

from __future__ import annotations

import random
from typing import Any

from engine.core import Game
from engine.games import get_game
from engine.games.vegetables.model import Discard

from .granja.support import do as granja_do
from .granja.support import new as granja_new
from .vegetables.test_moves import P2, P3, example_2_position


def changed_secrets(game: Game[Any, Any], before: Any, after: Any, players: int) -> set[int]:
    return {
        seat for seat in range(players) if game.secret_view(before, seat) != game.secret_view(after, seat)
    }


def random_game(name: str, players: int, seed: int) -> list[tuple[Any, int, Any]]:
    """(state before, seat, state after) for every move of a random AI game."""
    game = get_game(name)
    rng = random.Random(seed)
    state = game.new_game(players, seed)
    ai = game.ai_players()["random"]()
    steps = []
    while not game.is_over(state):
        seat = rng.choice(game.to_act(state))
        after, _ = game.apply(state, seat, ai.choose(game, state, seat, rng))
        steps.append((state, seat, after))
        state = after
    return steps


def test_figures_the_secret_is_the_hand_and_only_a_new_deal_changes_other_hands() -> None:
    game = get_game("figures")
    deals = 0
    for before, seat, after in random_game("figures", 4, 3):
        assert game.secret_view(after, seat) == {"hand": after.hands[seat]}
        changed = changed_secrets(game, before, after, 4)
        if after.hand_number != before.hand_number and not game.is_over(after):
            deals += 1
            assert changed == {0, 1, 2, 3}  # everyone is dealt a new hand
        else:
            assert changed <= {seat}  # a discard changes the mover's hand alone
    assert deals >= 1


def test_orchard_has_no_secret_at_all() -> None:
    game = get_game("orchard")
    for before, _seat, after in random_game("orchard", 3, 5):
        assert game.secret_view(before, 0) == game.secret_view(after, 2) == {}


def test_vegetables_a_dead_card_in_a_hand_and_a_discard_request_are_its_holders_secret() -> None:
    game = get_game("vegetables")
    state = example_2_position()
    assert game.secret_view(state, P3)["hand"] == sorted(state.seats[P3].hand)
    # P2's Tractor marks K8, hidden in P3's hand, dead: P3's secret changed, by P2's move.
    after, _ = game.apply(state, P2, game.parse_move("tractor T1 for K8 then K12"))
    assert changed_secrets(game, state, after, 4) == {P2, P3}
    assert game.secret_view(after, P3)["dead_in_hand"] == ["K8"]
    # P3's request to discard it out of turn is P3's secret alone; the public view is unchanged.
    requested, _ = game.apply(after, P3, Discard("K8"))
    assert changed_secrets(game, after, requested, 4) == {P3}
    assert game.secret_view(requested, P3)["pending"] == ["K8"]
    assert game.view(requested, None) == game.view(after, None)


def test_granja_a_secret_play_is_the_choosers_secret_and_the_reveal_refills_every_hand() -> None:
    game = get_game("granja")
    state = granja_new(2, seed=2)
    first, second = state.farms[0].hand[:2]
    played, _ = granja_do(state, 0, f"play {first} field")
    assert changed_secrets(game, state, played, 2) == {0}
    assert game.secret_view(played, 0)["choice"][0][0]["card"] == first
    assert game.secret_view(played, 1) == game.secret_view(state, 1)
    done, _ = granja_do(played, 0, f"play {second} field")
    other = done.farms[1].hand[:2]
    revealed, _ = granja_do(done, 1, *(f"play {card} field" for card in other))
    # The last secret play reveals them all: seat 0's choice is carried out, its hand refilled.
    assert 0 in changed_secrets(game, done, revealed, 2)
    assert game.secret_view(revealed, 0)["choice"][0] == []
    assert game.secret_view(revealed, 0)["hand"] == revealed.farms[0].hand


def test_vegetables_two_players_the_secret_is_the_hand_and_only_its_holder_changes_it() -> None:
    # docs/rules/vegetables-2p.md R16: the opponent never changes a Hand (a kill leaves the card in
    # place); only pending discards, applied when their holder's turn starts, change another seat's.
    game = get_game("vegetables")
    for before, seat, after in random_game("vegetables", 2, 4):
        assert game.secret_view(after, seat) == {
            "hand": sorted(after.seats[seat].hand),
            "pending": sorted(after.seats[seat].pending),
        }
        changed = changed_secrets(game, before, after, 2)
        starting = after.turn if not game.is_over(after) else before.turn
        if starting != seat and before.seats[starting].pending:
            assert changed <= {seat, starting}
        else:
            assert changed <= {seat}
