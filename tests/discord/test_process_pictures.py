"""bot.py as a real process sends a board's picture in the same request as the board: a multipart
upload whose attachment has the board's text as its description and is shown in the embed."""

from __future__ import annotations

from pathlib import Path

from .fake_discord import FakeDiscord
from .test_process import wait_until
from .test_process_announcements import BOARDS, alice_plays, running_game, setup_workdir, start_bot, stop_bot


async def test_the_board_and_the_hand_go_with_their_picture_in_one_request(
    stand_in: FakeDiscord, tmp_path: Path
) -> None:
    fake = stand_in
    database = setup_workdir(tmp_path)
    await running_game(fake, database)
    process = await start_bot(fake, tmp_path, FAKE_PICTURES="1")
    try:
        await alice_plays(fake)
        await wait_until(lambda: fake.boards(int(BOARDS.split("/")[2])), "the board")
    finally:
        output = await stop_bot(process)
    assert "Traceback" not in output, output
    [board] = [request for request in fake.requests if request.method == "POST" and request.path == BOARDS]
    assert board.files.get("board.png", 0) > 0  # the picture was uploaded with the board
    [attached] = board.body["attachments"]
    assert attached["filename"] == "board.png" and attached["description"].startswith("Scores: alice 3, bob 0")
    assert board.body["embeds"][0]["image"]["url"] == "attachment://board.png"
    # Alice's own answer (the deferred /play, filled in) shows her hand's picture.
    [answer] = [request for request in fake.requests if request.path.endswith("/messages/@original")]
    assert answer.files.get("hand.png", 0) > 0
    assert "Your hand: a01 a02" in answer.body["attachments"][0]["description"]
