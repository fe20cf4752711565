"""Pictures at the local table (console/pictures.py): ``board --png FILE`` saves the board shown,
``--pictures DIR`` every board of the game and the result; a game without a drawer says so."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from .. import picture_drawer
from .helpers import run_console, stored_tables


@pytest.fixture
def database(tmp_path):
    return tmp_path / "local.sqlite3"


def nim_flags(database, *extra: str) -> list[str]:
    return ["--game", "nim", "--database", str(database), "--name", "kim", "--ai", "random", "--seed", "7", *extra]


def png_size(path) -> tuple[int, int]:
    image = Image.open(io.BytesIO(path.read_bytes()))
    assert image.format == "PNG"
    return image.size


async def test_board_png_saves_the_picture_of_the_board_shown(toy_game, database, tmp_path, monkeypatch):
    picture_drawer.drawing(monkeypatch, toy_game)
    target = tmp_path / "my board.png"
    lines = [f'board --png "{target}"', "board --png", "take 1"]
    code, out, _ = await run_console(nim_flags(database), lines)
    assert code == 0
    assert f"Board saved to {target} (320x" in out
    assert png_size(target)[0] == picture_drawer.WIDTH
    assert "Write `board --png FILE`" in out  # the FILE was missing: said how, nothing written
    assert picture_drawer.DRAWS == ["board"]


async def test_a_game_without_pictures_says_so(toy_game, database, tmp_path):
    target = tmp_path / "board.png"
    code, out, _ = await run_console(nim_flags(database), [f"board --png {target}"])
    assert code == 0 and "draws no pictures yet" in out and not target.exists()


async def test_pictures_folder_gets_every_board_and_the_result(toy_game, database, tmp_path, monkeypatch):
    picture_drawer.drawing(monkeypatch, toy_game)
    folder = tmp_path / "shots"
    code, _, _ = await run_console(nim_flags(database, "--pictures", str(folder)), every_move="1")
    assert code == 0
    [(table, moves)] = await stored_tables(database)
    names = sorted(path.name for path in folder.iterdir())
    assert f"game-{table.id}-result.png" in names
    boards = [name for name in names if "-move-" in name]
    # One picture per board shown: the first, then one after each of the player's moves (the AI
    # seat's reply comes with it).
    assert len(boards) >= 2
    assert boards[0] == f"game-{table.id}-move-0000.png"
    assert all(png_size(folder / name)[0] > 0 for name in names)
    assert picture_drawer.DRAWS.count("board") == len(boards)
