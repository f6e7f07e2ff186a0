"""A field drawn as text until it is first focused: one cheap widget instead of five.

Mounting costs Textual a few milliseconds per widget, and a field made of real widgets (a row,
its name, an Input or a Select, buttons, a notes line) is five to nine of them. So a form first
draws each field as a *preview*: the same columns, colours and labels, painted by the field
widget itself. Focusing or clicking a preview swaps in the real widgets (`PreviewWidget`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import RenderResult
from textual.color import Color
from textual.containers import Vertical
from textual.geometry import Offset, Size
from textual.widget import Widget
from textual.widgets import Button, Input, Switch
from textual.widgets.collapsible import CollapsibleTitle

from fleet_tui.text import one_line

if TYPE_CHECKING:
    from textual.app import App

EditorKind = Literal["input", "select", "switch", "text"]

NAME_SHARE, NAME_MIN, NAME_MAX = 0.3, 18, 36
NAME_GAP = 1
"""The name column: 30% of the row, 18 to 36 cells, the last one blank (as `.field-name` in
the form's CSS)."""

BUTTON_MIN_WIDTH = 6
"""State buttons (`null`, `clear`) are at least this wide; other buttons at least 16 (Textual's
default)."""
ADD_BUTTON_MIN_WIDTH = 16
NOTES_INDENT = 2


@dataclass(frozen=True)
class EditorLook:
    """What the editor shows: `text` (a placeholder when `placeholder`), as an Input, a
    Select, a Switch (`on`) or plain text."""

    kind: EditorKind
    text: str = ""
    placeholder: bool = False
    on: bool = False

    @classmethod
    def input(cls, value: str, placeholder: str) -> EditorLook:
        """A text box showing `value`, or `placeholder` while it is empty."""
        if value:
            return cls("input", one_line(value, 400))
        return cls("input", placeholder, placeholder=True)


@dataclass(frozen=True)
class Palette:
    """The Rich styles a preview paints with, resolved for one theme and background."""

    muted: Style
    input: Style
    input_placeholder: Style
    surface: Style
    """Text on the surface colour (a Select, a group's title)."""
    surface_muted: Style
    """Half-faded text on the surface colour (a blank Select, its arrow)."""
    button: Style
    switch_on: Style
    switch_off: Style
    switch_track: Style


_palettes: dict[tuple[str, Color, Color], Palette] = {}


def palette_for(app: App, background: Color, foreground: Color) -> Palette:
    """Styles for a preview on `background` in the app's current theme."""
    key = (app.theme, background, foreground)
    if key not in _palettes:
        light = not app.current_theme.dark
        _palettes[key] = _palette(app.theme_variables, background, foreground, light=light)
    return _palettes[key]


def _palette(
    theme: dict[str, str], background: Color, foreground: Color, *, light: bool
) -> Palette:
    def color(name: str) -> Color:
        return background + Color.parse(theme[name])

    def muted(alpha: float) -> Color:
        return background + background.get_contrast_text(alpha)

    def style(fg: Color, bg: Color | None = None, *, bold: bool = False) -> Style:
        return Style(
            color=fg.rich_color, bgcolor=bg.rich_color if bg is not None else None, bold=bold
        )

    surface = color("surface")
    boost = color("boost")
    half = surface + foreground.with_alpha(0.5)
    track = color("panel-darken-2")
    # Textual's Switch: the knob is $panel on dark themes, $primary 15% on light ones.
    knob = track + Color.parse(theme["primary"]).with_alpha(0.15) if light else color("panel")
    return Palette(
        muted=style(muted(0.6)),
        input=style(foreground, boost),
        input_placeholder=style(muted(0.38), boost),
        surface=style(foreground, surface),
        surface_muted=style(half, surface),
        button=style(color("button-foreground"), surface, bold=True),
        switch_on=style(color("success"), color("success")),
        switch_off=style(knob, knob),
        switch_track=style(track, track),
    )


def name_width(width: int) -> int:
    return max(NAME_MIN, min(NAME_MAX, int(width * NAME_SHARE)))


def button_width(label: str) -> int:
    return max(BUTTON_MIN_WIDTH, len(label) + 2)


def row_lines(
    width: int,
    name: Text,
    editor: EditorLook,
    buttons: list[str],
    colors: Palette,
    console: Console,
) -> list[Text]:
    """The field's row, `width` cells wide: the name column (wrapped, one cell from what
    follows), then on its first line the editor and the state buttons."""
    column = min(name_width(width), width)
    names = name.wrap(console, max(1, column - NAME_GAP), overflow="fold") or [Text()]
    line = _fit(names[0], column)
    buttons_width = sum(1 + button_width(label) for label in buttons)
    line.append_text(_editor(editor, max(0, width - column - buttons_width), colors))
    for label in buttons:
        line.append(" ")
        line.append(label.center(button_width(label)), style=colors.button)
    line.truncate(width, overflow="crop", pad=True)
    return [line, *(_fit(_lstrip(more), width) for more in names[1:])]


def _lstrip(text: Text) -> Text:
    """`text` without leading spaces (a wrapped line starts at a word, as Textual wraps)."""
    return text[len(text.plain) - len(text.plain.lstrip(" ")) :]


def button_line(label: str, colors: Palette) -> Text:
    """A button under a field (`+ add item`), as the form indents it."""
    line = Text(" " * NOTES_INDENT)
    line.append(label.center(max(ADD_BUTTON_MIN_WIDTH, len(label) + 2)), style=colors.button)
    return line


def group_title(title: Text, width: int, colors: Palette) -> Text:
    """A collapsed group's title line: `▶ title` on the group's background."""
    line = Text(" ▶ ", style=colors.surface)
    line.append_text(title)
    return _fit(line, width, fill=colors.surface)


def _editor(look: EditorLook, width: int, colors: Palette) -> Text:
    if look.kind == "switch":
        text = Text()
        if look.on:
            text.append("  ", style=colors.switch_track).append("  ", style=colors.switch_on)
        else:
            text.append("  ", style=colors.switch_off).append("  ", style=colors.switch_track)
        text.append(" ").append(look.text, style=colors.muted)
        return _fit(text, width)
    if look.kind == "select":
        style = colors.surface_muted if look.placeholder else colors.surface
        text = _fit(Text(look.text, style=style), max(0, width - 3), fill=colors.surface)
        text.append(" ▼", style=colors.surface_muted)
        text.append(" ", style=colors.surface)
        return _fit(text, width)
    if look.kind == "input":
        style = colors.input_placeholder if look.placeholder else colors.input
        return _fit(Text(look.text, style=style), width, fill=colors.input)
    return _fit(Text(look.text, style=colors.muted), width)


def _fit(text: Text, width: int, fill: Style | None = None) -> Text:
    """`text` cut (with an ellipsis) or padded to exactly `width` cells."""
    text = text.copy()
    text.no_wrap = True
    if text.cell_len > width:
        text.truncate(width, overflow="ellipsis")
    elif text.cell_len < width:
        text.append(" " * (width - text.cell_len), style=fill or "")
    return text


def wrapped(notes: Text, width: int, console: Console) -> list[Text]:
    """The notes lines under a field, wrapped to `width` and indented."""
    if not notes:
        return []
    lines = notes.wrap(console, max(1, width - NOTES_INDENT))
    return [Text(" " * NOTES_INDENT) + line for line in lines]


def first_focusable(root: Widget) -> Widget | None:
    """The first widget under `root` to type into, in focus order: a nested object's fold
    header and buttons (`+ add item`, `clear`) are passed over, so what is typed next fills a
    field; one of them only when there is nothing else."""
    fallback = None
    for widget in root.query("*"):
        if widget.focusable:
            if not isinstance(widget, (Button, CollapsibleTitle)):
                return widget
            fallback = fallback or widget
    return fallback


class PreviewWidget(Vertical):
    """A widget that starts as painted `preview_lines()` and no children, and composes its
    real widgets when first focused (or clicked): then it focuses the first of them, hands it
    the keys typed meanwhile, in order (a burst such as `2 tab 3` fills two fields), and
    presses the button or switch that was clicked.

    A click is a press and a release, and the app makes a Click of them only when both land
    on the same widget. So a preview pressed by the mouse stays a preview until the release
    (it holds the mouse meanwhile), then builds its widgets and presses what is under the
    click: had it built them at the press, the release would land on the new button, no
    Click would come, and the first click would do nothing."""

    DEFAULT_CSS = """
    PreviewWidget { height: auto; }
    """

    def __init__(self, *, previewing: bool, focusable: bool = True, classes: str = "") -> None:
        super().__init__(classes=classes)
        self.previewing = previewing
        self.can_focus = previewing and focusable
        self._pressed_at: Offset | None = None
        self._opening = False
        self._typed_early: list[events.Key] = []
        self._laid_out_width = 0
        self._painted: tuple[tuple[int, str], list[Text]] | None = None

    def preview_lines(self, width: int, colors: Palette) -> list[Text]:
        """The lines the preview shows, `width` cells wide."""
        raise NotImplementedError

    def render(self) -> RenderResult:
        if not self.previewing:
            return super().render()
        preview = Text("\n").join(self._lines(self._laid_out_width or self.size.width))
        preview.no_wrap = True
        return preview

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if not self.previewing:
            return super().get_content_height(container, viewport, width)
        self._laid_out_width = width
        return len(self._lines(width))

    def _lines(self, width: int) -> list[Text]:
        """`preview_lines()`, kept until the width, the theme or `repaint()` changes them."""
        key = (width, self.app.theme)
        if self._painted is None or self._painted[0] != key:
            _, _, background, foreground = self.colors
            colors = palette_for(self.app, background, foreground)
            self._painted = (key, self.preview_lines(width, colors))
        return self._painted[1]

    def repaint(self) -> None:
        """Draw the preview again (what it shows has changed)."""
        self._painted = None
        self.refresh(layout=True)

    async def materialize(self) -> None:
        """Swap the preview for the real widgets."""
        if self.previewing:
            self.previewing = False
            self.can_focus = False
            await self.recompose()

    def focus_first(self) -> None:
        """Focus the first focusable widget inside, at once (`focus()` would wait its turn,
        and a key handled meanwhile, such as f3, could have moved the focus elsewhere)."""
        target = first_focusable(self)
        if target is not None:
            self.screen.set_focus(target)

    def _forward_event(self, event: events.Event) -> None:
        """Keys typed at a preview before its widgets exist are kept for them. A press is
        noted at once: the focus it gives is handled before the press itself."""
        if isinstance(event, events.Key) and (self.previewing or self._opening):
            self._typed_early.append(events.Key(event.key, event.character))
            return
        if isinstance(event, events.MouseDown) and self.can_focus and not self._opening:
            self._pressed_at = event.screen_offset  # (can_focus: only while previewing)
            self.capture_mouse()
        super()._forward_event(event)

    async def on_mouse_up(self, event: events.MouseUp) -> None:
        """Released: a Click follows if it was over the preview; else just open it."""
        self.release_mouse()
        if self._pressed_at is not None and not self.region.contains(*event.screen_offset):
            self._pressed_at = None
            await self._open()

    def on_unmount(self) -> None:
        self.release_mouse()  # removed while pressed (the form was rebuilt)

    async def on_click(self, event: events.Click) -> None:
        if self.previewing and self._pressed_at is not None:
            event.stop()
            await self._open()

    async def on_focus(self) -> None:
        if self._pressed_at is None:  # else it opens when the mouse is released
            await self._open()

    async def _open(self) -> None:
        """Build the real widgets, focus the first, type and press what was meanwhile."""
        if not self.previewing or self._opening:
            return
        self._opening = True
        try:
            await self.materialize()
        finally:
            self._opening = False
        if self.screen.focused is self or self._pressed_at is not None:
            self.focus_first()  # not if focus moved on meanwhile, unless it was clicked
        self._hand_on_typed_keys()
        if self._pressed_at is not None:
            self.call_after_refresh(self._press_where_clicked)

    def _hand_on_typed_keys(self) -> None:
        """The keys typed while the widgets were built: sent again, in order, when the focus
        is inside (no await comes between, so no later key overtakes them); else only their
        text, into the first Input (the focus moved on: a tab there would move it again)."""
        typed, self._typed_early = self._typed_early, []
        focused = self.screen.focused
        if focused is not None and self in focused.ancestors_with_self:
            for key in typed:
                self.app.post_message(key)
            return
        text = "".join(key.character or "" for key in typed if key.is_printable)
        boxes = self.query(Input)
        if text and boxes:
            boxes.first().insert_text_at_cursor(text)

    def _press_where_clicked(self) -> None:
        """The preview that was clicked is now real widgets: press what is under the click."""
        at, self._pressed_at = self._pressed_at, None
        if at is None or not self.is_attached:  # removed meanwhile (the form was rebuilt)
            return
        widget, _ = self.screen.get_widget_at(*at)
        if isinstance(widget, Button):
            widget.press()
        elif isinstance(widget, Switch):
            widget.toggle()
