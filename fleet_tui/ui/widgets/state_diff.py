"""The state panel: the env's SQLite resources (tables, row counts), a read-only query box, and
the diff of the current state against the seed, refreshed on demand (after every call)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import DataTable, Input, Static

from fleet_tui.envs.base import Env, EnvError
from fleet_tui.tasks.snapshot import DbSnapshot
from fleet_tui.tasks.state_diff import StateDiff, diff_snapshots
from fleet_tui.tasks.verify import query_fn, snapshot_env
from fleet_tui.text import clean, named_error, one_line

READ_ONLY_START = ("select", "with", "pragma", "explain", "values")
MAX_QUERY_ROWS = 500


def _row_text(row: dict[str, Any], limit: int = 160) -> str:
    return one_line(json.dumps(row, ensure_ascii=False, default=str), limit)


def format_resources(snapshots: dict[str, DbSnapshot]) -> Text:
    """`current: issues 8 · labels 11` per resource."""
    text = Text()
    for name, snapshot in snapshots.items():
        counts = " · ".join(f"{clean(t)} {n}" for t, n in snapshot.row_counts().items())
        text.append(f"{clean(name)}", style="bold")
        text.append(f": {counts or 'no tables'}\n")
    return text


def format_diff(diff: StateDiff | None, note: str = "") -> Text:
    """The diff as literal text: + added, - removed, ~ changed rows per table (a row a line)."""
    text = Text(no_wrap=True)
    if note:
        text.append(note + "\n", style="italic")
    if diff is None:
        return text
    if diff.is_empty:
        text.append("No changes since the seed.", style="dim")
        return text
    for table in diff.tables:
        text.append(f"{clean(table.table)}", style="bold")
        text.append(
            f"  +{len(table.added)} -{len(table.removed)} ~{len(table.changed)}\n", style="dim"
        )
        for row in table.added:
            text.append(f"  + {_row_text(row)}\n", style="green")
        for row in table.removed:
            text.append(f"  - {_row_text(row)}\n", style="red")
        for change in table.changed:
            key = ", ".join(f"{k}={v}" for k, v in change.key.items())
            text.append(f"  ~ {clean(key)}\n", style="yellow")
            for column in change.columns:
                before = one_line(repr(change.before.get(column)), 60)
                after = one_line(repr(change.after.get(column)), 60)
                text.append(f"      {clean(column)}: {before} → {after}\n")
    return text


def is_read_only(sql: str) -> bool:
    return sql.strip().lower().startswith(READ_ONLY_START) and ";" not in sql.strip().rstrip(";")


class StateDiffPanel(Vertical):
    """Reads the env through `env_getter`; call `refresh_state()` after each call or reset."""

    DEFAULT_CSS = """
    StateDiffPanel { height: 1fr; }
    StateDiffPanel #state-resources { height: auto; max-height: 8; padding: 0 1; }
    StateDiffPanel #state-diff-scroll { height: 2fr; border-top: solid $panel; overflow-x: auto; }
    /* as wide as its longest line: a narrow pane scrolls it sideways, never wraps it */
    StateDiffPanel #state-diff { padding: 0 1; width: auto; }
    StateDiffPanel #state-query { margin-top: 1; }
    StateDiffPanel #state-query-result { height: 1fr; }
    """

    def __init__(self, env_getter: Callable[[], Env | None], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.env_getter = env_getter
        self.baseline: DbSnapshot | None = None
        """A seed stand-in (taken after reset) for envs without a `seed` resource."""
        self.snapshots: dict[str, DbSnapshot] = {}
        self.diff: StateDiff | None = None
        self.refreshes = 0

    def compose(self) -> ComposeResult:
        yield Static(Text("No env yet.", style="dim"), id="state-resources")
        with VerticalScroll(id="state-diff-scroll", can_focus=False):
            yield Static(id="state-diff")
        yield Input(
            placeholder="read-only SQL on current, e.g. SELECT * FROM issues", id="state-query"
        )
        yield DataTable(id="state-query-result", zebra_stripes=True)

    def refresh_state(self, *, new_baseline: bool = False) -> None:
        """Re-read the env and recompute the diff (in a worker)."""
        self._refresh(new_baseline)

    @work(group="state-diff", exclusive=True, exit_on_error=False)
    async def _refresh(self, new_baseline: bool) -> None:
        env = self.env_getter()
        if env is None:
            return
        try:
            snapshots = await snapshot_env(env)
        except EnvError as error:
            self._show_problem(error.message)
            return
        except Exception as error:  # an env without SQLite resources, a dropped connection
            self._show_problem(named_error(error))
            return
        current = snapshots.get("current")
        if new_baseline or self.baseline is None:
            self.baseline = current
        seed = snapshots.get("seed") or self.baseline
        note = (
            "" if "seed" in snapshots else "No seed resource: compared with the state after reset."
        )
        self.snapshots = snapshots
        self.diff = diff_snapshots(seed, current) if seed and current else None
        if current is None:
            note = "The env has no 'current' SQLite resource."
        self.query_one("#state-resources", Static).update(format_resources(snapshots))
        self.query_one("#state-diff", Static).update(format_diff(self.diff, note))
        self.refreshes += 1

    def _show_problem(self, message: str) -> None:
        self.query_one("#state-resources", Static).update(Text(one_line(message, 300), style="red"))

    @on(Input.Submitted, "#state-query")
    def _query_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.run_query(event.value)

    @work(group="state-query", exclusive=True, exit_on_error=False)
    async def run_query(self, sql: str) -> None:
        table = self.query_one("#state-query-result", DataTable)
        table.clear(columns=True)
        env = self.env_getter()
        if not sql.strip():
            return
        if not is_read_only(sql):
            self.notify(
                "Only one read-only statement (SELECT, WITH, PRAGMA…) is allowed here.",
                severity="warning",
            )
            return
        if env is None:
            self.notify("Not connected.", severity="error")
            return
        try:
            columns, rows = await query_fn(env, "current")(sql)
        except Exception as error:
            message = error.message if isinstance(error, EnvError) else str(error)
            self.notify(one_line(message, 300), severity="error", markup=False)
            return
        table.add_columns(*(Text(clean(str(c))) for c in columns))
        for row in rows[:MAX_QUERY_ROWS]:
            table.add_row(*(Text(one_line(str(v), 80)) for v in row))
        if len(rows) > MAX_QUERY_ROWS:
            self.notify(f"Showing {MAX_QUERY_ROWS} of {len(rows)} rows.")
