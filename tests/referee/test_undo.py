"""Undo (issue 20): a player takes back their last move while nobody has acted since, if the game
says the move showed and drew nothing; in rated games only with every other player's consent."""

from __future__ import annotations

import pytest

from engine.core import UNDO, GameRecord, replay
from engine.games import get_game
from engine.referee import StaleVersion, UndoRefused

from ..toy_game import Nim
from .helpers import open_referee, two_player_nim


@pytest.fixture
def nim_undoable(toy_game, monkeypatch):
    # Nim shows nothing and draws nothing when tokens are taken: every move can be taken back.
    monkeypatch.setattr(Nim, "undoable", lambda self, before, seat, move, after: True)


async def replayed_tokens(referee, table_id: int) -> int:
    table = await referee.store.load_table(table_id)  # the referee hides a running game's seed
    record = GameRecord(
        game="nim", players=2, seed=table.seed, options=table.options, moves=await referee.store.move_log(table_id)
    )
    return replay(get_game("nim"), record)[0].tokens


async def test_an_unrated_move_is_taken_back_at_once_and_the_log_keeps_both(referee, nim_undoable):
    table_id = await two_player_nim(referee, tokens=10, speed="untimed")
    await referee.play(table_id, "alice", "take 3")
    reply = await referee.undo(table_id, "alice")
    assert reply.outbox is not None and reply.move == "take 3"
    assert reply.outbox.public_log == ["Alice took back take 3."] and reply.outbox.to_act == [0]
    assert (await referee.state(table_id)).tokens == 10
    assert (await referee.table(table_id)).version == 2
    assert [(m.seat, m.move) for m in await referee.store.move_log(table_id)] == [(0, "take 3"), (0, UNDO)]
    assert await replayed_tokens(referee, table_id) == 10
    # The game goes on from the position before the move.
    await referee.play(table_id, "alice", "take 1")
    assert (await referee.state(table_id)).tokens == 9 and await replayed_tokens(referee, table_id) == 9


async def test_the_undo_survives_a_restart(tmp_path, clock, nim_undoable):
    referee = await open_referee(tmp_path / "undo.sqlite3", clock)
    table_id = await two_player_nim(referee, tokens=10, speed="untimed")
    await referee.play(table_id, "alice", "take 2")
    await referee.undo(table_id, "alice")
    await referee.store.close()
    again = await open_referee(tmp_path / "undo.sqlite3", clock)
    try:
        assert (await again.state(table_id)).tokens == 10 and await again.to_act(table_id) == (0,)
        await again.play(table_id, "alice", "take 1")
        assert (await again.state(table_id)).tokens == 9
    finally:
        await again.store.close()


async def test_only_your_own_last_move_and_only_until_someone_acts(referee, nim_undoable):
    table_id = await two_player_nim(referee, tokens=10, speed="untimed")
    with pytest.raises(UndoRefused, match="no move to take back"):
        await referee.undo(table_id, "alice")
    await referee.play(table_id, "alice", "take 3")
    with pytest.raises(UndoRefused, match="Alice moved last"):
        await referee.undo(table_id, "bob")
    await referee.play(table_id, "bob", "take 1")
    with pytest.raises(UndoRefused, match="Bob moved last"):
        await referee.undo(table_id, "alice")
    await referee.undo(table_id, "bob")
    with pytest.raises(UndoRefused, match="no move to take back"):
        await referee.undo(table_id, "bob")  # one move at a time: the undo is the last entry now


async def test_a_move_the_game_calls_final_cannot_be_taken_back(referee, toy_game):
    table_id = await two_player_nim(referee, tokens=10, speed="untimed")
    await referee.play(table_id, "alice", "take 3")
    with pytest.raises(UndoRefused, match="take 3 cannot be taken back: it showed something hidden"):
        await referee.undo(table_id, "alice")
    assert (await referee.state(table_id)).tokens == 7


async def test_a_rated_undo_waits_for_every_other_player(referee, nim_undoable):
    table_id = await two_player_nim(referee, tokens=10)  # a daily speed: rated
    await referee.play(table_id, "alice", "take 3")
    asked = await referee.undo(table_id, "alice")
    assert asked.outbox is None and asked.waiting_for == [1] and asked.request.version == 1
    assert (await referee.state(table_id)).tokens == 7  # nothing changed yet
    with pytest.raises(UndoRefused, match="other players"):
        await referee.agree_to_undo(table_id, "alice", 1)
    done = await referee.agree_to_undo(table_id, "bob", 1)
    assert done.outbox is not None and (await referee.state(table_id)).tokens == 10
    with pytest.raises(StaleVersion):
        await referee.agree_to_undo(table_id, "bob", 1)  # answered already


async def test_a_refusal_or_any_move_ends_the_request(referee, nim_undoable):
    table_id = await two_player_nim(referee, tokens=10)
    await referee.play(table_id, "alice", "take 3")
    await referee.undo(table_id, "alice")
    await referee.refuse_undo(table_id, "bob", 1)
    with pytest.raises(StaleVersion):
        await referee.agree_to_undo(table_id, "bob", 1)
    await referee.undo(table_id, "alice")  # asked again
    await referee.play(table_id, "bob", "take 1")  # ...but bob plays on
    with pytest.raises(StaleVersion):
        await referee.agree_to_undo(table_id, "bob", 1)
    assert (await referee.state(table_id)).tokens == 6


async def test_a_waiting_request_survives_a_restart(tmp_path, clock, nim_undoable):
    referee = await open_referee(tmp_path / "asked.sqlite3", clock)
    table_id = await two_player_nim(referee, tokens=10)
    await referee.play(table_id, "alice", "take 3")
    await referee.undo(table_id, "alice")
    await referee.store.close()
    again = await open_referee(tmp_path / "asked.sqlite3", clock)
    try:
        done = await again.agree_to_undo(table_id, "bob", 1)
        assert done.outbox is not None and (await again.state(table_id)).tokens == 10
    finally:
        await again.store.close()


async def test_a_draft_cider_pick_is_taken_back_and_the_game_replays(referee):
    table = await referee.create_table("orchard", "alice", "Alice", speed="untimed")
    await referee.join(table.id, "bob", "Bob")
    await referee.start(table.id, "alice", seed=3)
    [first] = await referee.to_act(table.id)
    mover = ("alice", "bob")[first]
    before = await referee.board_text(table.id)
    move = (await referee.legal_moves(table.id, mover))[0]
    await referee.play(table.id, mover, move)
    reply = await referee.undo(table.id, mover)
    assert reply.outbox is not None and await referee.board_text(table.id) == before
    loaded = await referee.store.load_table(table.id)
    record = GameRecord(game="orchard", players=2, seed=loaded.seed, options=loaded.options, moves=await referee.store.move_log(table.id))
    assert get_game("orchard").encode_state(replay(get_game("orchard"), record)[0]) == get_game("orchard").encode_state(
        await referee.state(table.id)
    )
