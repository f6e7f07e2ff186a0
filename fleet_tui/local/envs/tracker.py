"""`tracker`: a tool-use env, a small issue tracker over SQLite.

Tools are split over the instance's two MCP endpoints, so only their union is complete:
`list_issues` and `get_issue` are on both (identical schemas), `create_issue` and
`update_issue` only on `mcp`, `add_comment`, `search_issues`, `bulk_label` and `list_users`
only on `api/v1/mcp`. Their schemas between them use enums, bounded integers, booleans,
string arrays, an array of objects, nested objects, optional and nullable fields, defaults
and pydantic models (`$defs`/`$ref`). Every call that changes the state takes one tick of
the instance's logical clock (`fleet_tui.local.clock`), which stamps `created_at` and
`updated_at`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Annotated, Any, Literal

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, Field, WithJsonSchema

from fleet_tui.local.envs.base import DataSet, EnvSpec, mcp_server, tool
from fleet_tui.local.state import InstanceState

Status = Literal["open", "in_progress", "done", "closed"]
Priority = Literal["low", "medium", "high", "urgent"]
IssueId = Annotated[int, Field(ge=1, description="The issue's number")]

SCHEMA = """
CREATE TABLE users (
    username TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, role TEXT NOT NULL
);
CREATE TABLE projects (key TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE issues (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    project TEXT NOT NULL REFERENCES projects(key),
    title TEXT NOT NULL,
    description TEXT,
    status TEXT NOT NULL DEFAULT 'open'
        CHECK (status IN ('open', 'in_progress', 'done', 'closed')),
    priority TEXT NOT NULL DEFAULT 'medium'
        CHECK (priority IN ('low', 'medium', 'high', 'urgent')),
    assignee TEXT REFERENCES users(username),
    estimate INTEGER,
    parent_id INTEGER REFERENCES issues(id),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE labels (
    issue_id INTEGER NOT NULL REFERENCES issues(id), label TEXT NOT NULL,
    PRIMARY KEY (issue_id, label)
);
CREATE TABLE comments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    issue_id INTEGER NOT NULL REFERENCES issues(id),
    author TEXT NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL
);
"""

SEED = """
INSERT INTO users VALUES
    ('alice', 'Alice Chen', 'alice@example.com', 'lead'),
    ('bob', 'Bob Okafor', 'bob@example.com', 'developer'),
    ('carol', 'Carol Diaz', 'carol@example.com', 'developer'),
    ('dave', 'Dave Kim', 'dave@example.com', 'qa');
INSERT INTO projects VALUES ('WEB', 'Website'), ('API', 'Public API');
INSERT INTO issues (id, project, title, description, status, priority, assignee, estimate,
                    created_at, updated_at) VALUES
    (1, 'WEB', 'Login button misaligned on mobile', 'The button overflows below 360px.',
        'open', 'medium', 'bob', 2, '2026-01-05T09:00:00Z', '2026-01-05T09:00:00Z'),
    (2, 'WEB', 'Add dark mode', NULL, 'open', 'low', NULL, NULL,
        '2026-01-05T09:10:00Z', '2026-01-05T09:10:00Z'),
    (3, 'API', 'Rate limiter returns 500 instead of 429', 'Seen under load tests.',
        'in_progress', 'high', 'carol', 3, '2026-01-06T10:00:00Z', '2026-01-07T08:00:00Z'),
    (4, 'API', 'Document pagination parameters', NULL, 'open', 'low', NULL, 1,
        '2026-01-06T11:00:00Z', '2026-01-06T11:00:00Z'),
    (5, 'WEB', 'Checkout page crashes on Safari', 'Safari 17 only; console shows a TypeError.',
        'open', 'urgent', NULL, NULL, '2026-01-07T12:00:00Z', '2026-01-07T12:00:00Z'),
    (6, 'API', 'Upgrade database driver', NULL, 'done', 'medium', 'bob', 2,
        '2026-01-02T09:00:00Z', '2026-01-04T17:00:00Z'),
    (7, 'WEB', 'Broken link in footer', 'The privacy link points to a 404.',
        'open', 'low', 'dave', 1, '2026-01-08T09:30:00Z', '2026-01-08T09:30:00Z'),
    (8, 'API', 'Webhook retries are not exponential', NULL, 'open', 'high', NULL, 5,
        '2026-01-08T14:00:00Z', '2026-01-08T14:00:00Z');
INSERT INTO labels VALUES
    (1, 'bug'), (1, 'ui'), (2, 'feature'), (2, 'ui'), (3, 'bug'), (4, 'docs'),
    (5, 'bug'), (5, 'checkout'), (6, 'chore'), (7, 'bug'), (8, 'bug');
INSERT INTO comments (issue_id, author, body, created_at) VALUES
    (3, 'alice', 'Please add a regression test.', '2026-01-07T08:05:00Z'),
    (5, 'dave', 'Reproduced on an iPhone 15.', '2026-01-07T12:30:00Z');
"""

OPS_PROJECT = "INSERT INTO projects VALUES ('OPS', 'Operations');"

BACKLOG = "\n".join(
    f"INSERT INTO issues (project, title, status, priority, created_at, updated_at) VALUES "
    f"('WEB', 'Backlog item {n}', 'open', 'low', '2026-01-0{1 + n % 9}T08:00:00Z', "
    f"'2026-01-0{1 + n % 9}T08:00:00Z');"
    for n in range(1, 13)
)


def seed_sql(version: str) -> str:
    extra = OPS_PROJECT if version >= "v1.2.0" else ""
    return SCHEMA + SEED + extra


class Subtask(BaseModel):
    """A child issue created together with its parent."""

    title: str = Field(min_length=1)
    estimate: int | None = Field(default=None, ge=0, le=100, description="Story points")


class IssueChanges(BaseModel):
    """Fields to change; a field left out stays as it is."""

    title: str | None = Field(default=None, min_length=1)
    status: Status | None = None
    priority: Priority | None = None
    assignee: str | None = Field(
        default=None, description="Username to assign; set `unassign` to clear it"
    )
    unassign: bool = Field(default=False, description="Remove the assignee")
    estimate: int | None = Field(default=None, ge=0, le=100)


class DateRange(BaseModel):
    after: str | None = Field(default=None, description="ISO date, inclusive")
    before: str | None = Field(default=None, description="ISO date, exclusive")


SearchField = Literal["title", "description", "comments"]
DEFAULT_SEARCH_FIELDS: tuple[SearchField, ...] = ("title", "description")


class SearchQuery(BaseModel):
    text: str = Field(min_length=1, description="Case-insensitive text to find")
    fields: list[SearchField] = Field(default_factory=lambda: list(DEFAULT_SEARCH_FIELDS))
    created: DateRange | None = None


SORT_KEYS = {
    "id": "id",
    "updated_at": "updated_at",
    "priority": "CASE priority WHEN 'urgent' THEN 3 WHEN 'high' THEN 2 WHEN 'medium' THEN 1"
    " ELSE 0 END",
}
SortSpec = Annotated[
    dict[str, Any],
    WithJsonSchema(
        {
            "type": "object",
            "description": "How to order the issues",
            "properties": {
                "by": {"type": "string", "enum": list(SORT_KEYS)},
                "descending": {"type": "boolean", "default": True},
            },
            "required": ["by"],
            "additionalProperties": False,
        }
    ),
]
"""An inline nested object (no `$ref`), checked by `_order_by`."""


def _order_by(sort: dict[str, Any] | None) -> str:
    if sort is None:
        return "id DESC"
    unknown = set(sort) - {"by", "descending"}
    if unknown or sort.get("by") not in SORT_KEYS:
        raise ToolError(f"sort needs by: one of {', '.join(SORT_KEYS)} (and descending)")
    descending = sort.get("descending", True)
    if not isinstance(descending, bool):
        raise ToolError("sort.descending must be true or false")
    return f"{SORT_KEYS[sort['by']]} {'DESC' if descending else 'ASC'}, id DESC"


def _issue(conn: sqlite3.Connection, issue_id: int) -> dict[str, Any]:
    conn.row_factory = sqlite3.Row
    row = conn.execute("SELECT * FROM issues WHERE id = ?", (issue_id,)).fetchone()
    if row is None:
        raise ToolError(f"issue {issue_id} does not exist")
    issue = dict(row)
    issue["labels"] = [
        label
        for (label,) in conn.execute(
            "SELECT label FROM labels WHERE issue_id = ? ORDER BY label", (issue_id,)
        )
    ]
    return issue


def _check_user(conn: sqlite3.Connection, username: str | None) -> None:
    if (
        username is not None
        and not conn.execute("SELECT 1 FROM users WHERE username = ?", (username,)).fetchone()
    ):
        raise ToolError(f"unknown user {username!r}")


def build_servers(state: InstanceState):
    def list_issues(
        status: Status | None = None,
        priority: Priority | None = None,
        assignee: str | None = None,
        labels: Annotated[tuple[str, ...], Field(description="Issues having all of these")] = (),
        include_closed: bool = False,
        sort: SortSpec | None = None,
        limit: Annotated[int, Field(ge=1, le=100)] = 20,
    ) -> dict[str, Any]:
        """List issues, newest first unless `sort` says otherwise, optionally filtered."""
        sql, args = "SELECT id FROM issues WHERE 1=1", list[str | int]()
        for column, value in (("status", status), ("priority", priority), ("assignee", assignee)):
            if value is not None:
                sql += f" AND {column} = ?"
                args.append(value)
        if not include_closed and status is None:
            sql += " AND status != 'closed'"
        for label in labels:
            sql += " AND id IN (SELECT issue_id FROM labels WHERE label = ?)"
            args.append(label)
        sql += f" ORDER BY {_order_by(sort)} LIMIT ?"
        args.append(limit)
        with state.connect(read_only=True) as conn:
            ids = [issue_id for (issue_id,) in conn.execute(sql, args).fetchall()]
            return {"issues": [_issue(conn, issue_id) for issue_id in ids], "count": len(ids)}

    def get_issue(issue_id: IssueId, include_comments: bool = True) -> dict[str, Any]:
        """One issue with its labels and (by default) comments."""
        with state.connect(read_only=True) as conn:
            issue = _issue(conn, issue_id)
            if include_comments:
                issue["comments"] = [
                    dict(row)
                    for row in conn.execute(
                        "SELECT author, body, created_at FROM comments WHERE issue_id = ? "
                        "ORDER BY id",
                        (issue_id,),
                    )
                ]
            return issue

    def create_issue(
        project: Literal["WEB", "API", "OPS"],
        title: Annotated[str, Field(min_length=1, max_length=200)],
        description: str | None = None,
        priority: Priority = "medium",
        labels: tuple[str, ...] = (),
        assignee: str | None = None,
        estimate: Annotated[int | None, Field(ge=0, le=100)] = None,
        subtasks: tuple[Subtask, ...] = (),
    ) -> dict[str, Any]:
        """Create an issue (and its subtasks as child issues)."""
        with state.connect() as conn:
            if not conn.execute("SELECT 1 FROM projects WHERE key = ?", (project,)).fetchone():
                raise ToolError(f"project {project} does not exist in this version")
            _check_user(conn, assignee)
            now = state.clock.tick()
            cursor = conn.execute(
                "INSERT INTO issues (project, title, description, priority, assignee, estimate,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (project, title, description, priority, assignee, estimate, now, now),
            )
            issue_id = int(cursor.lastrowid or 0)  # an INSERT always sets it
            conn.executemany(
                "INSERT OR IGNORE INTO labels VALUES (?, ?)",
                [(issue_id, label) for label in labels],
            )
            for subtask in subtasks:
                conn.execute(
                    "INSERT INTO issues (project, title, priority, estimate, parent_id,"
                    " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (project, subtask.title, priority, subtask.estimate, issue_id, now, now),
                )
            issue = _issue(conn, issue_id)
            issue["subtask_ids"] = [
                child
                for (child,) in conn.execute(
                    "SELECT id FROM issues WHERE parent_id = ? ORDER BY id", (issue_id,)
                )
            ]
            return issue

    def update_issue(issue_id: IssueId, changes: IssueChanges) -> dict[str, Any]:
        """Change an issue's title, status, priority, assignee or estimate."""
        updates = changes.model_dump(exclude_none=True, exclude={"unassign"})
        with state.connect() as conn:
            _issue(conn, issue_id)
            _check_user(conn, changes.assignee)
            if changes.unassign:
                updates["assignee"] = None
            if not updates:
                raise ToolError("no changes given")
            assignments = ", ".join(f"{column} = ?" for column in updates)
            conn.execute(
                f"UPDATE issues SET {assignments}, updated_at = ? WHERE id = ?",
                [*updates.values(), state.clock.tick(), issue_id],
            )
            return _issue(conn, issue_id)

    def add_comment(
        issue_id: IssueId,
        body: Annotated[str, Field(min_length=1)],
        author: str = "alice",
    ) -> dict[str, Any]:
        """Add a comment to an issue."""
        with state.connect() as conn:
            _issue(conn, issue_id)
            _check_user(conn, author)
            cursor = conn.execute(
                "INSERT INTO comments (issue_id, author, body, created_at) VALUES (?, ?, ?, ?)",
                (issue_id, author, body, state.clock.tick()),
            )
            return {"comment_id": cursor.lastrowid, "issue_id": issue_id, "author": author}

    def search_issues(
        query: SearchQuery,
        limit: Annotated[int, Field(ge=1, le=50)] = 10,
    ) -> dict[str, Any]:
        """Full-text search over issue titles, descriptions and comments."""
        needle = f"%{query.text.lower()}%"
        clauses, args = [], []
        for name in query.fields:
            if name == "comments":
                clauses.append("id IN (SELECT issue_id FROM comments WHERE lower(body) LIKE ?)")
            else:
                clauses.append(f"lower(coalesce({name}, '')) LIKE ?")
            args.append(needle)
        sql = f"SELECT id, title, status FROM issues WHERE ({' OR '.join(clauses) or '0'})"
        if query.created and query.created.after:
            sql += " AND created_at >= ?"
            args.append(query.created.after)
        if query.created and query.created.before:
            sql += " AND created_at < ?"
            args.append(query.created.before)
        with state.connect(read_only=True) as conn:
            rows = conn.execute(sql + " ORDER BY id LIMIT ?", [*args, limit]).fetchall()
        return {"matches": [{"id": i, "title": t, "status": s} for i, t, s in rows]}

    def bulk_label(
        issue_ids: Annotated[list[int], Field(min_length=1)],
        add: tuple[str, ...] = (),
        remove: tuple[str, ...] = (),
    ) -> dict[str, Any]:
        """Add and remove labels on several issues at once."""
        with state.connect() as conn:
            for issue_id in issue_ids:
                _issue(conn, issue_id)
            conn.executemany(
                "INSERT OR IGNORE INTO labels VALUES (?, ?)",
                [(issue_id, label) for issue_id in issue_ids for label in add],
            )
            conn.executemany(
                "DELETE FROM labels WHERE issue_id = ? AND label = ?",
                [(issue_id, label) for issue_id in issue_ids for label in remove],
            )
            state.clock.tick()  # labels carry no time, but this call changed the state
            return {"issues": [_issue(conn, issue_id) for issue_id in issue_ids]}

    def list_users(role: Literal["lead", "developer", "qa"] | None = None) -> dict[str, Any]:
        """The people issues can be assigned to."""
        with state.connect(read_only=True) as conn:
            conn.row_factory = sqlite3.Row
            rows = conn.execute(
                "SELECT * FROM users WHERE ? IS NULL OR role = ? ORDER BY username", (role, role)
            ).fetchall()
            return {"users": [dict(row) for row in rows]}

    main_tools: list[Callable[..., dict[str, Any]]] = [
        list_issues,
        get_issue,
        create_issue,
        update_issue,
    ]
    api_tools: list[Callable[..., dict[str, Any]]] = [
        list_issues,
        get_issue,
        add_comment,
        search_issues,
        bulk_label,
        list_users,
    ]
    return {
        "mcp": mcp_server("tracker", [tool(function) for function in main_tools]),
        "api/v1/mcp": mcp_server("tracker-api", [tool(function) for function in api_tools]),
    }


SPEC = EnvSpec(
    key="tracker",
    name="Issue tracker",
    description="A small issue tracker (tool use): issues, labels, comments, users.",
    versions={"v1.0.0": "projects WEB and API", "v1.2.0": "adds the OPS project"},
    seed_sql=seed_sql,
    build_servers=build_servers,
    data_sets={
        "tracker-backlog": DataSet("twelve extra low-priority backlog issues", {"v1": BACKLOG}),
    },
)
