"""Pictures for the front ends (engine/referee/pictures.py): drawn from the snapshot in a worker
thread, cached by table, version and seat, never failing a board; the result picture replayed
from the public views (engine/referee/score_history.py), and the rating chart."""

from __future__ import annotations

import asyncio
import io
import logging
import threading

import pytest
from PIL import Image

from engine.core import Outcome
from engine.games import get_game
from engine.pictures.charts import rating_chart
from engine.pictures.result import draw_result
from engine.referee import Rating, RatingChange, Referee
from engine.referee import pictures as pictures_module
from engine.referee.pictures import ALT_LIMIT, Pictures, alt_text
from engine.referee.score_history import score_history

from .. import picture_drawer
from ..registered import registered_game
from .helpers import MONDAY, ManualClock, open_referee

MAX_PNG = 300_000


@pytest.fixture
def sprint(monkeypatch: pytest.MonkeyPatch):
    yield from registered_game(monkeypatch, "sprint", "tests.discord.sprint")


@pytest.fixture
async def referee(tmp_path):
    ref = await open_referee(tmp_path / "pictures.sqlite3", ManualClock(MONDAY))
    yield ref
    ref.pictures.close()
    await ref.store.close()


async def sprint_table(referee: Referee, *, finish: bool = False, **options) -> int:
    table = await referee.create_table("sprint", "alice", "Alice", options=options)
    await referee.join(table.id, "bob", "Bob")
    await referee.start(table.id, "alice", seed=11)
    while finish:
        snapshot = await referee.snapshot(table.id)
        if snapshot.is_over:
            break
        user = snapshot.table.seats[snapshot.to_act[0]].user_id
        mine = await referee.snapshot(table.id, user)
        await referee.play(table.id, user, mine.legal_moves[-1])
    return table.id


def image_size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


async def test_a_game_without_a_drawer_gets_no_picture(referee, sprint):
    table_id = await sprint_table(referee)
    snapshot = await referee.snapshot(table_id, "alice")
    assert await referee.pictures.board(snapshot) is None
    assert await referee.pictures.hand(snapshot) is None


async def test_board_and_hand_are_drawn_from_the_snapshot_in_a_worker_thread(referee, sprint, monkeypatch):
    picture_drawer.drawing(monkeypatch, sprint)
    threads = []
    draw_board = picture_drawer.draw_board
    monkeypatch.setattr(
        picture_drawer,
        "draw_board",
        lambda view, names: threads.append(threading.current_thread()) or draw_board(view, names),
    )
    table_id = await sprint_table(referee)
    alice = await referee.snapshot(table_id, "alice")
    board = await referee.pictures.board(alice)
    hand = await referee.pictures.hand(alice)
    assert threads and threads[0] is not threading.main_thread()
    assert board.picture.labels("seat") == ["Alice", "Bob"]
    assert hand.picture.labels("card") == alice.seat_view["hand"]
    assert board.alt == alice.board.strip() and hand.alt == alice.private.strip()
    assert image_size(board.picture.png) == (board.picture.width, board.picture.height)
    # A spectator has a board and no hand.
    assert await referee.pictures.hand(await referee.snapshot(table_id)) is None


async def test_a_version_is_drawn_once_however_many_ask_at_once(referee, sprint, monkeypatch):
    picture_drawer.drawing(monkeypatch, sprint)
    table_id = await sprint_table(referee)
    spectator = await referee.snapshot(table_id)
    alice = await referee.snapshot(table_id, "alice")
    first, *others = await asyncio.gather(*(referee.pictures.board(s) for s in [spectator, alice, spectator]))
    assert all(other.picture is first.picture for other in others)
    await referee.pictures.hand(alice)
    await referee.pictures.hand(alice)
    assert picture_drawer.DRAWS == ["board", "hand"]
    # The next version is a new picture.
    await referee.play(table_id, "alice", alice.legal_moves[0])
    await referee.pictures.board(await referee.snapshot(table_id))
    assert picture_drawer.DRAWS == ["board", "hand", "board"]


async def test_a_drawer_that_fails_leaves_the_text_alone(referee, sprint, monkeypatch, caplog):
    picture_drawer.drawing(monkeypatch, sprint)

    def broken(view, names):
        raise ValueError("no ink")

    monkeypatch.setattr(picture_drawer, "draw_board", broken)
    table_id = await sprint_table(referee)
    with caplog.at_level(logging.ERROR):
        assert await referee.pictures.board(await referee.snapshot(table_id)) is None
    assert "drawing failed" in caplog.text


def test_alt_text_keeps_within_discords_limit_and_cuts_at_a_line():
    assert alt_text("  short board \n") == "short board"
    long = "\n".join(f"row {n:04d} " + "x" * 40 for n in range(100))
    cut = alt_text(long)
    assert len(cut) <= ALT_LIMIT and cut.endswith("…") and long.startswith(cut[:-1])
    assert cut[:-1].endswith("x" * 40)  # whole lines only


async def test_the_score_history_is_replayed_from_the_public_views_to_the_final_scores(referee, sprint):
    table_id = await sprint_table(referee, finish=True, rounds=3)
    record = await referee.record(table_id)
    history = score_history(record)
    outcome = await referee.outcome(table_id)
    assert len(history) == len(record.moves) + 1
    assert history[0] == [0.0, 0.0] and history[-1] == outcome.scores
    assert all(len(scores) == 2 for scores in history)


async def test_a_game_whose_board_shows_no_score_has_no_history(referee, toy_game):
    table = await referee.create_table("nim", "alice", "Alice", options={"tokens": 3})
    await referee.join(table.id, "bob", "Bob")
    await referee.start(table.id, "alice", seed=3)
    await referee.play(table.id, "alice", "take 3")
    assert score_history(await referee.record(table.id)) == []


async def test_the_result_picture_comes_with_the_final_scores_in_its_alt_text(referee, sprint, monkeypatch):
    picture_drawer.drawing(monkeypatch, sprint)
    table_id = await sprint_table(referee, finish=True)
    snapshot = await referee.snapshot(table_id)
    drawing = await referee.pictures.result(snapshot, await referee.record(table_id))
    winners = [snapshot.table.names[seat] for seat in snapshot.outcome.winners]
    winner = winners[0]
    assert drawing.picture.labels("winner") == winners
    assert drawing.picture.labels("line") == ["0", "1"]
    assert f"{winner}: " in drawing.alt and "(winner)" in drawing.alt and len(drawing.alt) <= ALT_LIMIT
    # Not over: no result.
    running = await sprint_table(referee)
    assert (
        await referee.pictures.result(await referee.snapshot(running), await referee.record(table_id)) is None
    )


def inside(box, picture) -> bool:
    left, top, right, bottom = box
    return 0 <= left < right <= picture.width and 0 <= top < bottom <= picture.height


def readable_on_a_phone(picture) -> bool:
    """At most 640 wide (a phone shows it 400 wide) and no text under 13 pixels high."""
    texts = [mark for mark in picture.marks if mark.kind != "line"]
    return picture.width <= 640 and all(mark.box[3] - mark.box[1] >= 13 for mark in texts)


def test_the_result_picture_names_every_seat_its_score_the_winners_and_the_teams():
    names = ["Ann", "Ben", "Cy", "Di"]
    outcome = Outcome(
        scores=[31, 16, 31, 16], ranks=[1, 3, 1, 3], teams=[[0, 2], [1, 3]], seating=[1, 2, 3, 0]
    )
    history = [[float(n), n / 2, float(n), n / 2] for n in range(32)]
    picture = draw_result(names, outcome, history)
    # Ranked, and in play order within a rank.
    assert picture.labels("seat") == ["2", "0", "1", "3"]
    assert picture.labels("score") == ["2:31", "0:31", "1:16", "3:16"]
    assert picture.labels("winner") == ["Cy", "Ann"]
    assert picture.labels("team") == ["0,2", "1,3"]
    assert picture.labels("line") == ["1", "2", "3", "0"]  # one line per seat, in play order
    assert picture.labels("value") == ["Ben / Di 15.5", "Cy / Ann 31"]  # ties share their label
    assert all(inside(mark.box, picture) for mark in picture.marks)
    assert readable_on_a_phone(picture)
    assert image_size(picture.png) == (picture.width, picture.height) and len(picture.png) < MAX_PNG
    # A long name is cut in the picture (the alt text has it whole), never drawn outside it.
    teams = [[0, 2], [1, 3]]
    long = draw_result(
        ["W" * 32, "M" * 32, "W" * 32, "M" * 32],
        Outcome(scores=[3, 1, 3, 1], ranks=[1, 3, 1, 3], teams=teams),
        history[:3],
    )
    assert all(inside(mark.box, long) for mark in long.marks) and readable_on_a_phone(long)
    boxes = {mark.kind: mark.box for mark in long.marks[:5] if mark.kind in ("seat", "score")}
    assert boxes["seat"][2] < boxes["score"][0]  # the name stops before its score
    # Without a history (a board with no running score) the scores stand alone.
    plain = draw_result(names, Outcome(scores=[1, 0, 0, 0], ranks=[1, 2, 2, 2]), [])
    assert plain.labels("line") == [] and plain.labels("winner") == ["Ann"] and plain.height < picture.height
    assert draw_result(names, outcome, [[], []]).labels("line") == []  # rows without every seat: no chart


def test_the_rating_chart_has_one_line_per_game_ending_at_the_latest_rating():
    picture = rating_chart("Ann", {"Figures": [0.0, 2.5, 1.25], "Granja": [0.0, -1.0]})
    assert picture.labels("title") == ["Ann"]
    assert picture.labels("line") == ["Figures", "Granja"]
    assert sorted(picture.labels("value")) == ["Figures 1.2", "Granja -1"]
    assert all(inside(mark.box, picture) for mark in picture.marks) and readable_on_a_phone(picture)
    assert len(picture.png) < MAX_PNG
    assert rating_chart("Ann", {}).labels("empty") == ["No rated games yet."]


async def test_the_rating_chart_follows_the_stored_changes_game_by_game():
    def change(game: str, before: float, after: float) -> RatingChange:
        return RatingChange(
            user_id="u1",
            name="Ann",
            guild_id="g1",
            game=game,
            rank=1,
            games=1,
            before=Rating(mu=before + 3, sigma=1.0),
            after=Rating(mu=after + 3, sigma=1.0),
        )

    pictures = Pictures()
    try:
        changes = [change("figures", 0, 2), change("orchard", 0, -1), change("figures", 2, 5)]
        drawing = await pictures.rating_chart("Ann", changes)
        titles = [get_game("figures").title, get_game("orchard").title]
        assert drawing.picture.labels("line") == titles
        assert sorted(drawing.picture.labels("value")) == sorted([f"{titles[0]} 5", f"{titles[1]} -1"])
        assert "Ann's rating over time" in drawing.alt and len(drawing.alt) <= ALT_LIMIT
        assert await pictures.rating_chart("Ann", []) is None
    finally:
        pictures.close()


async def test_a_hand_never_waits_behind_a_result_chart(referee, sprint, monkeypatch):
    """Boards and hands have their own worker: a slow chart does not hold them up."""
    picture_drawer.drawing(monkeypatch, sprint)
    finished = await sprint_table(referee, finish=True)
    record = await referee.record(finished)
    release = threading.Event()
    real = pictures_module._draw_result

    def slow_result(*args):
        release.wait(10)
        return real(*args)

    monkeypatch.setattr(pictures_module, "_draw_result", slow_result)
    result = asyncio.create_task(referee.pictures.result(await referee.snapshot(finished), record))
    await asyncio.sleep(0.05)  # the chart is being drawn
    running = await sprint_table(referee)
    hand = await referee.pictures.hand(await referee.snapshot(running, "alice"))
    assert hand is not None and not result.done()
    release.set()
    assert (await result).picture.labels("winner")
