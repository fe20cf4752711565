"""Playing: moves (clicked or typed), the private view of a hand and of a turn, the two-step
choices, a fresh board on demand, stale clicks, and the absent players' seats (skip, come back).
"""

from __future__ import annotations

import discord

from engine.core import GameError
from engine.games import get_game
from engine.i18n import tr
from engine.referee import FINISHED, RUNNING, NotInGame, Referee, SeatSnapshot, StaleVersion, Table
from engine.referee.user_settings import UserSettings

from . import render
from .components import group_moves_view, move_view, return_view
from .dms import DM_CLOSED_NOTICE, PrivateMessage
from .language import dm_language, public_language
from .layout import plan_controls
from .pictures import BOARD_FILE, board_drawing, show
from .publishing import board_clocks, running_board_view, seat_log
from .replies import reply


class PlayRoom:
    """The GameDesk's play (cogs/desk.py composes the rooms and holds the state below). Of the
    other rooms it uses the private views (``private_message``, ``send_private``, ``dms_closed``:
    cogs/dms.py), publishing (``publish``, ``forget_board``, ``quietly``: cogs/publishing.py,
    which alone writes ``_asked``) and ``find_table`` (cogs/desk.py)."""

    bot: discord.Client
    referee: Referee
    settings: UserSettings
    _asked: dict[int, dict[int, int]]  # read only: see PublishingRoom._note_asked

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
                current = await self.referee.snapshot(table_id, user)
                if not self._same_request(interaction, current, version, move):
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
            outbox.table, user, header=tr("You played **{move}**.", move=move), log_lines=seat_log(outbox, user)
        )
        await interaction.edit_original_response(
            content=done.content, embeds=done.embeds, view=done.view, attachments=done.files
        )
        await self.publish(outbox, interaction=interaction, answered=user)

    async def play_typed(self, interaction: discord.Interaction, game_id: int | None, move: str) -> None:
        """/play: the move applies to the current board (no version: the player typed it now)."""
        table = await self.running_game_deferred(interaction, game_id)
        if table is None:
            return
        user = str(interaction.user.id)
        try:
            outbox = await self.referee.play(table.id, user, move)
        except GameError as error:
            await reply(interaction, str(error))
            return
        played = move.strip()
        done = await self.private_message(
            outbox.table, user, header=tr("You played **{move}**.", move=played), log_lines=seat_log(outbox, user)
        )
        await reply(interaction, done.content, embeds=done.embeds, view=done.view, files=done.files)
        await self.publish(outbox, interaction=interaction, answered=user)

    async def show_hand(self, interaction: discord.Interaction, table_id: int, header: str = "") -> None:
        """The same private view as the DM, ephemerally (the fallback when DMs are closed)."""
        user = str(interaction.user.id)
        try:
            message = await self.private_message(table_id, user, header=header)
        except GameError as error:
            await reply(interaction, str(error))
            return
        await self._answer_privately(interaction, user, message)

    async def _answer_privately(
        self, interaction: discord.Interaction, user: str, message: PrivateMessage
    ) -> None:
        """A private view as the ephemeral answer, with the closed-DMs notice when one is owed,
        and the player's clock when it runs (or ran out): with closed DMs, this is where they see it."""
        snapshot = message.snapshot
        warning = ""
        if snapshot.seat is not None:
            views = [view for view in board_clocks(snapshot) if view.seat == snapshot.seat]
            warning = render.clock_warning(views[0]) if views else ""
            if warning:
                warning = warning[0].upper() + warning[1:]
                if await self.dms_closed(user):
                    warning += f" {tr(render.DMS_CLOSED_PRIVATE_NOTE)}"
        if warning:
            message.content = f"{message.content}\n{warning}".strip()
        if await self.settings.take_dm_notice(user):
            message.content = f"{tr(DM_CLOSED_NOTICE)}\n{message.content}".strip()
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
            # One snapshot: the seat, who must act and the private view are of one version.
            snapshot = await self.referee.snapshot(table_id, user)
            table, seat = snapshot.table, snapshot.seat
            if seat is None:
                raise NotInGame(tr("You are not playing in this game."))
            if table.status != RUNNING:
                raise GameError(tr("This game is over.") if table.status == FINISHED else tr("This game has ended."))
            if seat not in snapshot.to_act:
                waiting = snapshot.waiting_line
                raise GameError(tr("It is not your turn now. {waiting} **Show my hand** shows your cards.", waiting=waiting))
            if not self._asked_since(table, seat, version):
                await self._send_current(
                    interaction, table_id, tr("That board is out of date: here is the current one.")
                )
                return
            message = await self.private_message(snapshot, user)
        except GameError as error:
            await reply(interaction, str(error))
            return
        await self._answer_privately(interaction, user, message)

    async def hint(self, interaction: discord.Interaction, table_id: int, version: int) -> None:
        """The private turn view's **Hint**: what the normal AI would play, and why, only to the
        clicker (it reads their hand). The AI may think up to a second or so: defer first."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            text = await self.referee.hint(table_id, str(interaction.user.id))
        except GameError as error:
            await reply(interaction, str(error))
            return
        await reply(interaction, render.clip(text, render.CONTENT_LIMIT))

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
            snapshot = await self.referee.snapshot(table_id, user)
            if snapshot.version != version:
                if not self._same_request(interaction, snapshot, version):
                    raise StaleVersion(
                        tr("The board has changed since you looked at it; here is the current one.")
                    )
                version = snapshot.version  # the same request: its moves, with the current version
            about = dict(snapshot.moves)
            moves = list(about)
            if page is None:
                view, _plan = move_view(table_id, version, moves, about, hint=snapshot.hints)
            else:
                groups = plan_controls(moves, reserved=1 if snapshot.hints else 0).groups
                if not 0 <= page < len(groups):
                    raise StaleVersion(tr("Those moves are no longer available; here is the current view."))
                view = group_moves_view(table_id, version, groups[page], about)
        except StaleVersion as error:
            await interaction.response.defer()
            await self._send_current(interaction, table_id, str(error))
            return
        except GameError as error:
            await reply(interaction, str(error))
            return
        await interaction.response.edit_message(view=view)

    def _same_request(
        self,
        interaction: discord.Interaction,
        snapshot: SeatSnapshot,
        version: int,
        move: str | None = None,
    ) -> bool:
        """Whether a click on controls of an older ``version`` still answers the current request
        (``snapshot``: the clicker's seat now): the seat has been waited for without a break since
        then, the private view on the clicked message is exactly the current one, and the move
        (if any) is still legal."""
        seat = snapshot.seat
        asked_at = self._asked.get(snapshot.table.id, {}).get(seat) if seat is not None else None
        if asked_at is None or version < asked_at or interaction.message is None:
            return False
        if move is not None and move not in snapshot.legal_moves:
            return False
        shown = render.shown_private_view(interaction.message.embeds)
        current = render.block_body(snapshot.private or "")
        return shown is not None and shown == current

    async def post_board_here(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """/board: a fresh board message (in the game's thread when used there)."""
        try:
            table = await self.find_table(interaction, game_id, statuses=(RUNNING,), players_only=False)
            snapshot = await self.referee.snapshot(table.id)  # the spectator's: the public board
        except GameError as error:
            await reply(interaction, str(error))
            return
        table = snapshot.table
        game = get_game(table.game)
        async with public_language(self.bot, table.guild_id):  # posted in the thread: the server's
            embeds, files = render.board_embeds(table, game, snapshot.board, board_clocks(snapshot))
        drawn = await board_drawing(self.referee, snapshot)
        if drawn is not None:
            files.append(show(embeds[0], drawn, BOARD_FILE))
        if str(interaction.channel_id) == (table.thread_id or table.channel_id):
            self.forget_board(table.id)
            view = running_board_view(table, snapshot.to_act)
            await interaction.response.send_message(embeds=embeds, files=files, view=view)
        else:
            url = render.thread_url(table)
            await reply(
                interaction, tr("The game is played in {thread}.", thread=url) if url else "", embeds=embeds, files=files
            )

    async def _send_current(self, interaction: discord.Interaction, table_id: int, reason: str) -> None:
        """After a stale click: the reason, the current board and the player's current view."""
        user = str(interaction.user.id)
        try:
            message = await self.private_message(table_id, user, header=reason)
        except GameError as error:
            await reply(interaction, f"{reason}\n{error}")
            return
        table, board = message.snapshot.table, message.snapshot.board
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
        async with public_language(self.bot, table.guild_id):
            done = tr("{player} was skipped by {by}.", player=skipped.name, by=render.mention(user))
        await self.quietly(interaction.edit_original_response(content=done, view=None))
        await self.publish(outbox, interaction=interaction)
        if skipped.user_id and not skipped.forfeited and table.status == RUNNING:
            game = get_game(table.game)
            async with dm_language(self.bot, skipped.user_id, table.guild_id):
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
            tr("Welcome back: you play your own seat again.")
            if outbox.board_changed
            else tr("Nobody plays your seat but you: it is still yours.")
        )
        done = await self.private_message(outbox.table, user, header=header)
        await reply(interaction, done.content, embeds=done.embeds, view=done.view, files=done.files)
        if outbox.board_changed:
            await self.publish(outbox, interaction=interaction, answered=user)
