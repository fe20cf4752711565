"""The README's games table says what exists: every registered game, its title and player counts."""

from __future__ import annotations

import re
from pathlib import Path

from engine.games import REGISTRY, get_game

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def games_table() -> dict[str, tuple[str, str]]:
    section = README[README.index("| name | title | players |") :]
    section = section[: section.index("\n\n")]
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+) \| ([^|]+) \|", section, re.MULTILINE)
    return {name: (title.strip(), players.strip()) for name, title, players in rows}


def test_the_games_table_lists_every_registered_game() -> None:
    table = games_table()
    assert set(table) == set(REGISTRY)
    for name, (title, players) in table.items():
        game = get_game(name)
        assert title == game.title
        counts = re.findall(r"\d+", players)
        assert str(game.min_players) in counts and str(game.max_players) in counts, name
    assert "planned" not in README
