"""Games in progress, made fast: play random moves in memory, then write each game through the
store's public API as the referee leaves it (a lobby row, then one commit holding the move log, the
state snapshot, the new version and the seats with their turn clocks), instead of one durable
commit per move. Games are timed at the recommended speed, so clocks run as they do for people."""

from __future__ import annotations

import dataclasses
import random
import time
from typing import Any

from engine.core import Game, RecordedMove
from engine.referee import LOBBY, RUNNING, Seat, Store, Table
from engine.referee import clock as clocks

SPEED = clocks.RECOMMENDED_SPEED  # "daily-2" today: what a table gets unless its host changes it
DISCORD_IDS = 900_000_000_000_000_000  # made-up snowflakes for the channels and threads of games


@dataclasses.dataclass
class Built:
    table_id: int
    moves: int


def human_seats(players: int) -> list[Seat]:
    return [Seat(index=index, name=f"U{index + 1}", user_id=f"u{index + 1}") for index in range(players)]


def running_seats(players: int, acting: tuple[int, ...], speed_name: str, now: float) -> list[Seat]:
    """Seats of a running game as the referee keeps them: a bank per seat at a timed speed, the
    clocks of the seats to act running since ``now``, and when each must be looked at next."""
    speed = clocks.get_speed(speed_name)
    seats = human_seats(players)
    if not speed.timed:
        return seats
    for seat in seats:
        seat.clock = clocks.new_clock(speed)
        if seat.index in acting:
            seat.waiting_since = now
            seat.clock = clocks.start_turn(seat.clock, now)
        seat.next_due_at = clocks.next_check(seat.clock, speed, None)
    return seats


def play_automatic(game: Game[Any, Any], state: Any, log: list[RecordedMove]) -> Any:
    """What the referee does after every move: play moves that leave a human seat no choice."""
    while not game.is_over(state):
        for seat in game.to_act(state):
            move = game.automatic_move(state, seat)
            if move is not None:
                after, _ = game.apply(state, seat, move)
                if game.is_over(after):
                    return state  # keep the game in progress: stop one move short
                log.append(RecordedMove(seat, game.format_move(move)))
                state = after
                break
        else:
            return state
    return state


def advance(
    game: Game[Any, Any], players: int, seed: int, depths: list[int]
) -> list[tuple[Any, list[RecordedMove]]]:
    """Games in progress after about each of ``depths`` random moves of one game (never its end):
    several snapshots of one simulated game, so that building thousands stays fast."""
    rng = random.Random(seed)
    state = game.new_game(players, seed, {})
    log: list[RecordedMove] = []
    state = play_automatic(game, state, log)
    cuts: list[tuple[Any, list[RecordedMove]]] = []
    for depth in sorted(depths):
        while len(log) < depth and not game.is_over(state):
            seat = rng.choice(game.to_act(state))
            move = rng.choice(game.legal_moves(state, seat))
            after, _ = game.apply(state, seat, move)
            if game.is_over(after):
                break
            log.append(RecordedMove(seat, game.format_move(move)))
            state = play_automatic(game, after, log)
        cuts.append((state, list(log)))
    return cuts


async def write_game(
    store: Store,
    game: Game[Any, Any],
    players: int,
    seed: int,
    state: Any,
    log: list[RecordedMove],
    speed: str = SPEED,
) -> int:
    now = time.time()
    table = Table(
        game=game.name, host="host", status=LOBBY, seats=human_seats(players), speed=speed, created_at=now, updated_at=now
    )
    table.id = await store.create_table(table)
    running = Table(
        id=table.id,
        game=game.name,
        host="host",
        status=RUNNING,
        seed=seed,
        version=len(log),
        seats=running_seats(players, game.to_act(state), speed, now),
        # Where a Discord game in progress is shown: a channel, and the thread opened at its start.
        channel_id=str(DISCORD_IDS + 2 * table.id),
        thread_id=str(DISCORD_IDS + 2 * table.id + 1),
        speed=speed,
        created_at=now,
        updated_at=now,
        # As the referee stores it: an automatic move left (a game cut just before its end).
        needs_resume=any(game.automatic_move(state, seat) is not None for seat in game.to_act(state)),
    )
    await store.commit_moves(running, 0, log, game.encode_state(state))
    return table.id


async def build_games(
    store: Store,
    game: Game[Any, Any],
    players: int,
    count: int,
    *,
    seed: int,
    mean_length: float,
    cuts_per_game: int = 10,
) -> list[Built]:
    """``count`` games in progress, each cut at a uniformly random point of a typical game; every
    simulated game gives ``cuts_per_game`` of them (same deal, different points)."""
    rng = random.Random(seed)
    built: list[Built] = []
    index = 0
    while len(built) < count:
        game_seed = seed * 1_000_003 + index
        index += 1
        wanted = min(cuts_per_game, count - len(built))
        depths = [rng.randrange(max(1, int(mean_length))) for _ in range(wanted)]
        for state, log in advance(game, players, game_seed, depths):
            table_id = await write_game(store, game, players, game_seed, state, log)
            built.append(Built(table_id, len(log)))
    return built
