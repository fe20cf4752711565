"""``python -m pictures`` writes the board, one picture per seat, and the result once the game
has ended; the result picture marks the winners and every seat's score."""

from __future__ import annotations

import io

from PIL import Image

from engine.core import Outcome
from engine.pictures.result import draw_result
from pictures.__main__ import main


def test_writes_board_and_seats_mid_game(tmp_path, capsys):
    assert main(["--game", "vegetables", "--seed", "3", "--after", "20", "--players", "5", "--option", "house_variant=true", "--out", str(tmp_path)]) == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == ["board.png", *(f"seat-{seat}.png" for seat in range(1, 6))]
    for path in tmp_path.iterdir():
        assert Image.open(path).format == "PNG"
    assert "20 moves" in capsys.readouterr().out


def test_writes_the_result_when_the_game_has_ended(tmp_path):
    assert main(["--game", "orchard", "--seed", "2", "--after", "100000", "--players", "2", "--out", str(tmp_path)]) == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == ["board.png", "result.png", "seat-1.png", "seat-2.png"]


def test_result_picture_marks_winners_scores_and_teams():
    outcome = Outcome(scores=[12.0, 30.0, 30.0, 5.0], ranks=[3, 1, 1, 4], teams=[[0, 2], [1, 3]])
    picture = draw_result(["Ann", "Ben", "Cy", "Di"], outcome, [[0, 0, 0, 0], [5, 10, 12, 1], [12, 30, 30, 5]])
    assert picture.labels("winner") == ["Ben", "Cy"]
    assert picture.labels("seat") == ["1", "2", "0", "3"]  # by rank, then play order
    assert picture.labels("score") == ["1:30", "2:30", "0:12", "3:5"]
    assert picture.labels("team") == ["0,2", "1,3"]
    assert len(picture.labels("line")) == 4
    assert Image.open(io.BytesIO(picture.png)).size == (picture.width, picture.height) and picture.width <= 800
