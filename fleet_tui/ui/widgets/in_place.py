"""Changing what a widget shows without a layout of the whole screen.

Textual lays out every widget on the screen again when one asks for a layout, which a
`Static.update` does by default and a scroll view's new virtual size (a list that took other
rows) does always: several milliseconds per change at 120x36, more with a long tool list. A
widget whose box keeps its size needs none: text as many lines high as the text before, a
scroll view whose width and height come from its container (only its scroll bars follow its
content).
"""

from __future__ import annotations

from textual import messages
from textual.dom import DOMNode
from textual.geometry import Size
from textual.reactive import Reactive
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.visual import VisualType
from textual.widgets import Static


def set_content(widget: Static, content: VisualType) -> None:
    """Show `content` in `widget`; the screen is laid out again only when the widget's box
    may change: its height follows its content and the new content is not as high at the
    widget's width (or it was never laid out, or its width follows its content)."""
    if content == widget.content:
        return
    widget.update(content, layout=False)
    if is_displayed(widget) and not _keeps_its_box(widget):
        widget.refresh(layout=True)


def is_displayed(widget: DOMNode) -> bool:
    """Whether `widget` and its containers are all displayed. One that is not (say, in a tab
    not shown) needs no layout now: it gets one when it, or its container, is shown."""
    return all(node.display for node in widget.ancestors_with_self)


def _keeps_its_box(widget: Static) -> bool:
    """Whether `widget`, laid out before, is as high with its new content."""
    styles, size = widget.styles, widget.size  # the size of its content, within its padding
    if not size or (styles.width is not None and styles.width.is_auto):
        return False
    if styles.height is not None and not styles.height.is_auto:
        return True
    return widget.get_content_height(size, widget.app.size, size.width) == size.height


class SizedByContainer(ScrollView):
    """A scroll view whose box is set by its container: a new virtual size (more or fewer
    rows) moves its scroll bars, not the rest of the screen. A scroll bar that appears or
    goes still lays the screen out (Textual does that when it toggles one)."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def watch_virtual_size(self, size: Size) -> None:
        if self.styles.auto_dimensions:
            self.refresh(layout=True)  # its box follows what it shows after all
        else:
            self._scroll_update(size)
        self.refresh()


class PaintsShownWidgets(Screen[None]):
    """A screen that leaves out the repaints asked for by widgets in a container not displayed
    (the history in a sidebar tab not shown, a result tab not shown). Textual takes such a
    widget for one new on the screen and maps the whole screen again, hidden panes included,
    at its next paint: several milliseconds per call at 120x36. Showing the container lays the
    screen out, which paints the widget afresh."""

    async def _on_update(self, message: messages.Update) -> None:
        if is_displayed(message.widget):
            await super()._on_update(message)
        else:
            message.stop()
            message.prevent_default()
