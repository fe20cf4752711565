"""Publishing: what a referee call changed, shown in the game's thread (the board message, the
log, the pings) and by DM to the players whose secrets changed; the game's thread itself; and,
after a restart, the games to pick up again. The announcer (cogs/announcer.py) wraps every publish.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import discord

from engine.games import get_game
from engine.i18n import tr
from engine.referee import (
    FINISHED,
    RUNNING,
    SPEEDS,
    Outbox,
    Referee,
    SeatClockView,
    SeatSnapshot,
    Table,
    private_lines,
)
from engine.referee.user_settings import UserSettings

from . import render
from .announcer import DELIVERY_ERRORS, Announcer, Delivery, board_nonce
from .components import board_view, rematch_view
from .dms import DM_CLOSED_NOTICE
from .language import public_language
from .pictures import BOARD_FILE, RESULT_FILE, board_drawing, result_drawing, show
from .replies import reply

log = logging.getLogger(__name__)


@dataclass
class BoardPost:
    """The latest board message of a game, while it is the last thing the bot posted there."""

    message_id: int
    to_act: tuple[int, ...]
    log_lines: list[str]


class PublishingRoom:
    """The GameDesk's boards, threads and restarts (cogs/desk.py composes the rooms and holds
    the state below). Of the other rooms it uses the DMs (``dms_closed``, ``wants_turn_dms``,
    ``send_dm``: cogs/dms.py)."""

    bot: discord.Client
    referee: Referee
    settings: UserSettings
    announcer: Announcer
    _thread_tables: dict[str, int]
    _asked: dict[int, dict[int, int]]
    _boards: dict[int, BoardPost]
    _published: dict[int, int]

    async def publish(
        self,
        outbox: Outbox,
        *,
        interaction: discord.Interaction | None = None,
        answered: str | None = None,
    ) -> None:
        """Show what a referee call changed: a board message, then private views by DM.

        The board announces a turn: it pings the players newly asked to act (a Discord
        notification), and its **Play your turn** button opens their hand and moves, only to
        them. So a DM goes only where the board cannot do: to each player whose secret changed
        (the deal, cards received through someone else's move: Outbox.private_changed), to each
        told something privately, to the newly asked who keep turn DMs (``/settings turn-dms``),
        and to every newly asked player when no board could be posted (no channel, Discord
        refused it): a ping that never went out must not cost anyone their turn. A seat still
        waited for since an earlier message is neither pinged nor DMed again, and its earlier
        controls keep working. ``answered`` is the user whose own interaction response already
        shows their new view (their hand included): never DMed, never pinged. Seats an AI plays
        for absent players get nothing until their players come back.

        The announcer wraps it: one publish per table at a time, the table marked announced
        afterwards, a board that failed retried later (cogs/announcer.py).
        """
        async with self.announcer.publishing(outbox) as delivery:
            if not delivery.done:
                await self._publish(outbox, delivery, interaction=interaction, answered=answered)

    async def _publish(
        self,
        outbox: Outbox,
        delivery: Delivery,
        *,
        interaction: discord.Interaction | None,
        answered: str | None,
    ) -> None:
        table = outbox.table
        humans = {seat.index: seat.user_id for seat in table.humans if seat.user_id}
        newly = self._note_asked(outbox)
        # A ping only for a new request, and never for the player whose own move this answers.
        ping = [humans[index] for index in newly if index in humans and humans[index] != answered]
        announced = False
        if outbox.board_changed or outbox.finished:
            nonce = board_nonce(table.id, table.version) if delivery.first else None
            try:
                announced = delivery.posted = await self.post_board(outbox, ping=ping, nonce=nonce) is not None
            except DELIVERY_ERRORS as error:
                delivery.board_error = error  # the announcer retries it
        if outbox.finished:
            return  # the final board says it all; nobody has a move left to make
        asked = [
            index
            for index in newly
            if index in humans and (not announced or await self.wants_turn_dms(humans[index]))
        ]
        concerned = [*outbox.private_changed, *outbox.private_log, *asked]
        recipients = [
            humans[index]
            for index in dict.fromkeys(concerned)
            if index in humans and humans[index] != answered and not table.seats[index].plays_by_ai
        ]
        targets = [user for user in recipients if not await self.dms_closed(user)]
        delivered = await asyncio.gather(
            *(self.send_dm(table, user, functools.partial(seat_log, outbox, user)) for user in targets)
        )
        actor = str(interaction.user.id) if interaction is not None else None
        for user, ok in zip(targets, delivered, strict=True):
            if ok:
                continue
            if user == actor and interaction is not None:
                await reply(interaction, tr(DM_CLOSED_NOTICE))  # told now, in their own interaction
            else:
                await self.settings.owe_dm_notice(user)  # told at their next action

    def _note_asked(self, outbox: Outbox) -> list[int]:
        """Remember who is waited for now; returns the seats asked by this change (all of them
        when this process has not published the game before, after a restart say)."""
        table = outbox.table
        if self.referee.claims.shared:
            # Other processes publish this game too (a move from a DM reaches shard 0's): what
            # this one remembers holds only if the change follows the last one it published.
            if self._published.get(table.id) != table.version - outbox.moves_applied:
                self._asked.pop(table.id, None)
                self._boards.pop(table.id, None)
            self._published[table.id] = table.version
        before = self._asked.get(table.id)
        if outbox.finished:
            self._asked.pop(table.id, None)
            return []
        to_act = list(dict.fromkeys(outbox.to_act))
        newly = [index for index in to_act if before is None or index not in before]
        self._asked[table.id] = {
            index: table.version if index in newly or before is None else before[index] for index in to_act
        }
        return newly

    async def post_board(
        self, outbox: Outbox, *, ping: Iterable[str] | None = None, nonce: str | None = None
    ) -> discord.Message | None:
        """The board with the log of what happened; ``ping``: the users to notify (default:
        every human to act); ``nonce``: see announcer.board_nonce. Raises discord.HTTPException
        when Discord refuses the board (the announcer tries again later). In the server's
        language, whoever's interaction (or none: the announcer) it follows."""
        async with public_language(self.bot, outbox.table.guild_id):
            return await self._post_board(outbox, ping=ping, nonce=nonce)

    async def _post_board(
        self, outbox: Outbox, *, ping: Iterable[str] | None, nonce: str | None
    ) -> discord.Message | None:
        table = outbox.table
        game = get_game(table.game)
        channel_id = table.thread_id or table.channel_id
        if channel_id is None:
            return None
        # The board and clocks as they are now (one read), under the outbox's table and version.
        snapshot = await self.referee.snapshot(table.id)
        board = snapshot.board
        log_lines = list(outbox.public_log)
        to_act = tuple(outbox.to_act)
        clocks = timed_clocks(table, snapshot.clocks)
        # The ping line shows each one's clock; those whose DMs failed read there that no
        # reminder reaches them by DM.
        closed = [user for user in render.humans_to_act(table, to_act) if await self.dms_closed(user)]
        tail = render.board_tail(table, to_act, finished=outbox.finished, clocks=clocks, dms_closed=closed)
        extra: list[discord.Embed] = []
        if outbox.finished and outbox.outcome is not None:
            extra.append(
                discord.Embed(
                    title=tr("Final scores"),
                    description=render.outcome_text(table, outbox.outcome),
                    colour=render.OVER_COLOUR,
                )
            )
            if outbox.rating_changes:
                extra.append(render.rating_changes_embed(outbox.rating_changes))
            elif outbox.result is not None:
                extra[-1].set_footer(text=render.unrated_reason(outbox.result))
        # The pictures ride in the same message as the board (cogs/pictures.py), drawn off the loop.
        drawn = await board_drawing(self.referee, snapshot)
        result = await result_drawing(self.referee, snapshot) if outbox.finished else None

        def board_message() -> tuple[list[discord.Embed], list[discord.File]]:
            embeds, files = render.board_embeds(table, game, board, clocks, extra)
            if drawn is not None:
                files.append(show(embeds[0], drawn, BOARD_FILE))
            if result is not None and len(embeds) > 1:
                files.append(show(embeds[1], result, RESULT_FILE))
            return embeds, files

        embeds, files = board_message()
        if ping is None:
            ping = [
                table.seats[index].user_id or "" for index in outbox.to_act if not table.seats[index].is_ai
            ]
        pinged = [user for user in ping if user]
        allowed = discord.AllowedMentions(
            everyone=False,
            roles=False,
            replied_user=False,
            users=[discord.Object(int(user)) for user in pinged],
        )
        view = finished_view(table) if outbox.finished else running_board_view(table, to_act)
        channel = self.channel_of(channel_id, table)
        self._thread_tables[str(channel_id)] = table.id
        last = self._boards.pop(table.id, None)
        if (
            last is not None
            and not outbox.finished
            and not pinged
            and last.to_act == to_act
            and render.log_fits([*last.log_lines, *log_lines], tail)
        ):
            # The same turn goes on: its board message shows the whole turn, updated in place.
            combined = [*last.log_lines, *log_lines]
            content = render.board_content(table, combined, to_act, clocks=clocks, dms_closed=closed)
            try:
                message = await channel.get_partial_message(last.message_id).edit(
                    content=content, embeds=embeds, attachments=files, view=view, allowed_mentions=allowed
                )
            except discord.HTTPException as error:
                log.warning("game #%s: could not update the board (%s); posting a new one", table.id, error)
            else:
                self._boards[table.id] = BoardPost(last.message_id, to_act, combined)
                return message
            embeds, files = board_message()
        if not render.log_fits(log_lines, tail):
            # Many moves at once (AI seats, a reveal): the whole story first, then the board.
            for chunk in render.log_messages(log_lines):
                await self.send_to_channel(table, content=chunk)
            log_lines = []
        content = render.board_content(
            table, log_lines, to_act, finished=outbox.finished, clocks=clocks, dms_closed=closed
        )
        kwargs: dict[str, Any] = {
            "content": content,
            "embeds": embeds,
            "files": files,
            "allowed_mentions": allowed,
        }
        if view is not None:
            kwargs["view"] = view
        if nonce is not None:
            kwargs["nonce"] = nonce
        message = await channel.send(**kwargs)
        if not outbox.finished:
            self._boards[table.id] = BoardPost(message.id, to_act, log_lines)
        return message

    def note_thread(self, thread_id: str, table_id: int) -> None:
        """A game's new thread (the announcer opened it after the old one was gone)."""
        self._thread_tables[thread_id] = table_id
        self._boards.pop(table_id, None)

    def forget_board(self, table_id: int) -> None:
        """Another board of the game was posted (``/board``): the next one is a new message."""
        self._boards.pop(table_id, None)

    def note_other_message(self, channel_id: int | str) -> None:
        """Something else was posted in a game's channel: its next board is a new message."""
        table_id = self._thread_tables.get(str(channel_id))
        if table_id is not None:
            self._boards.pop(table_id, None)

    async def send_to_channel(self, table: Table, **kwargs: Any) -> discord.Message | None:
        """A message in the game's thread (or channel); nothing pings unless ``allowed_mentions`` says."""
        channel_id = table.thread_id or table.channel_id
        if channel_id is None:
            return None
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        self._boards.pop(table.id, None)
        try:
            return await self.channel_of(channel_id, table).send(**kwargs)
        except discord.HTTPException:
            log.exception("could not post in the channel of game #%s", table.id)
            return None

    async def ensure_thread(self, table: Table, lobby_message: discord.Message | None) -> Table:
        """Open the game's thread on the lobby message; fall back to the channel if not allowed."""
        if table.thread_id is not None or table.channel_id is None:
            return table
        async with public_language(self.bot, table.guild_id):  # a thread's name is public
            title = render.clip(render.game_label(table, get_game(table.game)), 100)
        thread: discord.Thread | None = None
        try:
            if lobby_message is not None:
                thread = await lobby_message.create_thread(name=title, auto_archive_duration=1440)
            elif table.message_id is not None:
                partial = self.channel_of(table.channel_id, table).get_partial_message(int(table.message_id))
                thread = await partial.create_thread(name=title, auto_archive_duration=1440)
        except discord.HTTPException as error:
            log.warning("game #%s: no thread (%s); playing in the channel", table.id, error)
        thread_id = str(thread.id) if thread is not None else table.channel_id
        table = await self.referee.set_links(table.id, thread_id=thread_id)
        self._thread_tables[thread_id] = table.id
        if thread is not None:
            # Seat the human players in the thread so it shows in their channel list.
            await asyncio.gather(
                *(
                    self.quietly(thread.add_user(discord.Object(int(seat.user_id))))
                    for seat in table.humans
                    if seat.user_id
                )
            )
        return table

    async def resume_running_games(self) -> int:
        """After a (re)start: open missing threads and let due AI seats play. Returns games touched.
        Only the games that need it are loaded (see Referee.tables_to_resume)."""
        touched = 0
        for table_id in await self.referee.tables_to_resume():
            try:
                table = await self.referee.table(table_id)
                dealt = table.thread_id is not None
                if not dealt:  # stopped between the start and its first messages
                    table = await self.ensure_thread(table, None)
                outbox = await self.referee.resume(table.id)
                if not dealt:
                    outbox.board_changed = True
                    outbox.private_changed = [seat.index for seat in table.humans]
                if outbox.moves_applied or outbox.board_changed:
                    await self.publish(outbox)
                    touched += 1
            except Exception:
                log.exception("could not resume game #%s", table_id)
        return touched

    def channel_of(self, channel_id: str, table: Table) -> discord.PartialMessageable:
        guild = int(table.guild_id) if table.guild_id else None
        return self.bot.get_partial_messageable(int(channel_id), guild_id=guild)

    async def quietly(self, action: Any) -> None:
        try:
            await action
        except discord.HTTPException as error:
            log.warning("Discord refused a cosmetic update: %s", error)


def timed_clocks(table: Table, views: Iterable[SeatClockView]) -> list[SeatClockView]:
    """The seats' clocks of a running timed table (empty otherwise), for the board."""
    speed = SPEEDS.get(table.speed)
    if table.status != RUNNING or speed is None or not speed.timed:
        return []
    return list(views)


def board_clocks(snapshot: SeatSnapshot) -> list[SeatClockView]:
    """The clocks a snapshot's board shows (see ``timed_clocks``)."""
    return timed_clocks(snapshot.table, snapshot.clocks)


def finished_view(table: Table) -> discord.ui.View | None:
    """The game-over message's Rematch button (none for a game abandoned or cancelled)."""
    return rematch_view(table.id) if table.status == FINISHED else None


def _someone_away(table: Table) -> bool:
    return any(seat.absent and not seat.forfeited for seat in table.seats)


def running_board_view(table: Table, to_act: Iterable[int]) -> discord.ui.View:
    """A running game's board buttons: "Play your turn" while it asks people to act."""
    asking = bool(render.humans_to_act(table, to_act))
    return board_view(
        table.id, turn_version=table.version if asking else None, someone_away=_someone_away(table)
    )


def seat_log(outbox: Outbox, user_id: str) -> list[str]:
    """The private lines of a user's seat, in the current language (the reader's)."""
    seat = outbox.table.seat_of(user_id)
    return private_lines(outbox, seat.index) if seat is not None else []
