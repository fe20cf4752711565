"""``/settings language`` (a player's own language for what only they read) and
``/settings server-language`` (Manage Server: the language of the server's public posts).

The choice "auto" clears it: a player's texts then follow their Discord client's language, a
server's its preferred locale (cogs/language.py). Both are stored through the referee's settings
(migration 0011), so they hold across restarts; the answer is written in the language just chosen.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str

from engine.i18n import LANGUAGES, language_name, tr, use_language
from engine.referee import Referee

from .language import reader_language, server_language
from .lobby import refuse_server_setting
from .replies import reply

AUTO = "auto"
# The languages' own names, as a menu shows them ("Italiano"): the same in every language.
LANGUAGE_CHOICES = [app_commands.Choice(name=locale_str("Auto"), value=AUTO)] + [
    app_commands.Choice(name=language.name, value=language.code) for language in LANGUAGES
]


async def set_user_language(referee: Referee, interaction: discord.Interaction, choice: str) -> None:
    """/settings language: the player's private texts in this language (auto: their client's)."""
    await referee.user_settings.set_language(str(interaction.user.id), None if choice == AUTO else choice)
    with use_language(await reader_language(interaction)) as code:
        if choice == AUTO:
            text = tr(
                "Your replies, hands and DMs now follow your Discord language ({language}).",
                language=language_name(code),
            )
        else:
            text = tr("Your replies, hands and DMs are now in {language}.", language=language_name(code))
        await reply(interaction, text)


async def set_server_language(
    referee: Referee, interaction: discord.Interaction, choice: str, *, manager: bool
) -> None:
    """/settings server-language (Manage Server): boards, threads and announcements of this
    server's games in this language (auto: the server's preferred locale)."""
    if await refuse_server_setting(interaction, manager, tr("Only members with Manage Server can choose this server's language.")):
        return
    await referee.server_settings.set_language(str(interaction.guild_id), None if choice == AUTO else choice)
    code = await server_language(interaction.client, interaction.guild_id)
    with use_language(code):  # said in the language the server's posts now use
        await reply(
            interaction,
            tr(
                "This server's boards, threads and announcements are now in {language}; each player's "
                "own replies follow their language.",
                language=language_name(code),
            ),
        )


__all__ = ["AUTO", "LANGUAGE_CHOICES", "set_server_language", "set_user_language"]
