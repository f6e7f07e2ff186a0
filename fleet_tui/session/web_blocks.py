"""A result's content blocks as HTML for the exported session page (`web_page.py`).

Everything a server sent is data: each string is escaped where it enters the page, Markdown is
rendered with raw HTML turned off (markdown-it, the parser `rich` already brings), images are
embedded only when their first bytes say PNG, JPEG, GIF or WebP, and other binary contents are
offered as downloads of type `application/octet-stream`, never opened as a page.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from fleet_tui.envs.base import (
    AudioBlock,
    EnvError,
    ImageBlock,
    ResourceBlock,
    ResourceLinkBlock,
    TextBlock,
    UnknownBlock,
)
from fleet_tui.media_files import extension_for
from fleet_tui.observation_view import ShownImage, ShownJson, image_type, observation_view
from fleet_tui.session.events import RecordedBlock, RecordedResult
from fleet_tui.session.reader import Session
from fleet_tui.text import looks_like_markdown, pretty_json

MAX_TEXT = 200_000
"""Characters of one text shown in the page; the rest stays in the session file."""
WEBP_MAGIC = re.compile(rb"^RIFF....WEBP", re.DOTALL)
AUDIO_TYPE = re.compile(r"^audio/[a-z0-9.+-]+$")

_MARKDOWN = MarkdownIt("commonmark", {"html": False})


def esc(text: object) -> str:
    """Text as HTML text or attribute value (quotes escaped too)."""
    return html.escape(str(text), quote=True)


def cut(text: str) -> str:
    if len(text) <= MAX_TEXT:
        return text
    return f"{text[:MAX_TEXT]}\n… {len(text) - MAX_TEXT} more characters in the session file"


def details(summary: str, body: str, *, open_: bool = False, kind: str = "") -> str:
    """A folding section; `summary` and `body` are HTML already."""
    attributes = (" open" if open_ else "") + (f' class="{esc(kind)}"' if kind else "")
    return f"<details{attributes}><summary>{summary}</summary>{body}</details>"


def json_html(value: Any, label: str = "JSON", *, open_: bool = True) -> str:
    return details(
        esc(label), f'<pre class="json">{esc(cut(pretty_json(value)))}</pre>', open_=open_
    )


def text_html(text: str) -> str:
    """Text as JSON when it is JSON, as Markdown when it looks like it, else as it is."""
    parsed = TextBlock(text=text).parsed_json()
    if parsed is not None:
        return json_html(parsed)
    if looks_like_markdown(text):
        rendered = _MARKDOWN.render(cut(text))
        source = details("source", f'<pre class="text">{esc(cut(text))}</pre>')
        return f'<div class="markdown">{rendered}</div>{source}'
    return f'<pre class="text">{esc(cut(text))}</pre>'


def image_mime(data: bytes) -> str | None:
    """The image type told by the bytes themselves (never by the server's word)."""
    return image_type(data[:16]) or ("image/webp" if WEBP_MAGIC.match(data[:16]) else None)


@dataclass
class MediaStore:
    """Where a page's media go: into the page up to `inline_bytes`, beside it past that."""

    folder: Path
    """`OUT_files/` beside the page, made on first use."""
    inline_bytes: int
    written: list[Path] = field(default_factory=list)

    def source(self, data: bytes, mime_type: str) -> str:
        """A URL for `data`: a `data:` URL, or the relative path of a file beside the page."""
        if len(data) <= self.inline_bytes:
            return f"data:{mime_type};base64,{base64.b64encode(data).decode('ascii')}"
        name = hashlib.sha256(data).hexdigest() + extension_for(mime_type)
        path = self.folder / name
        if not path.exists():
            self.folder.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            self.written.append(path)
        return f"{self.folder.name}/{name}"


@dataclass
class BlockWriter:
    """Turns a recorded result's blocks into HTML, reading stored bytes from beside the
    session file."""

    session: Session
    media: MediaStore

    def result(self, recorded: RecordedResult) -> str:
        parts = [self.stored(block) for block in recorded.blocks]
        structured = recorded.structured
        if recorded.structured_stored is not None:
            try:
                structured = self.session.tool_result(recorded).structured
            except EnvError as error:
                parts.append(note(error.message, error=True))
        if structured is not None:
            parts.append(self.observation(structured))
        parts.extend(note(problem, error=True) for problem in recorded.problems)
        return "".join(parts) or note("no content")

    def stored(self, recorded: RecordedBlock) -> str:
        """A recorded block, its bytes read back from beside the session file."""
        try:
            return self.block(self.session.content_block(recorded))
        except EnvError as error:
            return note(error.message, error=True)

    def observation(self, value: Any) -> str:
        """Structured content by shape (boards as grids, frames as images), its JSON after."""
        shown = observation_view(value)
        raw = json_html(value, "structured content (JSON)", open_=shown is None)
        if shown is None:
            return raw
        parts = []
        for item in shown:
            label = f'<div class="label">{esc(item.label)}</div>' if item.label else ""
            if isinstance(item, ShownImage):
                parts.append(label + self.image(item.data))
            elif isinstance(item, ShownJson):
                parts.append(label + f'<pre class="json">{esc(cut(pretty_json(item.value)))}</pre>')
            else:
                kind = "grid" if item.grid else "text"
                parts.append(label + f'<pre class="{kind}">{esc(cut(item.text))}</pre>')
        return f'<div class="observation">{"".join(parts)}</div>{raw}'

    def block(self, block: Any) -> str:
        if isinstance(block, TextBlock):
            return text_html(block.text)
        if isinstance(block, ImageBlock):
            return self.image(block.data)
        if isinstance(block, AudioBlock):
            return self.audio(block)
        if isinstance(block, ResourceBlock):
            return self.resource(block)
        if isinstance(block, ResourceLinkBlock):
            name = f"{block.name} " if block.name else ""
            return f'<p class="link">resource link: {esc(name)}<code>{esc(block.uri)}</code></p>'
        if isinstance(block, UnknownBlock):
            return json_html(block.raw, "a block of an unknown type")
        return json_html(getattr(block, "model_dump", lambda: repr(block))(), "block")

    def image(self, data: bytes) -> str:
        mime = image_mime(data)
        if mime is None:
            return note(f"an image of {len(data)} bytes that is not PNG, JPEG, GIF or WebP")
        source = self.media.source(data, mime)
        return (
            f'<figure class="image"><img src="{esc(source)}" alt="image">'
            f"<figcaption>{esc(mime)}, {len(data):,} bytes</figcaption></figure>"
        )

    def audio(self, block: AudioBlock) -> str:
        mime = block.mime_type.lower()
        if not AUDIO_TYPE.match(mime):
            return note(f"audio of an unknown type ({block.mime_type})")
        return f'<audio controls src="{esc(self.media.source(block.data, mime))}"></audio>'

    def resource(self, block: ResourceBlock) -> str:
        head = f'<div class="label">resource <code>{esc(block.uri)}</code></div>'
        if block.text is not None:
            return head + text_html(block.text)
        if block.blob is None:
            return head + note("no contents")
        if image_mime(block.blob):
            return head + self.image(block.blob)
        source = self.media.source(block.blob, "application/octet-stream")
        return head + (
            f'<a class="download" download href="{esc(source)}">download '
            f"{len(block.blob):,} bytes</a>"
        )


def note(text: str, *, error: bool = False) -> str:
    """A line of fleet-tui's own about the content (an error in red)."""
    return f'<p class="note{" error" if error else ""}">{esc(text)}</p>'
