"""The game desk: what slash commands and components do, between Discord and the referee.

It parses nothing game-specific: it calls the referee, then renders the Outbox the referee returns:
one new board message per change in the game's thread (with a short log, a ping for the players
newly asked to act and a **Play your turn** button that shows them their moves ephemerally), and
a DM to each player whose secret (their hand) changed by someone else's move (see ``publish``).
Every interaction is answered (or deferred) before any slow work, and every refusal is an
ephemeral message that says what to do.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from engine.core import Game, GameError
from engine.core.text import quote
from engine.games import get_game
from engine.referee import (
    FINISHED,
    LOBBY,
    RUNNING,
    SPEEDS,
    NotInGame,
    Outbox,
    Referee,
    SeatClockView,
    StaleVersion,
    Table,
    TableNotFound,
    is_stacked,
)

from . import render
from .announcer import DELIVERY_ERRORS, Announcer, Delivery, board_nonce
from .components import board_view, group_moves_view, lobby_view, move_view, return_view
from .layout import plan_controls
from .replies import reply

log = logging.getLogger(__name__)

CANNOT_DM_USER = 50007
DM_CLOSED_NOTICE = (
    "I could not send you a DM (your DMs are closed), so I will not try again. Press **Play your turn** "
    "or **Show my hand** on the game's board, or use `/hand`, whenever you need your hand and your moves "
    "(after opening your DMs, `/settings turn-dms enabled:True` makes me try again)."
)
_OPTION = re.compile(r"^(?P<name>[A-Za-z_][\w-]*)=(?P<value>.*)$")


class NoTableHere(GameError):
    """The command could not tell which game it is about."""


@dataclass
class PrivateMessage:
    """One seat's private view, ready to send by DM or ephemerally (``files``: the whole view,
    when it is too long for the embed)."""

    content: str
    embeds: list[discord.Embed]
    view: discord.ui.View | None
    files: list[discord.File] = field(default_factory=list)


@dataclass
class BoardPost:
    """The latest board message of a game, while it is the last thing the bot posted there."""

    message_id: int
    to_act: tuple[int, ...]
    log_lines: list[str]


# A stacked deal would let a host choose everyone's cards: here the referee always deals.
STACKED_REFUSAL = (
    "Stacked deals (`deck=`) are for tests and the local table: on Discord the referee deals. "
    "Start the game without that option."
)


def parse_options(text: str | None) -> dict[str, str]:
    """``"rounds=3 pairs=true"`` -> ``{"rounds": "3", "pairs": "true"}``; the game checks values."""
    options: dict[str, str] = {}
    for token in (text or "").split():
        match = _OPTION.match(token)
        if match is None:
            raise GameError(f"Write options as NAME=VALUE separated by spaces (not {quote(token)}).")
        options[match["name"].lower()] = match["value"]
    return options


def default_ai_kind(game: Game[Any, Any]) -> str:
    kinds = list(game.ai_players())
    return "greedy" if "greedy" in kinds else kinds[0]


class GameDesk:
    def __init__(self, bot: discord.Client, referee: Referee) -> None:
        self.bot = bot
        self.referee = referee
        self.settings = referee.user_settings  # DM flags and turn DMs (engine/referee/user_settings.py)
        # A cache of stored facts (the store stays the truth; it only saves queries).
        self._thread_tables: dict[str, int] = {}
        # For each running game, the seats being waited for and the version at which each was
        # asked (when this process published it): a seat still waited for is neither pinged nor
        # DMed again, and its controls from the same request keep working (see _same_request).
        self._asked: dict[int, dict[int, int]] = {}
        # The latest board of each game while nothing was posted after it: the next board of the
        # same turn (the same seats waited for, nobody to ping) updates it instead of adding one.
        self._boards: dict[int, BoardPost] = {}
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
                raise TableNotFound(f"There is no game #{game_id} on this server.")
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
            raise NoTableHere("You have no game here. Start one with `/game new`, or see `/game list`.")
        numbers = ", ".join(f"#{table.id}" for table in mine[:10])
        raise NoTableHere(
            f"You are in several games ({numbers}): use the command in the game's thread, or give `game:`."
        )

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

    # ----- lobby --------------------------------------------------------------------------------

    async def open_lobby(
        self,
        interaction: discord.Interaction,
        game_name: str,
        options_text: str | None,
        ai_seats: int,
        speed: str,
    ) -> None:
        try:
            game = get_game(game_name)
            options = parse_options(options_text)
            if is_stacked(options):
                raise GameError(STACKED_REFUSAL)
            table = await self.referee.create_table(
                game.name,
                str(interaction.user.id),
                interaction.user.display_name,
                options=options,
                guild_id=str(interaction.guild_id) if interaction.guild_id else None,
                channel_id=str(interaction.channel_id),
                speed=speed,
                # With the table, in one write: a refused request leaves no lobby behind.
                ai_seats=[default_ai_kind(game)] * ai_seats,
            )
        except GameError as error:
            await reply(interaction, str(error))
            return
        callback = await interaction.response.send_message(
            embed=render.lobby_embed(table, game),
            view=lobby_view(table.id),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if callback is not None and callback.message_id is not None:
            await self.referee.set_links(table.id, message_id=str(callback.message_id))

    async def lobby_action(self, interaction: discord.Interaction, table_id: int, action: str) -> None:
        user = str(interaction.user.id)
        if action == "start":
            await self.start(interaction, table_id)
            return
        try:
            if action == "join":
                table = await self.referee.join(table_id, user, interaction.user.display_name)
            elif action == "leave":
                table = await self.referee.leave(table_id, user)
            elif action == "ai":
                table = await self.referee.table(table_id)
                table = await self.referee.add_ai(table_id, user, default_ai_kind(get_game(table.game)))
            elif action == "unai":
                table = await self.referee.remove_ai(table_id, user)
            elif action == "cancel":
                table = await self.referee.cancel(table_id, user, is_admin=is_server_manager(interaction))
                game = get_game(table.game)
                await interaction.response.edit_message(
                    embed=render.cancelled_embed(table, game, user), view=None
                )
                return
            else:
                raise GameError("This button is no longer supported.")
        except GameError as error:
            await reply(interaction, str(error))
            return
        await interaction.response.edit_message(
            embed=render.lobby_embed(table, get_game(table.game)), view=lobby_view(table.id)
        )

    async def start(self, interaction: discord.Interaction, table_id: int) -> None:
        # Starting deals, lets AI seats play, opens a thread and sends every hand: defer first.
        await interaction.response.defer()
        try:
            outbox = await self.referee.start(table_id, str(interaction.user.id))
        except GameError as error:
            await reply(interaction, str(error))
            return
        table = await self.ensure_thread(outbox.table, interaction.message)
        outbox.table = table
        game = get_game(table.game)
        await interaction.edit_original_response(
            embed=render.started_embed(table, game, game.seating(await self.referee.state(table.id))),
            view=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.publish(outbox, interaction=interaction)

    async def cancel(self, interaction: discord.Interaction, game_id: int | None) -> None:
        try:
            table = await self.find_table(interaction, game_id, statuses=(LOBBY, RUNNING), players_only=False)
            table = await self.referee.cancel(
                table.id, str(interaction.user.id), is_admin=is_server_manager(interaction)
            )
        except GameError as error:
            await reply(interaction, str(error))
            return
        game = get_game(table.game)
        embed = render.cancelled_embed(table, game, str(interaction.user.id))
        await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())
        # The lobby message loses its buttons; a running game's thread hears about it.
        channel = table.thread_id or table.channel_id
        if table.thread_id is None and table.channel_id and table.message_id:
            await self._quietly(
                self._channel(table.channel_id, table)
                .get_partial_message(int(table.message_id))
                .edit(embed=embed, view=None)
            )
        elif channel and str(interaction.channel_id) != channel:
            await self._quietly(
                self._channel(channel, table).send(
                    embed=embed, allowed_mentions=discord.AllowedMentions.none()
                )
            )

    # ----- playing ------------------------------------------------------------------------------

    async def play_from_control(
        self, interaction: discord.Interaction, table_id: int, version: int, move: str
    ) -> None:
        """A button or select on a private message (DM or ephemeral): play, then update it in place."""
        await interaction.response.defer()
        user = str(interaction.user.id)
        try:
            try:
                outbox = await self.referee.play(table_id, user, move, expected_version=version)
            except StaleVersion:
                if not await self._same_request(interaction, table_id, user, version, move):
                    raise
                # Others moved meanwhile, but nothing this player sees changed (a secret choice
                # of another seat, say): the click still means what it meant.
                outbox = await self.referee.play(table_id, user, move)
        except StaleVersion as error:
            await self._send_current(interaction, table_id, str(error))
            return
        except GameError as error:
            await reply(interaction, str(error))
            return
        done = await self.private_message(
            outbox.table, user, header=f"You played **{move}**.", log_lines=_seat_log(outbox, user)
        )
        await interaction.edit_original_response(
            content=done.content, embeds=done.embeds, view=done.view, attachments=done.files
        )
        await self.publish(outbox, interaction=interaction, answered=user)

    async def play_typed(self, interaction: discord.Interaction, game_id: int | None, move: str) -> None:
        """/play: the move applies to the current board (no version: the player typed it now)."""
        try:
            table = await self.find_table(interaction, game_id, statuses=(RUNNING,))
        except GameError as error:
            await reply(interaction, str(error))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = str(interaction.user.id)
        try:
            outbox = await self.referee.play(table.id, user, move)
        except GameError as error:
            await reply(interaction, str(error))
            return
        played = move.strip()
        done = await self.private_message(
            outbox.table, user, header=f"You played **{played}**.", log_lines=_seat_log(outbox, user)
        )
        await reply(interaction, done.content, embeds=done.embeds, view=done.view, files=done.files)
        await self.publish(outbox, interaction=interaction, answered=user)

    async def show_hand(self, interaction: discord.Interaction, table_id: int, header: str = "") -> None:
        """The same private view as the DM, ephemerally (the fallback when DMs are closed)."""
        user = str(interaction.user.id)
        try:
            table = await self.referee.table(table_id)
            message = await self.private_message(table, user, header=header)
        except GameError as error:
            await reply(interaction, str(error))
            return
        await self._answer_privately(interaction, table, user, message)

    async def _answer_privately(
        self, interaction: discord.Interaction, table: Table, user: str, message: PrivateMessage
    ) -> None:
        """A private view as the ephemeral answer, with the closed-DMs notice when one is owed,
        and the player's clock when it runs (or ran out): with closed DMs, this is where they see it."""
        seat = table.seat_of(user)
        warning = ""
        if seat is not None:
            views = [view for view in await self.clocks(table) if view.seat == seat.index]
            warning = render.clock_warning(views[0]) if views else ""
            if warning:
                warning = warning[0].upper() + warning[1:]
                if await self.dms_closed(user):
                    warning += f" {render.DMS_CLOSED_PRIVATE_NOTE}"
        if warning:
            message.content = f"{message.content}\n{warning}".strip()
        if await self.settings.take_dm_notice(user):
            message.content = f"{DM_CLOSED_NOTICE}\n{message.content}".strip()
        await reply(
            interaction, message.content, embeds=message.embeds, view=message.view, files=message.files
        )

    async def open_turn(self, interaction: discord.Interaction, table_id: int, version: int) -> None:
        """The board's **Play your turn**: the clicker's hand and moves, ephemerally, when that
        board's request is still theirs. A click on an older board is refused: said so, with
        the current board and view (as for any stale control); a click by someone not asked
        now gets who is waited for."""
        user = str(interaction.user.id)
        try:
            table = await self.referee.table(table_id)
            seat = table.seat_of(user)
            if seat is None:
                raise NotInGame("You are not playing in this game.")
            if table.status != RUNNING:
                raise GameError("This game is over." if table.status == FINISHED else "This game has ended.")
            if seat.index not in await self.seats_to_act(table):
                waiting = await self.waiting_line(table)
                raise GameError(f"It is not your turn now. {waiting} **Show my hand** shows your cards.")
            if not self._asked_since(table, seat.index, version):
                await self._send_current(
                    interaction, table_id, "That board is out of date: here is the current one."
                )
                return
            message = await self.private_message(table, user)
        except GameError as error:
            await reply(interaction, str(error))
            return
        await self._answer_privately(interaction, table, user, message)

    def _asked_since(self, table: Table, seat: int, version: int) -> bool:
        """Whether the request shown at ``version`` is the seat's current one: it is the current
        version, or the seat has been waited for without a break since then (known only for
        games this process has published since it started)."""
        if version == table.version:
            return True
        asked_at = self._asked.get(table.id, {}).get(seat)
        return asked_at is not None and asked_at <= version <= table.version

    async def show_move_group(
        self, interaction: discord.Interaction, table_id: int, version: int, page: int | None
    ) -> None:
        """Second step of a two-step choice (``page``), or back to the groups (None)."""
        user = str(interaction.user.id)
        try:
            table = await self.referee.table(table_id)
            if table.version != version:
                if not await self._same_request(interaction, table_id, user, version):
                    raise StaleVersion(
                        "The board has changed since you looked at it; here is the current one."
                    )
                version = table.version  # the same request: its moves, with the current version
            about = dict(await self.referee.described_moves(table_id, user))
            moves = list(about)
            if page is None:
                view, _plan = move_view(table_id, version, moves, about)
            else:
                groups = plan_controls(moves).groups
                if not 0 <= page < len(groups):
                    raise StaleVersion("Those moves are no longer available; here is the current view.")
                view = group_moves_view(table_id, version, groups[page], about)
        except StaleVersion as error:
            await interaction.response.defer()
            await self._send_current(interaction, table_id, str(error))
            return
        except GameError as error:
            await reply(interaction, str(error))
            return
        await interaction.response.edit_message(view=view)

    async def _same_request(
        self,
        interaction: discord.Interaction,
        table_id: int,
        user_id: str,
        version: int,
        move: str | None = None,
    ) -> bool:
        """Whether a click on controls of an older ``version`` still answers the current request:
        the seat has been waited for without a break since then, the private view on the clicked
        message is exactly the current one, and the move (if any) is still legal."""
        table = await self.referee.table(table_id)
        seat = table.seat_of(user_id)
        asked_at = self._asked.get(table_id, {}).get(seat.index) if seat is not None else None
        if asked_at is None or version < asked_at or interaction.message is None:
            return False
        if move is not None and move not in await self.referee.legal_moves(table_id, user_id):
            return False
        shown = render.shown_private_view(interaction.message.embeds)
        current = render.block_body(await self.referee.private_text(table_id, user_id))
        return shown is not None and shown == current

    async def post_board_here(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """/board: a fresh board message (in the game's thread when used there)."""
        try:
            table = await self.find_table(interaction, game_id, statuses=(RUNNING,), players_only=False)
            text = await self.referee.board_text(table.id)
        except GameError as error:
            await reply(interaction, str(error))
            return
        game = get_game(table.game)
        embeds, files = render.board_embeds(table, game, text, await self.clocks(table))
        if str(interaction.channel_id) == (table.thread_id or table.channel_id):
            self._boards.pop(table.id, None)
            view = _board_view(table, await self.seats_to_act(table))
            await interaction.response.send_message(embeds=embeds, files=files, view=view)
        else:
            url = render.thread_url(table)
            await reply(
                interaction, f"The game is played in {url}." if url else "", embeds=embeds, files=files
            )

    async def _send_current(self, interaction: discord.Interaction, table_id: int, reason: str) -> None:
        """After a stale click: the reason, the current board and the player's current view."""
        user = str(interaction.user.id)
        try:
            table = await self.referee.table(table_id)
            message = await self.private_message(table, user, header=reason)
            board = await self.referee.board_text(table_id)
        except GameError as error:
            await reply(interaction, f"{reason}\n{error}")
            return
        embeds = [render.board_embed(table, get_game(table.game), board), *message.embeds]
        if render.embeds_total(embeds) > render.EMBEDS_LIMIT or not render.fits_block(board):
            embeds = message.embeds  # the board is in the game's thread; the player's view comes first
        await reply(interaction, message.content, embeds=embeds, view=message.view, files=message.files)

    # ----- absent players -----------------------------------------------------------------------

    async def skip_seat(self, interaction: discord.Interaction, table_id: int, seat: int) -> None:
        """The Skip button on a timeout notice: an AI plays the seat from now on."""
        await interaction.response.defer()
        user = str(interaction.user.id)
        try:
            outbox = await self.referee.skip(table_id, user, seat)
        except GameError as error:
            await reply(interaction, str(error))
            return
        table = outbox.table
        skipped = table.seats[seat]
        done = f"{skipped.name} was skipped by {render.mention(user)}."
        await self._quietly(interaction.edit_original_response(content=done, view=None))
        await self.publish(outbox, interaction=interaction)
        if skipped.user_id and not skipped.forfeited and table.status == RUNNING:
            game = get_game(table.game)
            header = render.ran_out_text(table, game, skipped=True, game_waits=False)
            await self.send_private(table, skipped.user_id, header, view=return_view(table.id))

    async def return_to_seat(self, interaction: discord.Interaction, table_id: int) -> None:
        """The "I'm back" button: the skipped player plays their own seat again."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = str(interaction.user.id)
        try:
            outbox = await self.referee.return_to_seat(table_id, user)
        except GameError as error:
            await reply(interaction, str(error))
            return
        header = (
            "Welcome back: you play your own seat again."
            if outbox.board_changed
            else "Nobody plays your seat but you: it is still yours."
        )
        done = await self.private_message(outbox.table, user, header=header)
        await reply(interaction, done.content, embeds=done.embeds, view=done.view, files=done.files)
        if outbox.board_changed:
            await self.publish(outbox, interaction=interaction, answered=user)

    # ----- rendering the outbox -----------------------------------------------------------------

    async def private_message(
        self, table: Table, user_id: str, *, header: str = "", log_lines: Sequence[str] = ()
    ) -> PrivateMessage:
        text = await self.referee.private_text(table.id, user_id)
        table = await self.referee.table(table.id)
        game = get_game(table.game)
        about = dict(await self.referee.described_moves(table.id, user_id))
        moves = list(about)
        view, plan = move_view(table.id, table.version, moves, about)
        lines = [header] if header else []
        seat = table.seat_of(user_id)
        on_turn = (
            table.status == RUNNING and seat is not None and seat.index in await self.seats_to_act(table)
        )
        if moves and on_turn:
            lines.append("**Your turn.** Choose a move below, or type `/play`.")
        elif moves:
            # Moves a game allows out of turn (such as asking to discard a dead card): optional.
            lines.append(await self.waiting_line(table))
            lines.append("Not your turn, but you may already make one of these moves (or just wait).")
        elif table.status == RUNNING:
            lines.append(await self.waiting_line(table))
        if moves and plan.left_out:
            lines.append(f"{plan.left_out} more moves can be played with `/play` (autocomplete lists them).")
        embed = render.private_embed(table, game, text, log_lines)
        files = render.private_files(table, game, text, log_lines)
        return PrivateMessage("\n".join(line for line in lines if line), [embed], view, files)

    async def seats_to_act(self, table: Table) -> tuple[int, ...]:
        return await self.referee.to_act(table.id)

    async def waiting_line(self, table: Table) -> str:
        seats = await self.seats_to_act(table)
        return f"Waiting for {', '.join(table.seats[seat].name for seat in seats)}." if seats else ""

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
            *(self.send_dm(table, user, _seat_log(outbox, user)) for user in targets)
        )
        actor = str(interaction.user.id) if interaction is not None else None
        for user, ok in zip(targets, delivered, strict=True):
            if ok:
                continue
            if user == actor and interaction is not None:
                await reply(interaction, DM_CLOSED_NOTICE)  # told now, in their own interaction
            else:
                await self.settings.owe_dm_notice(user)  # told at their next action

    def _note_asked(self, outbox: Outbox) -> list[int]:
        """Remember who is waited for now; returns the seats asked by this change (all of them
        when this process has not published the game before, after a restart say)."""
        table = outbox.table
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
        when Discord refuses the board (the announcer tries again later)."""
        table = outbox.table
        game = get_game(table.game)
        channel_id = table.thread_id or table.channel_id
        if channel_id is None:
            return None
        board = await self.referee.board_text(table.id)
        log_lines = list(outbox.public_log)
        to_act = tuple(outbox.to_act)
        clocks = await self.clocks(table)
        # The ping line shows each one's clock; those whose DMs failed read there that no
        # reminder reaches them by DM.
        closed = [user for user in render.humans_to_act(table, to_act) if await self.dms_closed(user)]
        tail = render.board_tail(table, to_act, finished=outbox.finished, clocks=clocks, dms_closed=closed)
        extra: list[discord.Embed] = []
        if outbox.finished and outbox.outcome is not None:
            extra.append(
                discord.Embed(
                    title="Final scores",
                    description=render.outcome_text(table, outbox.outcome),
                    colour=render.OVER_COLOUR,
                )
            )
            if outbox.rating_changes:
                extra.append(render.rating_changes_embed(outbox.rating_changes))
            elif outbox.result is not None:
                extra[-1].set_footer(text=render.unrated_reason(outbox.result))
        embeds, files = render.board_embeds(table, game, board, clocks, extra)
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
        view = None if outbox.finished else _board_view(table, to_act)
        channel = self._channel(channel_id, table)
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
            embeds, files = render.board_embeds(table, game, board, clocks, extra)
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

    def note_other_message(self, channel_id: int | str) -> None:
        """Something else was posted in a game's channel: its next board is a new message."""
        table_id = self._thread_tables.get(str(channel_id))
        if table_id is not None:
            self._boards.pop(table_id, None)

    async def clocks(self, table: Table) -> list[SeatClockView]:
        """The seats' clocks of a running timed table (empty otherwise), for the board."""
        speed = SPEEDS.get(table.speed)
        if table.status != RUNNING or speed is None or not speed.timed:
            return []
        return await self.referee.clock_views(table.id)

    async def send_to_channel(self, table: Table, **kwargs: Any) -> discord.Message | None:
        """A message in the game's thread (or channel); nothing pings unless ``allowed_mentions`` says."""
        channel_id = table.thread_id or table.channel_id
        if channel_id is None:
            return None
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        self._boards.pop(table.id, None)
        try:
            return await self._channel(channel_id, table).send(**kwargs)
        except discord.HTTPException:
            log.exception("could not post in the channel of game #%s", table.id)
            return None

    async def send_private(
        self, table: Table, user_id: str, header: str, view: discord.ui.View | None = None
    ) -> bool:
        """A DM to one player (their view, headed by ``header``); False when their DMs are closed."""
        if await self.dms_closed(user_id):
            return False
        return await self.send_dm(table, user_id, (), header=header, view=view)

    async def send_dm(
        self,
        table: Table,
        user_id: str,
        log_lines: Sequence[str],
        *,
        header: str = "",
        view: discord.ui.View | None = None,
    ) -> bool:
        """DM one player their private view; False (and remembered) when their DMs are closed."""
        try:
            message = await self.private_message(table, user_id, header=header, log_lines=log_lines)
            channel = await self.bot.create_dm(discord.Object(int(user_id)))
            await channel.send(
                message.content,
                embeds=message.embeds,
                view=view or message.view or discord.utils.MISSING,
                files=message.files,
            )
        except discord.Forbidden as error:
            if error.code != CANNOT_DM_USER:
                log.warning("DM to %s for game #%s refused: %s", user_id, table.id, error)
                return True
            log.info("user %s has DMs closed; using the Show my hand fallback from now on", user_id)
            await self.settings.set_dms_closed(user_id, True)
            return False
        except discord.HTTPException as error:
            # Not a closed DM (Discord had a problem): keep DMs on, the button still works.
            log.warning("DM to %s for game #%s failed: %s", user_id, table.id, error)
        except GameError as error:
            log.warning("no private view of %s in game #%s: %s", user_id, table.id, error)
        return True

    async def dms_closed(self, user_id: str) -> bool:
        return await self.settings.dms_closed(user_id)

    async def wants_turn_dms(self, user_id: str) -> bool:
        return await self.settings.wants_turn_dms(user_id)

    async def set_turn_dms(self, interaction: discord.Interaction, enabled: bool) -> None:
        """/settings turn-dms: a DM with the hand and moves at each turn, besides the board's ping."""
        user = str(interaction.user.id)
        # Asking for DMs is the sign they were opened again: the settings try them once more.
        await self.settings.set_turn_dms(user, enabled)
        if enabled:
            text = (
                "Turn DMs on: at each of your turns your hand and your moves come by DM too "
                "(the board still pings you)."
            )
        else:
            text = (
                "Turn DMs off: the game's board pings you when it is your turn; press **Play your turn** "
                "there. Your hand still comes by DM when someone else's move changes it."
            )
        await reply(interaction, text)

    # ----- threads and restarts -----------------------------------------------------------------

    async def ensure_thread(self, table: Table, lobby_message: discord.Message | None) -> Table:
        """Open the game's thread on the lobby message; fall back to the channel if not allowed."""
        if table.thread_id is not None or table.channel_id is None:
            return table
        title = render.clip(render.game_label(table, get_game(table.game)), 100)
        thread: discord.Thread | None = None
        try:
            if lobby_message is not None:
                thread = await lobby_message.create_thread(name=title, auto_archive_duration=1440)
            elif table.message_id is not None:
                partial = self._channel(table.channel_id, table).get_partial_message(int(table.message_id))
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
                    self._quietly(thread.add_user(discord.Object(int(seat.user_id))))
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

    # ----- helpers ------------------------------------------------------------------------------

    def _channel(self, channel_id: str, table: Table) -> discord.PartialMessageable:
        guild = int(table.guild_id) if table.guild_id else None
        return self.bot.get_partial_messageable(int(channel_id), guild_id=guild)

    async def _quietly(self, action: Any) -> None:
        try:
            await action
        except discord.HTTPException as error:
            log.warning("Discord refused a cosmetic update: %s", error)


def _someone_away(table: Table) -> bool:
    return any(seat.absent and not seat.forfeited for seat in table.seats)


def _board_view(table: Table, to_act: Iterable[int]) -> discord.ui.View:
    """A running game's board buttons: "Play your turn" while it asks people to act."""
    asking = bool(render.humans_to_act(table, to_act))
    return board_view(
        table.id, turn_version=table.version if asking else None, someone_away=_someone_away(table)
    )


def _seat_log(outbox: Outbox, user_id: str) -> list[str]:
    seat = outbox.table.seat_of(user_id)
    return list(outbox.private_log.get(seat.index, [])) if seat is not None else []


def is_server_manager(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions and permissions.manage_guild)
