"""The referee's entry points with arbitrary ids, types and text: every call either does what it
is for or raises a GameError (a player-readable refusal) and leaves every stored game as it was;
never another exception.

The tables are real games on a real SQLite file, built once: a lobby, a running Figures table
(Alice and three AI seats) and a running solo Orchard table. Calls that succeed may move them on
(a legal move, a join), which only widens what later examples meet."""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from db import SqliteStore
from engine.core import GameError
from engine.referee import Referee

LONGEST_REFUSAL = 600


class Tables:
    """A referee on its own event loop (Hypothesis calls the test synchronously)."""

    def __init__(self, path: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.referee: Referee = self.run(self._open(path))
        self.ids: list[int] = self.run(self._build())

    def run(self, awaitable: Any) -> Any:
        return self.loop.run_until_complete(awaitable)

    async def _open(self, path: str) -> Referee:
        return Referee(await SqliteStore.open(path), ai_rng=random.Random(1))

    async def _build(self) -> list[int]:
        referee = self.referee
        lobby = await referee.create_table("figures", "alice", "Alice", guild_id="g1")
        figures = await referee.create_table("figures", "alice", "Alice", ai_seats=["random"] * 3)
        await referee.start(figures.id, "alice", seed=3)
        orchard = await referee.create_table("orchard", "alice", "Alice", speed="daily-1")
        await referee.start(orchard.id, "alice", seed=4)
        return [lobby.id, figures.id, orchard.id]

    async def stored(self) -> list[Any]:
        """Everything stored about the games: each table with its seats, state and move log."""
        store = self.referee.store
        found = []
        for table_id in self.ids:
            table = await store.load_table(table_id)
            found.append((table, await store.load_state(table_id), await store.move_log(table_id)))
        found.append(len(await store.list_tables(limit=1_000_000)))
        return found

    def close(self) -> None:
        self.run(self.referee.store.close())
        self.loop.close()


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tables]:
    built = Tables(str(tmp_path_factory.mktemp("fuzz") / "referee.sqlite3"))
    yield built
    built.close()


ODD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=30),
    st.binary(max_size=10),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
TABLE_IDS = st.one_of(st.sampled_from([1, 2, 3]), st.integers(min_value=-(2**70), max_value=2**70), ODD)
USERS = st.one_of(st.sampled_from(["alice", "bob", "eve"]), st.text(max_size=80), ODD)
TEXTS = st.one_of(
    st.sampled_from(["7c", "Ks", "pass", "kings Kd Kc 5s", "Gold-h2-s5 mono", "take 1"]),
    st.text(max_size=300),
    ODD,
)
NAMES = st.one_of(st.text(max_size=100), st.text(min_size=5_000, max_size=6_000), ODD)
OPTIONS = st.one_of(
    st.none(),
    st.dictionaries(
        st.sampled_from(["deck", "mode", "target_score", "easy", "x"]) | st.text(max_size=10),
        st.one_of(st.text(max_size=50), st.integers(), st.lists(st.text(max_size=4), max_size=5), ODD),
        max_size=3,
    ),
    ODD,
)


def call(method: Any, *arguments: st.SearchStrategy[Any], **keywords: st.SearchStrategy[Any]) -> Any:
    """A call of ``method`` with drawn arguments, made when the test calls it (not while drawing,
    so that no coroutine is left unawaited when Hypothesis discards an example)."""
    return st.builds(functools.partial, st.just(method), *arguments, **keywords)


def calls(referee: Referee) -> st.SearchStrategy[Any]:
    """One referee call with fuzzed arguments."""
    return st.one_of(
        call(referee.play, TABLE_IDS, USERS, TEXTS),
        call(referee.play, TABLE_IDS, USERS, TEXTS, expected_version=ODD),
        call(referee.join, TABLE_IDS, USERS, NAMES),
        call(referee.leave, TABLE_IDS, USERS),
        call(referee.add_ai, TABLE_IDS, USERS, TEXTS),
        call(referee.remove_ai, TABLE_IDS, USERS),
        call(referee.set_speed, TABLE_IDS, USERS, TEXTS),
        call(referee.start, TABLE_IDS, USERS, seed=ODD),
        call(referee.skip, TABLE_IDS, USERS, ODD),
        call(referee.return_to_seat, TABLE_IDS, USERS),
        call(referee.undo, TABLE_IDS, USERS),
        call(referee.agree_to_undo, TABLE_IDS, USERS, TABLE_IDS),
        call(referee.refuse_undo, TABLE_IDS, USERS, TABLE_IDS),
        call(referee.table, TABLE_IDS),
        call(referee.board_text, TABLE_IDS),
        call(referee.private_text, TABLE_IDS, USERS),
        call(referee.legal_moves, TABLE_IDS, USERS),
        call(referee.record, TABLE_IDS),
        call(referee.leaderboard, st.none() | USERS, TEXTS, offset=TABLE_IDS, limit=TABLE_IDS),
        call(referee.history, st.none() | USERS, limit=TABLE_IDS, offset=TABLE_IDS),
        call(referee.tables, guild_id=st.none() | USERS, user_id=st.none() | USERS, limit=TABLE_IDS),
        call(referee.turns_waiting, USERS, st.none() | USERS),
        call(
            referee.create_table,
            st.sampled_from(["figures", "orchard", "granja", "vegetables"]) | TEXTS,
            USERS,
            NAMES,
            options=OPTIONS,
            guild_id=st.none() | USERS,
            speed=st.sampled_from(["untimed", "daily-2"]) | TEXTS,
        ),
        call(
            referee.create_table,
            st.sampled_from(["figures", "orchard"]),
            st.just("alice"),
            st.just("Alice"),
            ai_seats=st.lists(st.sampled_from(["random", "greedy"]) | TEXTS, max_size=8) | ODD,
        ),
    )


def test_every_entry_point_refuses_in_words_and_changes_nothing(tables: Tables) -> None:
    @given(st.data())
    def run(data: st.DataObject) -> None:
        make_call = data.draw(calls(tables.referee))
        before = tables.run(tables.stored())
        try:
            tables.run(make_call())
        except GameError as refusal:
            assert 0 < len(str(refusal)) <= LONGEST_REFUSAL
            assert tables.run(tables.stored()) == before
            return

    run()
