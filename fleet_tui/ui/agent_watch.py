"""Watching an agent: the app serves its session's tools as an MCP endpoint (`--serve-mcp`).

`AgentWatch(port, breakpoints).install(app)` starts the proxy on the app's event loop's side
(its server runs on a thread; calls run on the app's loop), adds the Agent pane, puts the
proxy's address in the status line and registers the agent actions the keys run (pause, step,
take over, release an edited call; in the pane, release all held calls at once, show the
token, copy or write the client config). Each agent call is made through the session controller
and shown as it starts and ends; its result goes to the result pane, its screenshot to the
screenshot pane. On quit, held calls are refused and the proxy stops before the env closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from rich.text import Text
from textual.widget import Widget

from fleet_tui.controller import Caller, CallRecord, SessionController
from fleet_tui.envs.base import EnvError, ResetResult, ToolResult
from fleet_tui.proxy.agent_calls import REFUSED_BY_PERSON, AgentCalls
from fleet_tui.proxy.gate import Breakpoint, Gate, Refusal, Release, parse_breakpoints
from fleet_tui.proxy.run_timeline import RunTimeline
from fleet_tui.proxy.server import ProxyServer
from fleet_tui.text import name_line, one_line
from fleet_tui.ui.agent_timeline import TimelineKeys
from fleet_tui.ui.host import AppServices
from fleet_tui.ui.keymap import Extension
from fleet_tui.ui.widgets.agent_pane import AgentPane, HeldCalls
from fleet_tui.ui.widgets.tool_panel import ToolPanel

CLOSING = "fleet-tui is closing: the call was not made."


class AgentHost(AppServices, Protocol):
    """What the agent features need of the app."""

    @property
    def controller(self) -> SessionController: ...

    extension_actions: dict[Extension, Callable[[], Any]]
    status_notes: list[Callable[[], Text]]
    closers: list[Callable[[], Awaitable[None]]]
    shutting_down: bool

    @property
    def tool_panel(self) -> ToolPanel: ...

    async def add_sidebar_pane(self, title: str, widget: Widget, pane_id: str) -> None: ...

    def show_sidebar_pane(self, pane_id: str) -> None: ...

    async def show_call(self, record: CallRecord, result: ToolResult | None) -> None:
        """Awaited, not asked by a message: the agent gets its answer once it is shown."""

    async def show_tool(self, name: str, arguments: dict[str, Any] | None = None) -> None:
        """Awaited, not asked by a message: a held call is put in the form once it shows."""

    def refresh_status(self) -> None: ...

    def copy_to_clipboard(self, text: str) -> None: ...

    def query_one(self, selector: Any) -> Any: ...

    def call_after_refresh(self, callback: Callable[[], Any]) -> bool: ...


def masked(token: str) -> str:
    """Enough of the token to tell two runs apart, not enough to use it."""
    return f"{token[:4]}…"


@dataclass
class AgentWatch:
    port: int = 0
    expose_reset: bool = False
    breakpoints: list[Breakpoint] = field(default_factory=list)
    hold_limit_s: float | None = None
    token: str | None = None
    """The token agents send (None: a random one)."""
    server: ProxyServer | None = None
    calls: AgentCalls | None = None
    editing: int | None = None
    """The held call whose arguments are in the form (ctrl+s or f12 releases it with them)."""

    @classmethod
    def from_args(cls, args: Any) -> AgentWatch:
        """`--serve-mcp [PORT]`, `--break SPEC`, `--hold-limit`, `--token`, `--expose-reset`."""
        port = getattr(args, "serve_mcp", None) or 0
        return cls(
            port=port,
            expose_reset=bool(getattr(args, "expose_reset", False)),
            breakpoints=parse_breakpoints(getattr(args, "breakpoints", [])),
            hold_limit_s=getattr(args, "hold_limit", None),
            token=getattr(args, "token", None),
        )

    async def install(self, app: AgentHost) -> None:
        pane: AgentPane | None = None

        def changed() -> None:
            if pane is not None and pane.is_mounted:
                pane.gate_changed()
            app.refresh_status()

        def timeline_changed() -> None:
            if pane is not None and pane.is_mounted:
                pane.timeline_changed()

        timeline = RunTimeline(on_change=timeline_changed)
        app.controller.subscribe(timeline.on_event)

        gate = Gate(on_change=changed, breakpoints=self.breakpoints, hold_limit_s=self.hold_limit_s)

        async def show(record: CallRecord, result: ToolResult | None) -> None:
            if not app.shutting_down:
                with contextlib.suppress(Exception):  # showing it must not cost the answer
                    await app.show_call(record, result)

        async def run(record: CallRecord) -> ToolResult | None:
            result = await app.controller.call(record)
            await show(record, result)
            return result

        async def reset(
            seed: int | None, options: dict[str, Any]
        ) -> tuple[CallRecord, ResetResult | None]:
            record, outcome = await app.controller.reset(seed, options, caller=Caller.AGENT)
            await show(record, outcome.result if outcome else None)
            return record, outcome

        self.calls = AgentCalls(app.controller, gate, runner=run, resetter=reset)
        try:
            loop = asyncio.get_running_loop()
            context = contextvars.copy_context()
            server = ProxyServer(
                self.calls,
                loop,
                port=self.port,
                token=self.token,
                context=context,
                expose_reset=self.expose_reset,
                on_request=lambda method, params: _heard(timeline, method, params),
            )
            await asyncio.to_thread(server.start)
        except EnvError as error:
            app.notify(error.message, severity="error", markup=False, timeout=15)
            return
        self.server = server

        def write_note(record: CallRecord) -> None:
            if pane is not None:
                pane.write_note(record)

        keys = TimelineKeys(app, app.controller, timeline, show, write_note)
        pane = AgentPane(
            gate,
            f"MCP {self.address()}\ntoken {masked(server.token)} (k shows it, c copies the config)",
            timeline=timeline,
            record=keys.record,
            on_held=lambda event: self.held_chosen(app, event),
            on_timeline=keys.chosen,
            on_note=keys.note,
            id="agent-pane",
        )
        await app.add_sidebar_pane("Agent", pane, "pane-agent")
        app.status_notes.append(self.status_note)
        app.closers.append(self.stop)
        actions = app.extension_actions
        actions[Extension.SHOW_AGENT] = lambda: _show_agent(app)
        actions[Extension.AGENT_PAUSE] = self.pause_or_resume
        actions[Extension.AGENT_STEP] = lambda: self.step(app)

    # -- what the status line and the keys do -------------------------------------------------

    def status_note(self) -> Text:
        if self.server is None or self.calls is None:
            return Text()
        gate = self.calls.gate
        note = Text("  ⇄ agent ", style="bold magenta")
        note.append(f"{self.address()} {masked(self.server.token)}")
        if gate.taken_over:
            note.append(" · taken over", style="bold magenta")
        elif gate.paused:
            note.append(" · paused", style="bold yellow")
        if gate.held:
            note.append(f" · {len(gate.held)} held", style="bold magenta")
        return note

    def address(self) -> str:
        """The proxy's URL without its scheme (short enough for the status line)."""
        return self.server.url.removeprefix("http://") if self.server else ""

    def pause_or_resume(self) -> None:
        assert self.calls is not None
        gate = self.calls.gate
        if gate.paused:
            gate.resume()
        else:
            gate.pause()

    def step(self, app: AgentHost) -> None:
        """Release the held call being edited, with the form's arguments, or else the next."""
        assert self.calls is not None
        if self.editing is not None and self.calls.gate.held_call(self.editing) is not None:
            self.release_edited(app)
            return
        released = self.calls.gate.step()
        if released is None:
            app.notify("No agent call is waiting.", severity="warning")

    def take_over(self, app: AgentHost) -> None:
        assert self.calls is not None
        gate = self.calls.gate
        if gate.taken_over:
            gate.give_back()
            app.notify("Given back: the agent's calls go on.")
        else:
            gate.take_over()
            app.notify(
                "You have taken over: the agent's calls wait until t in the Agent pane gives back."
            )

    def held_chosen(self, app: AgentHost, event: HeldCalls.Chosen) -> None:
        assert self.calls is not None and self.server is not None
        gate = self.calls.gate
        if event.action == "take_over":
            self.take_over(app)
            return
        if event.action in PANE_ACTIONS:
            PANE_ACTIONS[event.action](app, self.server, gate)
            return
        held = gate.held_call(event.number or 0)
        if held is None:
            return
        if event.action == "release":
            gate.answer(held, Release())
        elif event.action == "refuse":
            gate.answer(held, Refusal(REFUSED_BY_PERSON))
        elif event.action == "edit":
            self.editing = held.record.number
            app.call_later(self._edit, app, held.record)

    async def _edit(self, app: AgentHost, record: CallRecord) -> None:
        await app.show_tool(record.tool, record.arguments)
        name = name_line(record.tool, 40)
        panel = app.tool_panel
        panel.hold_call(lambda: self.release_edited(app))
        panel.set_state(
            f"editing the agent's held call #{record.number} {name}: ctrl+s releases it"
        )
        app.call_after_refresh(panel.focus_form)

    def release_edited(self, app: AgentHost) -> None:
        assert self.calls is not None
        gate = self.calls.gate
        held = gate.held_call(self.editing) if self.editing is not None else None
        panel = app.tool_panel
        if held is None:
            panel.hold_call(None)
            app.notify("No held call is being edited (e on a held call in the Agent pane).")
            return
        if panel.tool is None or panel.tool.name != held.record.tool:
            app.notify(f"The form is not the held call's tool ({held.record.tool}).", markup=False)
            return
        try:
            arguments = panel.arguments()
        except ValueError as error:
            app.notify(one_line(str(error), 300), severity="error", markup=False)
            return
        self.editing = None
        panel.hold_call(None)
        gate.answer(held, Release(arguments))
        panel.set_state(f"released the agent's call #{held.record.number} with your arguments")

    async def stop(self) -> None:
        """Refuse the held calls and stop serving (before the env is closed)."""
        if self.calls is not None:
            self.calls.gate.close(CLOSING)
        if self.server is not None:
            server, self.server = self.server, None
            await asyncio.to_thread(server.stop)


def _copy_config(app: AgentHost, server: ProxyServer, _gate: Gate) -> None:
    config = json.dumps(server.client_config(), indent=2)
    app.copy_to_clipboard(config)
    shown = config.replace(server.token, masked(server.token))
    app.notify(shown, title="MCP client config copied", markup=False, timeout=8)


def _write_config(app: AgentHost, server: ProxyServer, _gate: Gate) -> None:
    try:
        path = server.write_client_config()
    except OSError as error:
        app.notify(f"cannot write the config: {error}", severity="error", markup=False)
        return
    app.notify(str(path), title="MCP client config written (only you can read it)", markup=False)


def _show_token(app: AgentHost, server: ProxyServer, _gate: Gate) -> None:
    app.notify(server.token, title="The proxy's token", markup=False, timeout=20)


def _release_all(app: AgentHost, _server: ProxyServer, gate: Gate) -> None:
    if not gate.held:
        app.notify("No agent call is waiting.", severity="warning")
        return
    gate.release_held(in_parallel=True)


PANE_ACTIONS: dict[str, Callable[[AgentHost, ProxyServer, Gate], None]] = {
    "copy_config": _copy_config,
    "write_config": _write_config,
    "show_token": _show_token,
    "release_all": _release_all,
}
"""What a key on the Agent pane does that concerns no one held call."""


AGENT_REQUESTS_OWN_ROWS = ("tools/call", "initialize", "ping")
"""An agent's requests that get no `list` row: tool calls have their own rows, the others say
nothing of the run."""


def _heard(timeline: RunTimeline, method: str, params: Any) -> None:
    """An agent's request other than a tool call (a list, a read, a prompt) in the timeline."""
    if method in AGENT_REQUESTS_OWN_ROWS or method.startswith("notifications/"):
        return
    detail = json.dumps(params, ensure_ascii=False, default=str) if params else ""
    timeline.agent_request(method, "agent", detail)


def _show_agent(app: AgentHost) -> None:
    app.show_sidebar_pane("pane-agent")
    app.query_one(HeldCalls).focus()
