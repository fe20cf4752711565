"""Slash commands: /game new|list|cancel, /play, /hand, /board, /rules.

Each command only reads its arguments and hands over to the GameDesk; the games themselves (names,
options, moves, rules text) all come from the registry, so no command knows any particular game.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from engine.core import Game, GameError
from engine.games import REGISTRY, get_game
from engine.i18n import tr
from engine.referee import (
    DEFAULT_LEVEL,
    HOST_MAJORITY,
    LEVEL_HELP,
    LEVELS,
    LOBBY,
    RECOMMENDED_SPEED,
    RUNNING,
    SPEEDS,
    UNANIMOUS,
)

from . import render
from .announcer import unreachable_note
from .desk import GameDesk
from .lobby import parse_options
from .replies import reply

log = logging.getLogger(__name__)

MAX_CHOICES = 25
MAX_CHOICE_TEXT = 100  # Discord's limit on an autocomplete choice's name and value
ABANDON_CHOICES = [
    app_commands.Choice(name=locale_str("Unanimous: every player votes to abandon"), value=UNANIMOUS),
    app_commands.Choice(name=locale_str("The host and a majority of the players"), value=HOST_MAJORITY),
]
# Texts of the referee's (marked there): the translator reads them with tr() like any other.
SPEED_CHOICES = [app_commands.Choice(name=speed.label[:100], value=speed.name) for speed in SPEEDS.values()]


def _level_choice(level: str) -> app_commands.Choice[str]:
    def render() -> str:
        return f"{level}: {tr(LEVEL_HELP[level])}"

    return app_commands.Choice(name=locale_str(f"{level}: {LEVEL_HELP[level]}"[:100], render=render), value=level)


LEVEL_CHOICES = [_level_choice(level) for level in LEVELS]


def _choice(name: str, value: str | int) -> app_commands.Choice[Any]:
    return app_commands.Choice(name=render.clip(name, 100), value=value)


async def game_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The autocomplete of every command's option that names a game (/game new, /rules,
    /leaderboard, /history)."""
    return game_choices(current)


class GameCommands(commands.Cog):
    """Everything a player types."""

    game = app_commands.Group(name="game", description=locale_str("Open, list and cancel games"), guild_only=True)

    def __init__(self, desk: GameDesk) -> None:
        self.desk = desk

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """A message in a game's thread (a player's remark, say): the next board comes below it."""
        me = self.desk.bot.user
        if me is None or message.author.id != me.id:
            self.desk.note_other_message(message.channel.id)

    # ----- /game --------------------------------------------------------------------------------

    @game.command(name="new", description=locale_str("Open a lobby for a game in this channel"))
    @app_commands.describe(
        game=locale_str("The game to play (see /rules)"),
        options=locale_str("Settings as NAME=VALUE separated by spaces (see /rules for each game's options)"),
        ai=locale_str("How many AI seats to add right away (the host can add more in the lobby)"),
        speed=locale_str("How much time each player has: live, daily (1, 2 or 4 moves a day), or untimed (unrated)"),
        level=locale_str("How well the AI seats play (default: normal)"),
        abandon=locale_str("How the players may abandon the game by vote: all of them (default), or the host and a majority"),
    )
    @app_commands.choices(speed=SPEED_CHOICES, abandon=ABANDON_CHOICES, level=LEVEL_CHOICES)
    @app_commands.autocomplete(game=game_names)
    async def game_new(
        self,
        interaction: discord.Interaction,
        game: str,
        options: str | None = None,
        ai: app_commands.Range[int, 0, 10] = 0,
        speed: str = RECOMMENDED_SPEED,
        abandon: str = UNANIMOUS,
        level: str = DEFAULT_LEVEL,
    ) -> None:
        await self.desk.open_lobby(interaction, game, options, ai, speed, abandon, level=level)

    @game_new.autocomplete("options")
    async def game_new_options(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return option_choices(getattr(interaction.namespace, "game", None), current)

    @game.command(name="list", description=locale_str("The games open or running on this server"))
    async def game_list(self, interaction: discord.Interaction) -> None:
        tables = await self.desk.referee.tables(
            guild_id=str(interaction.guild_id), statuses=(LOBBY, RUNNING), limit=MAX_CHOICES
        )
        if not tables:
            await reply(interaction, tr("No game is open or running here. Start one with `/game new`."))
            return
        unreachable = await self.desk.announcer.unreachable([table.id for table in tables])
        lines = [
            render.table_summary_line(table, get_game(table.game))
            + (f" · {unreachable_note()}" if table.id in unreachable else "")
            for table in tables
        ]
        await reply(interaction, render.clip("\n".join(lines), render.CONTENT_LIMIT))

    @game.command(name="cancel", description=locale_str("Cancel a game (the host, or members with Manage Server)"))
    @app_commands.describe(game=locale_str("The game number (default: the game of this thread, or your only game)"))
    async def game_cancel(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self.desk.cancel(interaction, game)

    @game_cancel.autocomplete("game")
    async def game_cancel_game(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await self.table_choices(interaction, current, (LOBBY, RUNNING))

    @game.command(name="abandon", description=locale_str("Vote to abandon a game you play (it ends unrated if the vote passes)"))
    @app_commands.describe(
        game=locale_str("The game number (default: the game of this thread, or your only game)"),
        withdraw=locale_str("Take back your vote"),
    )
    async def game_abandon(
        self, interaction: discord.Interaction, game: int | None = None, withdraw: bool = False
    ) -> None:
        await self.desk.vote_abandon(interaction, game, withdraw)

    @game_abandon.autocomplete("game")
    async def game_abandon_game(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await self.table_choices(interaction, current, (RUNNING,))

    # ----- playing ------------------------------------------------------------------------------

    @app_commands.command(name="play", description=locale_str("Play a move (autocomplete lists your legal moves)"))
    @app_commands.describe(
        move=locale_str("Your move, in the game's notation"), game=locale_str("The game number (default: this thread's game)")
    )
    async def play(self, interaction: discord.Interaction, move: str, game: int | None = None) -> None:
        await self.desk.play_typed(interaction, game, move)

    @play.autocomplete("move")
    async def play_move(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            table = await self.desk.find_table(
                interaction, getattr(interaction.namespace, "game", None), statuses=(RUNNING,)
            )
            moves = (await self.desk.referee.snapshot(table.id, str(interaction.user.id))).legal_moves
        except GameError:
            return []
        return move_choices(moves, current)

    @app_commands.command(name="undo", description=locale_str("Take back your last move, while nobody has acted since"))
    @app_commands.describe(game=locale_str("The game number (default: this thread's game)"))
    async def undo(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self.desk.undo_typed(interaction, game)

    @app_commands.command(name="hand", description=locale_str("See your hand and your moves (only you see it)"))
    @app_commands.describe(game=locale_str("The game number (default: this thread's game)"))
    async def hand(self, interaction: discord.Interaction, game: int | None = None) -> None:
        try:
            table = await self.desk.find_table(interaction, game, statuses=(RUNNING,))
        except GameError as error:
            await reply(interaction, str(error))
            return
        await self.desk.show_hand(interaction, table.id)

    @app_commands.command(name="board", description=locale_str("Post the current board again"))
    @app_commands.describe(game=locale_str("The game number (default: this thread's game)"))
    async def board(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self.desk.post_board_here(interaction, game)

    @app_commands.command(name="rules", description=locale_str("How a game is played, and how to write its moves"))
    @app_commands.describe(game=locale_str("The game"))
    @app_commands.autocomplete(game=game_names)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        try:
            found = get_game(game)
        except GameError as error:
            await reply(interaction, str(error))
            return
        await reply(interaction, embeds=[render.rules_embed(found)])

    # ----- shared autocomplete ------------------------------------------------------------------

    @play.autocomplete("game")
    @undo.autocomplete("game")
    @hand.autocomplete("game")
    @board.autocomplete("game")
    async def running_game(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await self.table_choices(interaction, current, (RUNNING,))

    async def table_choices(
        self, interaction: discord.Interaction, current: str, statuses: tuple[str, ...]
    ) -> list[app_commands.Choice[int]]:
        tables = await self.desk.my_tables(interaction, statuses)
        choices = []
        for table in tables:
            label = f"#{table.id} {tr(get_game(table.game).title)} ({render.status_text(table.status)})"
            if current.strip().lstrip("#") in label:
                choices.append(_choice(label, table.id))
        return choices[:MAX_CHOICES]


def move_choices(moves: list[str], current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for /play: the matching moves that Discord can take as a choice (a value of
    at most 100 characters; a longer move is still accepted when typed in full)."""
    usable = [move for move in matching(moves, current) if len(move) <= MAX_CHOICE_TEXT]
    return [_choice(move, move) for move in usable[:MAX_CHOICES]]


def matching(moves: list[str], current: str) -> list[str]:
    """Moves starting with what was typed first, then moves containing it (case-insensitive)."""
    typed = " ".join(current.lower().split())
    if not typed:
        return moves
    starts = [move for move in moves if move.lower().startswith(typed)]
    contains = [move for move in moves if typed in move.lower() and move not in starts]
    return starts + contains


def game_choices(current: str) -> list[app_commands.Choice[str]]:
    typed = current.strip().lower()
    choices = []
    for game in registered_games():
        title = tr(game.title)
        if typed in game.name or typed in game.title.lower() or typed in title.lower():
            choices.append(_choice(f"{title} ({render.player_count_text(game)})", game.name))
    return choices[:MAX_CHOICES]


def registered_games() -> list[Game[Any, Any]]:
    """Every game that loads: one broken game package must not hide the others from the menus."""
    games = []
    for name in REGISTRY:
        try:
            games.append(get_game(name))
        except Exception:
            log.exception("game %r is registered but does not load", name)
    return games


def option_choices(game_name: str | None, current: str) -> list[app_commands.Choice[str]]:
    """Suggest the next NAME=VALUE after what is already typed (defaults and known values)."""
    if not game_name or game_name.strip().lower() not in REGISTRY:
        return []
    game = get_game(game_name)
    words = current.split()
    finished = words if current.endswith(" ") else words[:-1]
    partial = "" if current.endswith(" ") or not words else words[-1]
    try:
        given = parse_options(" ".join(finished))
    except GameError:
        return []
    head = " ".join(finished)
    choices = []
    for option in game.options:
        if option.name in given:
            continue
        values = option.choices or (("true", "false") if option.kind == "bool" else (str(option.default),))
        suggestions = [f"{option.name}={value}" for value in values]
        if partial.startswith(f"{option.name}=") and partial not in suggestions:
            suggestions.insert(0, partial)  # the value being typed is accepted as it is
        for suggestion in suggestions:
            if suggestion.startswith(partial):
                text = f"{head} {suggestion}".strip()
                choices.append(_choice(f"{text}  ({tr(option.description)})", text[:100]))
    return choices[:MAX_CHOICES]
