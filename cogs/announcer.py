"""Delivery of the announcement outbox (engine/referee/announcements.py) on Discord.

A move is on disk before its board is posted. Whatever comes between (a crash, a SIGINT, a thread
that refuses the board, Discord down) must not leave the players untold, nor tell them twice:

- the desk publishes each change inside ``publishing``: one table at a time, then the table is
  marked announced at that version (board posted, private notices sent), or, when the board
  failed, a retry is scheduled with backoff;
- ``catch_up_all`` (at start-up, and at every clock poll) announces every table still behind that
  this process is not posting: ONE board for the current position, pinging who must act now,
  and the DMs whose hands changed since the last notices sent; boards carry a nonce per table and
  version, so that Discord itself refuses a second board of a version posted just before a crash
  whose mark was lost;
- a thread that is gone (deleted, archived and locked) is replaced by a new one; a board that
  cannot be posted anywhere while the players to act have closed DMs marks the table "cannot
  reach" (shown by ``/turns`` and ``/game list``) until a retry gets through. One warning per
  table is logged, not one per retry.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import discord

from engine.core import GameError
from engine.games import get_game
from engine.i18n import N_, tr
from engine.referee import RUNNING, Outbox, Table
from engine.referee.announcements import Announcements, PendingAnnouncement, ended_by_vote, owes_announcements

from . import render
from .actions import PublishingDesk
from .language import dm_language, public_language

log = logging.getLogger(__name__)

# Seconds before each new try of a board that failed; the last one repeats.
RETRY_DELAYS: tuple[float, ...] = (5.0, 20.0, 60.0, 300.0, 900.0)
# A table another process was announcing is looked at again this often, this many times (then
# the clock poll's catch-up takes it over once that process's claim expires).
CLAIM_RETRY_SECONDS = 1.0
CLAIM_TRIES = 30
# Discord's codes for a thread the bot can no longer post in as it is: unknown channel (deleted),
# archived thread (and locked: an archived thread that is not locked takes the message).
THREAD_GONE = frozenset({10003, 50083})
# What a board that did not go out raises: Discord's refusals, and the network's failures.
DELIVERY_ERRORS = (discord.HTTPException, aiohttp.ClientError, asyncio.TimeoutError)
UNREACHABLE_TEXT = N_("cannot post the board: check the bot's permissions in the game's channel")


def unreachable_note() -> str:
    """The warning beside a table whose board cannot be posted, in the reader's language (the
    sign is Discord's emoji, outside the message: pictures never draw it)."""
    return "⚠ " + tr(UNREACHABLE_TEXT)
BOARD_FAILED_HEADER = N_(
    "**{label}**: I could not post the board in the game's thread (Discord refused it), so your turn "
    "comes here."
)


def board_nonce(table_id: int, version: int, *, abandoned: bool = False) -> str:
    """The nonce of a table's first board at a version (at most 25 characters): Discord returns the
    message already created with it, instead of a second one, for a few minutes. The board of an
    abandoned game has its own: it follows the last move's board at the same version."""
    return f"{'a' if abandoned else 'b'}{table_id}.{version}"[:25]


@dataclass
class Delivery:
    """One publish of a change, as the desk reports it back (see ``Announcer.publishing``)."""

    version: int
    moved: bool  # the change applied moves: the version is new
    first: bool  # no board of this version was posted yet: the board gets the version's nonce
    done: bool = False  # already announced (by a catch-up that came first): say nothing
    posted: bool = False  # a board was posted
    board_error: Exception | None = None  # the board could not be posted (one of DELIVERY_ERRORS)


@dataclass
class _Trouble:
    """A table whose board keeps failing: its tries, and whether it was warned about."""

    attempts: int = 0
    warned: bool = False
    unreachable: bool = False
    dm_version: int | None = None  # the version whose turn was already sent by DM instead
    task: asyncio.Task[None] | None = None


class Announcer:
    def __init__(self, desk: PublishingDesk) -> None:
        self.desk = desk
        self.referee = desk.referee
        self.outbox = Announcements(desk.referee)
        self._locks: dict[int, asyncio.Lock] = {}
        # What this process knows was announced, per table (the store has it too, a little later).
        self._board: dict[int, int] = {}
        self._notices: dict[int, int] = {}
        self._trouble: dict[int, _Trouble] = {}
        self._caught_up: dict[int, int] = {}  # the latest version a catch-up announced, per table
        self._broken: set[int] = set()  # tables that cannot even be loaded: warned once
        self._warned: set[int] = set()  # tables whose catch-up failed unexpectedly: warned once
        self._waiting_claims: dict[int, asyncio.Task[None]] = {}  # tables another process was announcing
        self._closed = False

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    # ----- the normal path: the desk publishes a change -------------------------------------------

    @contextlib.asynccontextmanager
    async def publishing(self, outbox: Outbox) -> AsyncIterator[Delivery]:
        """Around the desk's publish of ``outbox``: one publish per table at a time; afterwards
        the table is marked announced, or a retry is scheduled if its board failed."""
        table_id = outbox.table.id
        async with self._lock(table_id):
            table = outbox.table
            delivery = Delivery(
                version=table.version,
                moved=outbox.moves_applied > 0,
                # Only a change that made the version gets its nonce: another board of the same
                # version (a skip, a return) must not be taken for the one already posted.
                first=outbox.moves_applied > 0 and self._board.get(table_id, -1) < table.version,
            )
            # A catch-up may have announced this very version while this publish waited for it
            # (not another publish: that one told only its own moves).
            delivery.done = delivery.moved and self._caught_up.get(table_id, -1) >= table.version
            # Another process sharing the store may be announcing this table (its own move, or a
            # catch-up): then this change is left to a catch-up once it is done, never told twice.
            claimed = False
            if not delivery.done:
                claimed = await self._claim(table_id)
                if not claimed:
                    delivery.done = True
                    self._catch_up_later(table_id)
            try:
                try:
                    yield delivery
                except Exception:
                    if not self._closed:
                        raise
                if self._closed:  # cut short by the shutdown (the connection closed under it)
                    log.info("game #%s: left for the next start to announce (shutting down)", table_id)
                    return
                if delivery.done:
                    return
                if delivery.board_error is None:
                    # A change that posted no board (nothing public changed) completes the board too,
                    # unless an earlier board is still owed.
                    board = delivery.posted or table_id not in self._trouble
                    await self._delivered(outbox.table, board=board, notices=True)
                else:
                    # The desk sent the turn by DM to whoever could get one instead.
                    await self._mark(table_id, table.version, board=False, notices=True)
                    await self._failed(outbox.table, delivery.board_error, dm_version=table.version)
            finally:
                if claimed:
                    await self._release(table_id)

    # ----- catching up ----------------------------------------------------------------------------

    async def catch_up_all(self) -> int:
        """Announce every table behind that this process is not posting already (at start-up and
        at each clock poll). Returns the number of tables announced."""
        announced = 0
        for pending in await self.outbox.pending():
            table_id = pending.table_id
            self._note(pending)
            if self._closed or table_id in self._trouble or table_id in self._broken:
                continue  # its retry is scheduled (or it cannot be loaded)
            if self._lock(table_id).locked():
                continue  # being published right now
            if await self.announce(table_id, checked=True):
                announced += 1
        return announced

    def _note(self, pending: PendingAnnouncement) -> None:
        """What the store says was announced (by this process or another)."""
        table_id = pending.table_id
        self._board[table_id] = max(self._board.get(table_id, -1), pending.board_version)
        self._notices[table_id] = max(self._notices.get(table_id, -1), pending.notice_version)

    async def announce(self, table_id: int, *, checked: bool = False) -> bool:
        """Announce the current position of one table if it is behind; True if something was
        posted or sent. Failures are retried with backoff, never raised. Claimed first (another
        process sharing the store may be announcing it: it then tells it, not this one); unless
        ``checked`` (the store's marks just read), the marks are read again once claimed, as
        another process may have announced it meanwhile."""
        try:
            async with self._lock(table_id):
                if not await self._claim(table_id):
                    return False
                try:
                    if not checked:
                        for pending in await self.outbox.pending():
                            if pending.table_id == table_id:
                                self._note(pending)
                    return await self._announce(table_id)
                finally:
                    await self._release(table_id)
        except GameError as error:  # gone, or a game no longer installed: left alone
            self._broken.add(table_id)
            log.warning("game #%s cannot be announced (%s); left as it is", table_id, error)
        except Exception:  # unexpected: the next poll tries again; said once per table
            if table_id not in self._warned:
                self._warned.add(table_id)
                log.warning("game #%s could not be announced; trying again later", table_id, exc_info=True)
        return False

    async def _announce(self, table_id: int) -> bool:
        table = await self.referee.table(table_id)
        if not owes_announcements(table):  # cancelled meanwhile: nothing more to tell
            if self._trouble.pop(table_id, None) is not None:
                await self.outbox.mark_unreachable(table_id, False)
            return False
        board_at, notices_at = self._board.get(table_id, -1), self._notices.get(table_id, -1)
        board_due = board_at < table.version or table_id in self._trouble
        notices_due = notices_at < table.version
        if not board_due and not notices_due:
            return False
        async with public_language(self.desk.bot, table.guild_id):  # its public lines (an abandon)
            outbox = await self.outbox.catch_up(table_id, notices_at if notices_due else None)
        to_act = self._humans_to_act(outbox)
        error = await self._post_board(outbox, to_act) if board_due else None
        table = outbox.table
        # Private notices: the hands that changed since the last ones sent (the board shows the rest).
        dmed: set[str] = set()
        for index in outbox.private_changed:
            seat = table.seats[index]
            if seat.user_id and not seat.plays_by_ai and not await self.desk.dms_closed(seat.user_id):
                if await self.desk.send_dm(table, seat.user_id, ()):
                    dmed.add(seat.user_id)
        self._caught_up[table_id] = table.version
        if error is None:
            await self._delivered(table, board=True, notices=True)
            return True
        await self._mark(table_id, table.version, board=False, notices=True)
        trouble = self._trouble.get(table_id)
        if (trouble is None or trouble.dm_version != table.version) and table.status == RUNNING:
            # The board did not go out: the players to act hear of their turn privately, once.
            for user in to_act:
                if user in dmed:
                    continue
                async with dm_language(self.desk.bot, user, table.guild_id):  # each reader's own
                    header = tr(BOARD_FAILED_HEADER, label=render.game_label(table, get_game(table.game)))
                if await self.desk.send_private(table, user, header):
                    dmed.add(user)
        await self._failed(table, error, dm_version=table.version, reached=bool(dmed & set(to_act)))
        return bool(dmed)

    async def _post_board(self, outbox: Outbox, to_act: list[str]) -> Exception | None:
        """Post the board of the current position; a thread that is gone is replaced once."""
        table = outbox.table
        if table.thread_id is None and table.channel_id is not None:
            table = outbox.table = await self.desk.ensure_thread(table, None)
        nonce = board_nonce(table.id, table.version, abandoned=ended_by_vote(table))
        try:
            await self.desk.post_board(outbox, ping=to_act, nonce=nonce)
            return None
        except DELIVERY_ERRORS as error:
            if _code(error) not in THREAD_GONE or table.thread_id in (None, table.channel_id):
                return error
            log.info(
                "game #%s: its thread %s is gone (%s); opening a new one", table.id, table.thread_id, error
            )
        outbox.table = await self._reopen_thread(table)
        try:
            await self.desk.post_board(outbox, ping=to_act, nonce=nonce)
            return None
        except DELIVERY_ERRORS as error:
            return error

    async def _reopen_thread(self, table: Table) -> Table:
        """A new thread in the game's channel (the channel itself if threads are refused)."""
        assert table.channel_id is not None
        async with public_language(self.desk.bot, table.guild_id):
            name = render.clip(render.game_label(table, get_game(table.game)), 100)
        http = self.desk.bot.http
        thread_id = table.channel_id
        try:
            data = await http.start_thread_without_message(
                int(table.channel_id), name=name, auto_archive_duration=1440, type=11
            )
            thread_id = str(data["id"])
        except discord.HTTPException as error:
            log.info("game #%s: no new thread (%s); playing in the channel", table.id, error)
        table = await self.referee.set_links(table.id, thread_id=thread_id)
        self.desk.note_thread(thread_id, table.id)
        if thread_id != table.channel_id:
            for seat in table.humans:
                if seat.user_id:
                    with contextlib.suppress(discord.HTTPException):
                        await http.add_user_to_thread(int(thread_id), int(seat.user_id))
        return table

    def _humans_to_act(self, outbox: Outbox) -> list[str]:
        table = outbox.table
        return [
            user
            for user in render.humans_to_act(table, outbox.to_act)
            if not (seat := table.seat_of(user)) or not seat.plays_by_ai
        ]

    # ----- claims (several processes on one store) -------------------------------------------------

    async def _claim(self, table_id: int) -> bool:
        try:
            return await self.outbox.claim(table_id)
        except Exception:  # the store is in trouble: rather told twice than never
            log.warning("game #%s: could not claim its announcement; announcing anyway", table_id, exc_info=True)
            return True

    async def _release(self, table_id: int) -> None:
        try:
            await self.outbox.release(table_id)
        except Exception:  # it expires by itself (claims.LEASE_SECONDS)
            log.warning("game #%s: could not give back its announcement claim", table_id, exc_info=True)

    def _catch_up_later(self, table_id: int) -> None:
        """Another process was announcing this table: once it is done, announce what it may not
        have told (a move it did not make), if anything is still behind."""
        if not self._closed and table_id not in self._waiting_claims:
            task = asyncio.create_task(self._when_free(table_id), name=f"announce game {table_id} later")
            self._waiting_claims[table_id] = task
            task.add_done_callback(lambda _: self._waiting_claims.pop(table_id, None))

    async def _when_free(self, table_id: int) -> None:
        for _ in range(CLAIM_TRIES):
            await asyncio.sleep(CLAIM_RETRY_SECONDS)
            if await self._claim(table_id):
                await self._release(table_id)
                await self.announce(table_id)
                return
        # Still held (its process may have died): the clock poll's catch-up takes it once the claim expires.

    # ----- marks, failures, retries ---------------------------------------------------------------

    async def _mark(self, table_id: int, version: int, *, board: bool, notices: bool) -> None:
        """Store what this process now knows was announced (only when it moves forward)."""
        board = board and self._board.get(table_id, -1) < version
        notices = notices and self._notices.get(table_id, -1) < version
        if not board and not notices:
            return
        if board:
            self._board[table_id] = version
        if notices:
            self._notices[table_id] = version
        try:
            await self.outbox.mark_announced(table_id, version, board=board, notices=notices)
        except Exception:  # not stored: the table is announced again later (the nonce spares a duplicate)
            log.warning(
                "game #%s: could not store that version %s was announced", table_id, version, exc_info=True
            )

    async def _delivered(self, table: Table, *, board: bool, notices: bool) -> None:
        trouble = self._trouble.pop(table.id, None) if board else None
        await self._mark(table.id, table.version, board=board, notices=notices)
        if trouble is None:
            return
        if trouble.task is not None and trouble.task is not asyncio.current_task():
            trouble.task.cancel()
        if trouble.unreachable:
            with contextlib.suppress(Exception):
                await self.outbox.mark_unreachable(table.id, False)
        log.info("game #%s: board delivered after %d failed tries", table.id, trouble.attempts)

    async def _failed(
        self, table: Table, error: Exception, *, dm_version: int, reached: bool = False
    ) -> None:
        """A board failed: retry later (backoff); mark "cannot reach" when nobody to act heard."""
        trouble = self._trouble.setdefault(table.id, _Trouble())
        trouble.attempts += 1
        trouble.dm_version = dm_version
        reached = reached or await self._dms_open_to_act(table)
        if not reached and not trouble.unreachable:
            trouble.unreachable = True
            await self.outbox.mark_unreachable(table.id, True)
        if not trouble.warned:
            trouble.warned = True
            log.warning(
                "could not post the board of game #%s in channel %s (%s)%s; retrying with backoff",
                table.id,
                table.thread_id or table.channel_id,
                _describe(error),
                "" if reached else ", and nobody to act can be reached by DM: marked 'cannot reach'",
            )
        else:
            log.debug("game #%s: board try %d failed (%s)", table.id, trouble.attempts, error)
        if not self._closed and (
            trouble.task is None or trouble.task.done() or trouble.task is asyncio.current_task()
        ):
            # A thread that is gone is replaced at once (the catch-up opens a new one).
            gone = trouble.attempts == 1 and _code(error) in THREAD_GONE
            delay = 0.0 if gone else RETRY_DELAYS[min(trouble.attempts, len(RETRY_DELAYS)) - 1]
            trouble.task = asyncio.create_task(self._retry(table.id, delay), name=f"announce game {table.id}")

    async def _dms_open_to_act(self, table: Table) -> bool:
        to_act = await self.desk.seats_to_act(table) if table.status == RUNNING else ()
        users = self._humans_to_act(Outbox(table=table, to_act=list(to_act)))
        return any([not await self.desk.dms_closed(user) for user in users])

    async def _retry(self, table_id: int, delay: float) -> None:
        await asyncio.sleep(delay)
        await self.announce(table_id)

    async def close(self) -> None:
        """Stop the retries (the bot is closing; the next start catches up)."""
        self._closed = True
        tasks = [trouble.task for trouble in self._trouble.values() if trouble.task is not None]
        tasks += list(self._waiting_claims.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def unreachable(self, table_ids: list[int]) -> dict[int, float]:
        """The tables of ``table_ids`` marked "cannot reach" (for /game list)."""
        return await self.outbox.unreachable(table_ids)


def _code(error: Exception) -> int | None:
    """Discord's error code of a refusal (None for a network failure)."""
    return error.code if isinstance(error, discord.HTTPException) else None


def _describe(error: Exception) -> str:
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.code}: {error.text}"
    return f"{type(error).__name__}: {error}"
