"""What the result view shows for a read resource and a got prompt (pure, thread-safe, like
`result_format`, whose parts it reuses)."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text

from fleet_tui.envs.catalog import PromptResult, ReadResult
from fleet_tui.media_files import saved_note
from fleet_tui.text import clean, pretty_json
from fleet_tui.ui.result_format import (
    MediaPart,
    NotePart,
    Part,
    ResultPlan,
    StructuredView,
    TextPart,
    block_parts,
    human_bytes,
    resource_part,
    text_part,
)
from fleet_tui.ui.widgets.text_pager import PagerText


def plan_read(result: ReadResult, saved: dict[int, Path] | None = None) -> ResultPlan:
    """The contents of one read resource, each under its URI when there are several; binary
    contents already written to a file (`saved`, by index) say where."""
    parts: list[Part] = []
    for index, content in enumerate(result.contents):
        if len(result.contents) > 1:
            parts.append(TextPart(Text(clean(content.uri), style="bold")))
        shown = text_part(content.text) if content.text is not None else resource_part(content)
        if isinstance(shown, MediaPart) and saved and index in saved:
            shown.label = shown.label.replace(
                "(s saves it)", f"saved to {saved_note(saved[index], content.mime_type)}"
            )
        parts.append(shown)
    size = sum(len(c.text or "") + len(c.blob or b"") for c in result.contents)
    return ResultPlan(
        parts=parts or [NotePart("The resource has no contents.")],
        raw=PagerText.build(pretty_json(result.model_dump(mode="json"))),
        structured=StructuredView(None, [], "A resource has no structured content."),
        timing=[
            ("Latency", f"{result.latency_s * 1000:.0f} ms"),
            ("Endpoint", clean(result.endpoint)),
            ("Size", human_bytes(size)),
            ("Contents", str(len(result.contents))),
        ],
        is_error=False,
        title=f"Resource {clean(result.uri)}",
    )


def plan_prompt(result: PromptResult) -> ResultPlan:
    """A prompt's messages, each under its role."""
    parts: list[Part] = []
    if result.description:
        parts.append(TextPart(Text(clean(result.description), style="italic")))
    for message in result.messages:
        parts.append(TextPart(Text(clean(message.role), style="bold")))
        parts.extend(block_parts(message.block))
    return ResultPlan(
        parts=parts if result.messages else [*parts, NotePart("The prompt has no messages.")],
        raw=PagerText.build(pretty_json(result.model_dump(mode="json"))),
        structured=StructuredView(None, [], "A prompt has no structured content."),
        timing=[("Endpoint", clean(result.endpoint)), ("Messages", str(len(result.messages)))],
        is_error=False,
        title=f"Prompt {clean(result.name)}",
    )
