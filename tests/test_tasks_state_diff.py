"""The state diff is a pure function on two snapshots; snapshots round-trip through SQLite."""

from __future__ import annotations

import sqlite3

from fleet_tui.tasks.snapshot import (
    DbSnapshot,
    TableSnapshot,
    sqlite_query_fn,
    take_snapshot,
    write_sqlite,
)
from fleet_tui.tasks.state_diff import diff_snapshots


def table(name, rows, columns=("id", "title", "status"), key=("id",)):
    return TableSnapshot(
        name=name, columns=list(columns), primary_key=list(key), rows=[list(r) for r in rows]
    )


def snap(*tables):
    return DbSnapshot(resource="current", tables={t.name: t for t in tables})


SEED = snap(table("issues", [(1, "Bug", "open"), (2, "Crash", "open"), (3, "Typo", "done")]))


def test_identical_snapshots_have_no_changes():
    diff = diff_snapshots(SEED, SEED)
    assert diff.is_empty and diff.summary() == "no changes"


def test_added_removed_and_changed_rows_by_primary_key():
    current = snap(table("issues", [(1, "Bug", "closed"), (3, "Typo", "done"), (4, "New", "open")]))
    (issues,) = diff_snapshots(SEED, current).tables
    assert issues.added == [{"id": 4, "title": "New", "status": "open"}]
    assert issues.removed == [{"id": 2, "title": "Crash", "status": "open"}]
    (change,) = issues.changed
    assert change.key == {"id": 1} and change.columns == ["status"]
    assert (change.before["status"], change.after["status"]) == ("open", "closed")
    assert issues.unchanged == 1
    assert diff_snapshots(SEED, current).summary() == "issues +1 -1 ~1"


def test_tables_without_primary_key_compare_as_multisets():
    seed = snap(table("log", [("a",), ("a",), ("b",)], columns=("msg",), key=()))
    current = snap(table("log", [("a",), ("b",), ("c",)], columns=("msg",), key=()))
    (log,) = diff_snapshots(seed, current).tables
    assert log.added == [{"msg": "c"}] and log.removed == [{"msg": "a"}]
    assert log.unchanged == 2 and log.changed == []


def test_created_and_dropped_tables():
    current = snap(table("labels", [(1, "x", "y")]))
    diff = diff_snapshots(SEED, current)
    by_name = {t.table: t for t in diff.tables}
    assert by_name["labels"].schema_changed and len(by_name["labels"].added) == 1
    assert by_name["issues"].schema_changed and len(by_name["issues"].removed) == 3


async def test_snapshot_round_trips_through_sqlite(tmp_path):
    source = tmp_path / "source.db"
    connection = sqlite3.connect(source)
    connection.executescript("""
        CREATE TABLE issues (id INTEGER PRIMARY KEY, title TEXT, tags TEXT);
        CREATE TABLE pairs (a INTEGER, b INTEGER, note TEXT, PRIMARY KEY (b, a));
        CREATE TABLE plain (x TEXT);
        CREATE INDEX issues_title ON issues(title);
        INSERT INTO issues VALUES (2, 'two', '["a"]'), (1, 'one', NULL);
        INSERT INTO pairs VALUES (1, 2, 'x'), (3, 1, 'y');
        INSERT INTO plain VALUES ('p'), ('p');
    """)
    connection.commit()
    connection.close()

    snapshot = await take_snapshot("current", sqlite_query_fn(source))
    assert snapshot.row_counts() == {"issues": 2, "pairs": 2, "plain": 2}
    assert snapshot.tables["issues"].rows[0] == [1, "one", None]  # ordered by primary key
    assert snapshot.tables["pairs"].primary_key == ["b", "a"]
    assert snapshot.extra_sql and "issues_title" in snapshot.extra_sql[0]

    copy = write_sqlite(snapshot, tmp_path / "copy.db")
    again = await take_snapshot("current", sqlite_query_fn(copy))
    assert again == snapshot
    assert diff_snapshots(snapshot, again).is_empty


async def test_row_limit_marks_truncation(tmp_path):
    source = tmp_path / "big.db"
    connection = sqlite3.connect(source)
    connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)")
    connection.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(10)])
    connection.commit()
    connection.close()
    snapshot = await take_snapshot("current", sqlite_query_fn(source), row_limit=4)
    assert len(snapshot.tables["t"].rows) == 4 and snapshot.tables["t"].truncated


async def test_snapshot_reads_only_with_select(tmp_path):
    """Hosts route bare PRAGMA statements elsewhere (losing the primary key): only SELECTs."""
    source = tmp_path / "one.db"
    connection = sqlite3.connect(source)
    connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
    connection.commit()
    connection.close()
    seen = []
    inner = sqlite_query_fn(source)

    async def query(sql):
        seen.append(sql)
        return await inner(sql)

    snapshot = await take_snapshot("current", query)
    assert snapshot.tables["t"].primary_key == ["id"]
    assert all(sql.startswith("SELECT") for sql in seen)
