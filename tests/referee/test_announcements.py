"""The announcement outbox: which tables owe their players a board or a private notice, what to
say about the current position, and the marks, stored beside the game in the same group commit."""

from __future__ import annotations

import asyncio

import pytest

from engine.referee import Referee
from engine.referee.announcements import Announcements

from ..registered import registered_game
from .helpers import MONDAY, ManualClock, open_referee, two_player_nim

pytestmark = pytest.mark.both_backends


@pytest.fixture
def sprint(monkeypatch: pytest.MonkeyPatch):
    yield from registered_game(monkeypatch, "sprint", "tests.discord.sprint")


@pytest.fixture
async def referee(tmp_path) -> Referee:
    referee = await open_referee(tmp_path / "referee.sqlite3", ManualClock(MONDAY))
    yield referee
    await referee.store.close()


def behind(pending) -> dict[int, tuple[int, int, int]]:
    return {p.table_id: (p.version, p.board_version, p.notice_version) for p in pending}


@pytest.mark.usefixtures("toy_game")
async def test_every_move_leaves_its_table_behind_until_it_is_marked_announced(referee: Referee) -> None:
    outbox = Announcements(referee)
    lobby = await referee.create_table("nim", "carol", "Carol")
    first = await two_player_nim(referee)
    assert behind(await outbox.pending()) == {first: (0, -1, -1)}  # the deal itself is owed; no lobby
    await outbox.mark_announced(first, 0)
    assert await outbox.pending() == []
    await referee.play(first, "alice", "take 2")
    await referee.play(first, "bob", "take 1")
    assert behind(await outbox.pending()) == {first: (2, 0, 0)}
    # The board went out but the private notices not yet (and a late, older mark never goes back).
    await outbox.mark_announced(first, 2, notices=False)
    await outbox.mark_announced(first, 1)
    assert behind(await outbox.pending()) == {first: (2, 2, 1)}
    await outbox.mark_announced(first, 2, board=False)
    assert await outbox.pending() == [] and lobby.id not in behind(await outbox.pending())


@pytest.mark.usefixtures("toy_game")
async def test_marks_that_arrive_together_are_all_written(referee: Referee) -> None:
    outbox = Announcements(referee)
    tables = [await two_player_nim(referee, first=f"p{n}", second=f"q{n}") for n in range(5)]
    await asyncio.gather(*(outbox.mark_announced(table, 0) for table in tables))
    assert await outbox.pending() == []
    for table in tables:
        await referee.play(table, f"p{table - 1}", "take 1")
    await asyncio.gather(
        *(outbox.mark_announced(table, 1, board=n % 2 == 0) for n, table in enumerate(tables)),
        *(outbox.mark_announced(table, 1, notices=False) for table in tables[1:2]),
    )
    assert behind(await outbox.pending()) == {tables[3]: (1, 0, 1)}
    # Two marks of one table in the same write: the later version stays, whatever their order.
    await referee.play(tables[0], "q0", "take 1")
    await asyncio.gather(outbox.mark_announced(tables[0], 2), outbox.mark_announced(tables[0], 1))
    assert tables[0] not in behind(await outbox.pending())
    # Read back by a fresh store: the marks are on disk.
    referee.forget_cache()
    assert behind(await Announcements(referee).pending()) == {tables[3]: (1, 0, 1)}


@pytest.mark.postgres_only
@pytest.mark.usefixtures("toy_game")
async def test_postgresql_marks_made_together_share_one_statement(referee: Referee, monkeypatch) -> None:
    """Every published move is marked: on PostgreSQL the marks made while one is on its way go in
    one statement (not one transaction each), and every one of them is written."""
    import asyncpg

    marks: list[str] = []
    execute = asyncpg.Pool.execute

    async def counted(pool, query, *args, **kwargs):
        if "announced_version" in query:
            marks.append(query)
        return await execute(pool, query, *args, **kwargs)

    monkeypatch.setattr(asyncpg.Pool, "execute", counted)
    outbox = Announcements(referee)
    tables = [await two_player_nim(referee, first=f"p{n}", second=f"q{n}") for n in range(20)]
    await asyncio.gather(*(outbox.mark_announced(table, 0) for table in tables))
    assert await outbox.pending() == []
    assert len(marks) <= 2  # the first alone, the others together

@pytest.mark.usefixtures("toy_game")
async def test_a_table_nobody_can_be_told_about_is_marked_until_its_board_goes_out(referee: Referee) -> None:
    outbox = Announcements(referee)
    table = await two_player_nim(referee)
    other = await two_player_nim(referee, first="carol", second="dave")
    await outbox.mark_unreachable(table)
    first_seen = (await outbox.unreachable())[table]
    referee.clock.advance(60)
    await outbox.mark_unreachable(table)  # seen again: the first time stays
    assert await outbox.unreachable() == {table: first_seen}
    assert await outbox.unreachable([other]) == {}
    await outbox.mark_announced(table, 0, board=False)  # notices alone do not reach anyone new
    assert await outbox.unreachable() == {table: first_seen}
    await outbox.mark_announced(table, 0)  # the board was posted
    assert await outbox.unreachable() == {}
    await outbox.mark_unreachable(other)
    await outbox.mark_unreachable(other, False)
    assert await outbox.unreachable() == {}


async def test_the_catch_up_says_the_current_position_and_whose_hand_changed_since(
    referee: Referee, sprint
) -> None:
    table = await referee.create_table("sprint", "alice", "Alice", options={"gifts": "true", "cards": "4"})
    await referee.join(table.id, "bob", "Bob")
    await referee.join(table.id, "carol", "Carol")
    await referee.start(table.id, "alice", seed=1)
    outbox = Announcements(referee)
    # Nothing was ever told: the deal, so every hand.
    assert (await outbox.catch_up(table.id, -1)).private_changed == [0, 1, 2]
    # Version 1: only Alice's hand changed, by her own move (its answer shows it to her).
    await referee.play(table.id, "alice", "play a01")
    assert (await outbox.catch_up(table.id, 0)).private_changed == []
    await referee.play(table.id, "bob", "give b02")  # version 2: Bob gives Carol a card
    caught = await outbox.catch_up(table.id, 1)
    assert caught.to_act == [2] and caught.board_changed and not caught.finished
    assert caught.private_changed == [2]
    assert (await outbox.catch_up(table.id, 0)).private_changed == [2]
    assert (await outbox.catch_up(table.id)).private_changed == []  # notices not asked for
    # A finished game: its final outcome and stored result.
    for user, move in (
        ("carol", "play c01"),
        ("alice", "play a02"),
        ("bob", "play b01"),
        ("carol", "play c02"),
    ):
        await referee.play(table.id, user, move)
    over = await outbox.catch_up(table.id, 6)
    assert over.finished and over.to_act == [] and over.outcome is not None and over.result is not None


@pytest.mark.usefixtures("toy_game")
async def test_a_game_abandoned_by_vote_owes_its_end_until_it_is_announced(referee: Referee) -> None:
    """The abandon ends the game without a move (the version stays): its own commit lowers the
    board mark, so a crash before the board still leaves the end to tell (migration 0012)."""
    outbox = Announcements(referee)
    cancelled = await referee.create_table("nim", "carol", "Carol")
    await referee.cancel(cancelled.id, "carol")  # a lobby cancelled before it started: nothing owed
    table = await two_player_nim(referee)
    await referee.play(table, "alice", "take 2")
    await outbox.mark_announced(table, 1)
    assert await outbox.pending() == []
    await referee.vote_abandon(table, "alice")
    assert await outbox.pending() == []  # a vote that does not decide changes only the board
    await referee.vote_abandon(table, "bob")
    assert behind(await outbox.pending()) == {table: (1, 0, 1)}
    told = await outbox.catch_up(table)
    assert told.finished and told.result is not None and not told.result.rated
    assert told.public_log == ["The players voted to abandon the game: it ends here, unrated."]
    await outbox.mark_announced(table, 1)
    assert await outbox.pending() == []
