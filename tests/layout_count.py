"""Counting the full-screen layouts Textual makes, to show when an action lays out the whole
screen more often than it needs (each costs milliseconds, more with many widgets)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from textual.screen import Screen


@dataclass
class LayoutCount:
    full: int = 0


@contextmanager
def counting_layouts(monkeypatch: pytest.MonkeyPatch) -> Iterator[LayoutCount]:
    """Count the screen's full layouts (not the scroll-only reflows) while in the block."""
    count = LayoutCount()
    refresh_layout = Screen._refresh_layout

    def counted(screen: Screen, size=None, scroll: bool = False) -> None:
        count.full += not scroll or bool(screen._layout_widgets)
        refresh_layout(screen, size, scroll)

    with monkeypatch.context() as patch:
        patch.setattr(Screen, "_refresh_layout", counted)
        yield count
