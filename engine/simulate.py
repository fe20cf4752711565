"""Play many full games with AI seats and print one JSON summary (fuzzing, balance, benchmarks).

    python -m engine.simulate --game figures --players 4 --games 200 --seed 1 [--option NAME=VALUE ...]
    python -m engine.simulate --game figures --store /tmp/sim.sqlite3   # through the referee and SQLite
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
import traceback
from collections.abc import Sequence
from typing import Any

from engine.core import Game, SetupError
from engine.games import REGISTRY, get_game


def play_in_memory(
    game: Game[Any, Any], players: int, seed: int, options: dict[str, Any], ai: Sequence[str]
) -> tuple[Any, int]:
    """One whole game with AI seats; returns the final state and the number of moves."""
    rng = random.Random(seed)
    factories = game.ai_players()
    seats = [factories[ai[seat % len(ai)]]() for seat in range(players)]
    state = game.new_game(players, seed, options)
    moves = 0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        move = seats[seat].choose(game, state, seat, rng)
        state, _ = game.apply(state, seat, move)
        moves += 1
        if moves > 1_000_000:
            raise RuntimeError("game did not end after a million moves")
    return state, moves


async def play_through_referee(
    path: str, game_name: str, players: int, seeds: Sequence[int], options: dict[str, Any], ai: Sequence[str]
) -> list[tuple[list[float] | None, int, str | None]]:
    """Games played by the real referee on an SQLite file, every move durable."""
    from db import SqliteStore
    from engine.referee import Referee

    store = await SqliteStore.open(path)
    results: list[tuple[list[float] | None, int, str | None]] = []
    try:
        for seed in seeds:
            referee = Referee(store, ai_rng=random.Random(seed))
            try:
                table = await referee.create_table(
                    game_name, "simulator", "Simulator", options=options, host_takes_seat=False
                )
                for seat in range(players):
                    await referee.add_ai(table.id, "simulator", ai[seat % len(ai)])
                outbox = await referee.start(table.id, "simulator", seed=seed)
                while not outbox.finished:  # a long game is played a stretch at a time (due at once)
                    stretch = [moved for moved in (await referee.due_actions()).moves if moved.table.id == table.id]
                    if not stretch:
                        raise RuntimeError("AI-only game stopped before the end")
                    outbox = stretch[-1]
                assert outbox.outcome is not None
                results.append((list(outbox.outcome.scores), outbox.table.version, None))
            except Exception as error:  # count and report, keep simulating
                results.append((None, 0, _describe(error)))
    finally:
        await store.close()
    return results


def _describe(error: BaseException) -> str:
    frame = traceback.extract_tb(error.__traceback__)[-1] if error.__traceback__ else None
    where = f" at {frame.filename}:{frame.lineno}" if frame else ""
    return f"{type(error).__name__}: {error}{where}"


def default_player_count(game: Game[Any, Any], options: dict[str, Any]) -> int:
    """The smallest player count the game accepts with these options (some counts need an
    option, such as a house variant)."""
    for players in range(game.min_players, game.max_players + 1):
        try:
            game.resolve_options(players, options)
        except SetupError:
            continue
        return players
    return game.min_players  # resolve_options will explain what is wrong


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        name, separator, value = pair.partition("=")
        if not separator:
            raise SystemExit(f"--option takes NAME=VALUE, not {pair!r}")
        options[name.strip()] = value.strip()
    return options


def game_and_options(args: argparse.Namespace) -> tuple[Game[Any, Any], int, dict[str, Any]]:
    """The game, the player count and the resolved options that ``--game``, ``--players`` and
    ``--option`` ask for (without ``--players``: the smallest count the options allow); the
    simulator and the arena read their command lines alike."""
    game = get_game(args.game)
    raw_options = parse_options(args.option)
    players = args.players or default_player_count(game, raw_options)
    return game, players, game.resolve_options(players, raw_options)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.simulate", description=__doc__.split("\n")[0])
    parser.add_argument("--game", required=True, choices=sorted(REGISTRY))
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--ai", default="random", help="AI kind for every seat, or a comma list per seat")
    parser.add_argument("--store", metavar="PATH", help="play through the referee on this SQLite file")
    args = parser.parse_args(argv)

    game, players, options = game_and_options(args)
    ai = args.ai.split(",")
    unknown = [kind for kind in ai if kind not in game.ai_players()]
    if unknown:
        parser.error(f"unknown AI kind {unknown[0]!r}; {game.title} has {', '.join(game.ai_players())}")
    seeds = [args.seed + index for index in range(args.games)]

    started = time.perf_counter()
    outcomes: list[tuple[list[float] | None, int, str | None]] = []
    if args.store:
        outcomes = asyncio.run(play_through_referee(args.store, game.name, players, seeds, options, ai))
    else:
        for seed in seeds:
            try:
                state, moves = play_in_memory(game, players, seed, options, ai)
                outcomes.append((list(game.outcome(state).scores), moves, None))
            except Exception as error:  # count and report, keep simulating
                outcomes.append((None, 0, _describe(error)))
    seconds = time.perf_counter() - started

    completed = [scores for scores, _, _ in outcomes if scores is not None]
    errors = [message for _, _, message in outcomes if message is not None]
    total_moves = sum(moves for _, moves, _ in outcomes)
    summary = {
        "game": game.name,
        "players": players,
        "games": args.games,
        "completed": len(completed),
        "errors": len(errors),
        "moves": total_moves,
        "seconds": round(seconds, 3),
        "moves_per_second": round(total_moves / seconds, 1) if seconds else None,
        "mean_scores": [round(sum(column) / len(completed), 3) for column in zip(*completed, strict=True)]
        if completed
        else [],
    }
    if errors:
        summary["error_samples"] = sorted(set(errors))[:5]
    json.dump(summary, sys.stdout)
    sys.stdout.write("\n")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
