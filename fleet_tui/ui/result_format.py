"""Turn a ToolResult into what the result view shows. Pure and thread-safe: workers run it.

Everything slow (pretty-printing, highlighting, splitting megabytes of text) happens here,
so the widgets only mount ready-made pieces.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.highlighter import JSONHighlighter
from rich.text import Text

from fleet_tui.envs.base import (
    AudioBlock,
    ImageBlock,
    ResourceBlock,
    ResourceLinkBlock,
    TextBlock,
    Tool,
    ToolResult,
    UnknownBlock,
)
from fleet_tui.envs.block_merge import MAX_BLOCKS, block_kinds, merged_count
from fleet_tui.envs.tool_hints import annotation_note
from fleet_tui.forms.budget import output_note
from fleet_tui.forms.validation import output_problems
from fleet_tui.observation_view import Shown, ShownImage, ShownJson, observation_view
from fleet_tui.text import clean, looks_like_markdown, pretty_json
from fleet_tui.ui.widgets.text_pager import PagerText

HIGHLIGHT_LIMIT = 32_000
"""JSON up to this many characters is highlighted; larger JSON is shown plain."""
RICH_TEXT_LIMIT = 20_000
"""Text or Markdown up to this many characters is rendered rich; larger goes to a pager."""


@dataclass
class TextPart:
    text: Text


@dataclass
class MarkdownPart:
    source: str


@dataclass
class JsonPart:
    value: Any
    highlighted: Text | None
    """Pretty, highlighted JSON when small enough, else None (see `pager`)."""
    pager: PagerText | None


@dataclass
class PagerPart:
    text: PagerText


@dataclass
class ImagePart:
    data: bytes
    mime_type: str


@dataclass
class NotePart:
    text: str


@dataclass
class MediaPart:
    """Audio or binary content: described, and saved to a file with `s`."""

    data: bytes
    mime_type: str
    label: str


@dataclass
class LinkPart:
    """A resource link: a button that reads the resource."""

    uri: str
    text: str


Part = TextPart | MarkdownPart | JsonPart | PagerPart | ImagePart | NotePart | MediaPart | LinkPart


@dataclass
class StructuredView:
    body: Text | PagerText | None
    problems: list[str] = field(default_factory=list)
    verdict: str = ""


@dataclass
class ResultPlan:
    """Everything the four result tabs show for one result."""

    parts: list[Part]
    raw: PagerText
    structured: StructuredView
    timing: list[tuple[str, str]]
    is_error: bool
    title: str


def json_part(value: Any) -> JsonPart:
    pretty = clean(pretty_json(value))
    if len(pretty) <= HIGHLIGHT_LIMIT:
        text = Text(pretty, no_wrap=True)
        JSONHighlighter().highlight(text)
        return JsonPart(value, text, None)
    return JsonPart(value, None, PagerText.build(pretty))


def text_part(text: str) -> Part:
    value = TextBlock(text=text).parsed_json()
    if value is not None:
        return json_part(value)
    if len(text) > RICH_TEXT_LIMIT:
        return PagerPart(PagerText.build(text))
    if looks_like_markdown(text):
        return MarkdownPart(clean(text))
    return TextPart(Text(clean(text)))


def text_parts(text: str) -> list[Part]:
    """A text block's parts: JSON whose fields have shapes (multi-line text, grids, images,
    long arrays) shown field by field (observation_view.py), else as `text_part` shows it."""
    value = TextBlock(text=text).parsed_json()
    shown = observation_view(value) if value is not None else None
    if shown is None:
        return [text_part(text)]
    return [part for item in shown for part in shown_parts(item)]


def shown_parts(item: Shown) -> list[Part]:
    """One field of an observation: its name, then its text, image or JSON."""
    label = [TextPart(Text(clean(item.label), style="bold"))] if item.label else []
    if isinstance(item, ShownImage):
        return [*label, ImagePart(item.data, item.mime_type)]
    if isinstance(item, ShownJson):
        return [*label, json_part(item.value)]
    if len(item.text) > RICH_TEXT_LIMIT:
        return [*label, PagerPart(PagerText.build(item.text))]
    return [*label, TextPart(Text(clean(item.text), no_wrap=item.grid))]


def human_bytes(size: float) -> str:
    for unit in ("B", "KB", "MB"):
        if size < 1024 or unit == "MB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size} B"


def block_parts(block: Any) -> list[Part]:
    """What one content block shows: its part, then its annotations dimmed."""
    parts = text_parts(block.text) if isinstance(block, TextBlock) else [block_part(block)]
    note = annotation_note(getattr(block, "annotations", None))
    if note is not None:
        parts.append(TextPart(Text(f"({clean(note)})", style="dim")))
    return parts


def block_part(block: Any) -> Part:
    if isinstance(block, TextBlock):
        return text_part(block.text)
    if isinstance(block, ImageBlock):
        return ImagePart(block.data, block.mime_type)
    if isinstance(block, AudioBlock):
        label = f"Audio: {block.mime_type}, {human_bytes(len(block.data))} (s saves it)"
        return MediaPart(block.data, block.mime_type, label)
    if isinstance(block, ResourceBlock):
        return resource_part(block)
    if isinstance(block, ResourceLinkBlock):
        extra = f" — {block.description}" if block.description else ""
        text = f"Open resource link {block.name or ''} {block.uri}{extra}".replace("  ", " ")
        return LinkPart(block.uri, clean(text))
    if isinstance(block, UnknownBlock):
        return NotePart("Unknown content block:\n" + pretty_json(block.raw))
    return NotePart(f"Unsupported block {type(block).__name__}")


def resource_part(block: ResourceBlock) -> Part:
    """Embedded or read resource contents: text (JSON pretty), an image, or binary to save."""
    size = len(block.text or "") if block.blob is None else len(block.blob)
    head = f"Resource {block.uri} ({block.mime_type or 'unknown type'}, {human_bytes(size)})"
    if block.blob is not None:
        if (block.mime_type or "").startswith("image/"):
            return ImagePart(block.blob, block.mime_type or "image/png")
        return MediaPart(block.blob, block.mime_type or "", f"{head} (s saves it)")
    if block.text is not None and len(block.text) <= RICH_TEXT_LIMIT:
        return NotePart(f"{head}\n{block.text}")
    return NotePart(head)


def raw_json(result: ToolResult) -> Any:
    if result.raw is not None:
        return result.raw
    return result.model_dump(mode="json", exclude={"raw"})


def structured_view(result: ToolResult, tool: Tool | None) -> StructuredView:
    schema = tool.output_schema if tool else None
    if result.structured is None:
        verdict = "No structured content."
        if schema:
            verdict += " The tool declares an output schema, so it should send some."
        return StructuredView(None, [], verdict)
    part = json_part(result.structured)
    body = part.highlighted if part.highlighted is not None else part.pager
    if not schema:
        return StructuredView(body, [], "The tool declares no output schema.")
    note = output_note(schema)
    if note is not None:
        return StructuredView(body, [], f"Not checked: {note}.")
    problems = output_problems(result.structured, schema)
    verdict = (
        "Matches the tool's output schema."
        if not problems
        else (f"{len(problems)} mismatch(es) with the tool's output schema:")
    )
    return StructuredView(body, problems, verdict)


def timing_rows(result: ToolResult) -> list[tuple[str, str]]:
    rows = [
        ("Latency", f"{result.latency_s * 1000:.0f} ms"),
        ("Endpoint", clean(result.endpoint) or "-"),
        ("Size", human_bytes(result.size_bytes) if result.size_bytes else "-"),
        ("Blocks", block_kinds(result.blocks)),
        (
            "Status",
            f"error ({clean(result.error_kind)})"
            if result.is_error and result.error_kind
            else "error"
            if result.is_error
            else "ok",
        ),
    ]
    if result.reward is not None:
        rows.append(("Reward", f"{result.reward:g}"))
    if result.done is not None:
        rows.append(("Done", "yes" if result.done else "no"))
    return rows


def plan_result(result: ToolResult, tool: Tool | None = None, title: str = "") -> ResultPlan:
    """Everything the result view needs, computed off the message loop."""
    parts = [part for block in result.blocks[:MAX_BLOCKS] for part in block_parts(block)]
    merged, left_out = merged_count(result.raw), max(0, len(result.blocks) - MAX_BLOCKS)
    if merged or left_out:
        parts.insert(0, NotePart(merge_note(merged, left_out)))
    if not parts:
        parts = [NotePart("The result has no content blocks.")]
    parts += [NotePart(f"The server broke the protocol: {problem}") for problem in result.problems]
    return ResultPlan(
        parts=parts,
        raw=PagerText.build(pretty_json(raw_json(result))),
        structured=structured_view(result, tool),
        timing=timing_rows(result),
        is_error=result.is_error,
        title=title,
    )


def merge_note(merged: int, left_out: int) -> str:
    """What the Rendered tab says when it does not show a result's blocks one by one."""
    notes = [f"{merged:,} blocks merged into the text block before them"] if merged else []
    if left_out:
        notes.append(f"{left_out:,} more blocks not shown (the Raw tab has them)")
    return "; ".join(notes) + "."


def plan_message(message: str, *, is_error: bool, title: str = "") -> ResultPlan:
    """A plan for something that is not a tool result (a failed call, a reset message)."""
    return ResultPlan(
        parts=[TextPart(Text(clean(message)))],
        raw=PagerText.build(pretty_json({"message": message})),
        structured=StructuredView(None, [], "No structured content."),
        timing=[],
        is_error=is_error,
        title=title,
    )
