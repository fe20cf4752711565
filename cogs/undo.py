"""The desk's undo (engine/referee/undo.py): /undo takes back the player's last move; in a rated
game it posts a request in the game's thread, with **Agree** and **Refuse** buttons for the
other players, and the last agreement takes the move back."""

from __future__ import annotations

import discord

from engine.core import GameError
from engine.i18n import tr
from engine.referee import RUNNING, Referee, Table, UndoReply

from .components import undo_request_view
from .language import public_language
from .publishing import seat_log
from .replies import reply


class UndoRoom:
    """The GameDesk's undo. Of the other rooms it uses ``find_table`` (cogs/desk.py),
    ``private_message`` (cogs/dms.py), ``publish`` and ``send_to_channel`` (cogs/publishing.py)."""

    bot: discord.Client
    referee: Referee

    async def undo_typed(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """/undo: take back your last move (or ask the others, in a rated game)."""
        table = await self.running_game_deferred(interaction, game_id)
        if table is None:
            return
        user = str(interaction.user.id)
        try:
            answer = await self.referee.undo(table.id, user)
        except GameError as error:
            await reply(interaction, str(error))
            return
        if answer.outbox is not None:
            await self._taken_back(interaction, answer, user)
            return
        names = _names(table, answer.waiting_for)
        if answer.already_asked:
            await reply(
                interaction,
                tr("You already asked to take back **{move}**; still waiting for {names}.", move=answer.move, names=names),
            )
            return
        posted = await self._post_request(table, user, answer)
        if posted:
            text = tr(
                "This game is rated: {names} must agree before **{move}** is taken back. "
                "I asked in the game's thread; any move ends the request.",
                names=names, move=answer.move,
            )
        else:
            text = tr(
                "This game is rated: {names} must agree before **{move}** is taken back. I could not post "
                "in the game's thread: ask them there; any move ends the request.",
                names=names, move=answer.move,
            )
        await reply(interaction, text)

    async def answer_undo(self, interaction: discord.Interaction, table_id: int, version: int, agree: bool) -> None:
        """A click on **Agree** or **Refuse** under a request: the request's message shows the
        answer once it is settled, and the one who clicked hears back privately."""
        await interaction.response.defer()
        user = str(interaction.user.id)
        try:
            if not agree:
                await self.referee.refuse_undo(table_id, user, version)
                await reply(interaction, tr("You refused: the move stands."))
                table = await self.referee.table(table_id)
                async with public_language(self.bot, table.guild_id):
                    closing = tr("{player} refused: the move stands.", player=interaction.user.display_name)
                await self._close_request(interaction, closing)
                return
            answer = await self.referee.agree_to_undo(table_id, user, version)
        except GameError as error:
            await reply(interaction, str(error))
            await self._close_if_lapsed(interaction, table_id, version)
            return
        if answer.outbox is None:
            table = await self.referee.table(table_id)
            await reply(interaction, tr("You agreed. Still waiting for {names}.", names=_names(table, answer.waiting_for)))
            return
        await reply(interaction, tr("You agreed: **{move}** is taken back.", move=answer.move))
        async with public_language(self.bot, answer.outbox.table.guild_id):
            closing = tr("Everyone agreed: **{move}** was taken back.", move=answer.move)
        await self._close_request(interaction, closing)
        await self.publish(answer.outbox)

    async def _taken_back(self, interaction: discord.Interaction, answer: UndoReply, user: str) -> None:
        assert answer.outbox is not None
        done = await self.private_message(
            answer.outbox.table, user, header=tr("You took back **{move}**.", move=answer.move), log_lines=seat_log(answer.outbox, user)
        )
        await reply(interaction, done.content, embeds=done.embeds, view=done.view, files=done.files)
        await self.publish(answer.outbox, interaction=interaction, answered=user)

    async def _post_request(self, table: Table, user: str, answer: UndoReply) -> bool:
        assert answer.request is not None
        asker = table.seat_of(user)
        others = [table.seats[index].user_id for index in answer.waiting_for]
        mentions = " ".join(f"<@{other}>" for other in others if other and other.isdigit())
        async with public_language(self.bot, table.guild_id):
            content = tr(
                "{mentions} {player} asks to take back **{move}**. This game is rated, so every other player must agree.",
                mentions=mentions, player=asker.name if asker else tr("A player"), move=answer.move,
            ).strip()
        pinged = [discord.Object(int(other)) for other in others if other and other.isdigit()]
        message = await self.send_to_channel(
            table,
            content=content,
            view=undo_request_view(table.id, answer.request.version),
            allowed_mentions=discord.AllowedMentions(users=pinged),
        )
        return message is not None

    async def _close_if_lapsed(self, interaction: discord.Interaction, table_id: int, version: int) -> None:
        """A click on a request the game has moved past (a move, its end): its message says so and
        loses its buttons, so nobody else clicks them in vain."""
        try:
            table = await self.referee.table(table_id)
        except GameError:
            return
        if table.status == RUNNING and table.version == version:
            return  # still open: the refusal was the clicker's own (not a player, say)
        standing = await self.referee.undo_request_version(table_id)
        if table.status == RUNNING and standing not in (None, version):
            return  # another request stands (the click was not this message's own): leave it
        async with public_language(self.bot, table.guild_id):
            closing = tr("This request has ended: the game moved on.")
        await self._close_request(interaction, closing)

    async def _close_request(self, interaction: discord.Interaction, text: str) -> None:
        """The request's message says how it ended and loses its buttons."""
        message = interaction.message
        content = f"{message.content}\n{text}" if message is not None else text
        try:
            await interaction.edit_original_response(content=content, view=None)
        except discord.HTTPException:
            pass


def _names(table: Table, seats: list[int]) -> str:
    names = [table.seats[index].name for index in seats] or [tr("nobody")]
    if len(names) == 1:
        return names[0]
    return tr("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])
