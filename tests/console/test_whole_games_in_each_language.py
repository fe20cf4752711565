"""A whole game of every game at the local table in every language, with no English left.

Each game is played to its end against easy AI seats, the player taking the first listed move
every time, with the table speaking Italian, Brazilian Portuguese or Japanese. Everything the
terminal showed (boards, hands, listed moves, logs, prompts, refusals, the final scores) is
searched for English words (tests/i18n/english.py); names and move notation are allowed, they are
the same in every language.
"""

from __future__ import annotations

import pytest

from console.session import COMMAND_WORDS, HINT_WORD
from engine.i18n import use_language
from engine.referee import LEVELS
from tests.i18n.english import english_fragments
from tests.i18n.game_texts import notation_words

from .helpers import run_console

GAMES = {"figures": 4, "vegetables": 2, "orchard": 2, "granja": 2}
LANGUAGES = ("it", "pt_BR", "ja")
# The AI seats' names (engine.referee's seating), the local player's, the commands and answers.
NAMES = {"Ada", "Bruno", "Carla", "Dmitri", "Emeka", "kim", "AI", "yes", "no", "png", "FILE", "DIR", "LANG"}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game_name", sorted(GAMES))
async def test_a_whole_game_in_each_language_leaves_no_english(game_name, language, tmp_path):
    players = GAMES[game_name]
    flags = ["--game", game_name, "--players", str(players), "--ai", "easy", "--seed", "3"]
    flags += ["--database", str(tmp_path / "table.sqlite3"), "--name", "kim"]
    with use_language(language):
        code, out, _ = await run_console(flags, ["help", "rules", "board", "zzz", "99"], every_move="1")
    assert code == 0, out[-2000:]
    allowed = NAMES | set(COMMAND_WORDS) | {HINT_WORD, *LEVELS, game_name} | notation_words(game_name, players, 3)
    found = english_fragments(out, language, allowed)
    assert not found, f"English in the {language} table: {found[:30]}"
