"""How a game ends besides its last move, and what follows: the abandon vote (``/game
abandon``) and the **Rematch** button of the game-over message (engine/referee/abandon.py and
rematch.py decide; this room calls them and shows the result).

A rematch lobby is posted in the finished game's channel, with the lobby's usual buttons: each
earlier player presses Join and sits at their rotated place. Its opening is told in the old
game's thread, with a link; a second click on Rematch answers with the link to the same lobby.
"""

from __future__ import annotations

import discord

from engine.core import GameError
from engine.games import get_game
from engine.i18n import tr
from engine.referee import LOBBY, RUNNING, Referee, Table

from . import render
from .components import lobby_view
from .language import public_language
from .replies import reply


class EndingsRoom:
    """The GameDesk's abandon votes and rematches (cogs/desk.py composes the rooms). Of the other
    rooms it uses ``find_table`` (desk.py), ``publish``, ``channel_of`` and ``send_to_channel``
    (publishing.py)."""

    bot: discord.Client
    referee: Referee

    async def vote_abandon(self, interaction: discord.Interaction, game_id: int | None, withdraw: bool) -> None:
        """/game abandon: the caller's vote (or its withdrawal); the board shows the votes, and the
        deciding vote ends the game, announced in its thread."""
        try:
            table = await self.find_table(interaction, game_id, statuses=(RUNNING,))
        except GameError as error:
            await reply(interaction, str(error))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = str(interaction.user.id)
        try:
            outbox = await self.referee.vote_abandon(table.id, user, withdraw=withdraw)
        except GameError as error:
            await reply(interaction, str(error))
            return
        if outbox.finished:
            answer = tr("Your vote decided it: the game is abandoned, unrated.")
        elif withdraw:
            answer = tr("Your vote to abandon is taken back.")
        else:
            answer = tr("Your vote to abandon is counted; the board shows who voted so far.")
        await reply(interaction, answer)
        await self.publish(outbox, interaction=interaction, answered=user)

    async def rematch(self, interaction: discord.Interaction, table_id: int) -> None:
        """The Rematch button: open the rematch lobby in the game's channel, or lead to it."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = str(interaction.user.id)
        try:
            table, opened = await self.referee.rematch(table_id, user, interaction.user.display_name)
        except GameError as error:
            await reply(interaction, str(error))
            return
        if not opened:
            await reply(interaction, already_open_text(table))
            return
        table = await self._post_lobby(table)
        old = await self.referee.table(table_id)
        async with public_language(self.bot, old.guild_id):
            link = render.lobby_url(table) or tr("in this game's channel")
            content = render.clip(
                tr(
                    "{player} opened a rematch: {link} (the seats move round by one). "
                    "Press **Join** there to take your seat.",
                    player=render.mention(user),
                    link=link,
                ),
                render.CONTENT_LIMIT,
            )
        await self.send_to_channel(old, content=content)
        await reply(interaction, tr("Rematch lobby opened: {link}", link=render.lobby_url(table) or tr("in this game's channel")))

    async def _post_lobby(self, table: Table) -> Table:
        """The lobby message of a rematch, in the finished game's channel."""
        if table.channel_id is None:
            return table
        channel = self.channel_of(table.channel_id, table)
        async with public_language(self.bot, table.guild_id):
            embed, view = render.lobby_embed(table, get_game(table.game)), lobby_view(table.id)
        try:
            message = await channel.send(
                embed=embed,
                view=view,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            return table  # the lobby exists all the same: /game list shows it
        return await self.referee.set_links(table.id, message_id=str(message.id))


def already_open_text(table: Table) -> str:
    if table.status == LOBBY:
        where = render.lobby_url(table) or tr("in this game's channel")
        return tr("The rematch is already open: {where}. Press **Join** there.", where=where)
    where = render.thread_url(table) or tr("in this game's channel")
    return tr("The rematch has already started (game #{number}): {where}", number=table.id, where=where)
