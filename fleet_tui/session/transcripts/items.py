"""What every transcript form is read into: the calls an agent made and the answers it saw, in
order, with a mark where each model turn starts (`pairing.pair` matches them); and the readers
of the parts the forms share (arguments, text and image content)."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from fleet_tui.envs.base import ContentBlock, ImageBlock, TextBlock


@dataclass
class ToolCall:
    tool: str
    arguments: dict[str, Any] = field(default_factory=dict)
    call_id: str | None = None
    problem: str | None = None
    """Why the call cannot be made as written (its arguments are not a JSON object)."""


@dataclass
class ToolAnswer:
    blocks: list[ContentBlock] = field(default_factory=list)
    is_error: bool = False
    call_id: str | None = None
    tool: str | None = None
    """The tool it answers, where the form names it instead of an id (Gemini)."""


@dataclass
class TurnStart:
    """A model turn starts: the calls after it are its calls (answered by id or position)."""


Item = ToolCall | ToolAnswer | TurnStart
IMAGE_PARTS = ("image", "image_url", "input_image", "computer_screenshot")


def dicts(value: Any) -> list[dict]:
    """The objects of a list (anything else holds none)."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def tool_call(tool: Any, raw: Any, call_id: Any = None) -> ToolCall:
    """A call with `raw` arguments (a JSON object or its text); broken ones make a `problem`."""
    name = str(tool or "")
    call = ToolCall(tool=name, call_id=None if call_id is None else str(call_id))
    if raw is None or raw == "":
        return call
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError as error:
            call.problem = f"its arguments are not JSON ({error})"
            return call
    if not isinstance(raw, dict):
        call.problem = "its arguments are not a JSON object"
        return call
    call.arguments = raw
    return call


def content_blocks(content: Any) -> list[ContentBlock]:
    """An answer's content as blocks: a string, or a list of the forms' text and image parts;
    any other JSON value is its text."""
    if content is None:
        return []
    if isinstance(content, str):
        return [TextBlock(text=content)]
    if not isinstance(content, list):
        return [TextBlock(text=json.dumps(content, ensure_ascii=False))]
    return [block for part in content for block in _part_blocks(part)]


def _part_blocks(part: Any) -> Iterator[ContentBlock]:
    if isinstance(part, str):
        yield TextBlock(text=part)
        return
    if not isinstance(part, dict):
        return
    kind = part.get("type")
    if kind in ("text", "input_text", "output_text") and isinstance(part.get("text"), str):
        yield TextBlock(text=part["text"])
    elif kind in IMAGE_PARTS and (image := image_block(part)) is not None:
        yield image


def image_block(part: dict) -> ImageBlock | None:
    """An image part of any form: Anthropic `source`, OpenAI `image_url` (a data URL),
    LangChain `base64`/`data`, pydantic-ai binary content; None when it holds no image data."""
    source = part.get("source")
    url = part.get("image_url")
    url = url.get("url") if isinstance(url, dict) else url
    if isinstance(source, dict):
        data, mime_type = source.get("data"), source.get("media_type")
    elif isinstance(url, str) and url.startswith("data:") and "," in url:
        header, data = url[5:].split(",", 1)
        mime_type = header.split(";", 1)[0]
    else:
        data = part.get("base64", part.get("data"))
        mime_type = part.get("mime_type", part.get("media_type"))
    if not isinstance(data, str) or not str(mime_type or "image/").startswith("image/"):
        return None
    try:
        decoded = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return None
    return ImageBlock(mime_type=str(mime_type or "image/png"), data=decoded)
