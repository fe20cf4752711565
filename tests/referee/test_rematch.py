"""Rematch (engine/referee/rematch.py): the same game, options, speed and abandon rule, the seats
rotated so that the first player changes, AI seats kept, earlier players seated at their
rotated places whatever the order they join in, one lobby however often it is asked for."""

from __future__ import annotations

import pytest

from engine.referee import FINISHED, HOST_MAJORITY, LOBBY, LobbyError, NotInGame, WrongStatus

from .helpers import open_referee

pytestmark = [pytest.mark.usefixtures("toy_game"), pytest.mark.both_backends]


async def finished_nim(referee, players, *, ai=0, speed="daily-4") -> int:
    host, *others = players
    table = await referee.create_table(
        "nim", host, host.title(), options={"tokens": 1}, guild_id="g1", channel_id="c1", speed=speed,
        abandon_rule=HOST_MAJORITY, ai_seats=["random"] * ai,
    )
    for user in others:
        await referee.join(table.id, user, user.title())
    await referee.start(table.id, host, seed=42)
    outbox = await referee.play(table.id, host, "take 1")  # one token: the host takes it and wins
    assert outbox.finished
    return table.id


def seated(table) -> list[tuple[str | None, str | None]]:
    return [(seat.user_id, seat.ai_kind) for seat in table.seats]


async def test_a_rematch_rotates_the_seats_so_that_someone_else_starts(referee):
    old_id = await finished_nim(referee, ["alice", "bob", "carol"])
    assert await referee.to_act(old_id) == ()
    table, opened = await referee.rematch(old_id, "carol", "Carol")
    assert opened and table.status == LOBBY and table.rematch_of == old_id
    old = await referee.table(old_id)
    assert (table.game, table.options, table.speed, table.abandon_rule) == (
        old.game, old.options, old.speed, old.abandon_rule
    )
    assert (table.guild_id, table.channel_id, table.host) == ("g1", "c1", "carol")
    # The others join in any order and take their rotated places: bob, carol, alice.
    await referee.join(table.id, "alice", "Alice")
    table = await referee.join(table.id, "bob", "Bob")
    assert seated(table) == [("bob", None), ("carol", None), ("alice", None)]
    assert [seat.index for seat in table.seats] == [0, 1, 2]
    await referee.start(table.id, "carol", seed=42)
    assert await referee.to_act(table.id) == (0,)  # Bob starts this time, not Alice
    # A rematch of the rematch rotates again: carol, alice, bob.
    await referee.play(table.id, "bob", "take 1")
    again, _ = await referee.rematch(table.id, "alice", "Alice")
    await referee.join(again.id, "bob", "Bob")
    again = await referee.join(again.id, "carol", "Carol")
    assert [user for user, _ in seated(again)] == ["carol", "alice", "bob"]


async def test_ai_seats_come_back_at_their_rotated_places_with_their_kind(referee):
    old_id = await finished_nim(referee, ["alice"], ai=2)
    old = await referee.table(old_id)
    table, _ = await referee.rematch(old_id, "alice", "Alice")
    assert seated(table) == [(None, "random"), (None, "random"), ("alice", None)]
    assert [seat.name for seat in table.seats] == [old.seats[1].name, old.seats[2].name, "Alice"]


async def test_asking_again_leads_to_the_lobby_already_open(referee):
    old_id = await finished_nim(referee, ["alice", "bob"])
    first, opened = await referee.rematch(old_id, "bob", "Bob")
    second, opened_again = await referee.rematch(old_id, "alice", "Alice")
    assert opened and not opened_again and second.id == first.id
    assert len(await referee.tables(guild_id="g1", statuses=(LOBBY,))) == 1
    # Once cancelled, a new one opens; once started, asking leads to the running rematch.
    await referee.cancel(first.id, "bob")
    third, opened = await referee.rematch(old_id, "alice", "Alice")
    assert opened and third.id != first.id
    await referee.join(third.id, "bob", "Bob")
    await referee.start(third.id, "alice", seed=1)
    running, opened = await referee.rematch(old_id, "bob", "Bob")
    assert not opened and running.id == third.id and running.seed is None  # no seed handed out


async def test_only_players_of_a_finished_game_ask_and_the_limits_apply(tmp_path, clock):
    referee = await open_referee(tmp_path / "rematch.sqlite3", clock)
    old_id = await finished_nim(referee, ["alice", "bob"])
    with pytest.raises(NotInGame):
        await referee.rematch(old_id, "eve", "Eve")
    running = await referee.create_table("nim", "alice", "Alice", options={"tokens": 5}, guild_id="g1")
    await referee.join(running.id, "bob", "Bob")
    await referee.start(running.id, "alice", seed=1)
    with pytest.raises(WrongStatus, match="once the game is over"):
        await referee.rematch(running.id, "alice", "Alice")
    await referee.admission.set_limit("g1", "lobbies_per_user", 1)
    await referee.create_table("nim", "bob", "Bob", guild_id="g1")  # bob's one lobby
    with pytest.raises(LobbyError, match="lobbies"):
        await referee.rematch(old_id, "bob", "Bob")
    assert (await referee.table(old_id)).status == FINISHED
    await referee.store.close()
