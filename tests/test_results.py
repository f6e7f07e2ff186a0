"""results.py: every content block type, as mcp 2.x objects and as snake_case / camelCase dicts."""

from __future__ import annotations

import base64

import mcp.types as types
import pytest
from pydantic import ValidationError

from fleet_tui.envs.base import (
    AudioBlock,
    ImageBlock,
    ResourceBlock,
    ResourceLinkBlock,
    TextBlock,
    ToolResult,
    UnknownBlock,
)
from fleet_tui.envs.block_merge import MAX_BLOCKS, merged_count
from fleet_tui.envs.results import content_block_from_mcp, tool_result_from_mcp

PNG = b"\x89PNG\r\n\x1a\nfake-png-bytes"
WAV = b"RIFF\x00\x00\x00\x00WAVEfmt "


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def mcp2_object() -> types.CallToolResult:
    return types.CallToolResult(
        content=[
            types.TextContent(type="text", text='{"id": 7, "tags": ["a"]}'),
            types.ImageContent(type="image", data=b64(PNG), mime_type="image/jpeg"),
            types.AudioContent(type="audio", data=b64(WAV), mime_type="audio/ogg"),
            types.EmbeddedResource(
                type="resource",
                resource=types.TextResourceContents(
                    uri="file:///notes.md", mime_type="text/markdown", text="# hi"
                ),
            ),
            types.EmbeddedResource(
                type="resource",
                resource=types.BlobResourceContents(
                    uri="file:///a.bin", mime_type="application/octet-stream", blob=b64(b"\x00\x01")
                ),
            ),
            types.ResourceLink(
                type="resource_link",
                uri="file:///big.log",
                name="big.log",
                description="the log",
                mime_type="text/plain",
            ),
        ],
        structured_content={"id": 7},
        is_error=True,
    )


def snake_dict() -> dict:
    return {
        "content": [
            {"type": "text", "text": '{"id": 7, "tags": ["a"]}'},
            {"type": "image", "data": b64(PNG), "mime_type": "image/jpeg"},
            {"type": "audio", "data": b64(WAV), "mime_type": "audio/ogg"},
            {
                "type": "resource",
                "resource": {
                    "uri": "file:///notes.md",
                    "mime_type": "text/markdown",
                    "text": "# hi",
                },
            },
            {
                "type": "resource",
                "resource": {
                    "uri": "file:///a.bin",
                    "mime_type": "application/octet-stream",
                    "blob": b64(b"\x00\x01"),
                },
            },
            {
                "type": "resource_link",
                "uri": "file:///big.log",
                "name": "big.log",
                "description": "the log",
                "mime_type": "text/plain",
            },
        ],
        "structured_content": {"id": 7},
        "is_error": True,
    }


def camel_dict() -> dict:
    """The same result as mcp 1.x servers put it on the wire."""
    return {
        "content": [
            {"type": "text", "text": '{"id": 7, "tags": ["a"]}'},
            {"type": "image", "data": b64(PNG), "mimeType": "image/jpeg"},
            {"type": "audio", "data": b64(WAV), "mimeType": "audio/ogg"},
            {
                "type": "resource",
                "resource": {
                    "uri": "file:///notes.md",
                    "mimeType": "text/markdown",
                    "text": "# hi",
                },
            },
            {
                "type": "resource",
                "resource": {
                    "uri": "file:///a.bin",
                    "mimeType": "application/octet-stream",
                    "blob": b64(b"\x00\x01"),
                },
            },
            {
                "type": "resource_link",
                "uri": "file:///big.log",
                "name": "big.log",
                "description": "the log",
                "mimeType": "text/plain",
            },
        ],
        "structuredContent": {"id": 7},
        "isError": True,
    }


@pytest.mark.parametrize("source", [mcp2_object, snake_dict, camel_dict])
def test_every_block_type_in_every_shape(source):
    result = tool_result_from_mcp(source(), endpoint="http://x/mcp", latency_s=0.25)

    text, image, audio, resource, blob, link = result.blocks
    assert isinstance(text, TextBlock)
    assert text.parsed_json() == {"id": 7, "tags": ["a"]}
    assert image == ImageBlock(mime_type="image/jpeg", data=PNG)
    assert audio == AudioBlock(mime_type="audio/ogg", data=WAV)
    assert resource == ResourceBlock(uri="file:///notes.md", mime_type="text/markdown", text="# hi")
    assert blob == ResourceBlock(
        uri="file:///a.bin", mime_type="application/octet-stream", blob=b"\x00\x01"
    )
    assert link == ResourceLinkBlock(
        uri="file:///big.log", name="big.log", description="the log", mime_type="text/plain"
    )
    assert result.is_error is True
    assert result.structured == {"id": 7}
    assert (result.endpoint, result.latency_s) == ("http://x/mcp", 0.25)
    assert result.size_bytes > len(b64(PNG))

    def decoded(data: bytes) -> str:
        return f"<{len(b64(data))} characters of base64, decoded>"

    content = result.raw["content"]
    assert content[1]["data"] == decoded(PNG), "the base64 text is let go once decoded"
    assert content[2]["data"] == decoded(WAV)
    assert content[4]["resource"]["blob"] == decoded(b"\x00\x01")
    assert content[3]["resource"]["text"] == "# hi"


def test_image_mime_type_defaults_to_png():
    block = content_block_from_mcp({"type": "image", "data": b64(PNG)})

    assert block == ImageBlock(mime_type="image/png", data=PNG)


def test_audio_mime_type_defaults_to_wav():
    assert content_block_from_mcp({"type": "audio", "data": b64(WAV)}).mime_type == "audio/wav"


def test_base64_with_line_breaks_is_decoded():
    wrapped = "\n".join(b64(PNG * 10)[i : i + 20] for i in range(0, len(b64(PNG * 10)), 20))

    assert content_block_from_mcp({"type": "image", "data": wrapped}).data == PNG * 10


def test_undecodable_image_is_kept_as_unknown():
    raw = {"type": "image", "data": "not base64 !!", "mimeType": "image/png"}

    assert content_block_from_mcp(raw) == UnknownBlock(raw=raw)


def test_unknown_block_type_is_kept_whole():
    raw = {"type": "hologram", "frames": [1, 2]}

    assert content_block_from_mcp(raw) == UnknownBlock(raw=raw)


def test_camel_case_resource_link_type_is_accepted():
    block = content_block_from_mcp({"type": "resourceLink", "uri": "u://x", "name": "x"})

    assert block == ResourceLinkBlock(uri="u://x", name="x")


def test_a_plain_success_has_no_error_and_no_structured_content():
    result = tool_result_from_mcp({"content": [{"type": "text", "text": "done"}]})

    assert (result.is_error, result.structured, result.text()) == (False, None, "done")


def test_non_json_text_is_not_parsed():
    result = tool_result_from_mcp({"content": [{"type": "text", "text": "[not json"}]})

    assert result.blocks[0].parsed_json() is None


def test_rejects_what_is_not_a_result():
    with pytest.raises(TypeError, match="expected an MCP result"):
        tool_result_from_mcp(42)


def test_binary_blocks_round_trip_through_json():
    result = ToolResult(
        blocks=[
            ImageBlock(data=PNG),
            AudioBlock(data=WAV),
            ResourceBlock(uri="file:///a.bin", mime_type="application/octet-stream", blob=PNG),
        ]
    )

    dumped = result.model_dump_json()

    assert b64(PNG) in dumped and b64(WAV) in dumped
    assert ToolResult.model_validate_json(dumped) == result
    assert ToolResult.model_validate(result.model_dump()) == result  # raw bytes pass through


def test_json_bytes_that_are_not_base64_are_rejected():
    with pytest.raises(ValidationError, match="not base64"):
        ImageBlock.model_validate_json('{"data": "not base64!"}')


def test_past_the_block_bound_adjacent_text_blocks_are_merged_between_other_blocks() -> None:
    text = [{"type": "text", "text": f"t{i}"} for i in range(MAX_BLOCKS)]
    lone = {"type": "text", "text": "alone", "annotations": {"priority": 1}}
    image = {"type": "image", "data": b64(PNG), "mimeType": "image/png"}
    result = tool_result_from_mcp({"content": [*text, image, lone, image, *text]})
    kinds = [block.type for block in result.blocks]
    assert kinds == ["text", "image", "text", "image", "text"]
    assert result.blocks[0].text == "\n".join(f"t{i}" for i in range(MAX_BLOCKS))
    assert result.blocks[2] == TextBlock(text="alone", annotations={"priority": 1})
    assert merged_count(result.raw) == 2 * (MAX_BLOCKS - 1)


def test_up_to_the_block_bound_nothing_is_merged() -> None:
    text = [{"type": "text", "text": f"t{i}"} for i in range(MAX_BLOCKS)]
    result = tool_result_from_mcp({"content": text})
    assert len(result.blocks) == MAX_BLOCKS and merged_count(result.raw) == 0
