"""`desktop-todo`: a computer-use env, a todo app driven through one `computer` tool.

Every action reads the app's state from SQLite (`todos`, and the `ui` row holding focus,
field contents, filter, scroll and mouse position), applies the click or key, writes the
state back and returns a fresh 1280x800 PNG screenshot. `mcp` serves `computer`;
`api/v1/mcp` serves `computer` too (same schema) plus a read-only `app_state`.
"""

from __future__ import annotations

import sqlite3
from dataclasses import asdict, replace
from typing import Annotated, Any, Literal

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from fleet_tui.local.envs import todo_gui as gui
from fleet_tui.local.envs.base import DataSet, EnvSpec, mcp_server, tool
from fleet_tui.local.state import InstanceState

SCHEMA = """
CREATE TABLE todos (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    done INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
    created_at TEXT NOT NULL
);
CREATE TABLE ui (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    focus TEXT NOT NULL DEFAULT '', draft TEXT NOT NULL DEFAULT '',
    edit_id INTEGER NOT NULL DEFAULT 0, edit_text TEXT NOT NULL DEFAULT '',
    filter TEXT NOT NULL DEFAULT 'all', scroll INTEGER NOT NULL DEFAULT 0,
    cursor_x INTEGER NOT NULL DEFAULT 640, cursor_y INTEGER NOT NULL DEFAULT 400
);
INSERT INTO ui (id) VALUES (1);
"""

SEED = """
INSERT INTO todos (title, done, created_at) VALUES
    ('Send weekly report', 0, '2026-01-05T09:00:00Z'),
    ('Call the dentist', 0, '2026-01-05T09:01:00Z'),
    ('Water plants', 0, '2026-01-05T09:02:00Z'),
    ('Book train tickets', 1, '2026-01-05T09:03:00Z'),
    ('Renew library card', 0, '2026-01-05T09:04:00Z');
"""

MANY = "\n".join(
    f"INSERT INTO todos (title, done, created_at) VALUES ('Errand {n}', {n % 3 == 0}, "
    f"'2026-01-06T10:{n:02d}:00Z');"
    for n in range(1, 16)
)

Action = Literal["screenshot", "left_click", "double_click", "type", "key", "scroll", "mouse_move"]
SUBMIT_KEYS = {"return", "enter", "kp_enter"}
ERASE_KEYS = {"backspace", "delete"}
KEYS = SUBMIT_KEYS | ERASE_KEYS | {"escape", "tab"}


def seed_sql(version: str) -> str:
    return SCHEMA + SEED


def load(conn: sqlite3.Connection) -> tuple[list[gui.Todo], gui.Ui]:
    todos = [
        gui.Todo(id=row[0], title=row[1], done=bool(row[2]))
        for row in conn.execute("SELECT id, title, done FROM todos ORDER BY id")
    ]
    conn.row_factory = sqlite3.Row
    row = conn.execute("SELECT * FROM ui WHERE id = 1").fetchone()
    conn.row_factory = None
    ui = gui.Ui(**{key: row[key] for key in row.keys() if key != "id"})  # noqa: SIM118 (Row iterates values)
    return todos, ui


def save_ui(conn: sqlite3.Connection, ui: gui.Ui) -> None:
    values = asdict(ui)
    assignments = ", ".join(f"{column} = ?" for column in values)
    conn.execute(f"UPDATE ui SET {assignments} WHERE id = 1", list(values.values()))


def _add(conn: sqlite3.Connection, title: str, stamp: str) -> str:
    title = title.strip()
    if not title:
        return "nothing to add: the field is empty"
    conn.execute("INSERT INTO todos (title, done, created_at) VALUES (?, 0, ?)", (title, stamp))
    return f"added {title!r}"


def _finish_edit(conn: sqlite3.Connection, ui: gui.Ui) -> tuple[gui.Ui, str]:
    """Save a rename in progress (an empty name keeps the old one)."""
    if ui.focus != "edit":
        return ui, ""
    note = ""
    if ui.edit_text.strip():
        conn.execute("UPDATE todos SET title = ? WHERE id = ?", (ui.edit_text.strip(), ui.edit_id))
        note = f"renamed to {ui.edit_text.strip()!r}; "
    return replace(ui, focus="", edit_id=0, edit_text=""), note


def click(
    conn: sqlite3.Connection,
    todos: list[gui.Todo],
    ui: gui.Ui,
    x: int,
    y: int,
    double: bool,
    stamp: str,
) -> tuple[gui.Ui, str]:
    """What a click at (x, y) does (a todo it adds is created at `stamp`); returns the new UI
    state and a one-line summary."""
    for row in gui.rows(todos, ui):
        if ui.focus == "edit" and ui.edit_id == row.todo.id and gui.inside(row.title, x, y):
            return ui, "clicked inside the field being edited"
    ui, note = _finish_edit(conn, ui)
    if gui.inside(gui.INPUT, x, y):
        return replace(ui, focus="new"), note + "focused the new-todo field"
    ui = replace(ui, focus="")
    if gui.inside(gui.ADD_BUTTON, x, y):
        note += _add(conn, ui.draft, stamp)
        return replace(ui, draft=""), note
    for name, box in gui.FILTERS.items():
        if gui.inside(box, x, y):
            return replace(ui, filter=name, scroll=0), note + f"showing {name}"
    if gui.inside(gui.CLEAR_BUTTON, x, y):
        count = conn.execute("DELETE FROM todos WHERE done = 1").rowcount
        return replace(ui, scroll=0), note + f"cleared {count} completed"
    for row in gui.rows(todos, ui):
        if gui.inside(row.checkbox, x, y):
            conn.execute("UPDATE todos SET done = 1 - done WHERE id = ?", (row.todo.id,))
            state = "not done" if row.todo.done else "done"
            return ui, note + f"marked {row.todo.title!r} {state}"
        if gui.inside(row.delete, x, y):
            conn.execute("DELETE FROM todos WHERE id = ?", (row.todo.id,))
            return ui, note + f"deleted {row.todo.title!r}"
        if double and gui.inside(row.title, x, y):
            edit = replace(ui, focus="edit", edit_id=row.todo.id, edit_text=row.todo.title)
            return edit, note + f"editing {row.todo.title!r}"
    return ui, note + "clicked on nothing"


def type_text(ui: gui.Ui, text: str) -> tuple[gui.Ui, str]:
    if ui.focus == "new":
        return replace(ui, draft=ui.draft + text), f"typed {text!r}"
    if ui.focus == "edit":
        return replace(ui, edit_text=ui.edit_text + text), f"typed {text!r}"
    return ui, "typed into nothing: click a field first"


def press(conn: sqlite3.Connection, ui: gui.Ui, key: str, stamp: str) -> tuple[gui.Ui, str]:
    name = key.strip().lower()
    if name in SUBMIT_KEYS:
        if ui.focus == "new":
            note = _add(conn, ui.draft, stamp)
            return replace(ui, draft=""), note
        ui, note = _finish_edit(conn, ui)
        return ui, note.rstrip("; ") or "enter pressed, nothing to submit"
    if name in ERASE_KEYS:
        if ui.focus == "new":
            return replace(ui, draft=ui.draft[:-1]), "erased one character"
        if ui.focus == "edit":
            return replace(ui, edit_text=ui.edit_text[:-1]), "erased one character"
        return ui, "nothing to erase"
    if name == "escape":
        return replace(ui, focus="", edit_id=0, edit_text=""), "cancelled"
    ui, note = _finish_edit(conn, ui)  # tab: `perform` lets no other key through
    return replace(ui, focus="new"), note + "focused the new-todo field"


def perform(
    state: InstanceState,
    action: str,
    coordinate: list[int] | None,
    text: str | None,
    scroll_direction: str,
    scroll_amount: int,
) -> tuple[str, bytes]:
    """Apply one computer action to the app; the summary and the next screenshot. Every
    action but a screenshot takes one tick of the instance's clock."""
    needs_point = action in {"left_click", "double_click", "scroll", "mouse_move"}
    if needs_point and coordinate is None:
        raise ToolError(f"{action} needs coordinate [x, y]")
    if coordinate is not None and not (
        0 <= coordinate[0] < gui.WIDTH and 0 <= coordinate[1] < gui.HEIGHT
    ):
        raise ToolError(f"coordinate {coordinate} is off the {gui.WIDTH}x{gui.HEIGHT} screen")
    if (action == "type" and not text) or (action == "key" and not (text or "").strip()):
        raise ToolError(f"{action} needs text")
    keys = (text or "").split()  # "BackSpace BackSpace" presses twice
    if action == "key":
        for key in keys:
            if key.lower() not in KEYS:
                raise ToolError(
                    f"unsupported key {key!r}: use Return, BackSpace, Delete, Escape or Tab"
                )
    stamp = "" if action == "screenshot" else state.clock.tick()
    with state.connect() as conn:
        todos, ui = load(conn)
        if coordinate is not None:
            ui = replace(ui, cursor_x=coordinate[0], cursor_y=coordinate[1])
        note = "screenshot"
        if action in {"left_click", "double_click"} and coordinate is not None:
            double = action == "double_click"
            x, y = coordinate
            ui, note = click(conn, todos, ui, x, y, double=double, stamp=stamp)
        elif action == "type" and text:
            ui, note = type_text(ui, text)
        elif action == "key":
            notes = []
            for key in keys:
                ui, key_note = press(conn, ui, key, stamp)
                notes.append(key_note)
            note = "; ".join(notes)
        elif action == "scroll":
            step = scroll_amount if scroll_direction == "down" else -scroll_amount
            ui = replace(ui, scroll=max(ui.scroll + step, 0))
        elif action == "mouse_move" and coordinate is not None:
            note = f"moved to {coordinate[0]},{coordinate[1]}"
        save_ui(conn, ui)
        todos, ui = load(conn)
        ui = _clamp_scroll(todos, ui)  # rows may have gone: never scroll past the last one
        save_ui(conn, ui)
        if action == "scroll":
            note = f"scrolled {scroll_direction} to row {ui.scroll}"
    return note, gui.render(todos, ui)


def _clamp_scroll(todos: list[gui.Todo], ui: gui.Ui) -> gui.Ui:
    limit = max(len(gui.shown(todos, ui)) - gui.VISIBLE_ROWS, 0)
    return replace(ui, scroll=min(ui.scroll, limit))


def build_servers(state: InstanceState):
    from mcp.server.mcpserver import Image

    def computer(
        action: Action,
        coordinate: Annotated[
            list[int] | None,
            Field(min_length=2, max_length=2, description="[x, y] in screen pixels"),
        ] = None,
        text: str | None = Field(default=None, description="Text to type, or the key to press"),
        scroll_direction: Literal["up", "down"] = "down",
        scroll_amount: Annotated[int, Field(ge=1, le=10)] = 3,
    ) -> list[Any]:
        """Use the todo app's screen (1280x800): take a screenshot, click, type, press a key
        (Return, BackSpace, Delete, Escape, Tab; several separated by spaces), scroll or move
        the mouse. Returns a screenshot."""
        note, png = perform(state, action, coordinate, text, scroll_direction, scroll_amount)
        return [note, Image(data=png, format="png")]

    def app_state() -> dict[str, Any]:
        """The app's todos and UI state as data (read-only, for debugging)."""
        with state.connect(read_only=True) as conn:
            todos, ui = load(conn)
        return {"todos": [asdict(todo) for todo in todos], "ui": asdict(ui)}

    screen = tool(computer, structured_output=False)
    return {
        "mcp": mcp_server("desktop-todo", [screen]),
        "api/v1/mcp": mcp_server("desktop-todo-api", [screen, tool(app_state)]),
    }


SPEC = EnvSpec(
    key="desktop-todo",
    name="Desktop todo app",
    description="A todo app GUI (computer use): one `computer` tool returning screenshots.",
    versions={"v1.0.0": "first release"},
    seed_sql=seed_sql,
    build_servers=build_servers,
    data_sets={"todo-many": DataSet("fifteen more todos, to need scrolling", {"v1": MANY})},
)
