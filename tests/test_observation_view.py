"""Observations rendered by the shape of their fields: text, grids, images, summaries."""

from __future__ import annotations

import base64
import io

from PIL import Image

from fleet_tui.observation_view import (
    ShownImage,
    ShownJson,
    ShownText,
    image_from_string,
    observation_view,
)


def encoded(kind: str, size: tuple[int, int] = (4, 3)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, (0, 128, 255)).save(buffer, format=kind)
    return buffer.getvalue()


def by_label(shown: list) -> dict:
    return {part.label: part for part in shown if part.label}


def test_plain_json_keeps_its_json_view():
    assert observation_view({"a": 1, "b": [1, 2], "c": "one line"}) is None
    assert observation_view([1, 2, 3]) is None


def test_multi_line_text_is_text_not_an_escaped_string():
    shown = by_label(observation_view({"board": "a b\nc d", "turn": 3}))
    assert shown["board"] == ShownText("board", "a b\nc d")


def test_scalars_are_name_value_lines_in_order():
    shown = observation_view({"turn": 3, "board": "x\ny", "legal": ["e2e4", "d2d4"]})
    assert shown[0] == ShownText("", "turn: 3")
    assert shown[2] == ShownText("", 'legal: ["e2e4", "d2d4"]')


def test_a_2d_array_of_scalars_is_a_grid_with_aligned_columns():
    board = [[0, 1, -1], [10, 0, None]]
    shown = by_label(observation_view({"board": board}))
    assert shown["board"] == ShownText("board", " 0 1 -1\n10 0  .", grid=True)


def test_a_6x7_board_takes_six_lines():
    board = [[0] * 7 for _ in range(6)]
    assert by_label(observation_view({"board": board}))["board"].text.count("\n") == 5


def test_base64_images_are_told_by_their_first_bytes():
    for kind, mime in [("PNG", "image/png"), ("JPEG", "image/jpeg"), ("GIF", "image/gif")]:
        data = encoded(kind)
        assert image_from_string(base64.b64encode(data).decode()) == (data, mime)
    webp = encoded("WEBP", (16, 16))
    assert image_from_string(base64.b64encode(webp).decode()) == (webp, "image/webp")


def test_data_urls_are_images():
    data = encoded("PNG")
    url = "data:image/png;base64," + base64.b64encode(data).decode()
    assert by_label(observation_view({"frame": url}))["frame"] == ShownImage(
        "frame", data, "image/png"
    )


def test_base64_that_is_not_an_image_stays_text():
    text = base64.b64encode(b"just some bytes, not an image at all, long enough").decode()
    assert image_from_string(text) is None
    assert observation_view({"token": text}) is None


def test_a_flat_pixel_array_with_a_shape_field_is_an_image():
    screen = [value for _ in range(5 * 4) for value in (255, 0, 0)]
    shown = by_label(observation_view({"screen": screen, "screen_shape": [5, 4, 3]}))
    image = Image.open(io.BytesIO(shown["screen"].data))
    assert image.size == (4, 5) and image.getpixel((0, 0)) == (255, 0, 0)


def test_a_nested_pixel_array_is_an_image_and_fractions_are_scaled():
    pixels = [[[1.0, 0.0, 0.0]] * 6 for _ in range(2)]
    shown = by_label(observation_view({"pixels": pixels}))
    image = Image.open(io.BytesIO(shown["pixels"].data))
    assert image.size == (6, 2) and image.getpixel((0, 0)) == (255, 0, 0)


def test_a_large_2d_array_of_bytes_is_a_grey_image():
    frame = [[200] * 100 for _ in range(90)]
    shown = by_label(observation_view({"frame": frame}))
    assert Image.open(io.BytesIO(shown["frame"].data)).size == (100, 90)


def test_a_shape_that_does_not_match_the_array_is_not_an_image():
    shown = by_label(observation_view({"screen": list(range(100)), "screen_shape": [3, 3, 3]}))
    assert shown["screen"] == ShownText("screen", "[100 numbers, min 0, max 99]")


def test_a_shape_past_the_pixel_cap_is_refused_without_building_it():
    shown = by_label(observation_view({"screen": [0] * 70, "screen_shape": [100_000, 100_000]}))
    assert isinstance(shown["screen"], ShownText)


def test_a_long_flat_array_is_summarised():
    shown = by_label(observation_view({"scores": [0.5, *range(100)]}))
    assert shown["scores"].text == "[101 numbers, min 0, max 99]"


def test_the_same_long_text_is_shown_once():
    board = "+---+---+\n| X | O |\n+---+---+\n|   | X |\n+---+---+"
    shown = observation_view({"board": board, "prompt": board, "info": {"board": board}})
    texts = [part for part in shown if isinstance(part, ShownText)]
    assert [part.text for part in texts].count(board) == 1
    assert "prompt: (the same text as board)" in texts[1].text
    assert "info.board: (the same text as board)" in texts[1].text


def test_nested_objects_and_short_lists_of_objects_are_walked():
    board = "+---+\n| X |\n+---+"
    messages = [{"sender_id": 0, "content": board}, {"sender_id": -1, "content": "Your turn"}]
    shown = observation_view({"info": {"log": "a\nb"}, "prompt": board, "messages": messages})
    assert by_label(shown)["info.log"] == ShownText("info.log", "a\nb")
    lines = "\n".join(part.text for part in shown if isinstance(part, ShownText) and not part.label)
    assert "messages[0].content: (the same text as prompt)" in lines
    assert "messages[1].content: Your turn" in lines


def test_a_long_list_of_strings_is_json_not_one_endless_line():
    words = [f"word{n}" for n in range(400)]
    shown = by_label(observation_view({"words": words, "text": "a\nb"}))
    assert shown["words"] == ShownJson("words", words)


def test_objects_nested_deeper_than_three_levels_are_json():
    shown = by_label(observation_view({"a": {"b": {"c": {"d": {"e": 1}}}}, "text": "x\ny"}))
    assert shown["a.b.c.d"] == ShownJson("a.b.c.d", {"e": 1})


def test_long_lists_of_objects_and_mixed_lists_stay_json():
    many = [{"n": n} for n in range(21)]
    shown = by_label(observation_view({"many": many, "mixed": [{"a": 1}, 2], "text": "a\nb"}))
    assert shown["many"] == ShownJson("many", many)
    assert shown["mixed"] == ShownJson("mixed", [{"a": 1}, 2])
