"""The Agent pane: where the MCP proxy is, whether agent calls flow, the calls held, and the
run's timeline.

It shows a `Gate` and changes it only through the callables it is given; it never imports
the app. Held calls are listed in the order they came; keys on the list release one as asked,
load one into the form to edit it, or answer it with an error. The input adds a breakpoint
(typing one that exists removes it). Under them, the run's timeline (`TimelineList`), and the
input where a note on one of its steps is written.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from fleet_tui.proxy.agent_clients import hold_age_note
from fleet_tui.proxy.gate import Breakpoint, Gate, HeldCall
from fleet_tui.proxy.run_timeline import RunTimeline
from fleet_tui.session_records import CallRecord
from fleet_tui.text import name_line, one_line
from fleet_tui.ui.frame_batch import FrameBatch
from fleet_tui.ui.keymap import bindings_for
from fleet_tui.ui.widgets.timeline_list import TimelineList

HELD_HELP = (
    "held: enter release · e edit · x refuse · a all at once · t take over · "
    "c copy / w write the client config · k token"
)


AGES_EVERY_S = 1.0
"""How often the held calls' ages are shown anew."""
AGES_UP_TO = 100
"""With more calls held, ages are shown anew only when the gate changes (listing them all
again each second would cost the app its speed)."""


def gate_state(gate: Gate) -> Text:
    """One line: is the agent running, paused or waiting behind the person."""
    if gate.taken_over:
        return Text("YOU HAVE TAKEN OVER: agent calls wait", style="bold magenta")
    if gate.paused:
        return Text(
            "PAUSED: agent calls wait (f12 steps, f11 resumes: held calls in order)",
            style="bold yellow",
        )
    return Text("agent calls flow (f11 pauses, t takes over)", style="green")


def held_line(held: HeldCall, width: int = 60) -> Text:
    record = held.record
    line = Text(f"#{record.number} ", style="dim")
    line.append(name_line(record.tool, 30), style="bold")
    line.append(f"  {one_line(held.reason, 40)}", style="magenta")
    age, late = hold_age_note(held.age_s, held.client)
    line.append(f"\n{one_line(age, width)}", style="bold red" if late else "dim")
    if record.arguments:
        arguments = json.dumps(record.arguments, ensure_ascii=False, default=str)
        line.append("\n" + one_line(arguments, width), style="dim")
    line.no_wrap, line.overflow = True, "ellipsis"  # a narrow pane cuts the JSON: never wraps it
    return line


class HeldCalls(OptionList):
    """The held calls; posts `HeldCalls.Chosen` with what to do with one."""

    HELP_AREA = "agent"
    BINDINGS = bindings_for("agent")

    class Chosen(Message):
        """`action` on held call `number` (None for the actions on the whole pane:
        `take_over`, `release_all`, `copy_config`, `write_config`, `show_token`)."""

        def __init__(self, action: str, number: int | None) -> None:
            super().__init__()
            self.action = action
            self.number = number

    def _choose(self, action: str) -> None:
        option = self.highlighted_option
        if option is not None and option.id is not None:
            self.post_message(self.Chosen(action, int(option.id)))

    def action_take_over(self) -> None:
        self.post_message(self.Chosen("take_over", None))

    def action_copy_mcp_config(self) -> None:
        self.post_message(self.Chosen("copy_config", None))

    def action_write_mcp_config(self) -> None:
        self.post_message(self.Chosen("write_config", None))

    def action_show_token(self) -> None:
        self.post_message(self.Chosen("show_token", None))

    def action_release_all_held(self) -> None:
        self.post_message(self.Chosen("release_all", None))

    def action_release_held(self) -> None:
        self._choose("release")

    def action_edit_held(self) -> None:
        self._choose("edit")

    def action_refuse_held(self) -> None:
        self._choose("refuse")


class NoteInput(Input):
    """The note on a timeline step being written: enter keeps it (empty: no note), escape
    leaves it as it was."""

    class Left(Message):
        """Escape: the note is left as it was."""

    def on_key(self, event: events.Key) -> None:
        if event.key == "escape":
            event.stop()
            self.post_message(self.Left())


class AgentPane(Vertical):
    """The proxy's address, the gate's state, its breakpoints and held calls; the timeline."""

    HELP_AREA = "agent"
    DEFAULT_CSS = """
    AgentPane #agent-held { height: auto; max-height: 40%; }
    AgentPane #agent-timeline { height: 1fr; min-height: 4; }
    AgentPane #timeline-note { display: none; }
    """

    def __init__(
        self,
        gate: Gate,
        address: str,
        *,
        timeline: RunTimeline,
        record: Callable[[int | None], CallRecord | None],
        on_held: Callable[[HeldCalls.Chosen], None],
        on_timeline: Callable[[TimelineList.Chosen], None],
        on_note: Callable[[CallRecord, str], None],
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.gate = gate
        self.address = address
        self.timeline = timeline
        self.record = record
        """The record of a timeline step (None: the row has none, or it is gone)."""
        self.on_held = on_held
        """Does what a key on the held calls asks (release, edit, refuse, copy the config)."""
        self.on_timeline = on_timeline
        """Does what a key on the timeline asks (show a step, score it, export)."""
        self.on_note = on_note
        """Keeps the note written on a step."""
        self.noting: CallRecord | None = None
        """The step whose note is being written."""
        self._gate_changes: FrameBatch[None] = FrameBatch(self, lambda _: self.show_gate(), 1)
        self._rows_changed: FrameBatch[None] = FrameBatch(self, lambda _: self.show_rows(), 1)

    def compose(self) -> ComposeResult:
        yield Static(Text(self.address), id="agent-address")
        yield Static(id="agent-state")
        yield Input(
            placeholder="break before: TOOL or TOOL KEY=VALUE",
            id="agent-break",
        )
        yield Static(id="agent-breakpoints")
        yield Static(Text(HELD_HELP, style="dim"), id="agent-held-help")
        yield HeldCalls(id="agent-held")
        yield TimelineList(self.timeline.snapshot, self.record, id="agent-timeline")
        yield NoteInput(
            placeholder="note on the step: enter keeps it, escape leaves it", id="timeline-note"
        )

    def on_mount(self) -> None:
        self.show_gate()
        self.show_rows()
        self.set_interval(AGES_EVERY_S, self._show_ages)

    def _show_ages(self) -> None:
        if 0 < len(self.gate.held) <= AGES_UP_TO:
            self.show_gate()

    def gate_changed(self) -> None:
        """Show the gate at the next batch: an agent may send a thousand calls at once, and
        listing every held call again for each one grew with their square."""
        self._gate_changes.add(None)

    def show_gate(self) -> None:
        """Show the gate as it is now."""
        gate = self.gate
        self.query_one("#agent-state", Static).update(gate_state(gate))
        points = ", ".join(str(b) for b in gate.breakpoints) or "none"
        self.query_one("#agent-breakpoints", Static).update(
            Text(f"breakpoints: {one_line(points, 200)}", style="dim")
        )
        held = self.query_one(HeldCalls)
        highlighted = held.highlighted
        held.clear_options()
        held.add_options([Option(held_line(h), id=str(h.record.number)) for h in gate.held])
        if gate.held:
            held.highlighted = min(highlighted or 0, len(gate.held) - 1)

    def timeline_changed(self) -> None:
        """List the timeline again at the next batch (any number of rows at once)."""
        self._rows_changed.add(None)

    def show_rows(self) -> None:
        self.query_one(TimelineList).show_rows()

    def write_note(self, record: CallRecord) -> None:
        """Open the note input on `record`'s step, with its note so far."""
        self.noting = record
        note = self.query_one(NoteInput)
        step = f"#{record.number} {one_line(record.tool, 30)}"
        note.placeholder = f"note on {step}: enter keeps it, escape leaves it"
        note.value = record.note
        note.display = True
        note.focus()

    def on_timeline_list_chosen(self, event: TimelineList.Chosen) -> None:
        event.stop()
        self.on_timeline(event)

    def on_held_calls_chosen(self, event: HeldCalls.Chosen) -> None:
        event.stop()
        self.on_held(event)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if isinstance(event.input, NoteInput):
            self._note_submitted(event)
            return
        try:
            point = Breakpoint.parse(event.value)
        except ValueError as error:
            self.notify(str(error), severity="error", markup=False)
            return
        points = self.gate.breakpoints
        if point in points:
            points.remove(point)
        else:
            points.append(point)
        event.input.value = ""
        self.show_gate()

    def _note_submitted(self, event: Input.Submitted) -> None:
        record = self.noting
        self.on_note_input_left(NoteInput.Left())
        if record is not None:
            self.on_note(record, event.value)

    def on_note_input_left(self, event: NoteInput.Left) -> None:
        """Close the note input and go back to the timeline."""
        event.stop()
        self.noting = None
        self.query_one(NoteInput).display = False
        self.query_one(TimelineList).focus()
