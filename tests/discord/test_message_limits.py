"""Every message of every registered game within Discord's hard limits, at its largest.

Whole AI games at each game's largest table (6-player orchard, the 5-player house variant of
vegetables, 4-player granja, 4-player figures), with 32-character player names (Discord's
longest): at every move the board, every seat's private view, the log of the move and the move
controls of every seat that may act are rendered exactly as the bot sends them and measured.
The largest sizes are kept in ``MEASURED`` (printed with ``pytest -s``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import discord
import pytest

from cogs import render
from cogs.components import group_moves_view, move_view
from cogs.layout import plan_controls
from engine.core import format_event
from engine.games import get_game
from engine.i18n import tr
from engine.referee import RUNNING, SeatClockView
from engine.referee.model import Seat, Table

from .conftest import World
from .whole_games import (
    Limits,
    assert_final_scores,
    discord_limits,
    measure_message,
    open_table,
    play_to_the_end,
)

LARGEST = [
    ("orchard", 6, {}, 3),
    ("vegetables", 5, {"house_variant": True}, 3),
    ("granja", 4, {}, 1),
    ("figures", 4, {}, 1),
]
SNOWFLAKE = "1456074443980800024"
MEASURED: dict[str, dict[str, int]] = {}


def long_names(players: int) -> list[str]:
    return [f"{chr(ord('A') + seat)}{'w' * 30}{seat}" for seat in range(players)]  # 32 characters


def table_for(game: str, names: list[str], version: int) -> Table:
    seats = [Seat(index=index, name=name, user_id=str(10**18 + index)) for index, name in enumerate(names)]
    return Table(
        id=99_999,
        game=game,
        host=seats[0].user_id or "",
        status=RUNNING,
        version=version,
        seats=seats,
        guild_id=SNOWFLAKE,
        channel_id=SNOWFLAKE,
        thread_id=SNOWFLAKE,
        speed="daily-2",
    )


def clock_views(names: list[str]) -> list[SeatClockView]:
    return [
        SeatClockView(seat=seat, name=name, remaining=129_600, running=True, deadline=1.8e9)
        for seat, name in enumerate(names)
    ]


def measure(
    limits: Limits,
    seen: dict[str, int],
    what: str,
    content: str,
    embeds: Sequence[discord.Embed] = (),
    view: discord.ui.View | None = None,
) -> None:
    """Measure one message as the bot would send it; ``seen[what]``: its largest text so far."""
    payload = {
        "content": content,
        "embeds": [embed.to_dict() for embed in embeds],
        "components": view.to_components() if view is not None else [],
    }
    measure_message(limits, payload)
    seen[what] = max(seen.get(what, 0), len(content) + render.embeds_total(embeds))


@pytest.mark.parametrize(("name", "players", "options", "seeds"), LARGEST, ids=[row[0] for row in LARGEST])
async def test_every_message_of_a_game_at_its_largest_fits_discord(
    name: str, players: int, options: dict[str, Any], seeds: int
) -> None:
    game = get_game(name)
    names = long_names(players)
    limits = Limits()
    seen: dict[str, int] = {}
    kinds = game.ai_players()
    for seed in range(seeds):
        rng = random.Random(seed)
        ai = [
            kinds["random" if seat % 2 else ("greedy" if "greedy" in kinds else "random")]()
            for seat in range(players)
        ]
        state = game.new_game(players, seed, options)
        version = 0
        log: list[str] = []
        while True:
            table = table_for(name, names, version)
            board = game.render_board(game.view(state, None), names)
            board += "\n" + "Clocks: " + " · ".join(f"{n} 1d 12h (to move)" for n in names)
            over = game.is_over(state)
            extra = []
            if over:
                table.status = "finished"
                extra = [
                    discord.Embed(
                        title=tr("Final scores"), description=render.outcome_text(table, game.outcome(state))
                    )
                ]
            embeds, files = render.board_embeds(table, game, board, [] if over else clock_views(names), extra)
            assert not files, f"{name}: the board at move {version} needs a file ({len(board)} characters)"
            tail = render.board_tail(table, game.to_act(state) if not over else (), finished=over)
            content = render.board_content(table, log, game.to_act(state) if not over else (), finished=over)
            if not render.log_fits(log, tail):
                for chunk in render.log_messages(log):
                    measure(limits, seen, "log message", chunk)
            measure(limits, seen, "board message", content, embeds)
            seen["board text"] = max(seen.get("board text", 0), len(board))
            seen["log of one call"] = max(seen.get("log of one call", 0), len("\n".join(log)))
            if over:
                break
            for seat in range(players):
                private = game.render_private(game.view(state, seat), names)
                seen["private text"] = max(seen.get("private text", 0), len(private))
                assert not render.private_files(table, game, private), f"{name}: a hand needs a file"
                moves = [game.format_move(move) for move in game.legal_moves(state, seat)]
                view, plan = move_view(table.id, version, moves) if moves else (None, plan_controls([]))
                embed = render.private_embed(table, game, private, ["You take the face-down field card R13."])
                header = (  # in the language of the test (tests/discord/test_text_limits.py runs them all)
                    tr("You played **{move}**.", move="something long enough")
                    + "\n"
                    + tr("**Your turn.** Choose a move below, or type `/play`.")
                )
                measure(limits, seen, "private message", header, [embed], view)
                seen["moves offered"] = max(seen.get("moves offered", 0), plan.offered)
                assert plan.left_out == 0, f"{name}: {plan.left_out} moves only playable with /play"
                if plan.kind == "two_step":
                    for group in plan.groups:
                        group_view = group_moves_view(table.id, version, group)
                        measure(limits, seen, "private message", header, [embed], group_view)
            # Several moves in a row form the log of one referee call until a seat changes.
            seat = game.to_act(state)[0]
            move = ai[seat].choose(game, state, seat, rng)
            state, events = game.apply(state, seat, move)
            version += 1
            lines = [format_event(event.text, names) for event in events if event.visible_to is None]
            log = log + lines if not game.is_over(state) and seat in game.to_act(state) else lines
    limits.check()
    MEASURED[name] = {
        **seen,
        "content": limits.content,
        "description": limits.description,
        "embed_total": limits.embed_total,
    }
    print(f"\n{name} at {players} players: {MEASURED[name]}")


SIMULATED = [
    ("orchard", 1, 5, None),
    ("vegetables", 2, 3, "house_variant=true"),
    ("granja", 2, 2, None),
]


@pytest.mark.parametrize(("name", "people", "ai", "options"), SIMULATED, ids=[row[0] for row in SIMULATED])
async def test_a_whole_game_at_its_largest_on_discord_stays_within_the_limits(
    world: World, name: str, people: int, ai: int, options: str | None
) -> None:
    """The same, through the bot: people with the longest names, the most seats, every log,
    DM, select, autocomplete answer and board as sent."""
    players = [world.guild.add_member(world.env.create_user(long_name)) for long_name in long_names(people)]
    thread = await open_table(world, name, players, ai=ai, options=options)
    played = await play_to_the_end(world, thread, players, seed=2, typed_every=4)
    await assert_final_scores(world, thread, played.table_id)
    limits = discord_limits(world.env)
    MEASURED[f"{name} on discord"] = {
        "content": limits.content,
        "description": limits.description,
        "embed_total": limits.embed_total,
        "select_options": limits.select_options,
        "custom_id": limits.custom_id,
        "rows": limits.rows,
    }
    print(f"\n{name} on discord, {people + ai} seats: {MEASURED[f'{name} on discord']}")
