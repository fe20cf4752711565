"""The one background task behind every game clock: reminders, timeouts and forfeits.

Nothing is timed in memory: the referee keeps every deadline in SQLite and says, at each poll,
what is due now and when to look again (``due_actions``). This task only delivers it:

- a reminder goes by DM to that player alone (never to the channel), with their move controls;
- a seat that ran out of time gets a message in the game's thread with a **Skip** button for the
  other players, and its player a DM saying so (not during their quiet hours);
- a forfeit is announced in the game's thread;
- every poll also announces the games whose latest board was never posted (cogs/announcer.py).

Each poll also stores the referee's heartbeat, from which the downtime of a crash is measured, so
the task never sleeps longer than ``HEARTBEAT_SECONDS``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from engine.games import get_game
from engine.referee import (
    HEARTBEAT_SECONDS,
    DueActions,
    ForfeitNotice,
    Reminder,
    TimeoutNotice,
    format_duration,
)
from engine.referee.clock import is_quiet

from . import render
from .components import skip_view

if TYPE_CHECKING:
    from .desk import GameDesk

log = logging.getLogger(__name__)

MIN_WAIT = 1.0  # never poll in a tight loop, even when something stays due


class ClockKeeper:
    def __init__(self, desk: GameDesk) -> None:
        self.desk = desk
        self.referee = desk.referee

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
        return max(MIN_WAIT, due.wait_seconds())

    async def deliver(self, due: DueActions) -> None:
        for reminder in due.reminders:
            await self._guarded(self.remind(reminder), reminder.links.table_id)
        for timeout in due.timeouts:
            await self._guarded(self.announce_timeout(timeout), timeout.links.table_id)
        for forfeit in due.forfeits:
            await self._guarded(self.announce_forfeit(forfeit), forfeit.links.table_id)

    async def _guarded(self, action: object, table_id: int) -> None:
        try:
            await action  # type: ignore[misc]
        except Exception:
            log.exception("could not deliver a clock notice of game #%s", table_id)

    async def remind(self, reminder: Reminder) -> None:
        """A DM to that player only: how long is left, and their moves right there."""
        table = await self.referee.table(reminder.links.table_id)
        game = get_game(table.game)
        when = "almost out of time" if reminder.final else "your clock is running"
        header = (
            f"**{render.game_label(table, game)}**: {when}. {format_duration(reminder.remaining)} left "
            f"(runs out {render.timestamp(reminder.deadline)})."
        )
        await self.desk.send_private(table, reminder.user_id, header)

    async def announce_timeout(self, timeout: TimeoutNotice) -> None:
        table = await self.referee.table(timeout.links.table_id)
        game = get_game(table.game)
        channel_id = table.thread_id or table.channel_id
        if channel_id is not None and timeout.can_skip:
            text = (
                f"{timeout.name} ran out of time. {' '.join(render.mention(user) for user in timeout.can_skip)}: "
                f"you may skip the seat; an AI then plays it until {timeout.name} comes back."
            )
            allowed = discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(int(user)) for user in timeout.can_skip]
            )
            await self.desk.send_to_channel(
                table,
                content=text,
                view=skip_view(table.id, timeout.seat, timeout.name),
                allowed_mentions=allowed,
            )
        if timeout.user_id is not None and not await self.in_quiet_hours(timeout.user_id):
            header = (
                f"**{render.game_label(table, game)}**: you ran out of time. Play now to keep your seat: "
                "the other players may skip you, and an AI would play for you."
            )
            await self.desk.send_private(table, timeout.user_id, header)

    async def in_quiet_hours(self, user_id: str) -> bool:
        return is_quiet(await self.referee.quiet_hours(user_id), self.referee.clock())

    async def announce_forfeit(self, forfeit: ForfeitNotice) -> None:
        table = await self.referee.table(forfeit.links.table_id)
        await self.desk.send_to_channel(
            table,
            content=(
                f"{forfeit.name} stayed away too long and forfeits: ranked last, the AI plays the seat "
                "to the end."
            ),
        )
