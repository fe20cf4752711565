"""Copy a SQLite database into PostgreSQL, verify it, and say so.

    python -m db.migrate --from sqlite:///data/referee.sqlite3 --to postgresql://user:pw@host/referee

Stop the bot first. Both sides are brought to the current schema (their numbered migrations, as
at start-up); then every table of the SQLite file (games with their snapshots, seats, the move
log, results, result seats, rating events, ratings, seasons and their ratings, the forgotten
players' numbers, vacations, undo requests, players' flags and settings, server limits, the bot's
own state, and any table a later migration adds on both sides) is copied in one
transaction, the columns both sides have. Each row is an upsert on its primary key, so the copy
can be run again safely: a second run after the bot went on with SQLite brings PostgreSQL up to
date, a second run with nothing new changes nothing. The id sequences are moved past the copied
ids, so new games never reuse one.

Then it verifies: the row count of every table on both sides, and a sample of started games
replayed from their seed, options and move log (engine.core.replay), whose public view must equal
the stored snapshot's and whose result, for a finished game, the stored one. Exit status 0 when
everything matches."""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import msgspec

from engine.core import GameError, GameRecord, ReplayError, replay
from engine.games import REGISTRY, get_game

from .factory import is_postgres_url, redacted, sqlite_path_of
from .postgres.store import PostgresStore
from .sqlite_store import SqliteStore

# Tables in the order their foreign keys need; tables not named here follow, by name.
_ORDER = (
    "games",
    "seats",
    "moves",
    "results",
    "result_seats",
    "rating_events",
    "ratings",
    "seasons",
    "season_ratings",
)
_SKIPPED = ("schema_version",)
_BATCH = 2_000


@dataclass
class Report:
    counts: dict[str, tuple[int, int]] = field(default_factory=dict)  # table: (sqlite, postgresql)
    replayed: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


async def migrate(source: str, target: str, *, sample: int = 50, seed: int | None = None) -> Report:
    """Copy ``source`` (a SQLite path or ``sqlite:///path``) into ``target`` (a PostgreSQL URL),
    then verify the counts and replay ``sample`` started games."""
    path = sqlite_path_of(source)
    await (await SqliteStore.open(path)).close()  # brings the file to the current schema
    store = await PostgresStore.open(target)
    report = Report()
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as lite:
            async with store._pool.acquire() as connection:
                tables = _tables(lite)
                async with connection.transaction():
                    for name in tables:
                        await _copy_table(lite, connection, name)
                    await _move_sequences(connection)
                for name in tables:
                    mine = lite.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0]
                    theirs = await connection.fetchval(f'SELECT COUNT(*) FROM "{name}"')
                    report.counts[name] = (mine, theirs)
                    if mine != theirs:
                        report.problems.append(f"{name}: {mine} rows in SQLite, {theirs} in PostgreSQL")
        await _replay_sample(store, report, sample, random.Random(seed))
    finally:
        await store.close()
    return report


def _tables(lite: sqlite3.Connection) -> list[str]:
    names = {
        row[0]
        for row in lite.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    } - set(_SKIPPED)
    return [name for name in _ORDER if name in names] + sorted(names - set(_ORDER))


async def _copy_table(lite: sqlite3.Connection, connection: asyncpg.Connection, name: str) -> None:
    mine = [row[1] for row in lite.execute(f'PRAGMA table_info("{name}")')]
    theirs = {
        row[0]
        for row in await connection.fetch(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
            " AND table_name = $1",
            name,
        )
    }
    if not theirs:
        raise RuntimeError(f"PostgreSQL has no table {name!r}: its migrations are behind SQLite's")
    columns = [column for column in mine if column in theirs]
    keys = [
        row[0]
        for row in await connection.fetch(
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
            " AND a.attnum = ANY(i.indkey) WHERE i.indrelid = $1::regclass AND i.indisprimary",
            name,
        )
    ]
    others = [column for column in columns if column not in keys]
    quoted = ", ".join(f'"{column}"' for column in columns)
    marks = ", ".join(f"${number}" for number in range(1, len(columns) + 1))
    if keys and others:
        conflict = f" ON CONFLICT ({', '.join(keys)}) DO UPDATE SET " + ", ".join(
            f'"{column}" = excluded."{column}"' for column in others
        )
    else:
        conflict = " ON CONFLICT DO NOTHING"
    sql = f'INSERT INTO "{name}" ({quoted}) VALUES ({marks}){conflict}'
    cursor = lite.execute(f'SELECT {quoted} FROM "{name}"')
    while rows := cursor.fetchmany(_BATCH):
        await connection.executemany(sql, rows)


async def _move_sequences(connection: asyncpg.Connection) -> None:
    """New ids and result numbers start after the copied ones."""
    for table, column in (
        ("games", "id"),
        ("rating_events", "id"),
        ("seasons", "id"),
        ("former_players", "number"),
    ):
        await connection.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
            f" GREATEST((SELECT MAX({column}) FROM {table}), 1))"
        )
    await connection.execute("SELECT setval('results_seq', GREATEST((SELECT MAX(seq) FROM results), 1))")


async def _replay_sample(store: PostgresStore, report: Report, sample: int, rng: random.Random) -> None:
    """Replay started games read back from PostgreSQL: the stored snapshot and result must be
    what their log gives."""
    rows = await store._pool.fetch(
        "SELECT id FROM games WHERE seed IS NOT NULL AND state IS NOT NULL AND status IN ('running', 'finished')"
        " ORDER BY id"
    )
    ids = [row[0] for row in rows]
    for table_id in sorted(rng.sample(ids, min(sample, len(ids)))):
        table = await store.load_table(table_id)
        stored = await store.load_state(table_id)
        if table is None or stored is None or table.seed is None:
            continue
        if table.game not in REGISTRY:
            report.problems.append(f"game #{table_id}: unknown game {table.game!r}")
            continue
        game = get_game(table.game)
        record = GameRecord(
            game=table.game,
            players=len(table.seats),
            seed=table.seed,
            options=table.options,
            moves=await store.move_log(table_id),
        )
        try:
            state, _ = replay(game, record)
        except (ReplayError, GameError) as error:
            report.problems.append(f"game #{table_id} does not replay: {error}")
            continue
        if _plain(game.view(state, None)) != _plain(game.view(game.decode_state(stored), None)):
            report.problems.append(f"game #{table_id}: its log does not give its stored position")
            continue
        result = await store.game_result(table_id)
        if table.status == "finished" and (
            result is None or list(result.outcome.scores) != list(game.outcome(state).scores)
        ):
            report.problems.append(f"game #{table_id}: its log does not give its stored result")
            continue
        report.replayed += 1


def _plain(view: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(view))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m db.migrate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--from", dest="source", required=True, help="sqlite:///path/to/referee.sqlite3")
    parser.add_argument(
        "--to", dest="target", required=True, help="postgresql://user:password@host:5432/name"
    )
    parser.add_argument("--sample", type=int, default=50, help="games to replay from their logs (default 50)")
    parser.add_argument("--seed", type=int, help="seed of the sample (default: a new one)")
    args = parser.parse_args(argv)
    if not is_postgres_url(args.target):
        parser.error("--to must be a postgresql:// URL")
    if is_postgres_url(args.source):
        parser.error("--from must be a SQLite file (sqlite:///path)")
    report = asyncio.run(migrate(args.source, args.target, sample=args.sample, seed=args.seed))
    print(f"copied {sqlite_path_of(args.source)} to {redacted(args.target)}")
    for name, (mine, theirs) in report.counts.items():
        print(f"  {name}: {mine} rows in SQLite, {theirs} in PostgreSQL")
    print(f"  {report.replayed} games replayed from their logs")
    for problem in report.problems:
        print(f"PROBLEM: {problem}", file=sys.stderr)
    print("verified" if report.ok else "NOT verified: see the problems above")
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
