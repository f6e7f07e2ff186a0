"""Write the form test corpus: one JSON file per tool schema in tests/data/schemas/.

Each file is {"name", "source", "schema", "valid", "invalid", "invalid_path"}: a real tool input
schema, arguments that satisfy it, arguments that do not, and the path of the field at fault.
Schemas of public MCP servers are transcribed from their source (zod or hand-written JSON Schema,
as the server sends it); the rest are generated from pydantic models, as FastMCP-style servers
produce them. Run: python scripts/make_form_corpus.py
"""

from __future__ import annotations

import json
from datetime import date, datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Literal
from uuid import UUID

from pydantic import BaseModel, EmailStr, Field, HttpUrl  # noqa: F401

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "schemas"
DRAFT7 = "http://json-schema.org/draft-07/schema#"
SERVERS = "modelcontextprotocol/servers"


def obj(properties: dict, required: list[str] | None = None, **extra: Any) -> dict:
    """An object schema the way zod-to-json-schema writes one for an MCP server."""
    schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    schema.update(extra)
    return schema


def zod(properties: dict, required: list[str] | None = None) -> dict:
    return obj(properties, required, additionalProperties=False, **{"$schema": DRAFT7})


S = {"type": "string"}
N = {"type": "number"}
I = {"type": "integer"}  # noqa: E741
B = {"type": "boolean"}


def s(description: str, **extra: Any) -> dict:
    return {"type": "string", "description": description, **extra}


def arr(items: dict, **extra: Any) -> dict:
    return {"type": "array", "items": items, **extra}


ENTITY = obj(
    {
        "name": s("The name of the entity"),
        "entityType": s("The type of the entity"),
        "observations": arr(S, description="An array of observation contents"),
    },
    ["name", "entityType", "observations"],
)
RELATION = obj(
    {
        "from": s("The name of the entity where the relation starts"),
        "to": s("The name of the entity where the relation ends"),
        "relationType": s("The type of the relation"),
    },
    ["from", "to", "relationType"],
)

MCP_SERVERS: list[tuple[str, str, dict, Any, Any, list]] = [
    # filesystem
    (
        "filesystem_read_text_file",
        f"{SERVERS} src/filesystem",
        zod(
            {
                "path": S,
                "tail": {
                    "type": "number",
                    "description": "If provided, returns only the last N lines",
                },
                "head": {
                    "type": "number",
                    "description": "If provided, returns only the first N lines",
                },
            },
            ["path"],
        ),
        {"path": "notes/a.txt", "head": 10},
        {"path": "notes/a.txt", "head": "10"},
        ["head"],
    ),
    (
        "filesystem_read_multiple_files",
        f"{SERVERS} src/filesystem",
        zod({"paths": arr(S)}, ["paths"]),
        {"paths": ["a.txt", "b.txt"]},
        {"paths": ["a.txt", 3]},
        ["paths", 1],
    ),
    (
        "filesystem_write_file",
        f"{SERVERS} src/filesystem",
        zod({"path": S, "content": S}, ["path", "content"]),
        {"path": "x.md", "content": "# hi\n[/]"},
        {"path": "x.md"},
        ["content"],
    ),
    (
        "filesystem_edit_file",
        f"{SERVERS} src/filesystem",
        zod(
            {
                "path": S,
                "edits": arr(
                    obj(
                        {
                            "oldText": s("Text to search for - must match exactly"),
                            "newText": s("Text to replace with"),
                        },
                        ["oldText", "newText"],
                        additionalProperties=False,
                    )
                ),
                "dryRun": {
                    "type": "boolean",
                    "default": False,
                    "description": "Preview changes using git-style diff format",
                },
            },
            ["path", "edits"],
        ),
        {"path": "a.py", "edits": [{"oldText": "x = 1", "newText": "x = 2"}], "dryRun": True},
        {"path": "a.py", "edits": [{"oldText": "x = 1"}]},
        ["edits", 0, "newText"],
    ),
    (
        "filesystem_list_directory_with_sizes",
        f"{SERVERS} src/filesystem",
        zod(
            {
                "path": S,
                "sortBy": {
                    "type": "string",
                    "enum": ["name", "size"],
                    "default": "name",
                    "description": "Sort entries by name or size",
                },
            },
            ["path"],
        ),
        {"path": ".", "sortBy": "size"},
        {"path": ".", "sortBy": "date"},
        ["sortBy"],
    ),
    (
        "filesystem_move_file",
        f"{SERVERS} src/filesystem",
        zod({"source": S, "destination": S}, ["source", "destination"]),
        {"source": "a", "destination": "b"},
        {"source": "a", "destination": "b", "force": True},
        ["force"],
    ),
    (
        "filesystem_search_files",
        f"{SERVERS} src/filesystem",
        zod(
            {
                "path": S,
                "pattern": S,
                "excludePatterns": {"type": "array", "items": S, "default": []},
            },
            ["path", "pattern"],
        ),
        {"path": ".", "pattern": "*.py", "excludePatterns": ["node_modules"]},
        {"path": ".", "pattern": 5},
        ["pattern"],
    ),
    # memory
    (
        "memory_create_entities",
        f"{SERVERS} src/memory",
        obj({"entities": arr(ENTITY)}, ["entities"]),
        {"entities": [{"name": "Ada", "entityType": "person", "observations": ["wrote notes"]}]},
        {"entities": [{"name": "Ada", "observations": []}]},
        ["entities", 0, "entityType"],
    ),
    (
        "memory_create_relations",
        f"{SERVERS} src/memory",
        obj({"relations": arr(RELATION)}, ["relations"]),
        {"relations": [{"from": "Ada", "to": "Charles", "relationType": "knows"}]},
        {"relations": [{"from": "Ada", "to": 7, "relationType": "knows"}]},
        ["relations", 0, "to"],
    ),
    (
        "memory_add_observations",
        f"{SERVERS} src/memory",
        obj(
            {
                "observations": arr(
                    obj(
                        {
                            "entityName": s("The name of the entity to add the observations to"),
                            "contents": arr(
                                S, description="An array of observation contents to add"
                            ),
                        },
                        ["entityName", "contents"],
                    )
                )
            },
            ["observations"],
        ),
        {"observations": [{"entityName": "Ada", "contents": ["a", "b"]}]},
        {"observations": [{"entityName": "Ada", "contents": "a"}]},
        ["observations", 0, "contents"],
    ),
    (
        "memory_delete_entities",
        f"{SERVERS} src/memory",
        obj(
            {"entityNames": arr(S, description="An array of entity names to delete")},
            ["entityNames"],
        ),
        {"entityNames": ["Ada"]},
        {},
        ["entityNames"],
    ),
    ("memory_read_graph", f"{SERVERS} src/memory", zod({}), {}, {"x": 1}, ["x"]),
    # fetch (pydantic, python server)
    (
        "fetch_fetch",
        f"{SERVERS} src/fetch (pydantic model Fetch)",
        {
            "description": "Parameters for fetching a URL.",
            "properties": {
                "url": {
                    "description": "URL to fetch",
                    "format": "uri",
                    "minLength": 1,
                    "title": "Url",
                    "type": "string",
                },
                "max_length": {
                    "default": 5000,
                    "description": "Maximum number of characters to return.",
                    "exclusiveMaximum": 1000000,
                    "exclusiveMinimum": 0,
                    "title": "Max Length",
                    "type": "integer",
                },
                "start_index": {
                    "default": 0,
                    "description": "On return output starting at this character index.",
                    "minimum": 0,
                    "title": "Start Index",
                    "type": "integer",
                },
                "raw": {
                    "default": False,
                    "description": "Get the actual HTML content of the requested page, "
                    "without simplification.",
                    "title": "Raw",
                    "type": "boolean",
                },
            },
            "required": ["url"],
            "title": "Fetch",
            "type": "object",
        },
        {"url": "https://example.com/", "max_length": 100},
        {"url": "https://example.com/", "max_length": 0},
        ["max_length"],
    ),
    # time (python server, hand-written)
    (
        "time_get_current_time",
        f"{SERVERS} src/time",
        obj(
            {
                "timezone": s(
                    "IANA timezone name (e.g., 'America/New_York', 'Europe/London'). Use 'UTC' "
                    "as local timezone if no timezone provided by the user."
                )
            },
            ["timezone"],
        ),
        {"timezone": "Europe/Paris"},
        {"timezone": None},
        ["timezone"],
    ),
    (
        "time_convert_time",
        f"{SERVERS} src/time",
        obj(
            {
                "source_timezone": s("Source IANA timezone name"),
                "time": s("Time to convert in 24-hour format (HH:MM)"),
                "target_timezone": s("Target IANA timezone name"),
            },
            ["source_timezone", "time", "target_timezone"],
        ),
        {"source_timezone": "UTC", "time": "16:30", "target_timezone": "Asia/Tokyo"},
        {"source_timezone": "UTC", "time": "16:30"},
        ["target_timezone"],
    ),
    # git (pydantic models)
    (
        "git_log",
        f"{SERVERS} src/git (pydantic model GitLog)",
        {
            "properties": {
                "repo_path": {"title": "Repo Path", "type": "string"},
                "max_count": {"default": 10, "title": "Max Count", "type": "integer"},
                "start_timestamp": {
                    "anyOf": [{"type": "string"}, {"type": "null"}],
                    "default": None,
                    "description": "Start timestamp for filtering commits.",
                    "title": "Start Timestamp",
                },
                "end_timestamp": {
                    "anyOf": [{"type": "string"}, {"type": "null"}],
                    "default": None,
                    "title": "End Timestamp",
                },
            },
            "required": ["repo_path"],
            "title": "GitLog",
            "type": "object",
        },
        {"repo_path": ".", "max_count": 3, "start_timestamp": None},
        {"repo_path": ".", "max_count": "3"},
        ["max_count"],
    ),
    (
        "git_commit",
        f"{SERVERS} src/git (pydantic model GitCommit)",
        {
            "properties": {
                "repo_path": {"title": "Repo Path", "type": "string"},
                "message": {"title": "Message", "type": "string"},
            },
            "required": ["repo_path", "message"],
            "title": "GitCommit",
            "type": "object",
        },
        {"repo_path": ".", "message": "fix: things"},
        {"repo_path": "."},
        ["message"],
    ),
    (
        "git_add",
        f"{SERVERS} src/git (pydantic model GitAdd)",
        {
            "properties": {
                "repo_path": {"title": "Repo Path", "type": "string"},
                "files": {"items": {"type": "string"}, "title": "Files", "type": "array"},
            },
            "required": ["repo_path", "files"],
            "title": "GitAdd",
            "type": "object",
        },
        {"repo_path": ".", "files": ["a.py"]},
        {"repo_path": ".", "files": [None]},
        ["files", 0],
    ),
    (
        "git_diff",
        f"{SERVERS} src/git (pydantic model GitDiff)",
        {
            "properties": {
                "repo_path": {"title": "Repo Path", "type": "string"},
                "target": {"title": "Target", "type": "string"},
                "context_lines": {"default": 3, "title": "Context Lines", "type": "integer"},
            },
            "required": ["repo_path", "target"],
            "title": "GitDiff",
            "type": "object",
        },
        {"repo_path": ".", "target": "main"},
        {"repo_path": ".", "target": "main", "context_lines": 1.5},
        ["context_lines"],
    ),
    # sqlite / postgres
    (
        "sqlite_read_query",
        f"{SERVERS} src/sqlite",
        obj({"query": s("SELECT SQL query to execute")}, ["query"]),
        {"query": "select 1"},
        {"query": ["select 1"]},
        ["query"],
    ),
    (
        "sqlite_create_table",
        f"{SERVERS} src/sqlite",
        obj({"query": s("CREATE TABLE SQL statement")}, ["query"]),
        {"query": "create table t(x)"},
        {},
        ["query"],
    ),
    (
        "sqlite_describe_table",
        f"{SERVERS} src/sqlite",
        obj({"table_name": s("Name of the table to describe")}, ["table_name"]),
        {"table_name": "t"},
        {"table_name": 1},
        ["table_name"],
    ),
    (
        "postgres_query",
        f"{SERVERS} src/postgres",
        obj({"sql": S}),
        {"sql": "select now()"},
        {"sql": True},
        ["sql"],
    ),
    # brave search
    (
        "brave_web_search",
        f"{SERVERS} src/brave-search",
        obj(
            {
                "query": s("Search query (max 400 chars, 50 words)"),
                "count": {
                    "type": "number",
                    "description": "Number of results (1-20, default 10)",
                    "default": 10,
                },
                "offset": {
                    "type": "number",
                    "description": "Pagination offset (max 9, default 0)",
                    "default": 0,
                },
            },
            ["query"],
        ),
        {"query": "textual tui", "count": 5},
        {"query": "textual", "count": "five"},
        ["count"],
    ),
    (
        "brave_local_search",
        f"{SERVERS} src/brave-search",
        obj(
            {
                "query": s("Local search query (e.g. 'pizza near Central Park')"),
                "count": {
                    "type": "number",
                    "description": "Number of results (1-20, default 5)",
                    "default": 5,
                },
            },
            ["query"],
        ),
        {"query": "pizza"},
        {"count": 3},
        ["query"],
    ),
    # slack
    (
        "slack_list_channels",
        f"{SERVERS} src/slack",
        obj(
            {
                "limit": {
                    "type": "number",
                    "description": "Maximum number of channels to return (default 100, max 200)",
                    "default": 100,
                },
                "cursor": s("Pagination cursor for next page of results"),
            }
        ),
        {"limit": 50},
        {"limit": None},
        ["limit"],
    ),
    (
        "slack_post_message",
        f"{SERVERS} src/slack",
        obj(
            {
                "channel_id": s("The ID of the channel to post to"),
                "text": s("The message text to post"),
            },
            ["channel_id", "text"],
        ),
        {"channel_id": "C123", "text": "hello [bold]world[/]"},
        {"channel_id": "C123"},
        ["text"],
    ),
    (
        "slack_reply_to_thread",
        f"{SERVERS} src/slack",
        obj(
            {
                "channel_id": s("The ID of the channel containing the thread"),
                "thread_ts": s(
                    "The timestamp of the parent message in the format '1234567890.123456'."
                ),
                "text": s("The reply text"),
            },
            ["channel_id", "thread_ts", "text"],
        ),
        {"channel_id": "C1", "thread_ts": "1234567890.123456", "text": "ok"},
        {"channel_id": "C1", "thread_ts": 1234567890.123456, "text": "ok"},
        ["thread_ts"],
    ),
    (
        "slack_add_reaction",
        f"{SERVERS} src/slack",
        obj(
            {
                "channel_id": S,
                "timestamp": S,
                "reaction": s("The name of the emoji reaction (without ::)"),
            },
            ["channel_id", "timestamp", "reaction"],
        ),
        {"channel_id": "C1", "timestamp": "1.2", "reaction": "tada"},
        {"channel_id": "C1", "timestamp": "1.2"},
        ["reaction"],
    ),
    # puppeteer / playwright
    (
        "puppeteer_navigate",
        f"{SERVERS} src/puppeteer",
        obj(
            {
                "url": s("URL to navigate to"),
                "launchOptions": {
                    "type": "object",
                    "description": "PuppeteerJS LaunchOptions. Default null.",
                },
                "allowDangerous": {
                    "type": "boolean",
                    "description": "Allow dangerous LaunchOptions.",
                    "default": False,
                },
            },
            ["url"],
        ),
        {
            "url": "https://example.com",
            "launchOptions": {"headless": True, "args": ["--no-sandbox"]},
        },
        {"url": "https://example.com", "allowDangerous": "yes"},
        ["allowDangerous"],
    ),
    (
        "puppeteer_screenshot",
        f"{SERVERS} src/puppeteer",
        obj(
            {
                "name": s("Name for the screenshot"),
                "selector": s("CSS selector for element to screenshot"),
                "width": {"type": "number", "description": "Width in pixels (default: 800)"},
                "height": {"type": "number", "description": "Height in pixels (default: 600)"},
                "encoded": {
                    "type": "boolean",
                    "description": "If true, capture the screenshot as a base64-encoded data URI",
                },
            },
            ["name"],
        ),
        {"name": "home", "width": 1024, "height": 768, "encoded": False},
        {"name": "home", "width": "wide"},
        ["width"],
    ),
    (
        "playwright_browser_click",
        "microsoft/playwright-mcp",
        {
            "type": "object",
            "properties": {
                "element": s(
                    "Human-readable element description used to obtain permission to interact "
                    "with the element"
                ),
                "ref": s("Exact target element reference from the page snapshot"),
                "doubleClick": {
                    "type": "boolean",
                    "description": "Whether to perform a double click instead of a single click",
                },
                "button": {
                    "type": "string",
                    "enum": ["left", "right", "middle"],
                    "description": "Button to click, defaults to left",
                },
                "modifiers": arr(
                    {
                        "type": "string",
                        "enum": ["Alt", "Control", "ControlOrMeta", "Meta", "Shift"],
                    },
                    description="Modifier keys to press",
                ),
            },
            "required": ["element", "ref"],
            "additionalProperties": False,
            "$schema": "http://json-schema.org/draft-07/schema#",
        },
        {"element": "Submit button", "ref": "e12", "button": "right", "modifiers": ["Shift"]},
        {"element": "Submit button", "ref": "e12", "modifiers": ["Hyper"]},
        ["modifiers", 0],
    ),
    (
        "playwright_browser_fill_form",
        "microsoft/playwright-mcp",
        {
            "type": "object",
            "properties": {
                "fields": arr(
                    obj(
                        {
                            "name": s("Human-readable field name"),
                            "type": {
                                "type": "string",
                                "enum": ["textbox", "checkbox", "radio", "combobox", "slider"],
                                "description": "Type of the field",
                            },
                            "ref": s("Exact target field reference from the page snapshot"),
                            "value": s("Value to fill in the field."),
                        },
                        ["name", "type", "ref", "value"],
                        additionalProperties=False,
                    ),
                    description="Fields to fill in",
                )
            },
            "required": ["fields"],
            "additionalProperties": False,
            "$schema": "http://json-schema.org/draft-07/schema#",
        },
        {
            "fields": [
                {"name": "Email", "type": "textbox", "ref": "e3", "value": "a@b.c"},
                {"name": "Agree", "type": "checkbox", "ref": "e4", "value": "true"},
            ]
        },
        {"fields": [{"name": "Email", "type": "textarea", "ref": "e3", "value": "x"}]},
        ["fields", 0, "type"],
    ),
    (
        "playwright_browser_wait_for",
        "microsoft/playwright-mcp",
        {
            "type": "object",
            "properties": {
                "time": {"type": "number", "description": "The time to wait in seconds"},
                "text": s("The text to wait for"),
                "textGone": s("The text to wait for to disappear"),
            },
            "additionalProperties": False,
            "$schema": "http://json-schema.org/draft-07/schema#",
        },
        {"time": 2.5},
        {"time": 2, "until": "load"},
        ["until"],
    ),
    # github
    (
        "github_create_issue",
        f"{SERVERS} src/github",
        zod(
            {
                "owner": S,
                "repo": S,
                "title": S,
                "body": S,
                "assignees": arr(S),
                "milestone": N,
                "labels": arr(S),
            },
            ["owner", "repo", "title"],
        ),
        {"owner": "octo", "repo": "hello", "title": "Bug", "labels": ["bug"], "milestone": 2},
        {"owner": "octo", "repo": "hello", "title": "Bug", "labels": "bug"},
        ["labels"],
    ),
    (
        "github_push_files",
        f"{SERVERS} src/github",
        zod(
            {
                "owner": s("Repository owner (username or organization)"),
                "repo": s("Repository name"),
                "branch": s("Branch to push to (e.g., 'main' or 'master')"),
                "files": arr(
                    obj({"path": S, "content": S}, ["path", "content"], additionalProperties=False),
                    description="Array of files to push",
                ),
                "message": s("Commit message"),
            },
            ["owner", "repo", "branch", "files", "message"],
        ),
        {
            "owner": "o",
            "repo": "r",
            "branch": "main",
            "files": [{"path": "a", "content": "x"}],
            "message": "m",
        },
        {"owner": "o", "repo": "r", "branch": "main", "files": [{"path": "a"}], "message": "m"},
        ["files", 0, "content"],
    ),
    (
        "github_list_issues",
        f"{SERVERS} src/github",
        zod(
            {
                "owner": S,
                "repo": S,
                "direction": {"type": "string", "enum": ["asc", "desc"]},
                "labels": arr(S),
                "page": N,
                "per_page": N,
                "since": S,
                "sort": {"type": "string", "enum": ["created", "updated", "comments"]},
                "state": {"type": "string", "enum": ["open", "closed", "all"]},
            },
            ["owner", "repo"],
        ),
        {"owner": "o", "repo": "r", "state": "closed", "per_page": 50},
        {"owner": "o", "repo": "r", "state": "merged"},
        ["state"],
    ),
    (
        "github_create_pull_request_review",
        f"{SERVERS} src/github",
        zod(
            {
                "owner": S,
                "repo": S,
                "pull_number": N,
                "commit_id": S,
                "body": S,
                "event": {"type": "string", "enum": ["APPROVE", "REQUEST_CHANGES", "COMMENT"]},
                "comments": arr(
                    {
                        "anyOf": [
                            obj(
                                {"path": S, "position": N, "body": S},
                                ["path", "position", "body"],
                                additionalProperties=False,
                            ),
                            obj(
                                {"path": S, "line": N, "body": S},
                                ["path", "line", "body"],
                                additionalProperties=False,
                            ),
                        ]
                    }
                ),
            },
            ["owner", "repo", "pull_number", "body", "event"],
        ),
        {
            "owner": "o",
            "repo": "r",
            "pull_number": 7,
            "body": "LGTM",
            "event": "COMMENT",
            "comments": [{"path": "a.py", "line": 3, "body": "nit"}],
        },
        {"owner": "o", "repo": "r", "pull_number": 7, "body": "LGTM", "event": "MERGE"},
        ["event"],
    ),
    # everything (reference server)
    (
        "everything_sample_llm",
        f"{SERVERS} src/everything",
        zod(
            {
                "prompt": s("The prompt to send to the LLM"),
                "maxTokens": {
                    "type": "number",
                    "default": 100,
                    "description": "Maximum number of tokens to generate",
                },
            },
            ["prompt"],
        ),
        {"prompt": "hi", "maxTokens": 10},
        {"maxTokens": 10},
        ["prompt"],
    ),
    (
        "everything_annotated_message",
        f"{SERVERS} src/everything",
        zod(
            {
                "messageType": {
                    "type": "string",
                    "enum": ["error", "success", "debug"],
                    "description": "Type of message to demonstrate different annotation patterns",
                },
                "includeImage": {
                    "type": "boolean",
                    "default": False,
                    "description": "Whether to include an example image",
                },
            },
            ["messageType"],
        ),
        {"messageType": "success", "includeImage": True},
        {"messageType": "info"},
        ["messageType"],
    ),
    # computer use (Anthropic computer tool, as environments expose it)
    (
        "computer_use_computer",
        "anthropic computer-use-demo (computer tool)",
        {
            "type": "object",
            "properties": {
                "action": {
                    "type": "string",
                    "enum": [
                        "key",
                        "type",
                        "mouse_move",
                        "left_click",
                        "left_click_drag",
                        "right_click",
                        "middle_click",
                        "double_click",
                        "screenshot",
                        "cursor_position",
                        "scroll",
                        "wait",
                    ],
                },
                "text": S,
                "coordinate": {
                    "type": "array",
                    "items": {"type": "integer", "minimum": 0},
                    "minItems": 2,
                    "maxItems": 2,
                },
                "scroll_direction": {"type": "string", "enum": ["up", "down", "left", "right"]},
                "scroll_amount": {"type": "integer", "minimum": 0},
                "duration": {"type": "number"},
            },
            "required": ["action"],
        },
        {"action": "left_click", "coordinate": [120, 48]},
        {"action": "left_click", "coordinate": [120]},
        ["coordinate"],
    ),
]


# ---------------------------------------------------------------------------------------------
# Pydantic models, as Python MCP servers (FastMCP / MCPServer) describe their tools


class Priority(StrEnum):
    low = "low"
    normal = "normal"
    high = "high"


class Address(BaseModel):
    street: str
    city: str
    postcode: str | None = None


class Contact(BaseModel):
    name: str = Field(description="Full name")
    email: str = Field(json_schema_extra={"format": "email"})
    address: Address | None = None
    tags: list[str] = []


class CreateContact(BaseModel):
    contact: Contact
    notify: bool = False


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: int = Field(ge=0, le=9)


class Dog(BaseModel):
    kind: Literal["dog"]
    good_boy: bool = True


class AdoptPets(BaseModel):
    pets: list[Annotated[Cat | Dog, Field(discriminator="kind")]]
    note: str | None = None


class TreeNode(BaseModel):
    label: str
    children: list[TreeNode] = []


class SaveTree(BaseModel):
    root: TreeNode


class Comment(BaseModel):
    text: str
    reply_to: Comment | None = None


class PostComment(BaseModel):
    comment: Comment


class ScheduleMeeting(BaseModel):
    title: str = Field(min_length=1, max_length=80)
    day: date
    starts_at: datetime
    attendee_ids: list[UUID] = Field(min_length=1)
    priority: Priority = Priority.normal
    room: Literal["alpha", "beta", "gamma"] | None = None


class SearchIssues(BaseModel):
    query: str = Field(examples=["is:open label:bug"])
    limit: int = Field(default=20, ge=1, le=100)
    state: Literal["open", "closed"] | None = None
    labels: dict[str, str] = {}


class Filter(BaseModel):
    field: str
    op: Literal["eq", "lt", "gt", "contains"]
    value: str | int | float | bool | None


class QueryRows(BaseModel):
    table: str
    filters: list[Filter] = []
    order_by: list[tuple[str, Literal["asc", "desc"]]] = []
    page_size: int | None = Field(default=None, multiple_of=10)


class Click(BaseModel):
    type: Literal["click"] = "click"
    x: int
    y: int
    button: Literal["left", "right"] = "left"


class TypeText(BaseModel):
    type: Literal["type"] = "type"
    text: str


class Scroll(BaseModel):
    type: Literal["scroll"] = "scroll"
    dx: int = 0
    dy: int


class RunActions(BaseModel):
    actions: list[Annotated[Click | TypeText | Scroll, Field(discriminator="type")]] = Field(
        max_length=5
    )
    screenshot_after: bool = True


class Settings(BaseModel):
    webhook: str = Field(json_schema_extra={"format": "uri"})
    retries: int = Field(default=3, ge=0, lt=10)
    ratio: float = Field(gt=0, le=1)
    headers: dict[str, str] = {}
    metadata: dict[str, Any] = {}


class UpdateSettings(BaseModel):
    settings: Settings
    dry_run: bool = False


class Money(BaseModel):
    amount: float = Field(multiple_of=0.01)
    currency: Annotated[str, Field(pattern=r"^[A-Z]{3}$")]


class LineItem(BaseModel):
    sku: str
    quantity: int = Field(gt=0)
    price: Money


class CreateInvoice(BaseModel):
    customer_id: UUID
    items: list[LineItem] = Field(min_length=1, max_length=50)
    due: date | None = None
    memo: Annotated[str, Field(max_length=200)] = ""


class Shape(BaseModel):
    shape: Literal["circle", "square"] | int


class DrawShapes(BaseModel):
    shapes: list[Shape]
    canvas: Any = None


PYDANTIC: list[tuple[str, type[BaseModel], Any, Any, list]] = [
    (
        "pydantic_create_contact",
        CreateContact,
        {
            "contact": {
                "name": "Ada",
                "email": "ada@example.com",
                "address": {"street": "1 Main", "city": "X", "postcode": None},
                "tags": ["vip"],
            }
        },
        {"contact": {"name": "Ada", "email": "not-an-email"}},
        ["contact", "email"],
    ),
    (
        "pydantic_adopt_pets",
        AdoptPets,
        {"pets": [{"kind": "cat", "lives": 7}, {"kind": "dog", "good_boy": False}], "note": None},
        {"pets": [{"kind": "dog"}, {"kind": "cat", "lives": 12}]},
        ["pets", 1, "lives"],
    ),
    (
        "pydantic_save_tree",
        SaveTree,
        {
            "root": {
                "label": "a",
                "children": [{"label": "b", "children": [{"label": "c", "children": []}]}],
            }
        },
        {"root": {"label": "a", "children": [{"label": "b", "children": [{"children": []}]}]}},
        ["root", "children", 0, "children", 0, "label"],
    ),
    (
        "pydantic_post_comment",
        PostComment,
        {"comment": {"text": "hi", "reply_to": {"text": "first", "reply_to": None}}},
        {"comment": {"text": "hi", "reply_to": {"text": 5}}},
        ["comment", "reply_to", "text"],
    ),
    (
        "pydantic_schedule_meeting",
        ScheduleMeeting,
        {
            "title": "Sync",
            "day": "2026-11-22",
            "starts_at": "2026-11-22T15:00:00Z",
            "attendee_ids": ["0b9e4a4e-6f0e-4b8e-9a3a-1c2d3e4f5a6b"],
            "priority": "high",
            "room": None,
        },
        {
            "title": "Sync",
            "day": "2026-13-45",
            "starts_at": "2026-11-22T15:00:00Z",
            "attendee_ids": ["0b9e4a4e-6f0e-4b8e-9a3a-1c2d3e4f5a6b"],
        },
        ["day"],
    ),
    (
        "pydantic_search_issues",
        SearchIssues,
        {"query": "is:open", "limit": 5, "state": "open", "labels": {"team": "core", "area": "ui"}},
        {"query": "is:open", "limit": 500},
        ["limit"],
    ),
    (
        "pydantic_query_rows",
        QueryRows,
        {
            "table": "users",
            "filters": [
                {"field": "age", "op": "gt", "value": 30},
                {"field": "name", "op": "eq", "value": None},
            ],
            "order_by": [["age", "desc"]],
            "page_size": 20,
        },
        {"table": "users", "filters": [{"field": "age", "op": "between", "value": 3}]},
        ["filters", 0, "op"],
    ),
    (
        "pydantic_run_actions",
        RunActions,
        {
            "actions": [
                {"type": "click", "x": 3, "y": 4, "button": "left"},
                {"type": "type", "text": "hello"},
                {"type": "scroll", "dy": -3},
            ],
            "screenshot_after": False,
        },
        {"actions": [{"type": "click", "x": 3, "y": "four"}]},
        ["actions", 0, "y"],
    ),
    (
        "pydantic_update_settings",
        UpdateSettings,
        {
            "settings": {
                "webhook": "https://hooks.example.com/x",
                "retries": 2,
                "ratio": 0.5,
                "headers": {"X-Token": "abc"},
                "metadata": {"nested": {"a": [1, 2]}, "flag": True},
            }
        },
        {"settings": {"webhook": "not a uri", "ratio": 0.5}},
        ["settings", "webhook"],
    ),
    (
        "pydantic_create_invoice",
        CreateInvoice,
        {
            "customer_id": "3fa85f64-5717-4562-b3fc-2c963f66afa6",
            "items": [{"sku": "A-1", "quantity": 2, "price": {"amount": 9.99, "currency": "EUR"}}],
            "due": "2026-12-01",
            "memo": "thanks",
        },
        {
            "customer_id": "3fa85f64-5717-4562-b3fc-2c963f66afa6",
            "items": [{"sku": "A-1", "quantity": 2, "price": {"amount": 9.99, "currency": "euro"}}],
        },
        ["items", 0, "price", "currency"],
    ),
    (
        "pydantic_draw_shapes",
        DrawShapes,
        {"shapes": [{"shape": "circle"}, {"shape": 5}], "canvas": {"w": 10, "h": 10}},
        {"shapes": [{"shape": "triangle"}]},
        ["shapes", 0, "shape"],
    ),
]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.json"):
        old.unlink()
    entries = [
        {
            "name": n,
            "source": src,
            "schema": schema,
            "valid": valid,
            "invalid": invalid,
            "invalid_path": path,
        }
        for n, src, schema, valid, invalid, path in MCP_SERVERS
    ]
    entries += [
        {
            "name": n,
            "source": f"pydantic model {model.__name__} (model_json_schema)",
            "schema": model.model_json_schema(),
            "valid": valid,
            "invalid": invalid,
            "invalid_path": path,
        }
        for n, model, valid, invalid, path in PYDANTIC
    ]
    for entry in entries:
        (OUT / f"{entry['name']}.json").write_text(
            json.dumps(entry, indent=2, ensure_ascii=False) + "\n"
        )
    print(f"wrote {len(entries)} schemas to {OUT.name}/")


if __name__ == "__main__":
    main()
