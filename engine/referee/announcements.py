"""The announcement outbox: which tables still owe their players a board or a private notice.

A move is committed before anything about it is said (see referee.py); a crash, a thread that
refuses the board or a Discord outage may then leave it unsaid. So every table keeps, beside its
version, the last version whose board was posted (``board_version``) and the last whose private
notices were sent (``notice_version``), written through the store's group commit once a front end
has delivered them. A table is *behind* when either is below its version; a front end looks for
those at start-up and at every clock poll and announces the current position once (one board,
however many moves were missed), then marks it. A game abandoned by vote ends without a move: the
vote's commit lowers its board mark instead (migration 0012), and its end is told the same way. A
table whose board cannot be posted anywhere
while its players to act cannot be reached by DM is marked *unreachable* until a delivery works.

    pending = await announcements.pending()              # the tables behind
    outbox = await announcements.catch_up(table_id, since)  # what to say about the current position
    ...                                                  # post the board, DM outbox.private_changed
    await announcements.mark_announced(table_id, version, board=True, notices=True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import msgspec

from engine.core import UNDO, Game, GameRecord, replay
from engine.games import get_game
from engine.i18n import tr

from .abandon import ABANDONED_LINE
from .audience import in_public
from .claims import ANNOUNCE
from .model import ABANDONED, FINISHED, RUNNING, AnnouncedMark, Outbox, PendingAnnouncement, Table
from .store import AnnouncementStore

if TYPE_CHECKING:  # the referee's store implements this module's protocol: no import at run time
    from .referee import Referee


class Announcements:
    """The referee's side of the outbox: what is behind, what to say, and the marks."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        self.store: AnnouncementStore = referee.store

    async def pending(self) -> list[PendingAnnouncement]:
        return await self.store.pending_announcements()

    async def claim(self, table_id: int) -> bool:
        """Claim the announcing of a table for this process (several processes may share the
        store: claims.py); False if another process is announcing it."""
        return bool(await self.referee.claims.take(ANNOUNCE, [table_id]))

    async def release(self, table_id: int) -> None:
        await self.referee.claims.give_back(ANNOUNCE, [table_id])

    async def mark_announced(
        self, table_id: int, version: int, *, board: bool = True, notices: bool = True
    ) -> None:
        await self.store.mark_announced(
            AnnouncedMark(table_id=table_id, version=version, board=board, notices=notices)
        )

    async def mark_unreachable(self, table_id: int, unreachable: bool = True) -> None:
        await self.store.mark_unreachable(table_id, self.referee.clock() if unreachable else None)

    async def unreachable(self, table_ids: Iterable[int] | None = None) -> dict[int, float]:
        return await self.store.unreachable_table_ids(table_ids)

    async def catch_up(self, table_id: int, notices_since: int | None = None) -> Outbox:
        """The Outbox of the current position, as if every move since the last announcement had
        just been reported together: who must act, and, for a finished game, the final outcome
        and result. With ``notices_since`` (the last version whose private notices were sent),
        ``private_changed`` lists the human seats whose secret (their hand...) another seat's move
        changed since then: every one of them when nothing was ever sent (-1: the deal). Rare
        (after a crash or a failure), so the moves since are replayed from the seed."""
        # As stored: another process sharing the store may have moved it since this one cached it.
        table = await self.referee.fresh_table(table_id)
        if ended_by_vote(table):
            outbox = Outbox(table=table, board_changed=True, finished=True)
            outbox.result = await self.referee.result(table_id)
            with in_public():
                outbox.public_log.append(tr(ABANDONED_LINE))
            return outbox
        if table.status not in (RUNNING, FINISHED):
            return Outbox(table=table)
        game = get_game(table.game)
        state = await self.referee.state(table_id)
        outbox = Outbox(table=table, board_changed=True)
        outbox.finished = table.status == FINISHED
        outbox.to_act = [] if outbox.finished else list(game.to_act(state))
        if outbox.finished:
            outbox.outcome = await self.referee.outcome(table_id)
            outbox.result = await self.referee.result(table_id)
            outbox.forfeited = [seat.index for seat in table.seats if seat.forfeited]
        if notices_since is not None and notices_since < table.version:
            outbox.private_changed = await self._secrets_changed(game, table, notices_since)
        return outbox

    async def _secrets_changed(self, game: Game[Any, Any], table: Table, since: int) -> list[int]:
        """The human seats whose secret was changed by another seat's move since ``since`` (as
        the normal path DMs them: a player's own move shows them their hand in its answer), and
        differs now from what it was at ``since``. An undo entry is replayed as the position
        before the move it takes back."""
        humans = [seat.index for seat in table.humans]
        if since < 0:
            return humans  # the deal itself was never told
        moves = await self.referee.store.move_log(table.id)
        record = GameRecord(
            game=game.name,
            players=len(table.seats),
            seed=table.seed or 0,
            options=table.options,
            moves=moves[:since],
        )
        state = replay(game, record)[0]
        told = {seat: _encode(game.secret_view(state, seat)) for seat in humans}
        changed: set[int] = set()
        for index in range(since, table.version):
            move = moves[index]
            before = {seat: _encode(game.secret_view(state, seat)) for seat in humans if seat != move.seat}
            if move.move == UNDO:  # the position before the move taken back
                record.moves = moves[: index + 1]
                state = replay(game, record)[0]
            else:
                state, _ = game.apply(state, move.seat, game.parse_move(move.move))
            changed.update(
                seat for seat, view in before.items() if _encode(game.secret_view(state, seat)) != view
            )
        # ...and only if it differs from what they were told: a move and its undo both missed
        # (an "(undo)" entry) leave a hand as it was.
        return sorted(seat for seat in changed if _encode(game.secret_view(state, seat)) != told[seat])


def owes_announcements(table: Table) -> bool:
    """Whether a table's players are told of its changes: a game running or over, or abandoned
    by its players' vote (not a lobby, nor a lobby cancelled before it started)."""
    return table.status in (RUNNING, FINISHED) or ended_by_vote(table)


def ended_by_vote(table: Table) -> bool:
    """A game that started, then was abandoned by its players' vote (a started game has a seed)."""
    return table.status == ABANDONED and table.seed is not None


_ENCODER = msgspec.msgpack.Encoder(order="deterministic")


def _encode(view: Any) -> bytes:
    return _ENCODER.encode(view)


__all__ = [
    "AnnouncedMark",
    "AnnouncementStore",
    "Announcements",
    "PendingAnnouncement",
    "ended_by_vote",
    "owes_announcements",
]
