"""Every key of the app, by named action and by area.

Widgets take their bindings from here (`bindings_for(area)`), the help screen lists the keys of
the focused area from here, and the command palette offers every action listed here. To add a
key, add an `Action`; to add an area, give a widget `HELP_AREA = "<area>"` and use that name.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from textual.binding import Binding, BindingType


class Extension(StrEnum):
    """The actions extensions add to the app (tasks, state, sessions, the agent, transcripts):
    each registers its handler in `app.extension_actions`, and its key runs
    `action_extension(name)`, which says so when no extension offers it."""

    SHOW_TASKS = "show_tasks"
    SHOW_STATE = "show_state"
    VERIFY_TASK = "verify_task"
    OPEN_SESSION = "open_session"
    EXPORT_PAGE = "export_page"
    SHOW_AGENT = "show_agent"
    AGENT_PAUSE = "agent_pause"
    AGENT_STEP = "agent_step"
    OPEN_TRAJECTORY = "open_trajectory"
    SHOW_TRAJECTORY = "show_trajectory"
    SHOW_JOBS = "show_jobs"
    CALL_AS_TASK = "call_as_task"


@dataclass(frozen=True)
class Action:
    """One named action: `action_<name>` on the widget (or app) of its area."""

    name: str
    key: str
    """"" for an action reached through the command palette (ctrl+p) only."""
    description: str
    area: str = "global"
    short: str = ""
    """The footer label (defaults to the description)."""
    show: bool = True
    """Shown in the footer (which must fit 120 columns in every area; help lists them all)."""
    palette: bool = True
    """Offered in the command palette (runs `action_<name>` on the app, or on the widget of
    its area)."""
    priority: bool = False
    computer_use: bool = False
    """Only for envs with a computer tool (F1 and the palette leave it out elsewhere)."""
    extension: Extension | None = None
    """The extension action it runs (made by `extension_action`): offered once an extension
    registers it."""


AREAS: dict[str, str] = {
    "global": "Everywhere",
    "tools": "Tool list",
    "filter": "Tool filter",
    "form": "Tool form",
    "result": "Result view",
    "history": "History",
    "log": "Server log",
    "protocol": "Protocol log",
    "message": "Protocol message",
    "screenshot": "Screenshot pane",
    "image": "Full-screen image",
    "ask": "A server's question (elicitation, sampling)",
    "sign_in": "A server asks you to sign in (OAuth)",
    "visit": "A call needs a page opened (URL elicitation)",
    "agent": "Agent pane (with --serve-mcp)",
    "timeline": "The run's timeline (Agent pane)",
    "resources": "Resources",
    "prompts": "Prompts",
    "arguments": "Prompt or template arguments",
    "trajectory": "Trajectory pane",
    "jobs": "Jobs (tool calls run as MCP tasks)",
    "trajectory_open": "Open an agent trajectory",
    "info": "MCP endpoints (server info, instructions, roots)",
}


def extension_action(
    name: Extension, key: str, description: str, *, short: str = "", show: bool = True
) -> Action:
    """The action whose key runs the extension action `name` (through `action_extension`)."""
    return Action(f"extension('{name}')", key, description, short=short, show=show, extension=name)


ACTIONS: list[Action] = [
    Action("quit", "ctrl+q", "Quit (closes what fleet-tui created)", short="Quit", priority=True),
    Action("help", "f1", "Help: keys of the focused area", short="Help"),
    Action(
        "command_palette", "ctrl+p", "Command palette", short="Palette", show=False, palette=False
    ),
    Action("call", "ctrl+s", "Call the selected tool", short="Call"),
    Action(
        "call('held')",
        "ctrl+s",
        "Release the agent's held call in the form, with the form's arguments",
        short="Release held call",
        palette=False,
    ),
    Action("cancel_call", "escape", "Cancel the running call", show=False),
    Action("reset_env", "ctrl+r", "Reset the env (optional seed)", short="Reset"),
    Action("reconnect", "ctrl+o", "Reconnect to the env", short="Reconnect", show=False),
    Action(
        "copy_command",
        "ctrl+y",
        "Copy the call as a fleet-tui command",
        short="Copy cmd",
        show=False,
    ),
    Action("focus_filter", "slash", "Filter tools", show=False),
    # The sidebar's tabs (Tools, Hist, Log, Proto) are on screen: their keys leave the footer
    # to what a person would not find otherwise (Info, Reset, Tasks).
    Action("show_tools", "f2", "Show the tool list", short="Tools", show=False),
    Action("show_history", "f3", "Show the history", short="Hist", show=False),
    Action(
        "show_endpoints",
        "ctrl+f",  # free in text boxes too (f4 is the form's raw JSON)
        "Show the MCP endpoints: server info, instructions, roots, stderr",
        short="Info",
    ),
    Action("show_log", "f9", "Show the servers' log messages", short="Log", show=False),
    Action(
        "show_protocol",
        "f10",
        "Show every JSON-RPC message and HTTP request",
        short="Protocol",
        show=False,
    ),
    extension_action(Extension.SHOW_TASKS, "f6", "Show the tasks", short="Tasks"),
    extension_action(Extension.SHOW_STATE, "f7", "Show the state diff", short="State", show=False),
    extension_action(
        Extension.VERIFY_TASK,
        "f8",
        "Run the task's verifier",
        short="Verify",
        show=False,
    ),
    extension_action(Extension.OPEN_SESSION, "ctrl+k", "Open a recorded session", show=False),
    extension_action(Extension.EXPORT_PAGE, "", "Export this session as a web page…", show=False),
    extension_action(
        Extension.SHOW_AGENT, "ctrl+n", "Show the Agent pane", short="Agent", show=False
    ),
    extension_action(Extension.AGENT_PAUSE, "f11", "Pause or resume the agent's calls", show=False),
    extension_action(
        Extension.AGENT_STEP,
        "f12",
        "Step: release the held call being edited (with the form's arguments) or else the next",
        show=False,
    ),
    extension_action(Extension.OPEN_TRAJECTORY, "", "Open an agent trajectory…", show=False),
    extension_action(Extension.SHOW_TRAJECTORY, "", "Show the Trajectory pane", show=False),
    extension_action(
        Extension.SHOW_JOBS,
        "ctrl+j",
        "Show the Jobs pane: tool calls run as MCP tasks",
        short="Jobs",
        show=False,
    ),
    extension_action(
        Extension.CALL_AS_TASK,
        "",
        "Call the selected tool as an MCP task (for a tool whose task support is optional)",
        show=False,
    ),
    Action("toggle_sidebar", "ctrl+b", "Show or hide the sidebar", short="Sidebar", show=False),
    Action(
        "toggle_zoom",
        "ctrl+z",
        "Zoom: the focused pane (the sidebar, the form, the result) at full size, and back",
        short="Zoom",
        show=False,
    ),
    Action("widen_sidebar", "alt+right", "Widen the sidebar (or drag its edge)", show=False),
    Action("narrow_sidebar", "alt+left", "Narrow the sidebar (or drag its edge)", show=False),
    Action(
        "take_screenshot",
        "ctrl+g",
        "Take a screenshot (computer-use envs)",
        show=False,
        computer_use=True,
    ),
    Action(
        "toggle_live",
        "ctrl+l",
        "Live mode: clicks on the screenshot act at once",
        show=False,
        computer_use=True,
    ),
    Action(
        "toggle_typing", "ctrl+t", "Typing mode: keys go to the env", show=False, computer_use=True
    ),
    Action(
        "select_query",
        "slash",
        "Select the filter's text (what you type next replaces it)",
        area="filter",
        show=False,
        palette=False,
        priority=True,  # before the box takes it as a character
    ),
    Action(
        "select_query",
        "ctrl+a",
        "Select the filter's text, as / does",
        area="filter",
        show=False,
        palette=False,
    ),
    Action("clear_filter", "ctrl+u", "Clear the filter", area="filter", show=False),
    Action(
        "open_image",
        "f",
        "Full-screen view of the image",
        area="result",
        short="Zoom",
    ),
    Action(
        "toggle_description",
        "f5",
        "Whole tool description / first lines",
        area="form",
        show=False,
    ),
    Action(
        "save_image",
        "s",
        "Save the image as PNG (or the audio and binary contents)",
        area="result",
        short="Save",
    ),
    Action("toggle_tree", "t", "JSON as a tree / as text", area="result", short="Tree"),
    Action("show_entry", "enter", "Show the call's result", area="history", show=False),
    Action("rerun", "r", "Re-run the call", area="history", short="Re-run"),
    Action(
        "load_args",
        "l",
        "Load its arguments into the form",
        area="history",
        short="Load args",
    ),
    Action("show_task_result", "enter", "Show the call's result", area="jobs", show=False),
    Action("cancel_task", "c", "Cancel the running task", area="jobs", short="Cancel"),
    Action(
        "list_server_tasks",
        "r",
        "List the servers' tasks again (tasks/list)",
        area="jobs",
        short="Refresh",
    ),
    Action("clear_log", "c", "Clear the log", area="log", short="Clear"),
    Action("open_message", "enter", "Open the message as JSON", area="protocol", show=False),
    Action("close", "escape", "Close", area="message", palette=False),
    Action(
        "toggle_strings",
        "x",
        "Long strings whole (as kept) / cut in the middle",
        area="message",
        short="Expand strings",
        palette=False,
    ),
    Action(
        "open_image",
        "f",
        "Full-screen view (clicks there act too)",
        area="screenshot",
        short="Zoom",
    ),
    Action(
        "save_image",
        "s",
        "Save the screenshot as PNG",
        area="screenshot",
        short="Save",
    ),
    Action(
        "release_held", "enter", "Release the held call as asked", area="agent", short="Release"
    ),
    Action(
        "edit_held",
        "e",
        "Edit the held call in the form (ctrl+s or f12 releases it)",
        area="agent",
        short="Edit",
    ),
    Action("refuse_held", "x", "Answer the held call with an error", area="agent", short="Refuse"),
    Action(
        "take_over", "t", "Take over from the agent, or give back", area="agent", short="Take over"
    ),
    Action(
        "release_all_held",
        "a",
        "Release every held call at once, in parallel (f11 releases them in order)",
        area="agent",
        short="Release all",
    ),
    Action("copy_mcp_config", "c", "Copy the MCP client config", area="agent", short="Config"),
    Action(
        "write_mcp_config",
        "w",
        "Write the MCP client config (URL and token) to a file",
        area="agent",
        short="Write config",
    ),
    Action("show_token", "k", "Show the proxy's full token", area="agent", short="Token"),
    Action(
        "show_step",
        "enter",
        "Show the row's call in the result view",
        area="timeline",
        short="Show",
    ),
    Action("note_step", "n", "Write a note on the row's step", area="timeline", short="Note"),
    Action("score_good", "plus", "Score the row's step +1 (good)", area="timeline", short="+1"),
    Action("score_neutral", "0", "Score the row's step 0 (neutral)", area="timeline", short="0"),
    Action("score_bad", "minus", "Score the row's step -1 (bad)", area="timeline", short="-1"),
    Action(
        "export_timeline",
        "j",
        "Write the run's timeline, notes and scores as JSON lines",
        area="timeline",
        short="Export",
    ),
    Action(
        "choose('step')",
        "n",
        "Step: make the next call on the env",
        area="trajectory",
        short="Step",
    ),
    Action(
        "choose('run_to_end')",
        "a",
        "Run to the end, then the verifier",
        area="trajectory",
        short="Run all",
    ),
    Action(
        "choose('start_over')", "r", "Reset the env and start over", area="trajectory", show=False
    ),
    Action("choose('verify')", "v", "Run the verifier now", area="trajectory", short="Verify"),
    Action("choose('open')", "o", "Open another trajectory", area="trajectory", show=False),
    Action(
        "choose('show_step')",
        "enter",
        "Show the step's replayed result",
        area="trajectory",
        show=False,
    ),
    Action("show_resources", "", "Show the MCP resources", short="Resources", show=False),
    Action("show_prompts", "", "Show the MCP prompts", short="Prompts", show=False),
    Action(
        "toggle_subscription",
        "u",
        "Subscribe to the resource's updates / unsubscribe",
        area="resources",
        short="Subscribe",
    ),
    Action("refresh_list", "r", "List the resources again", area="resources", short="Refresh"),
    Action("refresh_list", "r", "List the prompts again", area="prompts", short="Refresh"),
    Action("cancel", "escape", "Cancel", area="arguments", palette=False),
    Action(
        "accept_suggestion",
        "tab,enter",
        "Take the highlighted suggestion into the field",
        area="arguments",
        short="Take",
        palette=False,
        priority=True,  # before the field or focus moving take the key
    ),
    Action(
        "move_suggestion(1)",
        "down",
        "Highlight the next suggestion",
        area="arguments",
        show=False,
        palette=False,
        priority=True,
    ),
    Action(
        "move_suggestion(-1)",
        "up",
        "Highlight the previous suggestion",
        area="arguments",
        show=False,
        palette=False,
        priority=True,
    ),
    Action(
        "edit_roots", "e", "Add a root directory (type its path, enter)", area="info", palette=False
    ),
    Action("remove_root", "delete", "Remove the highlighted root", area="info", palette=False),
    Action("dismiss", "escape", "Close", area="info", palette=False),
    Action("close", "escape", "Close", area="image", palette=False),
    Action("save_image", "s", "Save as PNG", area="image", palette=False),
    Action(
        "accept",
        "ctrl+s",
        "Accept: send the answer",
        area="ask",
        short="Send",
        palette=False,
        priority=True,
    ),
    Action("decline", "ctrl+d", "Decline", area="ask", palette=False, priority=True),
    Action("cancel", "escape", "Cancel (no answer chosen)", area="ask", palette=False),
    Action(
        "copy_url", "c", "Copy the authorization URL", area="sign_in", short="Copy", palette=False
    ),
    Action(
        "open_browser", "o", "Open it in a browser", area="sign_in", short="Open", palette=False
    ),
    Action("cancel", "escape", "Give the sign-in up", area="sign_in", palette=False),
    Action("copy_url", "c", "Copy the page's URL", area="visit", short="Copy", palette=False),
    Action("open_browser", "o", "Open it in a browser", area="visit", short="Open", palette=False),
    Action("close", "escape", "Close", area="visit", palette=False),
    Action("cancel", "escape", "Cancel", area="trajectory_open", palette=False),
]

_TOOL_LIST_NOTES = [
    ("type", "Fuzzy filter"),
    ("up/down", "Move"),
    ("home/end, pgup/pgdn", "First / last, a page (in the list)"),
    ("enter", "Open the tool's form"),
]

# Keys that are not bindings but behave like them (shown in help).
NOTES: dict[str, list[tuple[str, str]]] = {
    "tools": _TOOL_LIST_NOTES,
    "filter": _TOOL_LIST_NOTES,
    "form": [("tab / shift+tab", "Next / previous field")],
    "resources": [("enter", "Read the resource (a template asks for its values first)")],
    "prompts": [("enter", "Get the prompt (asks for its arguments first)")],
    "arguments": [("ctrl+s", "Read or get with these values")],
    "screenshot": [
        ("click", "Fill the computer form with left_click at that point (sends it in live mode)"),
        ("keys in typing mode", "Sent as `type` (text) or `key` (special keys) actions"),
    ],
}


MARKS: list[tuple[str, str]] = [
    ("● ◌ ✗ ○ /mcp (4)", "Status line: an endpoint up, connecting, down, closed; (4): its tools"),
    ("/mcp (3 of 4)", "Status line: 3 of its 4 tools listed (another endpoint's has a name)"),
    ("♥ pending", "Status line: the instance's heartbeat (keeps it alive): none answered yet"),
    ("♥ ok 12:00:01", "Status line: the latest heartbeat answered then (failed: it did not)"),
    ("! tool", "Tool list: destructive (the server says it may delete or overwrite)"),
    ("T tool", "Tool list: runs only as an MCP task (its calls are listed in the Jobs pane)"),
    ("ok / error", "History: the tool answered / answered with an error (isError)"),
    ("failed", "History: no answer (the connection failed, a timeout, a crash)"),
    ("pass / fail", "History: a verifier's verdict"),
    ("held / cancelled", "History: an agent's call waiting in the Agent pane / a call you stopped"),
]
"""What the app's marks mean (F1 lists them; tooltips say those of their place)."""


def marks_of(place: str) -> str:
    """The legend of the marks shown in `place` ("Status line", "Tool list", "History")."""
    prefix = f"{place}: "
    return "\n".join(
        f"{mark}  {meaning.removeprefix(prefix)}"
        for mark, meaning in MARKS
        if meaning.startswith(prefix)
    )


def bindings_for(area: str) -> list[BindingType]:
    """The Textual bindings of one area (typed as Textual's own `BINDINGS` are)."""
    return [
        Binding(a.key, a.name, a.short or a.description, show=a.show, priority=a.priority)
        for a in ACTIONS
        if a.area == area and a.key
    ]


def actions_for(area: str) -> list[Action]:
    return [a for a in ACTIONS if a.area == area]


def palette_actions() -> list[Action]:
    """Actions offered in the command palette (area actions run on that area's widget)."""
    return [a for a in ACTIONS if a.palette]


def key_label(key: str) -> str:
    """The key as the footer writes it ("" for an action with no key: palette only)."""
    return {"slash": "/", "escape": "esc", "alt+left": "alt+←", "alt+right": "alt+→"}.get(key, key)
