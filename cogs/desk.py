"""The game desk: what slash commands and components do, between Discord and the referee.

It parses nothing game-specific: it calls the referee, then renders the Outbox the referee returns:
one new board message per change in the game's thread (with a short log, a ping for the players
newly asked to act and a **Play your turn** button that shows them their moves ephemerally), and
a DM to each player whose secret (their hand) changed by someone else's move (see ``publish``).
Every interaction is answered (or deferred) before any slow work, and every refusal is an
ephemeral message that says what to do.

The desk is one object made of rooms, one job each: the lobby (cogs/lobby.py), play
(cogs/play.py), publishing boards and threads (cogs/publishing.py), private messages
(cogs/dms.py), taking moves back (cogs/undo.py) and the abandon vote and rematches (cogs/endings.py). It holds the state they share and finds the game a command is about.
"""

from __future__ import annotations

import discord

from engine.core import GameError
from engine.i18n import tr
from engine.referee import RUNNING, Referee, Table, TableNotFound

from .announcer import Announcer
from .dms import DM_CLOSED_NOTICE, DmRoom, PrivateMessage
from .endings import EndingsRoom
from .lobby import STACKED_REFUSAL, LobbyRoom, default_ai_kind, is_server_manager, parse_options
from .play import PlayRoom
from .publishing import BoardPost, PublishingRoom
from .replies import reply
from .undo import UndoRoom

__all__ = [
    "DM_CLOSED_NOTICE",
    "STACKED_REFUSAL",
    "GameDesk",
    "NoTableHere",
    "PrivateMessage",
    "default_ai_kind",
    "is_server_manager",
    "parse_options",
]


class NoTableHere(GameError):
    """The command could not tell which game it is about."""


class GameDesk(LobbyRoom, PlayRoom, PublishingRoom, DmRoom, UndoRoom, EndingsRoom):
    def __init__(self, bot: discord.Client, referee: Referee) -> None:
        self.bot = bot
        self.referee = referee
        self.settings = referee.user_settings  # DM flags and turn DMs (engine/referee/user_settings.py)
        # The game of each thread: a cache of stored links (the referee stays the truth).
        self._thread_tables: dict[str, int] = {}
        # For each running game, the seats being waited for and the version at which each was
        # asked (when this process published it): a seat still waited for is neither pinged nor
        # DMed again, and its controls from the same request keep working (see _same_request).
        self._asked: dict[int, dict[int, int]] = {}
        # The latest board of each game while nothing was posted after it: the next board of the
        # same turn (the same seats waited for, nobody to ping) updates it instead of adding one.
        self._boards: dict[int, BoardPost] = {}
        # The version of each game this process last published: with other processes (shards) on
        # the same database, a change that does not follow it means another process published in
        # between, and the two memories above are out of date for that game.
        self._published: dict[int, int] = {}
        # Every board is announced exactly once, even across crashes (cogs/announcer.py).
        self.announcer = Announcer(self)

    # ----- finding the game a command is about ------------------------------------------------

    async def find_table(
        self,
        interaction: discord.Interaction,
        game_id: int | None,
        *,
        statuses: tuple[str, ...],
        players_only: bool = True,
    ) -> Table:
        """The game named by ``game_id``, else the game of this thread, else the caller's only game."""
        guild = str(interaction.guild_id) if interaction.guild_id else None
        user = str(interaction.user.id)
        if game_id is not None:
            table = await self.referee.table(game_id)
            if guild is not None and table.guild_id != guild:
                raise TableNotFound(tr("There is no game #{number} on this server.", number=game_id))
            return table
        channel = str(interaction.channel_id)
        in_thread = await self._table_of_thread(
            channel, guild, statuses, isinstance(interaction.channel, discord.Thread)
        )
        if in_thread is not None:
            return in_thread
        mine = await self.referee.tables(guild_id=guild, statuses=statuses, user_id=user, limit=50)
        if not players_only and not mine:
            mine = await self.referee.tables(guild_id=guild, statuses=statuses, limit=50)
            mine = [table for table in mine if table.host == user]
        if len(mine) == 1:
            return await self.referee.table(mine[0].id)
        if not mine:
            raise NoTableHere(tr("You have no game here. Start one with `/game new`, or see `/game list`."))
        numbers = ", ".join(f"#{table.id}" for table in mine[:10])
        raise NoTableHere(
            tr("You are in several games ({numbers}): use the command in the game's thread, or give `game:`.", numbers=numbers)
        )

    async def running_game_deferred(self, interaction: discord.Interaction, game_id: int | None) -> Table | None:
        """A command's running game, with the interaction deferred (thinking, privately) for the
        referee's work; None after explaining why there is none."""
        try:
            table = await self.find_table(interaction, game_id, statuses=(RUNNING,))
        except GameError as error:
            await reply(interaction, str(error))
            return None
        await interaction.response.defer(ephemeral=True, thinking=True)
        return table

    async def _table_of_thread(
        self, channel: str, guild: str | None, statuses: tuple[str, ...], is_thread: bool
    ) -> Table | None:
        """The game played in this thread, whoever asks (the referee then checks the seat)."""
        table_id = self._thread_tables.get(channel)
        if table_id is None and is_thread:
            # The referee has no lookup by thread: scan this server's games once (then cached).
            for table in await self.referee.tables(guild_id=guild, statuses=statuses, limit=200):
                if table.thread_id is not None:
                    self._thread_tables[table.thread_id] = table.id
            table_id = self._thread_tables.get(channel)
        if table_id is None:
            return None
        table = await self.referee.table(table_id)
        return table if table.status in statuses else None

    async def my_tables(self, interaction: discord.Interaction, statuses: tuple[str, ...]) -> list[Table]:
        guild = str(interaction.guild_id) if interaction.guild_id else None
        return await self.referee.tables(
            guild_id=guild, statuses=statuses, user_id=str(interaction.user.id), limit=25
        )
