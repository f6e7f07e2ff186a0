"""A JSON value as a tree whose branches are built only when opened (fast for big values)."""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from fleet_tui.text import clean, counted, shortened

CHILDREN_PER_NODE = 500


def _summary(value: Any) -> Text:
    if isinstance(value, dict):
        return Text(f"{{}} {len(value)} keys", style="dim")
    if isinstance(value, list):
        return Text(f"[] {counted(len(value), 'item')}", style="dim")
    shown = shortened(json.dumps(value, ensure_ascii=False), 200)
    style = {str: "green", bool: "yellow", type(None): "magenta"}.get(type(value), "cyan")
    return Text(clean(shown), style=style)


class JsonTree(Tree[Any]):
    """Tree view of a JSON value; containers expand lazily."""

    DEFAULT_CSS = "JsonTree { height: 1fr; }"

    def __init__(self, value: Any, *, id: str | None = None) -> None:
        super().__init__(_summary(value), data=value, id=id)
        self.show_root = True
        self.guide_depth = 3

    def on_mount(self) -> None:
        self._fill(self.root)
        self.root.expand()

    def _fill(self, node: TreeNode[Any]) -> None:
        value = node.data
        if not isinstance(value, dict | list):
            return
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for count, (key, child) in enumerate(items):
            if count == CHILDREN_PER_NODE:
                node.add_leaf(Text(f"… {len(value) - count} more", style="dim italic"))
                break
            label = Text(clean(str(key)), style="bold").append(": ").append_text(_summary(child))
            if isinstance(child, dict | list) and child:
                node.add(label, data=child)
            else:
                node.add_leaf(label)

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[Any]) -> None:
        event.stop()
        if event.node is not self.root and not event.node.children:
            self._fill(event.node)
