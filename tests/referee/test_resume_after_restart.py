"""Which running games a restart resumes, found without loading any: ``needs_resume`` is stored with
every change of state or of who plays a seat, so it is set at rest only where a call was cut short
between two of the referee's own moves (an AI or skipped seat to act, or an automatic move)."""

from __future__ import annotations

import pytest

from engine.core import ai
from engine.referee import Outbox, Referee
from tests.toy_game import Nim, Take

from .helpers import HOUR, ManualClock, open_referee, two_player_nim

pytestmark = pytest.mark.usefixtures("toy_game")


class Crash(Exception):
    """The process dies here (nothing after it runs)."""


@pytest.fixture
def ai_crashes(monkeypatch: pytest.MonkeyPatch):
    """Make every AI die while thinking; undo() lets the next process think again."""

    def choose(self, game, state, seat, rng):
        raise Crash()

    monkeypatch.setattr(ai.RandomPlayer, "choose", choose)
    return monkeypatch


@pytest.fixture
def forced_last_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nim with an automatic move: the last token, when it is all that is left, is taken for you."""
    monkeypatch.setattr(Nim, "automatic_move", lambda self, state, seat: Take(1) if state.tokens == 1 else None)


async def table_with_ai(referee: Referee, tokens: int = 10) -> int:
    table = await referee.create_table("nim", "alice", "Alice", options={"tokens": tokens}, guild_id="g1")
    await referee.add_ai(table.id, "alice", "random")
    await referee.start(table.id, "alice", seed=1)
    await referee.set_links(table.id, thread_id="t1")
    return table.id


async def alice_moved_and_the_ai_died(path, clock: ManualClock) -> tuple[Referee, int]:
    """A table against the AI on ``path``; Alice's move is stored, then the AI dies while thinking
    (with the ``ai_crashes`` fixture): the referee and the table id."""
    referee = await open_referee(path, clock)
    table_id = await table_with_ai(referee)
    with pytest.raises(Crash):
        await referee.play(table_id, "alice", "take 1")  # stored; the AI's answer never comes
    return referee, table_id


async def restarted(referee: Referee, path, clock: ManualClock) -> Referee:
    await referee.store.close()
    return await open_referee(path, clock)


async def restart_and_resume(referee: Referee, path, clock: ManualClock, table_id: int) -> tuple[Referee, Outbox]:
    """Restart; the table, and only it, is found to resume; resume it, after which nothing is left."""
    referee = await restarted(referee, path, clock)
    assert await referee.tables_to_resume() == [table_id]
    outbox = await referee.resume(table_id)
    assert await referee.tables_to_resume() == []
    return referee, outbox


async def restart_with_nothing_to_resume(referee: Referee, path, clock: ManualClock) -> None:
    """Restart once more: no table is left to resume (then the store is closed)."""
    referee = await restarted(referee, path, clock)
    assert await referee.tables_to_resume() == []
    await referee.store.close()


async def test_games_at_rest_are_not_resumed_and_nothing_is_loaded_to_know_it(tmp_path, clock):
    path = tmp_path / "rest.sqlite3"
    referee = await open_referee(path, clock)
    with_ai = await table_with_ai(referee)
    await referee.play(with_ai, "alice", "take 1")  # the AI answered at once
    humans = await two_player_nim(referee)
    await referee.set_links(humans, thread_id="t2")
    unthreaded = await two_player_nim(referee, first="carol", second="dave")
    referee = await restarted(referee, path, clock)
    assert await referee.tables_to_resume() == [unthreaded]  # its start stopped before its thread
    assert referee._tables.cache == {}
    await referee.store.close()


async def test_an_ai_cut_short_while_thinking_is_resumed_after_the_restart(tmp_path, clock, ai_crashes):
    path = tmp_path / "ai.sqlite3"
    referee, table_id = await alice_moved_and_the_ai_died(path, clock)
    ai_crashes.undo()
    referee, outbox = await restart_and_resume(referee, path, clock, table_id)
    assert outbox.moves_applied == 1 and outbox.to_act == [0]
    await restart_with_nothing_to_resume(referee, path, clock)


async def test_an_ai_seat_to_act_first_is_resumed_if_the_start_was_cut_short(tmp_path, clock, ai_crashes):
    path = tmp_path / "start.sqlite3"
    referee = await open_referee(path, clock)
    table = await referee.create_table("nim", "alice", "Alice", host_takes_seat=False)
    await referee.add_ai(table.id, "alice", "random")
    await referee.join(table.id, "bob", "Bob")
    with pytest.raises(Crash):
        await referee.start(table.id, "alice", seed=1)
    ai_crashes.undo()
    await referee.set_links(table.id, thread_id="t1")
    referee, outbox = await restart_and_resume(referee, path, clock, table.id)
    assert outbox.to_act == [1]
    await referee.store.close()


async def test_a_skipped_seat_to_act_is_resumed_if_the_takeover_was_cut_short(tmp_path, clock, ai_crashes):
    path = tmp_path / "skip.sqlite3"
    referee = await open_referee(path, clock)
    table_id = await two_player_nim(referee, tokens=30)
    await referee.set_links(table_id, thread_id="t1")
    clock.advance(36 * HOUR)
    with pytest.raises(Crash):
        await referee.skip(table_id, "bob", 0)  # stored; the AI never plays for Alice
    ai_crashes.undo()
    referee, outbox = await restart_and_resume(referee, path, clock, table_id)
    assert outbox.moves_applied == 1 and outbox.to_act == [1]
    # Alice comes back: her seat is hers again and nothing is left for the referee to play.
    await referee.return_to_seat(table_id, "alice")
    await restart_with_nothing_to_resume(referee, path, clock)


async def test_an_automatic_move_cut_short_is_resumed(tmp_path, clock, forced_last_token):
    path = tmp_path / "automatic.sqlite3"
    referee = await open_referee(path, clock)
    table_id = await two_player_nim(referee, tokens=3)
    await referee.set_links(table_id, thread_id="t1")
    commit = referee.store.commit_moves

    async def dies_after_the_first_move(table, expected_version, *args, **kwargs):
        if expected_version > 0:
            raise Crash()
        return await commit(table, expected_version, *args, **kwargs)

    referee.store.commit_moves = dies_after_the_first_move  # type: ignore[method-assign]
    with pytest.raises(Crash):
        await referee.play(table_id, "alice", "take 2")  # stored; Bob has no choice but the last token
    referee, outbox = await restart_and_resume(referee, path, clock, table_id)
    assert outbox.moves_applied == 1 and outbox.finished and outbox.outcome.ranks == [2, 1]
    await referee.store.close()


async def test_a_cancelled_game_is_never_resumed(tmp_path, clock, ai_crashes):
    path = tmp_path / "cancel.sqlite3"
    referee, table_id = await alice_moved_and_the_ai_died(path, clock)
    await referee.cancel(table_id, "alice")
    assert not (await referee.table(table_id)).needs_resume
    assert await referee.tables_to_resume() == []
    await referee.store.close()
