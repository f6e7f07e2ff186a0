"""A snapshot of one SQLite resource, read through any query function, and written back to a file.

The env's SQLite state is reached through the manager API (read-only queries), so a snapshot
is built from queries: the schema from `sqlite_master`, then every row of every table. It can
be written to a local SQLite file, which is what a local verifier run reads.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

Rows = tuple[list[str], list[list[Any]]]
QueryFn = Callable[[str], Awaitable[Rows]]
"""Runs one read-only SQL statement on the resource; returns (column names, rows)."""

DEFAULT_ROW_LIMIT = 50_000


class TableSnapshot(BaseModel):
    name: str
    sql: str | None = None
    """The CREATE TABLE statement."""
    columns: list[str] = Field(default_factory=list)
    primary_key: list[str] = Field(default_factory=list)
    rows: list[list[Any]] = Field(default_factory=list)
    truncated: bool = False
    """True when the table had more rows than the snapshot kept."""

    def records(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row, strict=False)) for row in self.rows]


class DbSnapshot(BaseModel):
    resource: str
    tables: dict[str, TableSnapshot] = Field(default_factory=dict)
    extra_sql: list[str] = Field(default_factory=list)
    """Index, view and trigger statements, replayed after the tables when writing a file."""

    def row_counts(self) -> dict[str, int]:
        return {name: len(table.rows) for name, table in self.tables.items()}


def _quote(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'


async def take_snapshot(
    resource: str, query: QueryFn, row_limit: int = DEFAULT_ROW_LIMIT
) -> DbSnapshot:
    """Read a whole SQLite resource through `query`."""
    _, schema = await query(
        "SELECT type, name, sql FROM sqlite_master "
        "WHERE name NOT LIKE 'sqlite_%' AND sql IS NOT NULL ORDER BY rowid"
    )
    snapshot = DbSnapshot(resource=resource)
    for kind, name, sql in schema:
        if kind != "table":
            snapshot.extra_sql.append(sql)
            continue
        # A SELECT over the table-valued pragma: some hosts route a bare PRAGMA elsewhere and
        # lose the `pk` column.
        literal = "'" + name.replace("'", "''") + "'"
        _, info = await query(f"SELECT name, pk FROM pragma_table_info({literal}) ORDER BY cid")
        primary_key = [row[0] for row in sorted(info, key=lambda r: r[1]) if row[1]]
        order = ", ".join(_quote(c) for c in primary_key) or "rowid"
        columns, rows = await query(
            f"SELECT * FROM {_quote(name)} ORDER BY {order} LIMIT {row_limit + 1}"
        )
        snapshot.tables[name] = TableSnapshot(
            name=name,
            sql=sql,
            columns=columns or [row[0] for row in info],
            primary_key=primary_key,
            rows=[list(r) for r in rows[:row_limit]],
            truncated=len(rows) > row_limit,
        )
    return snapshot


def sqlite_query_fn(path: str | Path) -> QueryFn:
    """A QueryFn over a local SQLite file, opened read-only."""

    async def query(sql: str) -> Rows:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            cursor = connection.execute(sql)
            columns = [d[0] for d in cursor.description or []]
            return columns, [list(r) for r in cursor.fetchall()]
        finally:
            connection.close()

    return query


def write_sqlite(snapshot: DbSnapshot, path: str | Path) -> Path:
    """Write the snapshot as a fresh SQLite file (replacing any file at `path`)."""
    path = Path(path)
    path.unlink(missing_ok=True)
    connection = sqlite3.connect(path)
    try:
        for table in snapshot.tables.values():
            create = table.sql or (
                f"CREATE TABLE {_quote(table.name)} ({', '.join(map(_quote, table.columns))})"
            )
            connection.execute(create)
            if table.rows:
                marks = ", ".join("?" for _ in table.columns)
                connection.executemany(
                    f"INSERT INTO {_quote(table.name)} VALUES ({marks})", table.rows
                )
        for sql in snapshot.extra_sql:
            connection.execute(sql)
        connection.commit()
    finally:
        connection.close()
    return path
