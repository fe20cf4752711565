"""Pictures on Discord: the board, a hand, the result and a rating chart, each shown inside the
embed that holds its text, in the same message create or edit as that text.

The picture rides as an attachment of the message the desk sends anyway, and the embed shows it
(``embed.set_image(url="attachment://board.png")``): no REST call is added, and the text stays in
the embed, so screen readers, search and notifications lose nothing; the attachment's
description (its alt text) is that text too, cut to 1,024 characters. (Components V2 would show
the picture larger, but a V2 message has no content and no embeds: the board's pings, its
live clock timestamps, its footer and every reader of the embeds would have to change, for the
same one request.)

Drawing happens off the event loop in the referee's picture service
(engine/referee/pictures.py). Whether a picture is shown is decided here: a server with pictures
off (``/settings server-pictures``) gets text only everywhere; a player with pictures off
(``/settings pictures``) gets text only in their own private views.
"""

from __future__ import annotations

import io

import discord

from engine.core import GameError
from engine.i18n import tr
from engine.referee import Referee, SeatSnapshot, Table
from engine.referee.pictures import Drawing

from .lobby import refuse_server_setting
from .replies import reply

BOARD_FILE = "board.png"
HAND_FILE = "hand.png"
RESULT_FILE = "result.png"
RATING_FILE = "rating.png"


def show(embed: discord.Embed, drawing: Drawing, filename: str) -> discord.File:
    """Show ``drawing`` in ``embed``; returns the attachment to send in the same message (a new
    file each time: a sent file is consumed)."""
    embed.set_image(url=f"attachment://{filename}")
    return discord.File(io.BytesIO(drawing.picture.png), filename=filename, description=drawing.alt)


async def pictures_allowed(referee: Referee, table: Table, user_id: str | None = None) -> bool:
    """Whether pictures go with this table's messages (``user_id``: a private view of theirs)."""
    if not await referee.server_settings.pictures(table.guild_id):
        return False
    return user_id is None or await referee.user_settings.wants_pictures(user_id)


async def board_drawing(referee: Referee, snapshot: SeatSnapshot) -> Drawing | None:
    """The public board's picture, unless the server turned pictures off."""
    if not await pictures_allowed(referee, snapshot.table):
        return None
    return await referee.pictures.board(snapshot)


async def hand_drawing(referee: Referee, snapshot: SeatSnapshot, user_id: str) -> Drawing | None:
    """The picture of ``user_id``'s hand, unless they or their server turned pictures off."""
    if snapshot.seat_view is None or not await pictures_allowed(referee, snapshot.table, user_id):
        return None
    return await referee.pictures.hand(snapshot)


async def result_drawing(referee: Referee, snapshot: SeatSnapshot) -> Drawing | None:
    """The result picture of a finished game, unless the server turned pictures off."""
    if snapshot.outcome is None or not await pictures_allowed(referee, snapshot.table):
        return None
    try:
        record = await referee.record(snapshot.table.id)
    except GameError:
        return None
    return await referee.pictures.result(snapshot, record)


async def rating_drawing(referee: Referee, guild_id: str | None, user_id: str, name: str) -> Drawing | None:
    """A player's rating chart in a server, unless the server turned pictures off."""
    if guild_id is None or not await referee.server_settings.pictures(guild_id):
        return None
    changes = await referee.rating_events(guild_id=guild_id, user_id=user_id)
    return await referee.pictures.rating_chart(name, changes)


async def set_user_pictures(referee: Referee, interaction: discord.Interaction, enabled: bool) -> None:
    """/settings pictures: a picture of your hand in your own private views, or text only."""
    await referee.user_settings.set_pictures(str(interaction.user.id), enabled)
    if enabled:
        text = tr("Pictures on: your hand comes with a picture in your private views (when the server shows pictures).")
    else:
        text = tr("Pictures off: your private views show your hand as text only. Public boards are the server's choice.")
    await reply(interaction, text)


async def set_server_pictures(
    referee: Referee, interaction: discord.Interaction, enabled: bool, *, manager: bool
) -> None:
    """/settings server-pictures (Manage Server): pictures with every board, hand and result of
    this server's games, or text only."""
    if await refuse_server_setting(interaction, manager, tr("Only members with Manage Server can turn this server's pictures on or off.")):
        return
    await referee.server_settings.set_pictures(str(interaction.guild_id), enabled)
    if enabled:
        text = tr("Pictures on: boards, hands and results in this server come with a picture beside their text.")
    else:
        text = tr("Pictures off: boards, hands and results in this server are text only.")
    await reply(interaction, text)
