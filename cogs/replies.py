"""Answering an interaction ephemerally, whatever state it is in, and always within Discord's
limits: the last guard, whatever the text (a refusal quoting a player, a long list) came to."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import discord

from .render import CONTENT_LIMIT, DESCRIPTION_LIMIT, EMBEDS_LIMIT, FIELD_LIMIT, clip, embeds_total

TITLE_LIMIT = 256  # an embed's title, a field's name, an author's name
FOOTER_LIMIT = 2048
FIELDS_LIMIT = 25  # fields in one embed
EMBEDS_PER_MESSAGE = 10


async def reply(
    interaction: discord.Interaction,
    content: str = "",
    *,
    embeds: Sequence[discord.Embed] = (),
    view: discord.ui.View | None = None,
    files: Sequence[discord.File] = (),
) -> None:
    """Answer ephemerally, whatever state the interaction is in (fresh, deferred, deferred-thinking)."""
    content, embeds = fit_limits(content, embeds)
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


def fit_limits(content: str, embeds: Sequence[discord.Embed]) -> tuple[str, list[discord.Embed]]:
    """The content and embeds cut to Discord's limits (2,000 characters of content; each embed's
    parts, and 6,000 characters for all of them): what fits already is passed on unchanged."""
    content = clip(content, CONTENT_LIMIT)
    fitted = [_fit_embed(embed) for embed in list(embeds)[:EMBEDS_PER_MESSAGE]]
    while fitted and embeds_total(fitted) > EMBEDS_LIMIT:
        last = fitted[-1] = copy.deepcopy(fitted[-1])  # the caller's embed is left as it was
        excess = embeds_total(fitted) - EMBEDS_LIMIT
        if last.fields:
            last.remove_field(len(last.fields) - 1)
        elif len(last.description or "") > excess:
            last.description = clip(last.description or "", len(last.description or "") - excess)
        else:
            fitted.pop()
    return content, fitted


def _fit_embed(embed: discord.Embed) -> discord.Embed:
    fits = (
        len(embed.title or "") <= TITLE_LIMIT
        and len(embed.description or "") <= DESCRIPTION_LIMIT
        and len(embed.fields) <= FIELDS_LIMIT
        and all(len(f.name or "") <= TITLE_LIMIT and len(f.value or "") <= FIELD_LIMIT for f in embed.fields)
        and len(embed.footer.text or "") <= FOOTER_LIMIT
        and len(embed.author.name or "") <= TITLE_LIMIT
    )
    if fits and embeds_total([embed]) <= EMBEDS_LIMIT:
        return embed
    embed = copy.deepcopy(embed)  # the caller's embed is left as it was (Embed.copy shares fields)
    if embed.title:
        embed.title = clip(embed.title, TITLE_LIMIT)
    if embed.description:
        embed.description = clip(embed.description, DESCRIPTION_LIMIT)
    fields = embed.fields[:FIELDS_LIMIT]
    embed.clear_fields()
    for f in fields:
        embed.add_field(name=clip(f.name or "", TITLE_LIMIT), value=clip(f.value or "", FIELD_LIMIT), inline=bool(f.inline))
    if embed.footer.text:
        embed.set_footer(text=clip(embed.footer.text, FOOTER_LIMIT), icon_url=embed.footer.icon_url)
    if embed.author.name:
        embed.set_author(name=clip(embed.author.name, TITLE_LIMIT), url=embed.author.url, icon_url=embed.author.icon_url)
    return embed
