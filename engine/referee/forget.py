"""Forgetting a player: their data deleted or anonymised, as Discord's developer policy asks.

What goes, and how (``Forgetting.forget``):

1. the open tables first, each under its lock, through the rooms that own them:
   - a lobby: the player leaves it; a lobby they host goes to the next person seated, or is
     cancelled when nobody else is;
   - a game in progress: their seat is forfeited at once and keeps the game going for the others
     (an AI plays it to the end, ranked last, as any forfeit), under their anonymous name; a game
     where no other person plays is cancelled (nobody is left to play it);
2. then everything else, in ONE transaction of the store (``forget_rows``): their settings, DM
   status and quiet hours are deleted; every seat, result, rating and rating event of theirs is
   rewritten to their stand-in, ``former:<n>`` named "Former player #<n>". One number per
   player, so rankings, ratings and every other player's history stay exactly as they were.

The move logs and state snapshots hold seat numbers, never names or ids, so they stay as they are
(tests scan every column of every table for the id and the name after a forget).
"""

from __future__ import annotations

from typing import Any, Protocol

import msgspec

from engine.games import get_game
from engine.i18n import tr

from . import absence
from .audience import in_public
from .model import ABANDONED, LOBBY, RUNNING, Outbox
from .tables import Loaded, Tables, copy_table

FORMER_PREFIX = "former:"
OPEN_TABLES_READ = 100_000  # every open table of one player (the limits keep them far fewer)


def former_id(number: int) -> str:
    return f"{FORMER_PREFIX}{number}"


def former_name(number: int) -> str:
    return f"Former player #{number}"


class ForgetReport(msgspec.Struct, kw_only=True):
    """What forgetting a player did, for the front end to say and to publish."""

    name: str  # their anonymous name from now on
    lobbies_left: list[int] = []
    lobbies_cancelled: list[int] = []
    games_forfeited: list[int] = []
    games_cancelled: list[int] = []
    outboxes: list[Outbox] = []  # games that went on (an AI now plays the seat): publish them


class ForgetStore(Protocol):
    async def new_former_player(self, now: float) -> int:
        """A new number for a player being forgotten."""

    async def forget_rows(self, user_id: str, stand_in: str, name: str) -> list[int]:
        """In ONE transaction: delete the user's settings and flags, and rewrite every other row
        naming them (seats, hosts, results, ratings, rating events, season ratings) to
        ``stand_in`` and ``name``; returns the ids of the tables changed."""


class PlaysOn(Protocol):
    """What forgetting needs of the turns room: the AI plays the seat it now holds."""

    async def run_automatic(self, game: Any, loaded: Loaded, outbox: Outbox) -> None: ...

    def finish_outbox(self, game: Any, loaded: Loaded, outbox: Outbox) -> None: ...


class Forgetting:
    def __init__(self, tables: Tables, turns: PlaysOn) -> None:
        self.tables = tables
        self.turns = turns
        self.store: ForgetStore = tables.store  # type: ignore[assignment]

    async def forget(self, user_id: str) -> ForgetReport:
        now = self.tables.clock()
        number = await self.store.new_former_player(now)
        stand_in, name = former_id(number), former_name(number)
        report = ForgetReport(name=name)
        open_tables = await self.tables.store.list_tables(
            statuses=(LOBBY, RUNNING), user_id=user_id, limit=OPEN_TABLES_READ
        )
        for listed in open_tables:
            async with self.tables.lock(listed.id):
                loaded = await self.tables.load(listed.id)
                if loaded.table.status == LOBBY:
                    await self._leave_lobby(loaded, user_id, stand_in, report)
                elif loaded.table.status == RUNNING:
                    await self._leave_game(loaded, user_id, stand_in, name, report)
        changed = await self.store.forget_rows(user_id, stand_in, name)
        for table_id in {*changed, *(table.id for table in open_tables)}:
            async with self.tables.lock(table_id):
                self.tables.forget(table_id)  # the cache still has the old names
        return report

    async def _leave_lobby(self, loaded: Loaded, user_id: str, stand_in: str, report: ForgetReport) -> None:
        table = copy_table(loaded.table)
        table.seats = [seat for seat in table.seats if seat.user_id != user_id]
        for index, seat in enumerate(table.seats):
            seat.index = index
        others = [seat for seat in table.seats if not seat.is_ai and seat.user_id]
        if table.host == user_id and others:
            table.host = others[0].user_id or stand_in
        elif table.host == user_id:
            table.host = stand_in
            table.status = ABANDONED
        table.updated_at = self.tables.clock()
        await self.tables.save_seats(loaded, table)
        (report.lobbies_cancelled if table.status == ABANDONED else report.lobbies_left).append(table.id)

    async def _leave_game(
        self, loaded: Loaded, user_id: str, stand_in: str, name: str, report: ForgetReport
    ) -> None:
        game = get_game(loaded.table.game)
        table = copy_table(loaded.table)
        now = self.tables.clock()
        if table.host == user_id:
            table.host = stand_in
        seat = next(seat for seat in table.seats if seat.user_id == user_id)
        seat.user_id, seat.name = stand_in, name
        seat.forfeited = True
        seat.absent_since = seat.absent_since or now
        seat.waiting_since = seat.next_due_at = None
        table.updated_at = now
        if not any(other.user_id and not other.is_ai and other is not seat for other in table.seats):
            table.status = ABANDONED  # nobody else plays it
            table.needs_resume = False
            for other in table.seats:
                other.waiting_since = other.next_due_at = None
            await self.tables.save_seats(loaded, table)
            report.games_cancelled.append(table.id)
            return
        absence.due_at_once(table, now)
        table.needs_resume = absence.referee_step(game, loaded.state, table) is not None
        await self.tables.save_seats(loaded, table)
        outbox = Outbox(table=table, board_changed=True, forfeited=[seat.index])
        with in_public():
            outbox.public_log.append(tr("{name} left (their data was deleted): an AI plays the seat to the end.", name=name))
        await self.turns.run_automatic(game, loaded, outbox)
        self.turns.finish_outbox(game, loaded, outbox)
        report.games_forfeited.append(table.id)
        report.outboxes.append(outbox)


__all__ = ["FORMER_PREFIX", "ForgetReport", "ForgetStore", "Forgetting", "former_id", "former_name"]
