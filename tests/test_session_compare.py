"""Replay comparison: text and structured content equal, images equal by pixels."""

from __future__ import annotations

import io
import resource

from PIL import Image

from fleet_tui.envs.base import ImageBlock, TextBlock, ToolResult
from fleet_tui.session.compare import compare_images, compare_results
from tests.fixtures.mcp_servers import HUGE_SIDE, huge_png, png_bytes


def png(color, size=(10, 8), fmt="PNG", point=None):
    image = Image.new("RGB", size, color)
    if point:
        image.putpixel(point, (0, 0, 0))
    buffer = io.BytesIO()
    image.save(buffer, format=fmt, **({"compress_level": 9} if fmt == "PNG" else {}))
    return buffer.getvalue()


def result(*blocks, structured=None, is_error=False):
    return ToolResult(blocks=list(blocks), structured=structured, is_error=is_error)


def test_equal_results_match():
    a = result(TextBlock(text="ok"), ImageBlock(data=png("red")), structured={"n": 1})
    assert compare_results(a, a.model_copy(deep=True)) == []


def test_images_compare_by_pixels_not_bytes():
    same_pixels = png("red", fmt="BMP")
    assert same_pixels != png("red")
    assert compare_images(png("red"), same_pixels) is None
    assert (
        compare_images(png("red"), png("red", point=(3, 2)))
        == "pixels differ in the box (3, 2, 4, 3)"
    )
    assert compare_images(png("red"), png("red", size=(12, 8))) == "size 10x8 became 12x8"
    assert "cannot decode" in compare_images(png("red"), b"not an image")


def test_images_of_the_same_bytes_match_without_being_decoded():
    """A replay that gives back the recorded bytes matches, even bytes Pillow cannot read."""
    assert compare_images(b"not an image", b"not an image") is None
    assert compare_images(png("red"), png("red")) is None


def test_images_past_the_pixel_cap_are_compared_by_their_bytes_undecoded():
    huge, other = huge_png(), png_bytes(Image.new("1", (HUGE_SIDE, HUGE_SIDE), 1))
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert compare_images(huge, huge) is None
    difference = compare_images(huge, other)
    peak_growth_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before) / 1024
    assert difference == "image too large (12000x12000): the bytes differ (pixels not compared)"
    assert peak_growth_mb < 100, f"the peak memory grew by {peak_growth_mb:.0f} MB"


def test_text_structured_and_error_differences_are_named():
    old = result(TextBlock(text="status: open"), structured={"status": "open"})
    new = result(TextBlock(text="status: closed"), structured={"status": "closed"}, is_error=True)
    problems = compare_results(old, new)
    assert problems[0] == "is_error was False, now True"
    assert problems[1] == "text block 1 differs: at character 8: 'status: open' -> 'status: closed'"
    assert problems[2] == """structured content differs: $.status: '"open"' -> '"closed"'"""


def test_json_differences_name_their_paths():
    old = result(TextBlock(text='{"a": {"b": [1, 2, 3]}, "c": 1}'))
    new = result(TextBlock(text='{"a": {"b": [1, 5, 3]}, "c": 1, "d": true}'))
    (problem,) = compare_results(old, new)
    assert problem == "text block 1 differs: $.a.b[1]: '2' -> '5'; $.d: (absent) -> 'true'"


def test_block_kinds_must_match():
    problems = compare_results(result(TextBlock(text="a")), result(ImageBlock(data=png("red"))))
    assert problems == ["content blocks were ['text'], now ['image']"]


def test_ignored_keys_in_json_text_and_structured():
    old = result(
        TextBlock(text='{"id": 9, "created_at": "2026-01-01"}'),
        structured={"id": 9, "created_at": "2026-01-01"},
    )
    new = result(
        TextBlock(text='{"created_at": "2026-02-02", "id": 9}'),
        structured={"id": 9, "created_at": "2026-02-02"},
    )
    assert len(compare_results(old, new)) == 2
    assert compare_results(old, new, ignore_keys=["created_at"]) == []
