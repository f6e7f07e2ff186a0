"""What changed between two snapshots of a database: rows added, removed and changed per table.

A pure function on two `DbSnapshot`s. Rows are matched by primary key; a table without one is
compared as a multiset of whole rows (so a change shows as one removed and one added row).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pydantic import BaseModel, Field

from fleet_tui.tasks.snapshot import DbSnapshot, TableSnapshot


class RowChange(BaseModel):
    key: dict[str, Any]
    before: dict[str, Any]
    after: dict[str, Any]
    columns: list[str]
    """The columns whose values differ."""


class TableDiff(BaseModel):
    table: str
    added: list[dict[str, Any]] = Field(default_factory=list)
    removed: list[dict[str, Any]] = Field(default_factory=list)
    changed: list[RowChange] = Field(default_factory=list)
    unchanged: int = 0
    schema_changed: bool = False
    """The table was created or dropped, or its columns differ."""

    @property
    def change_count(self) -> int:
        return len(self.added) + len(self.removed) + len(self.changed)


class StateDiff(BaseModel):
    resource: str
    tables: list[TableDiff] = Field(default_factory=list)
    """Only tables with at least one change, in name order."""

    @property
    def is_empty(self) -> bool:
        return not self.tables

    def summary(self) -> str:
        """One line: `issues +1 -0 ~2, labels +0 -1 ~0`, or `no changes`."""
        if self.is_empty:
            return "no changes"
        return ", ".join(
            f"{t.table} +{len(t.added)} -{len(t.removed)} ~{len(t.changed)}" for t in self.tables
        )


def diff_snapshots(seed: DbSnapshot, current: DbSnapshot) -> StateDiff:
    """The changes that turn `seed` into `current`."""
    diff = StateDiff(resource=current.resource or seed.resource)
    for name in sorted(set(seed.tables) | set(current.tables)):
        before, after = seed.tables.get(name), current.tables.get(name)
        table_diff = _diff_table(name, before, after)
        if table_diff.change_count or table_diff.schema_changed:
            diff.tables.append(table_diff)
    return diff


def _diff_table(name: str, before: TableSnapshot | None, after: TableSnapshot | None) -> TableDiff:
    if before is None or after is None:
        present = before or after
        records = present.records() if present else []
        return TableDiff(
            table=name,
            added=records if after else [],
            removed=records if before else [],
            schema_changed=True,
        )
    schema_changed = before.columns != after.columns
    key = before.primary_key if before.primary_key == after.primary_key else []
    if key and not schema_changed:
        return _diff_by_key(name, key, before.records(), after.records())
    return _diff_as_multiset(name, before.records(), after.records(), schema_changed)


def _diff_by_key(
    name: str, key: list[str], before: list[dict[str, Any]], after: list[dict[str, Any]]
) -> TableDiff:
    def key_of(row: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(row.get(column) for column in key)

    old = {key_of(row): row for row in before}
    new = {key_of(row): row for row in after}
    diff = TableDiff(table=name)
    for k, row in new.items():
        if k not in old:
            diff.added.append(row)
        elif row != old[k]:
            columns = [c for c in row if row.get(c) != old[k].get(c)]
            diff.changed.append(
                RowChange(
                    key=dict(zip(key, k, strict=True)), before=old[k], after=row, columns=columns
                )
            )
        else:
            diff.unchanged += 1
    diff.removed = [row for k, row in old.items() if k not in new]
    return diff


def _diff_as_multiset(
    name: str, before: list[dict[str, Any]], after: list[dict[str, Any]], schema_changed: bool
) -> TableDiff:
    def frozen(row: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
        return tuple(sorted((k, repr(v)) for k, v in row.items()))

    old, new = Counter(map(frozen, before)), Counter(map(frozen, after))
    added_keys, removed_keys = new - old, old - new
    diff = TableDiff(table=name, schema_changed=schema_changed)
    diff.added = _take(after, added_keys, frozen)
    diff.removed = _take(before, removed_keys, frozen)
    diff.unchanged = sum((old & new).values())
    return diff


def _take(rows: list[dict[str, Any]], wanted: Counter, frozen: Any) -> list[dict[str, Any]]:
    left, taken = Counter(wanted), []
    for row in rows:
        k = frozen(row)
        if left[k] > 0:
            left[k] -= 1
            taken.append(row)
    return taken
