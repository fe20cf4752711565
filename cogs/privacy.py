"""Deleting a player's data: ``/settings forget-me`` (with a confirm button, answered only to
them) and the owner's ``@Bot forget <user id>`` (cogs/admin.py).

The referee does the deleting (``Referee.forget_user``, engine/referee/forget.py); this desk asks
for confirmation, then tells Discord what changed: the games that went on get a new board (an
AI plays the seat now), and the lobby messages are redrawn without the player (or shown
cancelled). Messages already posted keep what they said; the README's "Your data" says so.
"""

from __future__ import annotations

import logging

import discord

from engine.core import GameError
from engine.games import get_game
from engine.i18n import N_, tr, tr_n
from engine.referee import Referee
from engine.referee.forget import ForgetReport

from . import render
from .components import forget_view, lobby_view
from .language import public_language
from .replies import reply

log = logging.getLogger(__name__)

FORGET_QUESTION = N_(
    "**Delete your data?** This cannot be undone. I will delete your settings (quiet hours, turn "
    "DMs, DM status), take you out of every lobby (a lobby you host alone is cancelled, otherwise "
    "the next player hosts it) and forfeit your games in progress (an AI plays your seat to the end, "
    "so the others can finish). Finished games keep their results, under an anonymous name "
    '("Former player #N"), so that the other players\' rankings and histories stay right.'
)


def report_text(report: ForgetReport) -> str:
    parts = [tr("Done: your data is deleted; your finished games show you as **{name}**.", name=report.name)]
    done = []
    if report.lobbies_left:
        done.append(tr_n("{n} lobby left", "{n} lobbies left", len(report.lobbies_left)))
    if report.lobbies_cancelled:
        done.append(tr_n("{n} lobby cancelled", "{n} lobbies cancelled", len(report.lobbies_cancelled)))
    if report.games_forfeited:
        done.append(
            tr_n("{n} game in progress forfeited", "{n} games in progress forfeited", len(report.games_forfeited))
        )
    if report.games_cancelled:
        done.append(
            tr_n(
                "{n} game cancelled (nobody else played it)",
                "{n} games cancelled (nobody else played them)",
                len(report.games_cancelled),
            )
        )
    if done:
        parts.append(tr("Also: {things}.", things=", ".join(done)))
    return " ".join(parts)


class PrivacyDesk:
    def __init__(self, bot: discord.Client, referee: Referee) -> None:
        self.bot = bot
        self.referee = referee

    async def ask(self, interaction: discord.Interaction) -> None:
        """``/settings forget-me``: the question, with the button that confirms it (only they see it)."""
        await reply(interaction, tr(FORGET_QUESTION), view=forget_view(str(interaction.user.id)))

    async def confirm(self, interaction: discord.Interaction, user_id: str) -> None:
        """The confirm button: only the player it was shown to can press it."""
        if str(interaction.user.id) != user_id:
            await reply(
                interaction, tr("This button deletes someone else's data; use /settings forget-me for yours.")
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            report = await self.forget(user_id)
        except GameError as error:
            await reply(interaction, str(error))
            return
        await reply(interaction, report_text(report))

    async def forget(self, user_id: str) -> ForgetReport:
        """Forget a player, then show the change where it shows: boards and lobby messages."""
        report = await self.referee.forget_user(user_id)
        desk = getattr(self.bot, "desk", None)
        for outbox in report.outboxes:
            try:
                if desk is not None:
                    await desk.publish(outbox)
            except Exception:  # the announcer catches it up at the next poll
                log.exception(
                    "could not post the board of game #%s after a player was forgotten", outbox.table.id
                )
        for table_id in [*report.lobbies_left, *report.lobbies_cancelled]:
            await self.redraw_lobby(table_id)
        return report

    async def redraw_lobby(self, table_id: int) -> None:
        table = await self.referee.table(table_id)
        if table.channel_id is None or table.message_id is None:
            return
        game = get_game(table.game)
        async with public_language(self.bot, table.guild_id):  # the lobby message is public
            if table.status == "lobby":
                embed, view = render.lobby_embed(table, game), lobby_view(table.id)
            else:
                embed = discord.Embed(
                    title=tr("{game}: cancelled", game=render.game_label(table, game)),
                    description=tr("Its host left and nobody else was seated."),
                    colour=render.CANCELLED_COLOUR,
                )
                view = None
        guild = int(table.guild_id) if table.guild_id else None
        message = self.bot.get_partial_messageable(int(table.channel_id), guild_id=guild).get_partial_message(
            int(table.message_id)
        )
        try:
            await message.edit(embed=embed, view=view)
        except discord.HTTPException as error:
            log.warning("could not redraw the lobby of game #%s: %s", table_id, error)
