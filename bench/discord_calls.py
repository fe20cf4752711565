"""5. Discord REST calls per accepted move, besides the interaction response, over a full game of
each game type, counted from the simulated Discord's request log (SimCord's ``env.http_requests``).

The real bot (``bot.create_bot``) runs against SimCord in a child process (``python -m
bench.discord_calls``), so SimCord's instrumentation never touches the other figures. Every seat
is a person; a game is opened with ``/game new``, joined and started with the lobby's buttons, then
played to its end, each move by the seat to act, in one of two ways:

- ``play``: the ``/play`` slash command in the game's thread, with a legal move;
- ``dm``: private controls (buttons and selects), like the Discord tests' simulated player
  (``tests/discord/helpers.choose_in_private_message``), when those helpers are present: those of
  the player's latest DM when it shows the current move (a hand dealt or received), else those
  that the board's **Play your turn** button opens for them, ephemerally (that click is an
  interaction: its answer is the interaction response, not counted).

Pictures (issue 16) ride in the same requests: ``--text-only`` plays the same game without them,
and the figures must match. Counted per accepted move: every REST request the bot made between the player's action and the
next one, except the interaction response itself (the callback, and edits of the ``@original``
response after a deferral); interaction endpoints are outside Discord's global rate limit, the
rest is not. Requests are also grouped by route, so the figure can be read.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import random
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MISSING = "not measured yet (Discord front end missing)"
_ID = re.compile(r"^\d+$")


def front_end_present() -> bool:
    return (ROOT / "bot.py").is_file() and (ROOT / "cogs").is_dir()


def route(method: str, path: str) -> str:
    """``POST /channels/{id}/messages``: the request with its ids and tokens left out."""
    parts = path.strip("/").split("/")
    shown = []
    for index, part in enumerate(parts):
        if _ID.match(part):
            shown.append("{id}")
        elif index == 2 and parts[0] in ("interactions", "webhooks"):
            shown.append("{token}")
        else:
            shown.append(part)
    return f"{method} /{'/'.join(shown)}"


def _where(env: Any, path: str) -> str:
    """" (DM)" or " (server)" for requests on a channel: DMs and thread posts are told apart."""
    parts = path.strip("/").split("/")
    if parts[0] != "channels" or len(parts) < 2 or not _ID.match(parts[1]):
        return ""
    try:
        guild_id = env.backend.get_channel(int(parts[1])).guild_id
    except Exception:  # SimCord internals: a label only
        return ""
    return " (server)" if guild_id is not None else " (DM)"


def is_interaction_response(method: str, path: str) -> bool:
    parts = path.strip("/").split("/")
    if parts[0] == "interactions" and parts[-1] == "callback":
        return True
    return parts[0] == "webhooks" and parts[-1] == "@original" and method in ("PATCH", "GET")


async def one_game(
    name: str, players: int, mode: str, seed: int, database: str, max_moves: int, pictures: bool = True
) -> dict[str, Any]:
    import simcord

    from bot import create_bot
    from config import Settings
    from engine.games import get_game

    game = get_game(name)
    if not pictures:
        game.draw_module = None  # text only, as before pictures: the same moves, for comparison
    rng = random.Random(seed)
    settings = Settings(token=None, database_path=database, sync_commands=True)
    bot = create_bot(settings, new_seed=lambda: seed, ai_rng=random.Random(seed))
    helpers = None
    if mode == "dm":
        from tests.discord import helpers  # the Discord tests' simulated player

    moves = durable = refused = 0
    counted: collections.Counter[str] = collections.Counter()
    excluded: collections.Counter[str] = collections.Counter()
    started = time.perf_counter()
    async with simcord.run(bot) as env:
        guild = env.create_guild("Bench")
        channel = guild.create_text_channel("games")
        members = [guild.add_member(env.create_user(f"player{index + 1}")) for index in range(players)]
        lobby = (await members[0].slash(channel, "game new", game=name)).response
        for member in members[1:]:
            await member.click(lobby, label="Join")
        await members[0].click(lobby, label="Start")
        [thread] = channel.threads
        referee = env.bot.referee
        [table] = await referee.tables(statuses=("running",), limit=1)
        by_user = {str(member.id): member for member in members}
        while moves + refused < max_moves:
            table = await referee.table(table.id)
            if table.status != "running":
                break
            state = await referee.state(table.id)
            seat = table.seats[rng.choice(game.to_act(state))]
            member = by_user[str(seat.user_id)]
            before = len(env.http_requests)
            if mode == "play":
                move = rng.choice(await referee.legal_moves(table.id, str(seat.user_id)))
                await member.slash(thread, "play", move=move)
            else:
                assert helpers is not None
                message = helpers.latest_dm_with_controls(env, member)
                if message is None or helpers.private_version(message) != table.version:
                    if hasattr(helpers, "open_my_turn"):
                        message = await helpers.open_my_turn(member, thread)
                    elif message is None:
                        refused += 1
                        continue
                await helpers.choose_in_private_message(member, message, rng.choice)
            after = await referee.table(table.id)
            if after.version == table.version:
                refused += 1
                continue
            moves += 1
            durable += after.version - table.version
            for request in env.http_requests[before:]:
                kind = route(request.method, request.path) + _where(env, request.path)
                (excluded if is_interaction_response(request.method, request.path) else counted)[kind] += 1
        finished = (await referee.table(table.id)).status == "finished"
    if bot.store is not None:  # the bot leaves its store to its owner (as in the Discord tests)
        await bot.store.close()
        bot.store = None
    calls = sum(counted.values())
    return {
        "game": name,
        "players": players,
        "mode": mode,
        "pictures": game.draws,
        "finished": finished,
        "accepted_moves": moves,
        "durable_moves": durable,
        "refused_actions": refused,
        "rest_calls": calls,
        "calls_per_move": round(calls / moves, 3) if moves else None,
        "interaction_responses": sum(excluded.values()),
        "routes": dict(counted.most_common()),
        "response_routes": dict(excluded.most_common()),
        "seconds": round(time.perf_counter() - started, 2),
    }


def child_main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.discord_calls")
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--mode", choices=("play", "dm"), default="play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-moves", type=int, default=3_000)
    parser.add_argument("--register", action="append", default=[])
    parser.add_argument("--text-only", action="store_true", help="the game draws no pictures (for comparison)")
    args = parser.parse_args()
    from bench.config import register

    register(args.register)
    import logging

    logging.disable(logging.WARNING)  # the bot's own log lines are not results
    with tempfile.TemporaryDirectory() as folder:
        result = asyncio.run(
            one_game(
                args.game,
                args.players,
                args.mode,
                args.seed,
                str(Path(folder) / "bot.sqlite3"),
                args.max_moves,
                pictures=not args.text_only,
            )
        )
    print(json.dumps(result), flush=True)
    return 0


def measure(game_players: dict[str, int], extra: dict[str, str], seed: int, max_moves: int) -> dict[str, Any]:
    """One full game per game type and way of playing, each in its own process."""
    if not front_end_present():
        return {"status": MISSING}
    from .restart import child, registered_arguments

    modes = ["play"]
    if (ROOT / "tests" / "discord" / "helpers.py").is_file():
        modes.append("dm")
    per_game: dict[str, Any] = {}
    for name, players in game_players.items():
        per_game[name] = {}
        for mode in modes:
            arguments = ["--game", name, "--players", str(players), "--mode", mode, "--seed", str(seed)]
            arguments += ["--max-moves", str(max_moves), *registered_arguments(extra)]
            try:
                _, result = child("bench.discord_calls", arguments, timeout=900)
            except RuntimeError as error:
                result = {"error": str(error)[-1500:]}
            per_game[name][mode] = result
    return {"status": "measured", "per_game": per_game}


if __name__ == "__main__":
    sys.exit(child_main())
