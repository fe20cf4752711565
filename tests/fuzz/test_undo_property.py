"""Undo as a property (issue 20): random games of every game, with random undo attempts (by the
player who moved, by someone else, twice in a row, agreed to or refused in rated games)
interleaved with the moves. Whatever happens:

- the referee's cached position, the stored snapshot and the replay of the move log (with its
  undo entries) are the same position;
- a move taken back leaves the public board exactly as it was before the move, and every seat's
  private view too; the other seats' secrets (``Game.secret_view``) are the same after the undo
  as after the move, and the move taken back showed nobody another seat's secret (a card of a
  hand on the board): an undo never undoes something people have seen;
- a refused undo changes nothing, and says why (a GameError, never another exception).
"""

from __future__ import annotations

import asyncio
import itertools
import random
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from db import SqliteStore
from engine.core import GameError, GameRecord, replay
from engine.games import get_game
from engine.referee import Referee

from ..contract_checks import string_leaves

# (game, players): every game, both of Vege tables' player counts.
GAMES = [("orchard", 2), ("orchard", 4), ("vegetables", 4), ("vegetables", 2), ("granja", 2), ("granja", 3), ("figures", 4)]
MOVES = 30  # moves per example: enough to cross turns, rounds and several takes-back
GAME_NUMBERS = itertools.count()


class Tables:
    """A referee on its own event loop (Hypothesis calls the test synchronously)."""

    def __init__(self, path: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.referee: Referee = self.loop.run_until_complete(self._open(path))

    async def _open(self, path: str) -> Referee:
        return Referee(await SqliteStore.open(path), ai_rng=random.Random(1))

    def close(self) -> None:
        self.loop.run_until_complete(self.referee.store.close())
        self.loop.close()


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory):
    made = Tables(str(tmp_path_factory.mktemp("undo") / "undo.sqlite3"))
    yield made
    made.close()


async def consistent(referee: Referee, table_id: int) -> Any:
    """The position, after checking that cache, snapshot and replayed log agree."""
    table = await referee.store.load_table(table_id)  # the referee hides a running game's seed
    game = get_game(table.game)
    log = await referee.store.move_log(table_id)
    assert len(log) == table.version
    record = GameRecord(game=table.game, players=len(table.seats), seed=table.seed, options=table.options, moves=log)
    replayed = game.encode_state(replay(game, record)[0])
    cached = game.encode_state(await referee.state(table_id))
    assert cached == replayed, "the cached position is not the replay of the log"
    assert await referee.store.load_state(table_id) == replayed, "the stored snapshot is not the replay of the log"
    return await referee.state(table_id)


async def views(referee: Referee, table_id: int, users: list[str]) -> tuple[str, list[str]]:
    return await referee.board_text(table_id), [await referee.private_text(table_id, user) for user in users]


def others_secrets(game: Any, state: Any, mover: int, players: int) -> list[bytes]:
    """What each other seat alone knows (its hand...), encoded to compare."""
    return [msgspec.msgpack.encode(game.secret_view(state, seat)) for seat in range(players) if seat != mover]


def newly_seen(game: Any, before: Any, after: Any, players: int) -> dict[int | None, list[str]]:
    """The secrets of one seat that another seat, or the public, sees after a move and did not
    before (card codes of a hand shown on the board...)."""
    secret = {seat: string_leaves(game.secret_view(before, seat)) for seat in range(players)}
    found: dict[int | None, list[str]] = {}
    for viewer in [None, *range(players)]:
        theirs = set().union(*(secret[seat] for seat in range(players) if seat != viewer))
        new = string_leaves(game.view(after, viewer)) - string_leaves(game.view(before, viewer))
        if new & theirs:
            found[viewer] = sorted(new & theirs)
    return found


async def random_game_with_undos(referee: Referee, name: str, players: int, seed: int, rated: bool) -> int:
    """Plays; returns how many moves were taken back."""
    rng = random.Random(seed)
    game_number = next(GAME_NUMBERS)  # new people for each game: a person may sit at 50 games at most
    users = [f"u{game_number}-{seat}" for seat in range(players)]
    table = await referee.create_table(name, users[0], "P0", speed="daily-2" if rated else "untimed", guild_id="g")
    for seat, user in enumerate(users[1:], start=1):
        await referee.join(table.id, user, f"P{seat}")
    await referee.start(table.id, users[0], seed=seed)
    game = get_game(name)
    taken_back = 0
    for _ in range(MOVES):
        state = await consistent(referee, table.id)
        if game.is_over(state):
            break
        mover = rng.choice(game.to_act(state))
        seen = await views(referee, table.id, users)
        before = game.decode_state(game.encode_state(state))  # a copy: the cache changes in place
        move = rng.choice(await referee.legal_moves(table.id, users[mover]))
        await referee.play(table.id, users[mover], move)
        if rng.random() < 0.3:  # someone else tries to take it back: always refused
            other = rng.choice([user for seat, user in enumerate(users) if seat != mover])
            version = (await referee.table(table.id)).version
            with pytest.raises(GameError):
                await referee.undo(table.id, other)
            assert (await referee.table(table.id)).version == version
        if rng.random() < 0.6:
            after = game.decode_state(game.encode_state(await referee.state(table.id)))
            if await try_undo(referee, table.id, users, mover, seen, rng):
                taken_back += 1
                assert not newly_seen(game, before, after, players), f"{move} showed a secret and was taken back"
    await consistent(referee, table.id)
    return taken_back


async def try_undo(referee: Referee, table_id: int, users: list[str], mover: int, seen: Any, rng: random.Random) -> int:
    version = (await referee.table(table_id)).version
    changed = await views(referee, table_id, users)
    game = get_game((await referee.table(table_id)).game)
    known = others_secrets(game, await referee.state(table_id), mover, len(users))
    try:
        reply = await referee.undo(table_id, users[mover])
    except GameError as refused:
        assert str(refused)
        assert (await referee.table(table_id)).version == version
        assert await views(referee, table_id, users) == changed
        return 0
    for seat in reply.waiting_for:  # a rated game: the others answer, sometimes one refuses
        if rng.random() < 0.2:
            await referee.refuse_undo(table_id, users[seat], version)
            assert (await referee.table(table_id)).version == version
            assert await views(referee, table_id, users) == changed
            return 0
        reply = await referee.agree_to_undo(table_id, users[seat], version)
    assert reply.outbox is not None
    assert (await referee.table(table_id)).version == version + 1
    assert await views(referee, table_id, users) == seen, "the undo did not restore the board and hands"
    assert others_secrets(game, await referee.state(table_id), mover, len(users)) == known, "an undo changed another seat's secret"
    await consistent(referee, table_id)
    with pytest.raises(GameError):  # one move at a time: the undo entry is the last now
        await referee.undo(table_id, users[mover])
    return 1


@settings(max_examples=12)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10_000), rated=st.booleans())
def test_random_games_with_undos_keep_cache_snapshot_and_log_one_position(tables, game, seed, rated):
    name, players = game
    tables.loop.run_until_complete(random_game_with_undos(tables.referee, name, players, seed, rated))


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_moves_are_taken_back_in_every_game_that_allows_it(tables, name, players):
    # The property above must not pass by refusing everything: seeded games take moves back (none
    # in Figures, where every move shows a card), rated ones through the others' consent.
    taken = tables.loop.run_until_complete(random_game_with_undos(tables.referee, name, players, 11, rated=True))
    assert (taken > 0) == (name != "figures")
