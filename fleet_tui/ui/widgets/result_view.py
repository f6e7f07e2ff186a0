"""The result of a call in four tabs: Rendered, Raw, Structured and Timing."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, Self

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.geometry import Region
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
from fleet_tui.ui.widgets.in_place import set_content
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

    def update(self, part: JsonPart) -> bool:
        """Show `part` in the widget already there; False when it needs another kind of widget
        (text and pager differ, or the block shows a tree)."""
        if self.as_tree or (part.pager is None) != (self.part.pager is None):
            return False
        self.part = part
        widget = self.children[0] if self.children else None
        if isinstance(widget, Static) and part.highlighted is not None:
            set_content(widget, part.highlighted)
        elif isinstance(widget, TextPager) and part.pager is not None:
            widget.set_text(part.pager)
        else:
            return False
        return True

    async def toggle(self) -> None:
        self.as_tree = not self.as_tree
        self.set_class(self.as_tree, "-tree")
        await self.remove_children()
        await self.mount(JsonTree(self.part.value) if self.as_tree else self._text_widget())


STATIC_CLASSES: dict[type[Part], str] = {
    TextPart: "text",
    NotePart: "note",
    MediaPart: "note media",
}
"""The classes of the Static each of these parts is shown in."""


def part_widget(part: Part) -> Widget:
    """The widget for one rendered part."""
    if isinstance(part, TextPart):
        return Static(part.text, markup=False, classes=STATIC_CLASSES[TextPart])
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
        return Static(_note_text(part), markup=False, classes=STATIC_CLASSES[NotePart])
    if isinstance(part, MediaPart):
        return Static(_note_text(part), markup=False, classes=STATIC_CLASSES[MediaPart])
    if isinstance(part, LinkPart):
        return ResourceLinkButton(part)
    raise TypeError(f"unknown part {part!r}")


def update_part(widget: Widget, part: Part) -> bool:
    """Show `part` in `widget` (made by `part_widget` for an earlier part) without mounting
    anything; False when the part needs another kind of widget."""
    if isinstance(part, TextPart | NotePart | MediaPart) and type(widget) is Static:
        if widget.classes != frozenset(STATIC_CLASSES[type(part)].split()):
            return False
        set_content(widget, part.text if isinstance(part, TextPart) else _note_text(part))
        return True
    if isinstance(part, JsonPart) and isinstance(widget, JsonBlock):
        return widget.update(part)
    if isinstance(part, PagerPart) and isinstance(widget, TextPager):
        widget.set_text(part.text)
        return True
    if isinstance(part, ImagePart) and isinstance(widget, ImageView):
        if widget.data is not part.data or widget.mime_type != part.mime_type:
            widget.show(part.data, part.mime_type)
        return True
    if isinstance(part, LinkPart) and isinstance(widget, ResourceLinkButton):
        widget.label, widget.uri = Text(part.text), part.uri
        return True
    return False


def _note_text(part: NotePart | MediaPart) -> Text:
    return literal(part.text if isinstance(part, NotePart) else part.label, "italic")


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
    _title_row_only = False
    """Set while the title changes: the refresh it asks for repaints the top border row."""

    class OpenResource(Message):
        """The user asked to read the resource a result links to."""

        def __init__(self, uri: str) -> None:
            super().__init__()
            self.uri = uri

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.plan: ResultPlan | None = None
        self.border_title = "Result"
        self._title = "Result"
        self._showing = asyncio.Lock()
        """One `show` at a time: two at once (a call's, and its history row's) would mount
        both results."""
        self._unfilled: set[str] = set()
        """The tabs out of sight that do not show the current plan yet: each is filled when
        it is shown (most results are only ever read in the Rendered tab)."""

    def compose(self) -> ComposeResult:
        with TabbedContent(id="result-tabs"):
            with TabPane("Rendered", id="tab-rendered"):
                yield VerticalScroll(
                    Static(
                        "No result yet: pick a tool, fill the form, press Call.", classes="hint"
                    ),
                    _hidden(ImageView(id="result-picture", classes="result-image")),
                    id="rendered",
                )
            with TabPane("Raw", id="tab-raw"):
                yield TextPager(id="raw")
            with TabPane("Structured", id="tab-structured"), VerticalScroll():
                yield Static("", id="structured-verdict", markup=False)
                yield Static("", id="structured-problems", markup=False)
                with Vertical(id="structured-body"):
                    yield _hidden(Static("", id="structured-text", markup=False))
                    yield _hidden(TextPager(id="structured-pager", classes="big"))
            with TabPane("Timing", id="tab-timing"):
                yield Static("", id="timing", markup=False)

    async def show(self, plan: ResultPlan) -> None:
        """Replace the shown result with `plan` (mounting is all that happens here)."""
        async with self._showing:
            await self._show(plan)

    async def _show(self, plan: ResultPlan) -> None:
        """Change the widgets already shown where they fit the new result (no layout of the
        whole screen per widget); only parts of another kind are mounted."""
        self.plan = plan
        self.set_class(plan.is_error, "-error")
        self._set_title(plan.title or "Result")
        rendered = self.query_one("#rendered", VerticalScroll)
        pending = _show_parts(rendered, plan.parts, self.query_one("#result-picture", ImageView))
        rendered.scroll_home(animate=False)
        self._unfilled = {"tab-raw", "tab-structured", "tab-timing"}
        self._fill(self.query_one(TabbedContent).active)
        for step in pending:
            await step

    def _set_title(self, title: str) -> None:
        """Show `title` in the top border, repainting that row alone (textual's setter repaints
        the whole view, and the title changes with every call)."""
        if title == self._title:
            return
        self._title = title
        self._title_row_only = True
        try:
            self.border_title = literal(title)
        finally:
            self._title_row_only = False

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        if self._title_row_only and not regions:
            left, top = self.content_offset
            regions = (Region(-left, -top, self.outer_size.width, 1),)
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        if event.pane.id is not None:
            self._fill(event.pane.id)

    def _fill(self, pane_id: str) -> None:
        """Show the current plan in the tab `pane_id` if it does not yet."""
        if pane_id not in self._unfilled or self.plan is None:
            return
        self._unfilled.discard(pane_id)
        if pane_id == "tab-raw":
            self.query_one("#raw", TextPager).set_text(self.plan.raw)
        elif pane_id == "tab-structured":
            self._show_structured(self.plan)
        elif pane_id == "tab-timing":
            set_content(self.query_one("#timing", Static), _timing_table(self.plan.timing))

    def _show_structured(self, plan: ResultPlan) -> None:
        view = plan.structured
        verdict = self.query_one("#structured-verdict", Static)
        set_content(verdict, literal(view.verdict, "bold red" if view.problems else "bold"))
        problems = self.query_one("#structured-problems", Static)
        set_content(problems, literal("\n".join(f"✗ {p}" for p in view.problems), "red"))
        problems.display = bool(view.problems)
        text = self.query_one("#structured-text", Static)
        pager = self.query_one("#structured-pager", TextPager)
        text.display = isinstance(view.body, Text)
        pager.display = isinstance(view.body, PagerText)
        if isinstance(view.body, Text):
            set_content(text, view.body)
        elif isinstance(view.body, PagerText):
            pager.set_text(view.body)

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
        self._fill(f"tab-{tab}")  # at once, not when the tab's message comes


def _show_parts(container: Widget, parts: list[Part], picture: ImageView) -> list[Awaitable[None]]:
    """Show `parts` in `container`'s children, changed in place while each fits its part; from
    the first that does not, the rest is removed and new widgets are mounted. The first image
    part is shown by `picture`, mounted for good and hidden while a result has no image: it
    keeps its size across results, so a new screenshot is scaled for it as soon as it is
    decoded. Returns what to await for the removals and mounts (started already)."""
    at = next((i for i, part in enumerate(parts) if isinstance(part, ImagePart)), None)
    image = parts[at] if at is not None else None
    others = [part for i, part in enumerate(parts) if i != at]
    children = [child for child in container.children if child is not picture]
    kept = 0
    while kept < min(len(children), len(others)) and update_part(children[kept], others[kept]):
        kept += 1
    pending: list[Awaitable[None]] = []
    if kept < len(children):
        pending.append(container.remove_children(children[kept:]))
    _show_picture(picture, image if isinstance(image, ImagePart) else None)
    new = [part_widget(part) for part in others[kept:]]
    return pending + _mount_around(container, picture, at, children[:kept], new)


def _mount_around(
    container: Widget, picture: ImageView, at: int | None, kept: list[Widget], new: list[Widget]
) -> list[Awaitable[None]]:
    """Mount `new` after the `kept` widgets, with `picture` between them where it shows part
    `at` (moved only when it is elsewhere); a hidden picture (`at` None) stays where it is."""
    if at is None or at < len(kept):
        if at is not None and _index(picture) + 1 != _index(kept[at]):
            container.move_child(picture, before=kept[at])
        return [container.mount_all(new)] if new else []
    if kept and _index(kept[-1]) > _index(picture):
        container.move_child(picture, after=kept[-1])
    before, after = new[: at - len(kept)], new[at - len(kept) :]
    return [
        *([container.mount_all(before, before=picture)] if before else []),
        *([container.mount_all(after, after=picture)] if after else []),
    ]


def _index(widget: Widget) -> int:
    """Where `widget` is among its container's children."""
    return widget.parent.children.index(widget) if widget.parent else 0


def _show_picture(picture: ImageView, part: ImagePart | None) -> None:
    """Show `part` in `picture`, or hide it and let its picture go when there is none."""
    picture.display = part is not None
    if part is not None:
        update_part(picture, part)
    elif picture.data is not None:
        picture.show(None)


def _hidden(widget: Widget) -> Widget:
    widget.display = False
    return widget


def _timing_table(rows: list[tuple[str, str]]) -> Any:
    if not rows:
        return Text("No timing for this entry.")
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    for label, value in rows:
        table.add_row(label, Text(value))
    return table
