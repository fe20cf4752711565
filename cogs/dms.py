"""Private messages: each player's private view (their hand, their moves and the controls to play
them), sent by DM or shown ephemerally, and the memory of whose DMs are closed.

Whether a user's DMs are closed, whether they want a DM at each turn, and whether they are owed
the closed-DMs notice are the referee's user settings (engine/referee/user_settings.py); this room
only sends, and marks a user when Discord says their DMs are closed (error 50007).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import discord

from engine.core import GameError
from engine.games import get_game
from engine.i18n import N_, tr, tr_n
from engine.referee import RUNNING, NotInGame, Referee, SeatSnapshot, Table
from engine.referee.user_settings import UserSettings

from . import render
from .components import move_view
from .language import dm_language
from .pictures import HAND_FILE, hand_drawing, show
from .replies import reply

log = logging.getLogger(__name__)

CANNOT_DM_USER = 50007
DM_CLOSED_NOTICE = N_(
    "I could not send you a DM (your DMs are closed), so I will not try again. Press **Play your turn** "
    "or **Show my hand** on the game's board, or use `/hand`, whenever you need your hand and your moves "
    "(after opening your DMs, `/settings turn-dms enabled:True` makes me try again)."
)


@dataclass
class PrivateMessage:
    """One seat's private view, ready to send by DM or ephemerally (``files``: the whole view,
    when it is too long for the embed, and the hand's picture shown in the embed)."""

    content: str
    embeds: list[discord.Embed]
    view: discord.ui.View | None
    snapshot: SeatSnapshot  # what it was made from: the table, board and clocks of the same version
    files: list[discord.File] = field(default_factory=list)


class DmRoom:
    """The GameDesk's private messages (cogs/desk.py composes the rooms); it uses no other room."""

    bot: discord.Client
    referee: Referee
    settings: UserSettings

    async def private_message(
        self,
        table: Table | int | SeatSnapshot,
        user_id: str,
        *,
        header: str = "",
        log_lines: Sequence[str] = (),
    ) -> PrivateMessage:
        """``user_id``'s private view of the table (or table id) as it is now, or of the snapshot
        of their seat the caller already took. Raises GameError."""
        # One snapshot of the seat: its private view, moves and who is waited for, of one version.
        if isinstance(table, SeatSnapshot):
            snapshot = table
        else:
            snapshot = await self.referee.snapshot(table if isinstance(table, int) else table.id, user_id)
        if snapshot.private is None:
            raise NotInGame(tr("You are not playing in this game."))
        text, table = snapshot.private, snapshot.table
        game = get_game(table.game)
        about = dict(snapshot.moves)
        moves = list(about)
        view, plan = move_view(table.id, table.version, moves, about, hint=snapshot.hints)
        lines = [header] if header else []
        on_turn = table.status == RUNNING and snapshot.seat is not None and snapshot.seat in snapshot.to_act
        if moves and on_turn:
            lines.append(tr("**Your turn.** Choose a move below, or type `/play`."))
        elif moves:
            # Moves a game allows out of turn (such as asking to discard a dead card): optional.
            lines.append(snapshot.waiting_line)
            lines.append(tr("Not your turn, but you may already make one of these moves (or just wait)."))
        elif table.status == RUNNING:
            lines.append(snapshot.waiting_line)
        if moves and plan.left_out:
            lines.append(
                tr_n(
                    "{n} more move can be played with `/play` (autocomplete lists it).",
                    "{n} more moves can be played with `/play` (autocomplete lists them).",
                    plan.left_out,
                )
            )
        embed = render.private_embed(table, game, text, log_lines)
        files = render.private_files(table, game, text, log_lines)
        drawn = await hand_drawing(self.referee, snapshot, user_id)
        if drawn is not None:
            files.append(show(embed, drawn, HAND_FILE))  # the hand's picture, in the same message
        return PrivateMessage("\n".join(line for line in lines if line), [embed], view, snapshot, files)

    async def seats_to_act(self, table: Table) -> tuple[int, ...]:
        return await self.referee.to_act(table.id)

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
        log_lines: Sequence[str] | Callable[[], Sequence[str]],
        *,
        header: str = "",
        view: discord.ui.View | None = None,
    ) -> bool:
        """DM one player their private view; False (and remembered) when their DMs are closed.
        In the player's language (cogs/language.py: a DM has no client locale to read), the
        ``log_lines`` too when given as a function (written once that language is set)."""
        async with dm_language(self.bot, user_id, table.guild_id):
            lines = log_lines() if callable(log_lines) else log_lines
            return await self._send_dm(table, user_id, lines, header=header, view=view)

    async def _send_dm(
        self,
        table: Table,
        user_id: str,
        log_lines: Sequence[str],
        *,
        header: str,
        view: discord.ui.View | None,
    ) -> bool:
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
            text = tr(
                "Turn DMs on: at each of your turns your hand and your moves come by DM too "
                "(the board still pings you)."
            )
        else:
            text = tr(
                "Turn DMs off: the game's board pings you when it is your turn; press **Play your turn** "
                "there. Your hand still comes by DM when someone else's move changes it."
            )
        await reply(interaction, text)
