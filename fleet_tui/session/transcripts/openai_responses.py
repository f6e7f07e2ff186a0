"""The OpenAI Responses API: `input` and `output` items (openai-agents' `to_input_list()`), with
`function_call` items (`name`, `arguments` as JSON text, `call_id`) answered by
`function_call_output` items, and `computer_call` items (`action`, or a batch of `actions`)
answered by `computer_call_output` screenshots (https://platform.openai.com/docs/api-reference/
responses and https://platform.openai.com/docs/guides/tools-computer-use).

A computer action becomes a call to a `computer` tool in Anthropic's form (`action`,
`coordinate`, `text`, `scroll_direction`, `scroll_amount`), the form computer-use envs serve;
of a batch, the last action gets the screenshot."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fleet_tui.session.transcripts.items import (
    Item,
    ToolAnswer,
    ToolCall,
    TurnStart,
    content_blocks,
    dicts,
    image_block,
    tool_call,
)

ITEM_TYPES = frozenset(
    {"function_call", "function_call_output", "computer_call", "computer_call_output"}
)
BUTTONS = {"left": "left_click", "right": "right_click", "wheel": "middle_click"}
KEYS = {"enter": "Return", "return": "Return", "esc": "Escape", "escape": "Escape"}
KEYS |= {"backspace": "BackSpace", "delete": "Delete", "tab": "Tab", "space": "space"}
SCROLL_CLICK_PIXELS = 100
"""Responses scrolls by pixels, computer tools by clicks: a click is taken as this many."""


def is_responses(items: list[dict]) -> bool:
    return any(item.get("type") in ITEM_TYPES for item in items)


def items(entries: list[dict]) -> Iterator[Item]:
    answered = True  # the next call starts a turn (calls in a row are one turn)
    for entry in entries:
        kind = entry.get("type")
        call_id = entry.get("call_id")
        call_id = None if call_id is None else str(call_id)
        if kind in ("function_call", "computer_call") and answered:
            yield TurnStart()
        answered = kind not in ("function_call", "computer_call")
        if kind == "function_call":
            yield tool_call(entry.get("name"), entry.get("arguments"), call_id)
        elif kind == "computer_call":
            actions = dicts(entry.get("actions")) or dicts([entry.get("action")])
            for action in actions:
                yield computer_call(action, call_id)
        elif kind == "function_call_output":
            yield ToolAnswer(content_blocks(entry.get("output")), call_id=call_id)
        elif kind == "computer_call_output":
            output = entry.get("output")
            image = image_block(output) if isinstance(output, dict) else None
            yield ToolAnswer([image] if image else [], call_id=call_id)


def computer_call(action: dict[str, Any], call_id: str | None) -> ToolCall:
    """A Responses computer action as a call to the `computer` tool (see the module)."""
    kind = str(action.get("type", ""))
    point = [action.get("x"), action.get("y")]
    arguments: dict[str, Any] = {"action": kind}
    if kind in ("click", "double_click", "move"):
        name = {"double_click": "double_click", "move": "mouse_move"}.get(kind)
        arguments = {"action": name or BUTTONS.get(str(action.get("button")), "left_click")}
        arguments["coordinate"] = point
    elif kind == "type":
        arguments["text"] = action.get("text")
    elif kind == "keypress":
        keys = [str(key) for key in action.get("keys") or []]
        arguments = {"action": "key", "text": "+".join(KEYS.get(k.lower(), k) for k in keys)}
    elif kind == "scroll":
        dx, dy = int(action.get("scroll_x") or 0), int(action.get("scroll_y") or 0)
        direction = ("down" if dy > 0 else "up") if dy else ("right" if dx > 0 else "left")
        clicks = max(1, round(max(abs(dx), abs(dy)) / SCROLL_CLICK_PIXELS))
        arguments |= {"coordinate": point, "scroll_direction": direction, "scroll_amount": clicks}
    elif kind == "drag":
        path = [[p.get("x"), p.get("y")] for p in dicts(action.get("path"))]
        arguments = {"action": "left_click_drag"}
        if path:
            arguments |= {"start_coordinate": path[0], "coordinate": path[-1]}
    return ToolCall(tool="computer", arguments=arguments, call_id=call_id)
