"""An instance's SQLite state: a seed database and the current one, in their own directory."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fleet_tui.local.clock import LogicalClock, seed_epoch


class InstanceState:
    """`seed.db` (the state a reset restores), `current.db` (what tools change) and the
    logical clock that stamps tools' changes (restarted by every reset)."""

    def __init__(self, directory: Path, clock: LogicalClock) -> None:
        self.directory = directory
        self.seed_db = directory / "seed.db"
        self.current_db = directory / "current.db"
        self.clock = clock

    @classmethod
    def create(cls, parent: Path, seed_script: str) -> InstanceState:
        """A fresh state whose seed is built by running `seed_script`."""
        directory = Path(tempfile.mkdtemp(prefix="instance-", dir=parent))
        with contextlib.closing(sqlite3.connect(directory / "seed.db")) as seed:
            seed.executescript(seed_script)
            seed.commit()
            clock = LogicalClock(seed_epoch(seed))
        state = cls(directory, clock)
        state.reset()
        return state

    def path(self, name: str) -> Path:
        """The file behind resource `name` (`current` or `seed`); KeyError otherwise."""
        paths = {"current": self.current_db, "seed": self.seed_db}
        return paths[name]

    @contextlib.contextmanager
    def connect(
        self, name: str = "current", *, read_only: bool = False
    ) -> Iterator[sqlite3.Connection]:
        """A connection that commits on success and always closes."""
        path = self.path(name)
        mode = "ro" if read_only else "rw"
        conn = sqlite3.connect(f"file:{path}?mode={mode}", uri=True, timeout=10)
        try:
            yield conn
            conn.commit()
        finally:
            conn.close()

    def reset(self, timestamp: int | None = None) -> None:
        """Restore the current database from the seed (safe with other connections open) and
        restart the clock at `timestamp` (Unix seconds) or the seed's epoch."""
        with (
            contextlib.closing(sqlite3.connect(self.seed_db)) as seed,
            contextlib.closing(sqlite3.connect(self.current_db, timeout=10)) as current,
        ):
            seed.backup(current)
        self.clock.restart(timestamp)

    def free(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)


def run_query(
    state: InstanceState,
    name: str,
    query: str,
    args: list[Any] | dict[str, Any] | None,
    read_only: bool,
) -> dict[str, Any]:
    """Run one statement; answer in the manager API's QueryResponse shape."""
    try:
        with state.connect(name, read_only=read_only or name == "seed") as conn:
            cursor = conn.execute(query, args or [])
            if cursor.description:
                columns = [column[0] for column in cursor.description]
                rows = [list(row) for row in cursor.fetchall()]
                return {
                    "success": True,
                    "columns": columns,
                    "rows": rows,
                    "message": f"Query returned {len(rows)} rows",
                }
            return {
                "success": True,
                "columns": None,
                "rows": None,
                "rows_affected": cursor.rowcount,
                "last_insert_id": cursor.lastrowid,
                "message": f"Query affected {cursor.rowcount} rows",
            }
    except sqlite3.Error as error:
        return {"success": False, "error": str(error), "message": f"Query failed: {error}"}


def describe(state: InstanceState, name: str) -> dict[str, Any]:
    """The schema of one database in the manager API's DescribeResponse shape."""
    with state.connect(name, read_only=True) as conn:
        tables = []
        listing = conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type='table' "
            "AND name NOT LIKE 'sqlite_%' ORDER BY name"
        ).fetchall()
        for table, sql in listing:
            info = conn.execute(f'PRAGMA table_info("{table}")').fetchall()
            columns = [
                {
                    "name": column[1],
                    "type": column[2],
                    "notnull": bool(column[3]),
                    "default_value": column[4],
                    "primary_key": column[5] > 0,
                }
                for column in info
            ]
            tables.append({"name": table, "sql": sql or "", "columns": columns})
    return {
        "success": True,
        "resource_name": name,
        "tables": tables,
        "message": f"{len(tables)} tables",
    }
