"""Maintenance: the owner's ``@Bot sync`` (or ``@Bot sync here``), and ``/limits`` for servers.

A mention works before any slash command is registered, and Discord shows the bot the text of
messages that mention it without the privileged message-content intent. ``/limits show`` and
``/limits set`` are for members with Manage Server: what one player and the server may have open
at once (the referee enforces them: engine/referee/limits.py).
"""

from __future__ import annotations

from typing import Protocol

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from engine.core import GameError
from engine.i18n import number, tr, tr_ctx
from engine.referee import Referee
from engine.referee.limits import CANCELLED_RETENTION, DAY, LIMIT_MAX, LIMIT_NAMES, LOBBY_RETENTION, Limits

from .lobby import is_server_manager, managers_group
from .replies import reply


class Syncs(Protocol):
    referee: Referee | None

    async def sync_application_commands(self, guild_id: int | None = None) -> int: ...


LIMIT_CHOICES = [app_commands.Choice(name=text[:100], value=name) for name, text in LIMIT_NAMES.items()]


def limits_text(limits: Limits, defaults: Limits) -> str:
    """Every limit in force, with its default when the server changed it, and what is purged."""
    lines = [tr("**Limits on this server**")]
    for name, text in LIMIT_NAMES.items():
        value, default = getattr(limits, name), getattr(defaults, name)
        shown = tr_ctx("limit", "none") if value is None else number(value)
        line = f"- {tr(text)}: {shown}"
        if value != default:
            line = tr("{limit} (default {default})", limit=line, default=number(default))
        lines.append(line)
    lines.append(
        tr(
            "Lobbies cancelled {cancelled} days ago and lobbies nobody touched for {untouched} days are "
            "deleted; games that started are kept.",
            cancelled=f"{CANCELLED_RETENTION / DAY:g}",
            untouched=f"{LOBBY_RETENTION / DAY:g}",
        )
    )
    return "\n".join(lines)


class AdminCommands(commands.Cog):
    limits = managers_group("limits", locale_str("What one player and this server may have open at once (Manage Server)"))

    def __init__(self, bot: Syncs) -> None:
        self.bot = bot

    @limits.command(name="show", description=locale_str("This server's limits on open lobbies and games"))
    async def limits_show(self, interaction: discord.Interaction) -> None:
        referee = self._referee()
        limits = await referee.admission.limits_for(str(interaction.guild_id))
        await reply(interaction, limits_text(limits, referee.admission.defaults))

    @limits.command(name="set", description=locale_str("Change one of this server's limits (Manage Server)"))
    @app_commands.describe(limit=locale_str("Which limit"), value=locale_str("The new value; leave it out to go back to the default"))
    @app_commands.choices(limit=LIMIT_CHOICES)
    async def limits_set(
        self,
        interaction: discord.Interaction,
        limit: str,
        value: app_commands.Range[int, 1, LIMIT_MAX] | None = None,
    ) -> None:
        # Discord hides the command from members without Manage Server by default, but a server
        # may change that: the permission is checked here too.
        if not is_server_manager(interaction):
            await reply(interaction, tr("Only members with Manage Server can change this server's limits."))
            return
        referee = self._referee()
        try:
            limits = await referee.admission.set_limit(str(interaction.guild_id), limit, value)
        except GameError as error:
            await reply(interaction, str(error))
            return
        await reply(interaction, limits_text(limits, referee.admission.defaults))

    def _referee(self) -> Referee:
        assert self.bot.referee is not None  # set up before any command is taken
        return self.bot.referee

    @commands.command(name="sync")
    @commands.is_owner()
    async def sync(self, ctx: commands.Context[commands.Bot], scope: str = "global") -> None:
        """Register the slash commands with Discord: everywhere (global, can take up to an hour
        to show) or ``here`` (this server only, instant)."""
        if scope not in ("global", "here"):
            await ctx.reply(
                "Use `sync` (every server) or `sync here` (this server, instant).", mention_author=False
            )
            return
        if scope == "here" and ctx.guild is None:
            await ctx.reply("`sync here` only works in a server.", mention_author=False)
            return
        count = await self.bot.sync_application_commands(
            ctx.guild.id if scope == "here" and ctx.guild else None
        )
        where = "this server" if scope == "here" else "every server (may take a while to show)"
        await ctx.reply(f"Synced {count} slash commands to {where}.", mention_author=False)

    @commands.command(name="forget")
    @commands.is_owner()
    async def forget(self, ctx: commands.Context[commands.Bot], user_id: str = "") -> None:
        """Delete a user's data on request (Discord's developer policy), as /settings forget-me
        does for themselves: ``forget <user id>``."""
        if not user_id.isdigit() or len(user_id) > 20:
            await ctx.reply("Use `forget <user id>` (the numeric Discord id).", mention_author=False)
            return
        privacy = getattr(self.bot, "privacy", None)
        assert privacy is not None  # set up before any command is taken
        report = await privacy.forget(user_id)
        await ctx.reply(
            f"Forgotten: that user is now {report.name} in finished games; {len(report.lobbies_left)}"
            f" lobbies left, {len(report.lobbies_cancelled)} cancelled, {len(report.games_forfeited)} games"
            f" forfeited, {len(report.games_cancelled)} cancelled.",
            mention_author=False,
        )

    async def cog_command_error(self, ctx: commands.Context[commands.Bot], error: Exception) -> None:
        if isinstance(error, commands.NotOwner):
            await ctx.reply("Only the bot's owner can do that.", mention_author=False)
            return
        raise error
