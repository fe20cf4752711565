"""Checks every game must pass; each game's tests call these with its own settings.

They play whole games with AI seats and verify the contract at every step: someone can always act
until the game ends, every legal move is accepted and its notation round-trips, the state
survives JSON, views leak nothing private, and replaying the move log rebuilds the same state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine.core import Game, GameRecord, RecordedMove, replay

# A function naming the strings private to a seat right now (its hand's card codes, a pending
# secret choice...). They must appear in no other seat's view and not in the public view.
SecretsFn = Callable[[Any, int], Iterable[str]]


def string_leaves(value: Any) -> set[str]:
    """Every string anywhere inside a JSON-like value (keys included)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
    return found


def check_views(
    game: Game[Any, Any], state: Any, secrets: SecretsFn | None, past_keys: tuple[str, ...] = ()
) -> None:
    """``past_keys``: view keys holding the public record of earlier deals. Every card is dealt
    again in a new deal, so a code there is no leak of today's hand; they are left out."""
    players = state_players(game, state)
    public = game.view(state, None)
    names = [f"P{seat + 1}" for seat in range(players)]
    game.render_board(public, names)  # must not fail on any reachable state
    if secrets is None:
        return

    def current(view: dict[str, Any]) -> set[str]:
        return string_leaves({key: value for key, value in view.items() if key not in past_keys})

    public_strings = current(public)
    views = [game.view(state, seat) for seat in range(players)]
    view_strings = [current(view) for view in views]  # computed once per seat, not per pair
    for seat in range(players):
        private = set(secrets(state, seat))
        leaked = private & public_strings
        assert not leaked, f"public view shows seat {seat}'s secrets {sorted(leaked)}"
        for other in range(players):
            if other != seat:
                leaked = private & view_strings[other]
                assert not leaked, f"seat {other} sees seat {seat}'s secrets {sorted(leaked)}"
        # The secret view (what front ends watch to re-send a hand) covers every secret of the
        # seat that its own view shows: a change of it can never go unnoticed.
        missed = (private & view_strings[seat]) - string_leaves(game.secret_view(state, seat))
        assert not missed, f"seat {seat}'s secret view leaves out its secrets {sorted(missed)}"
        game.render_private(views[seat], names)


def state_players(game: Game[Any, Any], state: Any) -> int:
    view = game.view(state, None)
    return int(view["players"])


def play_checked_game(
    game: Game[Any, Any],
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    ai: str = "random",
    secrets: SecretsFn | None = None,
    past_keys: tuple[str, ...] = (),
    max_moves: int = 20_000,
    check_every: int = 1,
) -> tuple[Any, GameRecord]:
    """Play one full game with AI seats, checking the contract every ``check_every`` moves."""
    rng = random.Random(seed)
    options = dict(options or {})
    state = game.new_game(players, seed, options)
    record = GameRecord(game=game.name, players=players, seed=seed, options=options, moves=[])
    make_player = game.ai_players()[ai]
    seats_ai = [make_player() for _ in range(players)]
    for step in range(max_moves):
        if game.is_over(state):
            break
        to_act = game.to_act(state)
        assert to_act, "nobody can act but the game is not over"
        thorough = step % check_every == 0
        if thorough:
            assert game.decode_state(game.encode_state(state)) == state, "state does not survive JSON"
            check_views(game, state, secrets, past_keys)
            for seat in to_act:
                moves = game.legal_moves(state, seat)
                assert moves, f"seat {seat} must act but has no legal move"
                for move in moves:
                    text = game.format_move(move)
                    assert game.parse_move(text) == move, f"notation does not round-trip: {text}"
                    assert game.why_illegal(state, seat, move) is None, f"legal move refused: {text}"
        seat = rng.choice(to_act)
        move = seats_ai[seat].choose(game, state, seat, rng)
        before = game.encode_state(state)
        given = state
        state, events = game.apply(state, seat, move)
        assert game.encode_state(given) == before, "apply changed its input"
        if thorough:
            # The referee's way: check_move, then play on the (decoded) state itself, no copy.
            in_place = game.decode_state(before)
            game.check_move(in_place, seat, move)
            assert game.play(in_place, seat, move) == events, "play in place tells another story"
            assert in_place == state, "play in place reaches another state than apply"
        record.moves.append(RecordedMove(seat, game.format_move(move)))
    else:
        raise AssertionError(f"game did not end within {max_moves} moves")
    assert game.to_act(state) == (), "game over but seats still asked to act"
    outcome = game.outcome(state)
    assert len(outcome.scores) == players and len(outcome.ranks) == players
    assert min(outcome.ranks) == 1
    # The play order that boards and results number the seats by covers every seat once, and the
    # results repeat the game's own.
    assert outcome.seating == game.seating(state)
    assert outcome.seating is None or sorted(outcome.seating) == list(range(players))
    replayed, _ = replay(game, game_record_roundtrip(record))
    assert replayed == state, "replaying the move log does not rebuild the final state"
    return state, record


def game_record_roundtrip(record: GameRecord) -> GameRecord:
    import msgspec

    return msgspec.json.decode(msgspec.json.encode(record), type=GameRecord)
