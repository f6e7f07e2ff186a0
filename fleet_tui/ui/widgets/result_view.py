"""The result of a call in four tabs: Rendered, Raw, Structured and Timing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Static, TabbedContent, TabPane

from fleet_tui.envs.base import EnvError
from fleet_tui.media_files import BlockFiles, saved_note
from fleet_tui.ui.keymap import bindings_for
from fleet_tui.ui.result_format import (
    ImagePart,
    JsonPart,
    LinkPart,
    MarkdownPart,
    MediaPart,
    NotePart,
    PagerPart,
    Part,
    ResultPlan,
    TextPart,
)
from fleet_tui.ui.safe_text import literal
from fleet_tui.ui.screens.image_screen import ImageScreen
from fleet_tui.ui.widgets.image_view import ImageView
from fleet_tui.ui.widgets.json_tree import JsonTree
from fleet_tui.ui.widgets.text_pager import PagerText, TextPager


class JsonBlock(Vertical):
    """A JSON value shown as (highlighted) text or, on demand, as a lazily expanding tree."""

    DEFAULT_CSS = """
    JsonBlock { height: auto; }
    JsonBlock.-big, JsonBlock.-tree { height: 1fr; min-height: 12; }
    """

    def __init__(self, part: JsonPart) -> None:
        super().__init__(classes="-big" if part.pager is not None else "")
        self.part = part
        self.as_tree = False

    def compose(self) -> ComposeResult:
        yield self._text_widget()

    def _text_widget(self) -> Widget:
        if self.part.highlighted is not None:
            return Static(self.part.highlighted, markup=False, classes="json")
        return TextPager(self.part.pager, classes="json")

    async def toggle(self) -> None:
        self.as_tree = not self.as_tree
        self.set_class(self.as_tree, "-tree")
        await self.remove_children()
        await self.mount(JsonTree(self.part.value) if self.as_tree else self._text_widget())


def part_widget(part: Part) -> Widget:
    """The widget for one rendered part."""
    if isinstance(part, TextPart):
        return Static(part.text, markup=False, classes="text")
    if isinstance(part, MarkdownPart):
        from textual.widgets import Markdown  # markdown-it and pygments: loaded on first use

        return Markdown(part.source, classes="markdown")
    if isinstance(part, JsonPart):
        return JsonBlock(part)
    if isinstance(part, PagerPart):
        return TextPager(part.text, classes="big")
    if isinstance(part, ImagePart):
        return ImageView(part.data, part.mime_type, classes="result-image")
    if isinstance(part, NotePart):
        return Static(literal(part.text, "italic"), markup=False, classes="note")
    if isinstance(part, MediaPart):
        return Static(literal(part.label, "italic"), markup=False, classes="note media")
    if isinstance(part, LinkPart):
        return ResourceLinkButton(part)
    raise TypeError(f"unknown part {part!r}")


class ResourceLinkButton(Button):
    """A resource link in a result: pressing it posts `ResultView.OpenResource`."""

    def __init__(self, part: LinkPart) -> None:
        super().__init__(Text(part.text), classes="resource-link", compact=True)
        self.uri = part.uri

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(ResultView.OpenResource(self.uri))


class ResultView(Vertical):
    """Shows one ResultPlan; `show(plan)` replaces what is shown."""

    HELP_AREA = "result"
    BINDINGS = bindings_for("result")

    class OpenResource(Message):
        """The user asked to read the resource a result links to."""

        def __init__(self, uri: str) -> None:
            super().__init__()
            self.uri = uri

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.plan: ResultPlan | None = None
        self.border_title = "Result"
        self._showing = asyncio.Lock()
        """One `show` at a time: two at once (a call's, and its history row's) would mount
        both results."""

    def compose(self) -> ComposeResult:
        with TabbedContent(id="result-tabs"):
            with TabPane("Rendered", id="tab-rendered"):
                yield VerticalScroll(
                    Static(
                        "No result yet: pick a tool, fill the form, press Call.", classes="hint"
                    ),
                    id="rendered",
                )
            with TabPane("Raw", id="tab-raw"):
                yield TextPager(id="raw")
            with TabPane("Structured", id="tab-structured"), VerticalScroll():
                yield Static("", id="structured-verdict", markup=False)
                yield Static("", id="structured-problems", markup=False)
                yield Vertical(id="structured-body")
            with TabPane("Timing", id="tab-timing"):
                yield Static("", id="timing", markup=False)

    async def show(self, plan: ResultPlan) -> None:
        """Replace the shown result with `plan` (mounting is all that happens here)."""
        async with self._showing:
            await self._show(plan)

    async def _show(self, plan: ResultPlan) -> None:
        self.plan = plan
        self.set_class(plan.is_error, "-error")
        self.border_title = literal(plan.title or "Result")
        rendered = self.query_one("#rendered", VerticalScroll)
        await rendered.remove_children()
        await rendered.mount_all([part_widget(p) for p in plan.parts])
        rendered.scroll_home(animate=False)
        self.query_one("#raw", TextPager).set_text(plan.raw)
        await self._show_structured(plan)
        self.query_one("#timing", Static).update(_timing_table(plan.timing))

    async def _show_structured(self, plan: ResultPlan) -> None:
        view = plan.structured
        verdict = self.query_one("#structured-verdict", Static)
        verdict.update(literal(view.verdict, "bold red" if view.problems else "bold"))
        problems = self.query_one("#structured-problems", Static)
        problems.update(literal("\n".join(f"✗ {p}" for p in view.problems), "red"))
        problems.display = bool(view.problems)
        body = self.query_one("#structured-body", Vertical)
        await body.remove_children()
        if isinstance(view.body, Text):
            await body.mount(Static(view.body, markup=False))
        elif isinstance(view.body, PagerText):
            await body.mount(TextPager(view.body, classes="big"))

    def images(self) -> list[ImageView]:
        return list(self.query(ImageView))

    def current_image(self) -> ImageView | None:
        focused = self.app.focused
        if isinstance(focused, ImageView):
            return focused
        shown = [v for v in self.images() if v.picture is not None]
        return shown[0] if shown else None

    async def action_toggle_tree(self) -> None:
        blocks = list(self.query(JsonBlock))
        if not blocks:
            self.notify("This result has no JSON to show as a tree.", severity="warning")
        for block in blocks:
            await block.toggle()

    def action_open_image(self) -> None:
        view = self.current_image()
        if view is None:
            self.notify("This result has no image.", severity="warning")
            return
        if view.picture is not None:
            self.app.push_screen(ImageScreen(view))

    def action_save_image(self) -> None:
        """Save the shown image, else the result's audio and binary contents."""
        view = self.current_image()
        if view is not None:
            view.save()
            return
        media = [p for p in self.plan.parts if isinstance(p, MediaPart)] if self.plan else []
        if not media:
            self.notify("This result has no image, audio or binary content.", severity="warning")
            return
        self.run_worker(self._save_media(media), exit_on_error=False)

    async def _save_media(self, media: list[MediaPart]) -> None:
        files = BlockFiles(str(Path.cwd()), "result")
        try:
            paths = [
                saved_note(
                    await asyncio.to_thread(files.write, index, part.data, part.mime_type),
                    part.mime_type,
                )
                for index, part in enumerate(media)
            ]
        except EnvError as error:
            self.notify(f"Not saved: {error.message}", severity="error", markup=False)
            return
        self.notify("Saved " + ", ".join(paths), markup=False)

    def select_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = f"tab-{tab}"


def _timing_table(rows: list[tuple[str, str]]) -> Any:
    if not rows:
        return Text("No timing for this entry.")
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    for label, value in rows:
        table.add_row(label, Text(value))
    return table
