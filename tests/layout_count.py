"""Counting the full-screen layouts Textual makes, and the maps of the whole screen it builds
(every widget placed again, hidden panes included), to show when an action does either more
often than it needs (each costs milliseconds, more with many widgets)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from textual._compositor import Compositor
from textual.screen import Screen


@dataclass
class LayoutCount:
    full: int = 0
    whole_maps: int = 0


@contextmanager
def counting_layouts(monkeypatch: pytest.MonkeyPatch) -> Iterator[LayoutCount]:
    """Count the screen's full layouts (not the scroll-only reflows), and the whole-screen maps
    built outside them, while in the block."""
    count = LayoutCount()
    refresh_layout = Screen._refresh_layout
    arrange_root = Compositor._arrange_root

    def counted(screen: Screen, size=None, scroll: bool = False) -> None:
        count.full += not scroll or bool(screen._layout_widgets)
        refresh_layout(screen, size, scroll)

    def mapped(compositor: Compositor, root, size, visible_only: bool = True):
        count.whole_maps += not visible_only
        return arrange_root(compositor, root, size, visible_only)

    with monkeypatch.context() as patch:
        patch.setattr(Screen, "_refresh_layout", counted)
        patch.setattr(Compositor, "_arrange_root", mapped)
        yield count
