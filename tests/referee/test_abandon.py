"""Abandon by vote (engine/referee/abandon.py): one vote per person playing, unanimous or the host
and a majority as the table chose, shown on the board; the deciding vote ends the game unrated,
with its clocks stopped, in history as abandoned and in no count."""

from __future__ import annotations

import pytest

from engine.referee import (
    ABANDONED,
    ABANDONED_BOARD,
    HOST_MAJORITY,
    RUNNING,
    AbandonRefused,
    NotInGame,
    WrongStatus,
)

from .helpers import HOUR, open_referee

pytestmark = [pytest.mark.usefixtures("toy_game"), pytest.mark.both_backends]


async def nim_for(referee, players, *, rule="unanimous", speed="daily-2", ai=0) -> int:
    host, *others = players
    table = await referee.create_table(
        "nim", host, host.title(), options={"tokens": 10}, guild_id="g1", speed=speed,
        abandon_rule=rule, ai_seats=["random"] * ai,
    )
    for user in others:
        await referee.join(table.id, user, user.title())
    await referee.start(table.id, host, seed=42)
    return table.id


async def test_a_unanimous_vote_ends_the_game_unrated_with_its_clocks_stopped(referee, clock):
    table_id = await nim_for(referee, ["alice", "bob"])
    clock.advance(HOUR)
    outbox = await referee.vote_abandon(table_id, "bob")
    assert not outbox.finished and outbox.public_log == ["Bob votes to abandon the game."]
    snapshot = await referee.snapshot(table_id)
    assert snapshot.board.endswith("Vote to abandon: Bob (1 of 2 needed, unanimous)")
    assert (await referee.table(table_id)).status == RUNNING
    clock.advance(HOUR)
    outbox = await referee.vote_abandon(table_id, "alice")
    assert outbox.finished and outbox.table.status == ABANDONED
    assert outbox.public_log[-1] == "The players voted to abandon the game: it ends here, unrated."
    table = await referee.table(table_id)
    # Alice's clock ran two hours, and stopped there: no increment, nothing due any more.
    alice = table.seats[0]
    assert not alice.clock.running and alice.clock.remaining == 36 * HOUR - 2 * HOUR
    assert all(seat.next_due_at is None and seat.waiting_since is None for seat in table.seats)
    result = await referee.result(table_id)
    assert result.board == ABANDONED_BOARD and not result.rated
    assert await referee.rating_events(guild_id="g1") == []
    [listed] = await referee.history("g1")
    assert listed.table_id == table_id and listed.board == ABANDONED_BOARD
    stats = await referee.player_stats("alice", "g1")
    assert stats.games == [] and [recent.board for recent in stats.recent] == [ABANDONED_BOARD]
    # Nothing happens at an abandoned table any more.
    clock.advance(40 * HOUR)
    due = await referee.due_actions()
    assert not due.reminders and not due.timeouts and not due.forfeits
    with pytest.raises(WrongStatus):
        await referee.play(table_id, "alice", "take 1")
    with pytest.raises(WrongStatus):
        await referee.vote_abandon(table_id, "bob")


async def test_host_and_majority_needs_the_host_among_more_than_half(referee):
    table_id = await nim_for(referee, ["alice", "bob", "carol"], rule=HOST_MAJORITY)
    assert not (await referee.vote_abandon(table_id, "bob")).finished
    assert not (await referee.vote_abandon(table_id, "carol")).finished  # a majority, without the host
    assert (await referee.snapshot(table_id)).board.endswith(
        "Vote to abandon: Bob and Carol (2 of 2 needed, the host and a majority)"
    )
    assert (await referee.vote_abandon(table_id, "alice")).finished
    other = await nim_for(referee, ["alice", "bob", "carol"], rule=HOST_MAJORITY)
    assert not (await referee.vote_abandon(other, "alice")).finished
    assert (await referee.vote_abandon(other, "carol")).finished  # the host and 2 of 3


async def test_a_vote_is_counted_once_can_be_taken_back_and_only_players_vote(referee):
    table_id = await nim_for(referee, ["alice", "bob"], ai=1)
    await referee.vote_abandon(table_id, "alice")
    with pytest.raises(AbandonRefused, match="already voted"):
        await referee.vote_abandon(table_id, "alice")
    with pytest.raises(NotInGame):
        await referee.vote_abandon(table_id, "eve")
    outbox = await referee.vote_abandon(table_id, "alice", withdraw=True)
    assert outbox.public_log == ["Alice takes back their vote to abandon the game."]
    with pytest.raises(AbandonRefused, match="not voted"):
        await referee.vote_abandon(table_id, "alice", withdraw=True)
    assert "Vote to abandon" not in (await referee.snapshot(table_id)).board
    # The AI seat has no vote: the two people suffice.
    await referee.vote_abandon(table_id, "alice")
    assert (await referee.vote_abandon(table_id, "bob")).finished


async def test_the_votes_and_the_rule_survive_a_restart(tmp_path, clock):
    path = tmp_path / "abandon.sqlite3"
    referee = await open_referee(path, clock)
    table_id = await nim_for(referee, ["alice", "bob", "carol"], rule=HOST_MAJORITY)
    await referee.vote_abandon(table_id, "bob")
    await referee.store.close()
    referee = await open_referee(path, clock)
    table = await referee.table(table_id)
    assert table.abandon_rule == HOST_MAJORITY and table.abandon_votes == [1]
    assert (await referee.vote_abandon(table_id, "alice")).finished
    await referee.store.close()


async def test_an_unknown_rule_is_refused_when_the_table_is_created(referee):
    with pytest.raises(AbandonRefused, match="unanimous or host-majority"):
        await referee.create_table("nim", "alice", "Alice", abandon_rule="whoever")
