"""Content blocks for the headless commands: printed in order (text as is, JSON pretty, binary
content written to files whose paths are printed) or as JSON with the paths in place of the
data. Shared by `call`, `read` and `prompt`."""

from __future__ import annotations

from typing import Any

from fleet_tui.commands.output import Output
from fleet_tui.commands.wire_names import wire
from fleet_tui.envs.base import (
    AudioBlock,
    ContentBlock,
    ImageBlock,
    ResourceBlock,
    ResourceLinkBlock,
    TextBlock,
    ToolResult,
    UnknownBlock,
)
from fleet_tui.envs.tool_hints import annotation_note
from fleet_tui.media_files import BlockFiles
from fleet_tui.text import pretty_json


def print_block(out: Output, index: int, block: ContentBlock, files: BlockFiles) -> None:
    """One block: text (JSON pretty-printed), a file for binary content, then its annotations."""
    if isinstance(block, TextBlock):
        print_text(out, index, block, files)
    elif isinstance(block, ImageBlock | AudioBlock):
        path = files.write(index, block.data, block.mime_type)
        out.out(f"[{block.type} {block.mime_type}, {len(block.data)} bytes] {path}")
    elif isinstance(block, ResourceBlock):
        out.out(f"[resource {block.uri}{f' {block.mime_type}' if block.mime_type else ''}]")
        if block.text is not None:
            out.out(block.text)
        if block.blob is not None:
            out.out(f"  {files.write(index, block.blob, block.mime_type)}")
    elif isinstance(block, ResourceLinkBlock):
        out.out(f"[link {block.name or block.uri}] {block.uri}")
    elif isinstance(block, UnknownBlock):
        out.out(f"[unknown block] {pretty_json(block.raw)}")
    note = annotation_note(getattr(block, "annotations", None))
    if note is not None:
        out.out(f"  ({note})")


def print_text(out: Output, index: int, block: TextBlock, files: BlockFiles) -> None:
    """Text as is; JSON whose fields have shapes field by field (observation_view.py: text and
    grids printed, images written to files), other JSON pretty-printed."""
    from fleet_tui.observation_view import ShownImage, observation_view, shown_lines

    parsed = block.parsed_json()
    shown = observation_view(parsed) if parsed is not None else None
    if shown is None:
        out.out(pretty_json(parsed) if parsed is not None else block.text)
        return

    def written(image: ShownImage) -> str:
        path = files.write(index, image.data, image.mime_type)
        return f"[image {image.mime_type}, {len(image.data)} bytes] {path}"

    for line in shown_lines(shown, written):
        out.out(line)


def block_json(index: int, block: ContentBlock, files: BlockFiles) -> dict[str, Any]:
    """One block for `--json`: binary data replaced by the path of its file; annotations kept
    when the server sent some."""
    data = block.model_dump(mode="json", exclude={"data", "blob"})
    if data.get("annotations") is None:
        data.pop("annotations", None)
    if isinstance(block, ImageBlock | AudioBlock):
        data["path"] = str(files.write(index, block.data, block.mime_type))
        data["size_bytes"] = len(block.data)
    elif isinstance(block, ResourceBlock) and block.blob is not None:
        data["path"] = str(files.write(index, block.blob, block.mime_type))
        data["size_bytes"] = len(block.blob)
    return wire(data)


def add_media_option(parser: Any) -> None:
    """`--save-media DIR` (and its old name `--save-images`)."""
    parser.add_argument(
        "--save-media",
        "--save-images",
        dest="save_media",
        metavar="DIR",
        help="write images, audio and binary resources here (default: a new temporary folder)",
    )


def result_json(tool: str, result: ToolResult, files: BlockFiles) -> dict[str, Any]:
    """The result for `--json`: binary data replaced by the path of the file it went to."""
    return {
        "tool": tool,
        "endpoint": result.endpoint,
        "isError": result.is_error,
        "error_kind": result.error_kind,
        "blocks": [block_json(index, block, files) for index, block in enumerate(result.blocks)],
        "structuredContent": result.structured,
        "latency_s": round(result.latency_s, 4),
        "size_bytes": result.size_bytes,
        "reward": result.reward,
        "done": result.done,
        "rejected": result.rejected,
    }
