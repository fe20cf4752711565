"""Owner-only maintenance, reached by mentioning the bot: ``@Bot sync`` or ``@Bot sync here``.

A mention works before any slash command is registered, and Discord shows the bot the text of
messages that mention it without the privileged message-content intent.
"""

from __future__ import annotations

from typing import Protocol

from discord.ext import commands


class Syncs(Protocol):
    async def sync_application_commands(self, guild_id: int | None = None) -> int: ...


class AdminCommands(commands.Cog):
    def __init__(self, bot: Syncs) -> None:
        self.bot = bot

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

    async def cog_command_error(self, ctx: commands.Context[commands.Bot], error: Exception) -> None:
        if isinstance(error, commands.NotOwner):
            await ctx.reply("Only the bot's owner can do that.", mention_author=False)
            return
        raise error
