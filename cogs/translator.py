"""The slash commands in each user's Discord language: discord.py's app-command localisation.

Every command, option and choice text is written as ``locale_str("English")`` (extracted into the
catalogues like ``tr``); at sync, discord.py asks this translator for each text in every Discord
locale, and the payload carries the translations (``description_localizations``,
``name_localizations`` of choices). Discord then shows each user their client's language.

Command and option NAMES stay English in every language: they are what players type and what the
README and the refusals quote (``/play``, ``game:``), and one name everywhere keeps them working.
A choice's name may be made in each language by a function (``locale_str(text, render=...)``), for
a choice whose name is built from parts (a level and what it means).
"""

from __future__ import annotations

from collections.abc import Callable

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation, TranslationContextTypes, locale_str

from engine.i18n import SOURCE, resolve_language, tr, use_language

DESCRIPTION_LIMIT = 100  # a command's, an option's description, and a choice's name
# Names keep their English spelling: localised names would have to pass Discord's name rules and
# stay unique in every language, and players' habits, docs and refusals name them in English.
_NAMES = (
    TranslationContextLocation.command_name,
    TranslationContextLocation.group_name,
    TranslationContextLocation.parameter_name,
)


def translated(string: locale_str, code: str) -> str:
    """The text of ``string`` in the language ``code`` (English when it has no translation)."""
    with use_language(code):
        render: Callable[[], str] | None = string.extras.get("render")
        text = render() if render is not None else tr(string.message)
    return text if len(text) <= DESCRIPTION_LIMIT else text[: DESCRIPTION_LIMIT - 1] + "…"


class CatalogueTranslator(app_commands.Translator):
    """Reads the texts of the commands out of the message catalogues (engine/i18n)."""

    async def translate(
        self, string: locale_str, locale: Locale, context: TranslationContextTypes
    ) -> str | None:
        if context.location in _NAMES:
            return None
        code = resolve_language(locale.value)
        if code is None or code == SOURCE:
            return None
        text = translated(string, code)
        return None if text == translated(string, SOURCE) else text


__all__ = ["DESCRIPTION_LIMIT", "CatalogueTranslator", "translated"]
