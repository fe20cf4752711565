"""The one background task behind every game clock: reminders, timeouts and forfeits.

Nothing is timed in memory: the referee keeps every deadline in SQLite and says, at each poll,
what is due now and when to look again (``due_actions``). This task only delivers it:

- a reminder goes by DM to that player alone (never to the channel), with their move controls;
- a seat that ran out of time gets a message in the game's thread with a **Skip** button for the
  other players, and its player a DM saying so (held back by the referee until their quiet hours
  end, then delivered as a ``Reminder`` with ``ran_out``);
- a forfeit is announced in the game's thread;
- what the referee did itself (a seat nobody was left to skip, the AI taking over a forfeited
  seat) is published like a move: a new board in the thread;
- every poll also announces the games whose latest board was never posted (cogs/announcer.py).

Each poll also stores the referee's heartbeat, from which the downtime of a crash is measured, so
the task never sleeps longer than ``HEARTBEAT_SECONDS``; and, once an hour, has the referee purge
the lobbies nobody will start (``Referee.purge_unstarted``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from engine.games import get_game
from engine.i18n import tr
from engine.referee import (
    HEARTBEAT_SECONDS,
    DueActions,
    ForfeitNotice,
    Reminder,
    TimeoutNotice,
    format_duration,
)
from engine.referee.absence import someone_present
from engine.referee.limits import PURGE_EVERY

from . import render
from .components import return_view, skip_view
from .language import dm_language, public_language

if TYPE_CHECKING:
    from .desk import GameDesk

log = logging.getLogger(__name__)

MIN_WAIT = 1.0  # never poll in a tight loop, even when something stays due


class ClockKeeper:
    def __init__(self, desk: GameDesk) -> None:
        self.desk = desk
        self.referee = desk.referee
        self._next_purge = 0.0  # referee time of the next purge of old lobbies
        # More work for every poll (seasons' rollover and standings: cogs/seasons.py), each guarded.
        self.chores: list[Callable[[], Awaitable[None]]] = []

    async def run(self) -> None:
        """Poll forever (cancelled when the bot closes); an error is logged, never fatal."""
        while True:
            wait = await self.poll_once()
            await asyncio.sleep(wait)

    async def poll_once(self) -> float:
        """Deliver what is due now; returns the seconds to sleep before the next poll."""
        try:
            due = await self.referee.due_actions()
        except Exception:
            log.exception("could not read the due clock actions; trying again later")
            return HEARTBEAT_SECONDS
        await self.deliver(due)
        try:
            # Boards a failure or a crash left unposted (their retries have their own backoff).
            await self.desk.announcer.catch_up_all()
        except Exception:
            log.exception("could not look for games left unannounced; trying again at the next poll")
        await self.purge_if_due()
        for chore in self.chores:
            try:
                await chore()
            except Exception:
                log.exception("a poll's chore failed; trying again at the next poll")
        return max(MIN_WAIT, due.wait_seconds())

    async def purge_if_due(self) -> None:
        now = self.referee.clock()
        if now < self._next_purge:
            return
        self._next_purge = now + PURGE_EVERY
        try:
            purged = await self.referee.purge_unstarted(now)
        except Exception:
            log.exception("could not purge the old lobbies; trying again later")
            return
        if purged:
            log.info("purged %d lobbies nobody started", len(purged))

    async def deliver(self, due: DueActions) -> None:
        for reminder in due.reminders:
            await self._guarded(self.remind(reminder), reminder.links.table_id)
        for timeout in due.timeouts:
            await self._guarded(self.announce_timeout(timeout), timeout.links.table_id)
        for forfeit in due.forfeits:
            await self._guarded(self.announce_forfeit(forfeit), forfeit.links.table_id)
        for outbox in due.moves:
            await self._guarded(self.desk.publish(outbox), outbox.table.id)

    async def _guarded(self, action: object, table_id: int) -> None:
        try:
            await action  # type: ignore[misc]
        except Exception:
            log.exception("could not deliver a clock notice of game #%s", table_id)

    async def remind(self, reminder: Reminder) -> None:
        """A DM to that player only: how long is left, and their moves right there."""
        table = await self.referee.table(reminder.links.table_id)
        if reminder.ran_out:  # the ran-out notice, held back by quiet hours
            await self.tell_ran_out(table.id, reminder.user_id)
            return
        game = get_game(table.game)
        async with dm_language(self.desk.bot, reminder.user_id, table.guild_id):
            label, left = f"**{render.game_label(table, game)}**", format_duration(reminder.remaining)
            when = render.timestamp(reminder.deadline)
            if reminder.final:
                header = tr("{game}: almost out of time. {left} left (runs out {when}).", game=label, left=left, when=when)
            else:
                header = tr("{game}: your clock is running. {left} left (runs out {when}).", game=label, left=left, when=when)
        await self.desk.send_private(table, reminder.user_id, header)

    async def announce_timeout(self, timeout: TimeoutNotice) -> None:
        table = await self.referee.table(timeout.links.table_id)
        channel_id = table.thread_id or table.channel_id
        if channel_id is not None and timeout.can_skip:
            async with public_language(self.desk.bot, table.guild_id):
                text = tr(
                    "{player} ran out of time. {others}: you may skip the seat; an AI then plays it until "
                    "{player} comes back.",
                    player=timeout.name,
                    others=" ".join(render.mention(user) for user in timeout.can_skip),
                )
                view = skip_view(table.id, timeout.seat, timeout.name)
            allowed = discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(int(user)) for user in timeout.can_skip]
            )
            await self.desk.send_to_channel(
                table,
                content=text,
                view=view,
                allowed_mentions=allowed,
            )
        if timeout.user_id is not None and timeout.tell_player:
            await self.tell_ran_out(table.id, timeout.user_id)

    async def tell_ran_out(self, table_id: int, user_id: str) -> None:
        """The player's DM: they ran out (play now), or were skipped too (how to come back), as
        the table is now. With closed DMs it fails, remembered: the board's ping line and "Show my
        hand" say it instead."""
        table = await self.referee.table(table_id)
        seat = table.seat_of(user_id)
        if seat is None or seat.forfeited:
            return
        skipped = seat.absent
        async with dm_language(self.desk.bot, user_id, table.guild_id):
            header = render.ran_out_text(
                table, get_game(table.game), skipped=skipped, game_waits=not someone_present(table)
            )
        await self.desk.send_private(table, user_id, header, view=return_view(table.id) if skipped else None)

    async def announce_forfeit(self, forfeit: ForfeitNotice) -> None:
        table = await self.referee.table(forfeit.links.table_id)
        async with public_language(self.desk.bot, table.guild_id):
            content = tr(
                "{player} stayed away too long and forfeits: ranked last, the AI plays the seat to the end.",
                player=forfeit.name,
            )
        await self.desk.send_to_channel(table, content=content)
