"""Every text of the Discord front end fits Discord's limits in every language.

- Each message of cogs/ (and bot.py), in every translation, with every field filled by a
  40-character value (longer than Discord's 32-character names), fits the limit of where it is
  shown: a button's label (80), a select's placeholder or option (100), an embed's title or a
  field's name (256), and anything else a field's value (1,024); a number field holds six digits. (The slash commands' texts are
  checked against their 100 characters in tests/discord/test_languages.py.)
- The whole games at their largest of tests/discord/test_message_limits.py, rendered through
  cogs/render.py and cogs/layout.py in each language with 32-character names, stay within every
  limit.
"""

from __future__ import annotations

import string
from typing import Any

import pytest

from engine.i18n import CODES, tr, tr_ctx, tr_ctx_n, tr_n, use_language
from tools.messages import extract

from .test_message_limits import LARGEST, test_every_message_of_a_game_at_its_largest_fits_discord

FILLER = "W" * 40
# Fields that hold a number: a 6-digit one (the rest are names, moves, links, lists: 40 characters).
NUMBERS = {"count", "default", "first", "games", "high", "last", "low", "number", "page", "pages", "total", "version", "wins"}
BUTTON, SELECT, TITLE, FIELD = 80, 100, 256, 1024
LIMITS = {"button": BUTTON, "select": SELECT, "embed": TITLE}
# Messages shown as an embed's title, a field's name or a footer's first part (by their English).
TITLES = {
    "{game}: lobby",
    "{game}: started",
    "{game}: cancelled",
    "{game}: rules",
    "{game}: leaderboard",
    "{player}: stats",
    "{season} is over: final standings",
    "Rating changes",
    "Recent games",
    "Final scores",
    "Seats ({count}; {players})",
    "Rules by player count",
    "Abandon by vote",
    "Game thread",
    "Writing moves (/play)",
    "Writing moves (continued)",
    "Options (/game new ... options: NAME=VALUE)",
    "High scores with AI seats",
    "Solo high scores",
    "Your turn in {n} game",
}


def front_end_messages() -> list[Any]:
    return [
        message
        for message in extract()
        if message.id and any(path.startswith(("cogs/", "bot.py")) for path, _ in message.locations)
    ]


def filled(message: Any) -> str:
    """The message in the current language, every field a 40-character value."""
    ids = message.id if isinstance(message.id, tuple) else (message.id,)
    fields = {
        name: "999999" if name in NUMBERS else FILLER
        for text in ids
        for _, name, _, _ in string.Formatter().parse(text)
        if name and name != "n"
    }
    if len(ids) > 1:
        n = 99_999
        if message.context:
            return tr_ctx_n(message.context, ids[0], ids[1], n, **fields)
        return tr_n(ids[0], ids[1], n, **fields)
    if message.context:
        return tr_ctx(message.context, ids[0], **fields)
    return tr(ids[0], **fields)


def limit_of(message: Any) -> int:
    first = message.id[0] if isinstance(message.id, tuple) else message.id
    if message.context in LIMITS:
        return LIMITS[message.context]
    return TITLE if first in TITLES else FIELD


@pytest.mark.parametrize("code", CODES)
def test_every_message_of_the_front_end_fits_where_it_is_shown(code: str) -> None:
    messages = front_end_messages()
    assert len(messages) > 250
    too_long = []
    with use_language(code):
        for message in messages:
            text = filled(message)
            if len(text) > limit_of(message):
                too_long.append((len(text), limit_of(message), text[:80]))
    assert not too_long, too_long


@pytest.mark.parametrize("code", [code for code in CODES if code != "en"])
@pytest.mark.parametrize(("name", "players", "options", "seeds"), LARGEST, ids=[row[0] for row in LARGEST])
async def test_every_message_of_a_game_at_its_largest_fits_discord_in_every_language(
    code: str, name: str, players: int, options: dict[str, Any], seeds: int
) -> None:
    with use_language(code):
        await test_every_message_of_a_game_at_its_largest_fits_discord(name, players, options, 1)
