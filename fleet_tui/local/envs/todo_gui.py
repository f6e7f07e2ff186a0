"""The `desktop-todo` GUI: where things are on screen, and how a frame is drawn with Pillow.

Pure functions of the app's state, so a click, the state it changes and the next screenshot
always agree.
"""

from __future__ import annotations

import functools
import io
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 1280, 800
INPUT = (40, 100, 1000, 156)
ADD_BUTTON = (1020, 100, 1240, 156)
FILTERS = {"all": (40, 180, 160, 220), "active": (170, 180, 290, 220), "done": (300, 180, 420, 220)}
CLEAR_BUTTON = (1020, 180, 1240, 220)
LIST_TOP, LIST_BOTTOM, ROW_HEIGHT, ROW_GAP = 240, 780, 52, 8
VISIBLE_ROWS = (LIST_BOTTOM - LIST_TOP) // (ROW_HEIGHT + ROW_GAP)

BACKGROUND, HEADER, WHITE = (243, 244, 246), (31, 41, 55), (255, 255, 255)
TEXT, MUTED, BLUE, RED, BORDER = (
    (17, 24, 39),
    (156, 163, 175),
    (37, 99, 235),
    (220, 38, 38),
    (209, 213, 219),
)
HOVER = (229, 237, 255)

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Todo:
    id: int
    title: str
    done: bool


@dataclass(frozen=True)
class Ui:
    """What is not a todo: focus, field contents, filter, scroll and the mouse."""

    focus: str = ""
    """`new` (the input), `edit` (a row being renamed) or empty."""
    draft: str = ""
    edit_id: int = 0
    edit_text: str = ""
    filter: str = "all"
    scroll: int = 0
    cursor_x: int = WIDTH // 2
    cursor_y: int = HEIGHT // 2


@dataclass(frozen=True)
class Row:
    todo: Todo
    box: Box
    checkbox: Box
    title: Box
    delete: Box


def inside(box: Box, x: int, y: int) -> bool:
    return box[0] <= x < box[2] and box[1] <= y < box[3]


def shown(todos: list[Todo], ui: Ui) -> list[Todo]:
    """The todos the current filter lets through, in order."""
    if ui.filter == "active":
        return [todo for todo in todos if not todo.done]
    if ui.filter == "done":
        return [todo for todo in todos if todo.done]
    return list(todos)


def rows(todos: list[Todo], ui: Ui) -> list[Row]:
    """The visible rows, after filtering and scrolling."""
    visible = shown(todos, ui)[ui.scroll : ui.scroll + VISIBLE_ROWS]
    result = []
    for index, todo in enumerate(visible):
        top = LIST_TOP + index * (ROW_HEIGHT + ROW_GAP)
        result.append(
            Row(
                todo=todo,
                box=(40, top, 1240, top + ROW_HEIGHT),
                checkbox=(60, top + 12, 88, top + 40),
                title=(104, top + 6, 1120, top + ROW_HEIGHT - 6),
                delete=(1140, top + 10, 1220, top + 42),
            )
        )
    return result


@functools.cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


@functools.lru_cache(maxsize=2048)
def _glyphs(text: str, size: int) -> tuple[Image.Image, int, int]:
    """`text` rendered once as an anti-aliased mask, with its offset from the origin
    (drawing text is most of a frame's cost; the same strings come back every frame)."""
    left, top, right, bottom = (int(edge) for edge in font(size).getbbox(text))
    mask = Image.new("L", (max(right - left, 1), max(bottom - top, 1)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=font(size))
    return mask, left, top


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, color) -> None:
    """Like `draw.text`, pixel for pixel, from the glyph cache."""
    if text:
        mask, left, top = _glyphs(text, size)
        draw.bitmap((int(xy[0]) + left, int(xy[1]) + top), mask, fill=color)


@functools.lru_cache(maxsize=2048)
def text_width(text: str, size: int) -> float:
    return font(size).getlength(text)


def _button(draw: ImageDraw.ImageDraw, box: Box, label: str, fill, color, hover: bool) -> None:
    draw.rounded_rectangle(
        box,
        radius=8,
        fill=HOVER if hover and fill == WHITE else fill,
        outline=BORDER if fill == WHITE else None,
    )
    mask, left, top = _glyphs(label, 20)
    x = (box[0] + box[2] - mask.width) // 2 - left
    y = (box[1] + box[3] - mask.height) // 2 - top
    _text(draw, (x, y), label, 20, color)


def _field(draw: ImageDraw.ImageDraw, box: Box, text: str, placeholder: str, focused: bool) -> None:
    draw.rounded_rectangle(
        box, radius=8, fill=WHITE, outline=BLUE if focused else BORDER, width=3 if focused else 1
    )
    y = (box[1] + box[3]) // 2 - 13
    _text(draw, (box[0] + 16, y), text or placeholder, 24, TEXT if text else MUTED)
    if focused:
        caret_x = box[0] + 16 + text_width(text, 24) + 2
        draw.line((caret_x, box[1] + 12, caret_x, box[3] - 12), fill=BLUE, width=2)


def _cursor(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    arrow = [
        (x, y),
        (x, y + 22),
        (x + 6, y + 16),
        (x + 11, y + 26),
        (x + 15, y + 24),
        (x + 10, y + 14),
        (x + 17, y + 14),
    ]
    draw.polygon(arrow, fill=(0, 0, 0), outline=WHITE)


def render(todos: list[Todo], ui: Ui) -> bytes:
    """One PNG frame of the app."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    mouse = (ui.cursor_x, ui.cursor_y)

    draw.rectangle((0, 0, WIDTH, 72), fill=HEADER)
    _text(draw, (40, 18), "Todo", 32, WHITE)
    left = sum(not todo.done for todo in todos)
    status = f"{left} item{'s' if left != 1 else ''} left"
    _text(draw, (WIDTH - 40 - text_width(status, 20), 26), status, 20, WHITE)

    _field(draw, INPUT, ui.draft, "What needs to be done?", ui.focus == "new")
    _button(draw, ADD_BUTTON, "Add", BLUE, WHITE, inside(ADD_BUTTON, *mouse))
    for name, box in FILTERS.items():
        selected = ui.filter == name
        _button(
            draw,
            box,
            name.capitalize(),
            HEADER if selected else WHITE,
            WHITE if selected else TEXT,
            inside(box, *mouse),
        )
    _button(draw, CLEAR_BUTTON, "Clear completed", WHITE, RED, inside(CLEAR_BUTTON, *mouse))

    visible = rows(todos, ui)
    if not visible:
        _text(draw, (60, LIST_TOP + 16), "Nothing to show.", 24, MUTED)
    for row in visible:
        draw.rounded_rectangle(
            row.box, radius=8, fill=HOVER if inside(row.box, *mouse) else WHITE, outline=BORDER
        )
        draw.rounded_rectangle(
            row.checkbox, radius=4, fill=BLUE if row.todo.done else WHITE, outline=BLUE, width=2
        )
        if row.todo.done:
            x0, y0 = row.checkbox[0], row.checkbox[1]
            draw.line(
                [(x0 + 6, y0 + 14), (x0 + 12, y0 + 21), (x0 + 23, y0 + 7)], fill=WHITE, width=3
            )
        if ui.focus == "edit" and ui.edit_id == row.todo.id:
            _field(draw, row.title, ui.edit_text, "", True)
        else:
            color = MUTED if row.todo.done else TEXT
            y = row.box[1] + 12
            _text(draw, (row.title[0] + 16, y), row.todo.title, 24, color)
            if row.todo.done:
                width = text_width(row.todo.title, 24)
                mid = y + 14
                draw.line(
                    (row.title[0] + 16, mid, row.title[0] + 16 + width, mid), fill=color, width=2
                )
        _button(draw, row.delete, "Delete", RED, WHITE, inside(row.delete, *mouse))

    hidden = len(shown(todos, ui)) - ui.scroll - len(visible)
    if ui.scroll or hidden > 0:
        note = f"{ui.scroll} above, {max(hidden, 0)} below (scroll to see more)"
        _text(draw, (40, LIST_BOTTOM - 2), note, 16, MUTED)

    _cursor(draw, *mouse)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()
