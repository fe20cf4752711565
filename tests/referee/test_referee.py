"""The referee on a real SQLite file: lobby, turn flow, refusals, durability and restarts."""

from __future__ import annotations

import asyncio
import random

import pytest

from engine.core import BadNotation, IllegalMove, NotYourTurn
from engine.referee import (
    FINISHED,
    RUNNING,
    LobbyError,
    NotInGame,
    Referee,
    StaleVersion,
    WrongStatus,
)

from ..stores import open_test_store

pytestmark = pytest.mark.both_backends


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        self.now += 1
        return self.now


async def open_referee(path) -> Referee:
    store = await open_test_store(path)
    return Referee(store, clock=FakeClock(), ai_rng=random.Random(5))


@pytest.fixture
async def referee(tmp_path, toy_game):
    ref = await open_referee(tmp_path / "games.sqlite3")
    yield ref
    await ref.store.close()


async def started_two_player_game(referee: Referee, tokens: int = 10) -> int:
    table = await referee.create_table("nim", "alice", "Alice", options={"tokens": tokens}, guild_id="g1")
    await referee.join(table.id, "bob", "Bob")
    await referee.start(table.id, "alice", seed=42)
    return table.id


async def test_a_move_on_its_way_to_disk_is_seen_only_once_committed(referee, monkeypatch):
    """The referee carries a move out on its cached state: until the commit is done, anyone who
    looks at the game sees the state that is on disk."""
    table_id = await started_two_player_game(referee)
    reached, release = asyncio.Event(), asyncio.Event()
    commit = referee.store.commit_moves

    async def slow_commit(*args, **kwargs):
        reached.set()
        await release.wait()
        return await commit(*args, **kwargs)

    monkeypatch.setattr(referee.store, "commit_moves", slow_commit)
    move = asyncio.create_task(referee.play(table_id, "alice", "take 2"))
    await reached.wait()
    assert (await referee.state(table_id)).tokens == 10
    assert "Tokens: 10" in await referee.board_text(table_id)
    release.set()
    await move
    assert (await referee.state(table_id)).tokens == 8
    assert "Tokens: 8" in await referee.board_text(table_id)


async def test_lobby_join_leave_and_refusals(referee):
    table = await referee.create_table("nim", "alice", "Alice", guild_id="g1")
    with pytest.raises(LobbyError, match="already seated"):
        await referee.join(table.id, "alice", "Alice")
    await referee.join(table.id, "bob", "Bob")
    with pytest.raises(LobbyError, match="host cannot leave"):
        await referee.leave(table.id, "alice")
    with pytest.raises(NotInGame):
        await referee.leave(table.id, "carol")
    table = await referee.leave(table.id, "bob")
    assert [seat.name for seat in table.seats] == ["Alice"]
    with pytest.raises(LobbyError, match="2 to 4 players"):
        await referee.start(table.id, "alice")
    await referee.join(table.id, "bob", "Bob")
    with pytest.raises(LobbyError, match="Only the host"):
        await referee.start(table.id, "bob")
    with pytest.raises(LobbyError, match="Only the host"):
        await referee.cancel(table.id, "bob")


async def test_table_fills_up_and_ai_seats_are_named(referee):
    table = await referee.create_table("nim", "alice", "Alice")
    for _ in range(3):
        table = await referee.add_ai(table.id, "alice", "random")
    assert [seat.is_ai for seat in table.seats] == [False, True, True, True]
    assert len({seat.name for seat in table.seats}) == 4
    with pytest.raises(LobbyError, match="full"):
        await referee.join(table.id, "bob", "Bob")
    table = await referee.remove_ai(table.id, "alice")
    assert len(table.seats) == 3
    with pytest.raises(LobbyError, match="Unknown AI level"):
        await referee.add_ai(table.id, "alice", "genius")


async def test_bad_options_are_refused_when_creating(referee):
    with pytest.raises(Exception, match="at least 1"):
        await referee.create_table("nim", "alice", "Alice", options={"tokens": 0})
    with pytest.raises(Exception, match="no option"):
        await referee.create_table("nim", "alice", "Alice", options={"colour": "red"})
    with pytest.raises(Exception, match="Unknown game"):
        await referee.create_table("chess", "alice", "Alice")


async def test_moves_flow_and_every_refusal_leaves_the_game_unchanged(referee):
    table_id = await started_two_player_game(referee)
    before = await referee.state(table_id)
    refusals = [
        (referee.play(table_id, "bob", "take 1"), NotYourTurn, "waiting for Alice"),
        (referee.play(table_id, "carol", "take 1"), NotInGame, "not playing"),
        (referee.play(table_id, "alice", "grab 1"), BadNotation, "take N"),
        (referee.play(table_id, "alice", "take 4"), IllegalMove, "1 to 3"),
        (referee.play(table_id, "alice", "take 1", expected_version=3), StaleVersion, "changed"),
    ]
    for call, error, text in refusals:
        with pytest.raises(error, match=text):
            await call
    assert (await referee.table(table_id)).version == 0
    assert await referee.state(table_id) == before
    assert await referee.legal_moves(table_id, "alice") == ["take 1", "take 2", "take 3"]
    assert await referee.legal_moves(table_id, "bob") == []

    outbox = await referee.play(table_id, "alice", "take 3", expected_version=0)
    assert outbox.public_log == ["Alice takes 3."]
    assert outbox.private_changed == []  # only public facts changed; nobody's charm did
    assert outbox.to_act == [1]
    assert outbox.table.version == 1
    assert "Tokens: 7" in await referee.board_text(table_id)
    assert (await referee.private_text(table_id, "bob")).startswith("Your charm:")


async def test_game_end_records_outcome_and_refuses_more_moves(referee):
    table_id = await started_two_player_game(referee, tokens=4)
    await referee.play(table_id, "alice", "take 1")
    outbox = await referee.play(table_id, "bob", "take 3")
    assert outbox.finished and outbox.outcome.winners == [1]
    assert outbox.table.status == FINISHED
    with pytest.raises(WrongStatus, match="over"):
        await referee.play(table_id, "alice", "take 1")
    record = await referee.record(table_id)
    assert [(m.seat, m.move) for m in record.moves] == [(0, "take 1"), (1, "take 3")]
    assert await referee.store.result(table_id) is not None


async def test_ai_seats_answer_at_once(referee):
    table = await referee.create_table("nim", "alice", "Alice", options={"tokens": 30})
    await referee.add_ai(table.id, "alice", "random")
    await referee.add_ai(table.id, "alice", "random")
    await referee.start(table.id, "alice", seed=1)
    outbox = await referee.play(table.id, "alice", "take 1")
    # Both AI seats played before the turn came back (unless one of them won).
    assert outbox.moves_applied == 3 or outbox.finished
    if not outbox.finished:
        assert outbox.to_act == [0]


async def test_cancel_and_status_messages(referee):
    table_id = await started_two_player_game(referee)
    table = await referee.cancel(table_id, "bob", is_admin=True)
    assert table.status == "abandoned"
    with pytest.raises(WrongStatus, match="cancelled"):
        await referee.play(table_id, "alice", "take 1")


async def test_restart_continues_to_the_same_final_state(tmp_path, toy_game):
    moves = ["take 1", "take 2", "take 3", "take 1", "take 2", "take 1"]
    users = ["alice", "bob"]

    async def play_moves(ref: Referee, table_id: int, from_index: int, to_index: int) -> None:
        for index in range(from_index, to_index):
            await ref.play(table_id, users[index % 2], moves[index])

    # Uninterrupted.
    ref = await open_referee(tmp_path / "straight.sqlite3")
    straight_id = await started_two_player_game(ref)
    await play_moves(ref, straight_id, 0, len(moves))
    expected = await ref.state(straight_id)
    await ref.store.close()

    # Interrupted half way: every in-process object and the connection are dropped.
    path = tmp_path / "restarted.sqlite3"
    ref = await open_referee(path)
    table_id = await started_two_player_game(ref)
    await play_moves(ref, table_id, 0, 3)
    await ref.store.close()
    del ref
    ref = await open_referee(path)
    table = await ref.table(table_id)
    assert table.status == RUNNING and table.version == 3
    await play_moves(ref, table_id, 3, len(moves))
    assert await ref.state(table_id) == expected
    assert [m.move for m in (await ref.record(table_id)).moves] == moves
    await ref.store.close()


async def test_two_processes_on_one_file_cannot_both_move(tmp_path, toy_game):
    path = tmp_path / "shared.sqlite3"
    first = await open_referee(path)
    table_id = await started_two_player_game(first)
    second = await open_referee(path)
    await second.table(table_id)  # both have it cached at version 0
    await first.play(table_id, "alice", "take 1")
    # The second's stale copy fails the store's compare-and-swap: dropped, and the move judged
    # again on the stored table, where it is Bob's turn (never "the game changed, try again").
    with pytest.raises(NotYourTurn, match="waiting for Bob"):
        await second.play(table_id, "alice", "take 2")
    # The stale copy was dropped: the second process now sees the truth.
    assert (await second.table(table_id)).version == 1
    await first.store.close()
    await second.store.close()


async def test_tables_are_listed_per_guild_and_user(referee):
    first = await started_two_player_game(referee)
    other = await referee.create_table("nim", "carol", "Carol", guild_id="g2")
    in_g1 = await referee.tables(guild_id="g1")
    assert [t.id for t in in_g1] == [first]
    bobs = await referee.tables(user_id="bob", statuses=(RUNNING,))
    assert [t.id for t in bobs] == [first]
    assert other.id not in [t.id for t in bobs]


async def test_a_running_game_record_is_not_exported(referee):
    table_id = await started_two_player_game(referee)
    await referee.play(table_id, "alice", "take 1")
    with pytest.raises(WrongStatus, match="once the game has ended"):
        await referee.record(table_id)


async def test_out_of_turn_moves_follow_may_act(tmp_path, monkeypatch):
    """A game may accept optional moves from seats nobody waits for (vegetables' dead cards)."""
    from engine.games import REGISTRY, get_game

    monkeypatch.setitem(REGISTRY, "vegetables", "engine.games.vegetables")
    get_game.cache_clear()
    game = get_game("vegetables")
    referee = await open_referee(tmp_path / "v.sqlite3")
    table = await referee.create_table("vegetables", "u0", "U0")
    for user in ("u1", "u2", "u3"):
        await referee.join(table.id, user, user.upper())
    await referee.start(table.id, "u0", seed=3)
    state = await referee.state(table.id)
    monkeypatch.setattr(type(game), "may_act", lambda self, st: tuple(range(st.players)))
    waiting = game.to_act(state)[0]
    other = next(seat for seat in range(4) if seat != waiting)
    # Nothing legal for the other seat here, so it gets a rule refusal, not "not your turn".
    with pytest.raises(IllegalMove):
        await referee.play(table.id, f"u{other}", "done")
    await referee.store.close()


async def test_a_secret_move_leaves_the_board_alone(referee, bids_game, monkeypatch):
    """A move that changes nothing public (and logs nothing public) must not repost the board."""
    from engine.core import Event

    quiet_view = lambda self, state, seat: {"players": state.players, "round": state.round}  # noqa: E731
    monkeypatch.setattr(type(bids_game), "view", quiet_view)
    original_play = type(bids_game).play

    def play_privately(self, state, seat, move):
        events = original_play(self, state, seat, move)
        # The bid itself is announced only to its bidder; the reveal stays public.
        return [Event(text=e.text, visible_to=(seat,)) if e.actor == seat else e for e in events]

    monkeypatch.setattr(type(bids_game), "play", play_privately)
    table = await referee.create_table("bids", "alice", "Alice", options={"rounds": 1})
    await referee.join(table.id, "bob", "Bob")
    await referee.start(table.id, "alice", seed=1)
    secret = await referee.play(table.id, "alice", "bid 2")
    assert not secret.board_changed and secret.public_log == []
    assert secret.private_log == {0: ["Alice bids."]}
    reveal = await referee.play(table.id, "bob", "bid 1")
    assert reveal.board_changed and reveal.finished


async def test_ai_thinking_does_not_block_other_tables(referee, monkeypatch):
    """While an AI seat thinks, the event loop keeps serving everything else."""
    import asyncio
    import time

    from engine.core import RandomPlayer

    loop_turns = 0
    thinking = False

    def slow_choose(self, game, state, seat, rng):
        nonlocal thinking
        thinking = True
        time.sleep(0.2)  # a long search, holding no lock the loop needs
        thinking = False
        return game.legal_moves(state, seat)[0]

    async def other_work():
        nonlocal loop_turns
        while True:
            await asyncio.sleep(0)
            if thinking:
                loop_turns += 1

    monkeypatch.setattr(RandomPlayer, "choose", slow_choose)
    table = await referee.create_table("nim", "alice", "Alice", options={"tokens": 9})
    await referee.add_ai(table.id, "alice", "random")
    await referee.start(table.id, "alice", seed=1)
    worker = asyncio.create_task(other_work())
    await referee.play(table.id, "alice", "take 1")
    worker.cancel()
    assert loop_turns > 0, "the event loop stood still while the AI was thinking"


async def test_idle_games_keep_only_their_encoded_state(tmp_path, toy_game):
    """Only the most recently used games keep a decoded state; the others are decoded again
    when used, and play on exactly as if they had stayed decoded."""
    store = await open_test_store(tmp_path / "hot.sqlite3")
    referee = Referee(store, clock=FakeClock(), ai_rng=random.Random(5), hot_states=2)
    table_ids = [await started_two_player_game(referee) for _ in range(4)]
    for round_number, user in enumerate(["alice", "bob", "alice"]):
        for table_id in table_ids:
            outbox = await referee.play(table_id, user, "take 2")
            assert outbox.board_changed and outbox.table.version == round_number + 1
    decoded = [table_id for table_id in table_ids if referee._tables.cache[table_id]._state is not None]
    assert decoded == table_ids[-2:]
    first = referee._tables.cache[table_ids[0]]
    assert first.encoded is not None and first._state is None
    # Decoded again on use, equal to what a fresh process reads from the file.
    in_memory = await referee.state(table_ids[0])
    fresh = Referee(store, clock=FakeClock())
    assert in_memory == await fresh.state(table_ids[0])
    await referee.play(table_ids[0], "bob", "take 1")
    assert [move.move for move in (await store.move_log(table_ids[0]))] == ["take 2"] * 3 + ["take 1"]
    await store.close()


async def test_seats_written_per_move_match_the_cached_ones(tmp_path, toy_game):
    """A move writes only the seats it changed; what is stored still equals, seat for seat,
    what the referee holds (waiting times, clocks and due times of all four players)."""
    store = await open_test_store(tmp_path / "seats.sqlite3")
    referee = Referee(store, clock=FakeClock(), ai_rng=random.Random(5))
    table = await referee.create_table("nim", "u0", "U0", options={"tokens": 40}, speed="daily-1")
    for index in range(1, 4):
        await referee.join(table.id, f"u{index}", f"U{index}")
    await referee.start(table.id, "u0", seed=3)
    for turn in range(9):
        await referee.play(table.id, f"u{turn % 4}", "take 1")
        cached = (await referee.table(table.id)).seats
        stored = (await store.load_table(table.id)).seats
        assert stored == cached
    await store.close()


def test_a_table_copy_shares_nothing_a_move_changes():
    from engine.referee.clock import SeatClock
    from engine.referee.model import Seat, Table
    from engine.referee.tables import copy_table

    table = Table(
        id=3,
        game="nim",
        host="alice",
        options={"tokens": 10},
        seats=[Seat(index=0, name="Alice", user_id="alice", clock=SeatClock(remaining=60.0)), Seat(index=1, name="Bob")],
    )
    copy = copy_table(table)
    assert copy == table
    copy.seats[0].clock.reminders_sent = 2
    copy.seats[1].waiting_since = 5.0
    copy.options["tokens"] = 3
    copy.version = 9
    assert table.seats[0].clock.reminders_sent == 0 and table.seats[1].waiting_since is None
    assert table.options == {"tokens": 10} and table.version == 0
