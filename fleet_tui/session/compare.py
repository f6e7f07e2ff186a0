"""Does a replayed result match the recorded one? Text and structured content must be equal,
images equal pixel for pixel (decoded with Pillow, so re-encoding does not count as a change;
images equal byte for byte, as a deterministic env's replayed screenshots are, are not decoded;
images past the pixel cap are not decoded and must be equal byte for byte).

`ignore_keys` names JSON object keys left out of the comparison (for example `created_at`,
which an env fills from its own clock).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from PIL import ImageChops

from fleet_tui.envs.base import ContentBlock, ImageBlock, TextBlock, ToolResult
from fleet_tui.image_data import ImageRefused, ImageTooLarge, decode
from fleet_tui.text import shortened


def _without_keys(value: Any, ignore: frozenset[str]) -> Any:
    if isinstance(value, dict):
        return {k: _without_keys(v, ignore) for k, v in value.items() if k not in ignore}
    if isinstance(value, list):
        return [_without_keys(v, ignore) for v in value]
    return value


def _text_value(block: TextBlock, ignore: frozenset[str]) -> Any:
    parsed = block.parsed_json()
    return block.text if parsed is None else ("json", _without_keys(parsed, ignore))


def compare_images(expected: bytes, actual: bytes) -> str | None:
    """None when both are the same bytes or decode to the same pixels, else what differs."""
    if expected == actual:
        return None
    try:
        first, second = (decode(data).convert("RGBA") for data in (expected, actual))
    except ImageTooLarge as error:
        return f"{error}: the bytes differ (pixels not compared)"
    except ImageRefused as error:
        return f"cannot decode image ({error})"
    if first.size != second.size:
        return f"size {first.size[0]}x{first.size[1]} became {second.size[0]}x{second.size[1]}"
    box = ImageChops.difference(first, second).getbbox(alpha_only=False)
    if box is None:
        return None
    return f"pixels differ in the box {box}"


def compare_results(
    expected: ToolResult, actual: ToolResult, ignore_keys: Iterable[str] = ()
) -> list[str]:
    """What differs between a recorded and a replayed result; empty when they match."""
    ignore = frozenset(ignore_keys)
    problems: list[str] = []
    if expected.is_error != actual.is_error:
        problems.append(f"is_error was {expected.is_error}, now {actual.is_error}")
    kinds = [b.type for b in expected.blocks], [b.type for b in actual.blocks]
    if kinds[0] != kinds[1]:
        problems.append(f"content blocks were {kinds[0]}, now {kinds[1]}")
    for index, (old, new) in enumerate(zip(expected.blocks, actual.blocks, strict=False), 1):
        if old.type != new.type:
            continue
        if isinstance(old, TextBlock) and isinstance(new, TextBlock):
            before, after = _text_value(old, ignore), _text_value(new, ignore)
            if before != after:
                problems.append(f"text block {index} differs: {_where(before, after)}")
        elif isinstance(old, ImageBlock) and isinstance(new, ImageBlock):
            if difference := compare_images(old.data, new.data):
                problems.append(f"image block {index}: {difference}")
        elif old.model_dump() != new.model_dump():
            problems.append(f"{old.type} block {index} differs")
    before, after = (
        _without_keys(expected.structured, ignore),
        _without_keys(actual.structured, ignore),
    )
    if before != after:
        problems.append(f"structured content differs: {_where(before, after)}")
    return problems


def compare_transcript_answer(
    expected: ToolResult, actual: ToolResult, ignore_keys: Iterable[str] = ()
) -> list[str]:
    """What differs between a transcript's answer and a replayed result. A transcript holds
    only what the model saw: no structured content, and often not a tool's images (frameworks
    drop them, or move them into a message of their own). So the env's images are compared
    only with images the answer holds; an answer made only of images (a computer-use
    screenshot) is judged by its images alone, and one whose content is missing altogether
    (a screenshot kept elsewhere) by whether the call failed."""
    images = [isinstance(block, ImageBlock) for block in expected.blocks]
    kept: list[ContentBlock]
    if not expected.blocks:
        kept = []
    elif not any(images):
        kept = [b for b in actual.blocks if not isinstance(b, ImageBlock)]
    elif all(images):
        kept = [b for b in actual.blocks if isinstance(b, ImageBlock)]
    else:
        kept = actual.blocks
    actual = actual.model_copy(update={"blocks": kept, "structured": None})
    return compare_results(expected, actual, ignore_keys)


def _where(before: Any, after: Any) -> str:
    """Where two values first differ: JSON paths with both values, or a text excerpt."""
    if isinstance(before, tuple) and isinstance(after, tuple):  # both texts parsed as JSON
        before, after = before[1], after[1]
    if isinstance(before, str) and isinstance(after, str):
        at = next(
            (i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b),
            min(len(before), len(after)),
        )
        start = max(0, at - 20)
        return f"at character {at}: {_preview(before[start:])} -> {_preview(after[start:])}"
    paths = _differing_paths(before, after, "$")
    shown = "; ".join(f"{path}: {_json(a)} -> {_json(b)}" for path, a, b in paths[:3])
    return shown + (f" (and {len(paths) - 3} more)" if len(paths) > 3 else "")


def _differing_paths(before: Any, after: Any, path: str) -> list[tuple[str, Any, Any]]:
    """Paths (`$.a.b[2]`) at which two JSON values differ, with the values there."""
    if isinstance(before, dict) and isinstance(after, dict):
        found = []
        for key in [*before, *(k for k in after if k not in before)]:
            if before.get(key, _MISSING) != after.get(key, _MISSING):
                found += _differing_paths(
                    before.get(key, _MISSING), after.get(key, _MISSING), f"{path}.{key}"
                )
        return found
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        found = []
        for index, (a, b) in enumerate(zip(before, after, strict=True)):
            if a != b:
                found += _differing_paths(a, b, f"{path}[{index}]")
        return found
    return [(path, before, after)]


_MISSING = object()


def _json(value: Any) -> str:
    return "(absent)" if value is _MISSING else _preview(json.dumps(value, default=str), 40)


def _preview(text: str, limit: int = 60) -> str:
    return repr(shortened(" ".join(text.split()), limit))
