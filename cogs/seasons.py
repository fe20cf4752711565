"""``/season`` for server managers, and the post of each season's final standings.

``/season start`` ends the current season now and opens the next; ``/season schedule`` has
seasons roll over monthly or quarterly (or only by hand); both say how ratings carry over
(engine/referee/seasons.py) and where the final standings go: the channel given, else the one
where the command was used; ``/season show`` says how this server runs its seasons.

The standings are an outbox like the boards' (cogs/announcer.py): a season that ended is stored
as owed its post in the transaction that ended it; the clock task (``SeasonHerald.poll``, at
every poll, so at start-up too) rolls over what is due, posts what is owed, then marks it. A crash
before the post: it is posted after the restart; a crash after it, before the mark: the post
carries a nonce per season, so Discord returns the message already made instead of a second one.
"""

from __future__ import annotations

import logging
from typing import Protocol

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from engine.core import GameError
from engine.games import get_game
from engine.i18n import N_, tr
from engine.referee import LeaderboardPage, Referee
from engine.referee.seasons import (
    CADENCES,
    CARRIES,
    CARRY_TEXT,
    MANUAL,
    MONTHLY,
    QUARTERLY,
    Season,
    SeasonPlan,
    Standings,
)

from . import render
from .language import public_language
from .lobby import is_server_manager, managers_group
from .replies import reply

log = logging.getLogger(__name__)

MAX_GAMES = 10  # games shown in one post of standings (the most played first)
# Discord refuses these for good: unknown channel, missing access or permissions. Such a post is
# given up (logged) rather than tried at every poll forever.
GIVE_UP = frozenset({10003, 50001, 50013})


class HasReferee(Protocol):
    referee: Referee | None


# The cadences' names as the commands offer them and the replies say them.
CADENCE_NAMES = {MANUAL: N_("manual"), MONTHLY: N_("monthly"), QUARTERLY: N_("quarterly")}


def cadence_text(cadence: str) -> str:
    return tr(CADENCE_NAMES[cadence]) if cadence in CADENCE_NAMES else cadence


def season_nonce(season: Season) -> str:
    return f"season{season.id}"[:25]


def game_title(name: str) -> str:
    try:
        return tr(get_game(name).title)
    except GameError:  # a game no longer installed keeps its standings
        return name


def board_lines(board: LeaderboardPage) -> str:
    return "\n".join(
        f"**{row.position}.** {row.name}: {row.rating:.1f}{'*' if row.provisional else ''} · "
        + tr("{games} games · {wins} wins", games=row.games, wins=row.wins)
        for row in board.rows
    )


def standings_embed(standings: Standings) -> discord.Embed:
    """A season's final standings: a field per game, within Discord's limits whatever the names."""
    season = standings.season
    embed = discord.Embed(
        title=render.clip(tr("{season} is over: final standings", season=season.name), 256),
        colour=render.OVER_COLOUR,
    )
    if not standings.boards:
        embed.description = tr("No rated game was played this season.")
    for board in standings.boards[:MAX_GAMES]:
        name = render.clip(game_title(board.game), 256)
        value = render.clip(board_lines(board) or "-", render.FIELD_LIMIT)
        if render.embeds_total([embed]) + len(name) + len(value) > render.EMBEDS_LIMIT - 200:
            break
        embed.add_field(name=name, value=value, inline=False)
    embed.set_footer(text=tr("rating = mu - 3 sigma · * provisional · /leaderboard season: shows any season"))
    return embed


def plan_text(plan: SeasonPlan | None, current: Season | None) -> str:
    if current is None:
        return tr("This server has no seasons: /leaderboard shows all time. A manager starts one with /season start.")
    lines = [
        tr("Current season: **{season}**, since {when}", season=current.name, when=render.timestamp(current.started_at))
    ]
    if current.ends_at is not None:
        lines.append(
            tr(
                "It ends {when} (seasons roll over {cadence}).",
                when=render.timestamp(current.ends_at),
                cadence=cadence_text(plan.cadence) if plan else "",
            )
        )
    else:
        lines.append(tr("It runs until a manager starts the next one (/season start)."))
    if plan is not None:
        lines.append(tr("Into the next season: {carry}.", carry=tr(CARRY_TEXT[plan.carry])))
        if plan.channel_id:
            lines.append(tr("Final standings are posted in {channel}.", channel=f"<#{plan.channel_id}>"))
    return "\n".join(lines)


class SeasonHerald:
    """Rolls seasons over and posts the standings owed (the clock task calls ``poll``)."""

    def __init__(self, bot: discord.Client, referee: Referee) -> None:
        self.bot = bot
        self.referee = referee

    async def poll(self) -> None:
        seasons = self.referee.seasons
        await seasons.roll_over()
        for season in await seasons.owed():
            if await self.post(season):
                await seasons.mark_announced(season.id)

    async def post(self, season: Season) -> bool:
        """Post a season's standings; False when it should be tried again later."""
        if season.channel_id is None:
            return True  # nowhere to post (a season from before any channel was known)
        standings = await self.referee.seasons.standings(season)
        channel = self.bot.get_partial_messageable(int(season.channel_id), guild_id=int(season.guild_id))
        async with public_language(self.bot, season.guild_id):  # an announcement: the server's language
            embed = standings_embed(standings)
        try:
            await channel.send(
                embed=embed,
                nonce=season_nonce(season),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as error:
            if error.code in GIVE_UP:
                log.warning(
                    "could not post the standings of %s (server %s): %s", season.name, season.guild_id, error
                )
                return True
            log.info("the standings of %s were not posted (%s); trying again later", season.name, error)
            return False
        return True


class SeasonCommands(commands.Cog):
    season = managers_group("season", locale_str("Seasons of this server's leaderboards (Manage Server)"))

    def __init__(self, bot: HasReferee) -> None:
        self.bot = bot

    def _referee(self) -> Referee:
        assert self.bot.referee is not None  # set up before any command is taken
        return self.bot.referee

    @season.command(name="start", description=locale_str("End the current season now and start the next"))
    @app_commands.describe(
        carry=locale_str("How ratings enter the new season"), channel=locale_str("Where the final standings go (default: here)")
    )
    @app_commands.choices(carry=[app_commands.Choice(name=CARRY_TEXT[c][:100], value=c) for c in CARRIES])
    async def start(
        self, interaction: discord.Interaction, carry: str, channel: discord.TextChannel | None = None
    ) -> None:
        if not await self._allowed(interaction):
            return
        where = str(channel.id if channel else interaction.channel_id)
        try:
            season = await self._referee().seasons.start(str(interaction.guild_id), carry, where)
        except GameError as error:
            await reply(interaction, str(error))
            return
        await self._show(interaction, tr("**{season}** has started.", season=season.name))

    @season.command(name="schedule", description=locale_str("Seasons monthly, quarterly or only by hand"))
    @app_commands.describe(
        cadence=locale_str("When seasons roll over (UTC)"),
        carry=locale_str("How ratings enter each new season"),
        channel=locale_str("Where the final standings go (default: here)"),
    )
    @app_commands.choices(
        cadence=[app_commands.Choice(name=locale_str(CADENCE_NAMES[c]), value=c) for c in CADENCES],
        carry=[app_commands.Choice(name=CARRY_TEXT[c][:100], value=c) for c in CARRIES],
    )
    async def schedule(
        self,
        interaction: discord.Interaction,
        cadence: str,
        carry: str,
        channel: discord.TextChannel | None = None,
    ) -> None:
        if not await self._allowed(interaction):
            return
        where = str(channel.id if channel else interaction.channel_id)
        try:
            season = await self._referee().seasons.schedule(str(interaction.guild_id), cadence, carry, where)
        except GameError as error:
            await reply(interaction, str(error))
            return
        said = (
            tr("Seasons now start only by hand.")
            if cadence == MANUAL
            else tr("Seasons now roll over {cadence}.", cadence=cadence_text(cadence))
        )
        await self._show(interaction, tr("{said} The current season is **{season}**.", said=said, season=season.name))

    @season.command(name="show", description=locale_str("This server's current season and how seasons run"))
    async def show(self, interaction: discord.Interaction) -> None:
        await self._show(interaction, "")

    async def _allowed(self, interaction: discord.Interaction) -> bool:
        # Discord hides the command from members without Manage Server by default, but a server
        # may change that: the permission is checked here too.
        if is_server_manager(interaction):
            return True
        await reply(interaction, tr("Only members with Manage Server can run this server's seasons."))
        return False

    async def _show(self, interaction: discord.Interaction, header: str) -> None:
        seasons = self._referee().seasons
        guild = str(interaction.guild_id)
        text = plan_text(await seasons.plan(guild), await seasons.current(guild))
        await reply(interaction, render.clip(f"{header}\n{text}".strip(), render.CONTENT_LIMIT))
