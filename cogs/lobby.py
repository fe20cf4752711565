"""The lobby: a new game's message with its buttons (join, leave, add or remove an AI, start,
cancel), and starting or cancelling a game by command.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from engine.core import Game, GameError
from engine.core.text import quote
from engine.games import get_game
from engine.i18n import N_, tr
from engine.referee import DEFAULT_LEVEL, LOBBY, RUNNING, UNANIMOUS, Referee, is_stacked

from . import render
from .components import lobby_view
from .language import public_language
from .replies import reply

_OPTION = re.compile(r"^(?P<name>[A-Za-z_][\w-]*)=(?P<value>.*)$")

# A stacked deal would let a host choose everyone's cards: here the referee always deals.
STACKED_REFUSAL = N_(
    "Stacked deals (`deck=`) are for tests and the local table: on Discord the referee deals. "
    "Start the game without that option."
)


def parse_options(text: str | None) -> dict[str, str]:
    """``"rounds=3 pairs=true"`` -> ``{"rounds": "3", "pairs": "true"}``; the game checks values."""
    options: dict[str, str] = {}
    for token in (text or "").split():
        match = _OPTION.match(token)
        if match is None:
            raise GameError(tr("Write options as NAME=VALUE separated by spaces (not {text}).", text=quote(token)))
        options[match["name"].lower()] = match["value"]
    return options


def default_ai_kind(game: Game[Any, Any]) -> str:
    """The level of an AI seat added without choosing one (the referee maps it to what the game
    offers)."""
    return DEFAULT_LEVEL


def is_server_manager(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions and permissions.manage_guild)


async def refuse_server_setting(interaction: discord.Interaction, manager: bool, not_manager: str) -> bool:
    """Whether a server's setting is refused, the refusal sent: outside a server, or to a member
    without Manage Server (``not_manager`` says what only managers may do)."""
    if interaction.guild_id is None:
        await reply(interaction, tr("This setting is for a server: use it in one of its channels."))
        return True
    if not manager:
        await reply(interaction, not_manager)
        return True
    return False


def managers_group(name: str, description: str) -> app_commands.Group:
    """A slash-command group for server managers only: in servers, shown to Manage Server by
    default (server admins may widen it in their integration settings)."""
    return app_commands.Group(
        name=name,
        description=description,
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )


class LobbyRoom:
    """The GameDesk's lobby (cogs/desk.py composes the rooms). Of the other rooms it uses
    publishing (``ensure_thread``, ``publish``, ``channel_of``, ``quietly``: cogs/publishing.py)
    and ``find_table`` (cogs/desk.py)."""

    bot: discord.Client
    referee: Referee

    async def open_lobby(
        self,
        interaction: discord.Interaction,
        game_name: str,
        options_text: str | None,
        ai_seats: int,
        speed: str,
        abandon_rule: str = UNANIMOUS,
        level: str | None = None,
    ) -> None:
        try:
            game = get_game(game_name)
            options = parse_options(options_text)
            if is_stacked(options):
                raise GameError(tr(STACKED_REFUSAL))
            table = await self.referee.create_table(
                game.name,
                str(interaction.user.id),
                interaction.user.display_name,
                options=options,
                guild_id=str(interaction.guild_id) if interaction.guild_id else None,
                channel_id=str(interaction.channel_id),
                speed=speed,
                # With the table, in one write: a refused request leaves no lobby behind.
                ai_seats=[level or default_ai_kind(game)] * ai_seats,
                abandon_rule=abandon_rule,
            )
        except GameError as error:
            await reply(interaction, str(error))
            return
        async with public_language(self.bot, table.guild_id):  # the lobby is everyone's
            embed, view = render.lobby_embed(table, game), lobby_view(table.id)
        callback = await interaction.response.send_message(
            embed=embed, view=view, allowed_mentions=discord.AllowedMentions.none()
        )
        if callback is not None and callback.message_id is not None:
            await self.referee.set_links(table.id, message_id=str(callback.message_id))

    async def lobby_action(
        self, interaction: discord.Interaction, table_id: int, action: str, level: str | None = None
    ) -> None:
        """A lobby button, or the level select (``action`` "ai" with the chosen ``level``)."""
        user = str(interaction.user.id)
        if action == "start":
            await self.start(interaction, table_id)
            return
        try:
            if action == "join":
                table = await self.referee.join(table_id, user, interaction.user.display_name)
            elif action == "leave":
                table = await self.referee.leave(table_id, user)
            elif action == "ai":
                table = await self.referee.table(table_id)
                table = await self.referee.add_ai(table_id, user, level or default_ai_kind(get_game(table.game)))
            elif action == "unai":
                table = await self.referee.remove_ai(table_id, user)
            elif action == "cancel":
                table = await self.referee.cancel(table_id, user, is_admin=is_server_manager(interaction))
                game = get_game(table.game)
                async with public_language(self.bot, table.guild_id):
                    embed = render.cancelled_embed(table, game, user)
                await interaction.response.edit_message(embed=embed, view=None)
                return
            else:
                raise GameError(tr("This button is no longer supported."))
        except GameError as error:
            await reply(interaction, str(error))
            return
        async with public_language(self.bot, table.guild_id):
            embed, view = render.lobby_embed(table, get_game(table.game)), lobby_view(table.id)
        await interaction.response.edit_message(embed=embed, view=view)

    async def start(self, interaction: discord.Interaction, table_id: int) -> None:
        # Starting deals, lets AI seats play, opens a thread and sends every hand: defer first.
        await interaction.response.defer()
        try:
            outbox = await self.referee.start(table_id, str(interaction.user.id))
        except GameError as error:
            await reply(interaction, str(error))
            return
        table = await self.ensure_thread(outbox.table, interaction.message)
        outbox.table = table
        game = get_game(table.game)
        seating = (await self.referee.snapshot(table.id)).seating
        async with public_language(self.bot, table.guild_id):
            embed = render.started_embed(table, game, seating)
        await interaction.edit_original_response(
            embed=embed, view=None, allowed_mentions=discord.AllowedMentions.none()
        )
        await self.publish(outbox, interaction=interaction)

    async def cancel(self, interaction: discord.Interaction, game_id: int | None) -> None:
        try:
            table = await self.find_table(interaction, game_id, statuses=(LOBBY, RUNNING), players_only=False)
            table = await self.referee.cancel(
                table.id, str(interaction.user.id), is_admin=is_server_manager(interaction)
            )
        except GameError as error:
            await reply(interaction, str(error))
            return
        game = get_game(table.game)
        async with public_language(self.bot, table.guild_id):
            embed = render.cancelled_embed(table, game, str(interaction.user.id))
        await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())
        # The lobby message loses its buttons; a running game's thread hears about it.
        channel = table.thread_id or table.channel_id
        if table.thread_id is None and table.channel_id and table.message_id:
            await self.quietly(
                self.channel_of(table.channel_id, table)
                .get_partial_message(int(table.message_id))
                .edit(embed=embed, view=None)
            )
        elif channel and str(interaction.channel_id) != channel:
            await self.quietly(
                self.channel_of(channel, table).send(
                    embed=embed, allowed_mentions=discord.AllowedMentions.none()
                )
            )
