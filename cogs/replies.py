"""Answering an interaction ephemerally, whatever state it is in."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord


async def reply(
    interaction: discord.Interaction,
    content: str = "",
    *,
    embeds: Sequence[discord.Embed] = (),
    view: discord.ui.View | None = None,
    files: Sequence[discord.File] = (),
) -> None:
    """Answer ephemerally, whatever state the interaction is in (fresh, deferred, deferred-thinking)."""
    extra: dict[str, Any] = {"view": view} if view is not None else {}
    allowed = discord.AllowedMentions.none()
    if not interaction.response.is_done():
        if view is not None:
            # Our controls are DynamicItems, dispatched by custom id after any restart: nothing
            # needs to listen to this view object, and discord.py would keep a 15-minute timer
            # (and the view) per ephemeral message sent with one. A stopped view is still sent.
            view.stop()
        await interaction.response.send_message(
            content or None,
            embeds=list(embeds),
            files=list(files),
            ephemeral=True,
            allowed_mentions=allowed,
            **extra,
        )
    elif (
        interaction.response.type == discord.InteractionResponseType.deferred_channel_message
        and not interaction.extras.get("thinking_filled")
    ):
        # The "thinking…" message of a deferred slash command is the answer: fill it in once.
        interaction.extras["thinking_filled"] = True
        await interaction.edit_original_response(
            content=content or None,
            embeds=list(embeds),
            attachments=list(files),
            allowed_mentions=allowed,
            view=view,
        )
    else:
        await interaction.followup.send(
            content or (None if embeds else "\u200b"),
            embeds=list(embeds),
            files=list(files),
            ephemeral=True,
            allowed_mentions=allowed,
            **extra,
        )
