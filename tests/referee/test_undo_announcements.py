"""The announcer's catch-up after a crash around an undo (issue 20): the move log's undo entries
are replayed as the position before the move taken back, and the players whose secret they
changed hear of it once, and only if it differs from what they were last told."""

from __future__ import annotations

import pytest

from engine.referee import Referee
from engine.referee.announcements import Announcements

from ..discord.sprint import Sprint
from ..registered import registered_game


@pytest.fixture
def sprint(monkeypatch: pytest.MonkeyPatch):
    # A gift changes the next seat's hand; here it may be taken back, to reach the catch-up's
    # undo path with a secret that moves both ways (no real game takes back such a move).
    monkeypatch.setattr(Sprint, "undoable", lambda self, before, seat, move, after: True)
    yield from registered_game(monkeypatch, "sprint", "tests.discord.sprint")


async def three_sprinters(referee: Referee) -> int:
    table = await referee.create_table("sprint", "alice", "Alice", options={"gifts": "true", "cards": "4"}, speed="untimed")
    await referee.join(table.id, "bob", "Bob")
    await referee.join(table.id, "carol", "Carol")
    await referee.start(table.id, "alice", seed=1)
    await referee.play(table.id, "alice", "play a01")  # version 1
    await referee.play(table.id, "bob", "give b02")  # version 2: Carol's hand changes
    return table.id


async def test_a_crash_right_after_an_undo_tells_whose_hand_it_changed_back(referee: Referee, sprint) -> None:
    table_id = await three_sprinters(referee)
    await referee.undo(table_id, "bob")  # version 3: the card goes back to Bob; then a crash
    caught = await Announcements(referee).catch_up(table_id, 2)  # the gift was told, not the undo
    assert caught.to_act == [1] and caught.board_changed
    assert caught.private_changed == [2]  # Carol's hand lost the card she was told of
    # Bob's own undo: its answer shows him his hand, as after his own move (and here the crash
    # lost that answer, as it would a move's).


async def test_a_move_and_its_undo_both_missed_tell_nobody_of_an_unchanged_hand(referee: Referee, sprint) -> None:
    table_id = await three_sprinters(referee)
    await referee.undo(table_id, "bob")
    caught = await Announcements(referee).catch_up(table_id, 1)  # neither the gift nor its undo told
    assert caught.to_act == [1] and caught.private_changed == []  # Carol's hand is what she knew


async def test_moves_after_an_undo_are_replayed_from_the_position_before_it(referee: Referee, sprint) -> None:
    table_id = await three_sprinters(referee)
    await referee.undo(table_id, "bob")
    await referee.play(table_id, "bob", "give b03")  # version 4: another card for Carol
    outbox = Announcements(referee)
    assert (await outbox.catch_up(table_id, 3)).private_changed == [2]
    assert (await outbox.catch_up(table_id, 2)).private_changed == [2]  # b02 gone, b03 come
    assert (await outbox.catch_up(table_id, 1)).private_changed == [2]
    assert (await outbox.catch_up(table_id, 0)).private_changed == [2]
    await referee.play(table_id, "carol", "play c01")
    await referee.undo(table_id, "carol")  # version 6: her own move and her own undo
    assert (await outbox.catch_up(table_id, 4)).private_changed == []
    assert (await outbox.catch_up(table_id, 3)).private_changed == [2]
