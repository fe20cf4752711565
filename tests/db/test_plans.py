"""Plans (db/plans.py): one code for both stores, run by each its own way. The both-backend store
tests run every plan on both; these pin what the runners translate."""

from __future__ import annotations

import sqlite3

from db.plans import Plan, execute, execute_many, fetch, fetch_row, fetch_value, lock, run_sqlite
from db.postgres.plans import numbered


def test_postgresql_numbers_the_marks_and_leaves_out_sqlites_index_hints():
    assert numbered("SELECT id FROM games INDEXED BY games_due WHERE a = ? AND b IN (?,?) LIMIT ?") == (
        "SELECT id FROM games WHERE a = $1 AND b IN ($2,$3) LIMIT $4"
    )
    assert numbered("SELECT 1") == "SELECT 1"


def _plan() -> Plan[tuple[object, ...]]:
    yield lock("ratings", "g1", "nim")  # PostgreSQL's alone: nothing on SQLite
    yield execute("", postgresql="LOCK TABLE t IN EXCLUSIVE MODE")  # likewise
    yield execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)")
    yield execute_many("INSERT INTO t (k, v) VALUES (?, ?)", [(1, "a"), (2, "b")])
    yield execute_many("INSERT INTO t (k, v) VALUES (?, ?)", [])
    rows = yield fetch("SELECT k, v FROM t ORDER BY k")
    row = yield fetch_row("SELECT v FROM t WHERE k = ?", 2)
    missing = yield fetch_row("SELECT v FROM t WHERE k = ?", 3)
    count = yield fetch_value("SELECT COUNT(*) FROM t")
    return rows, row, missing, count


def test_sqlite_runs_a_plan_with_each_kind_of_answer():
    with sqlite3.connect(":memory:") as connection:
        assert run_sqlite(connection, _plan()) == ([(1, "a"), (2, "b")], ("b",), None, 2)
