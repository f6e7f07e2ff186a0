"""A small ORS/OpenReward environment for end-to-end tests: name the colour of a drawn shape.

Two splits ("train" with three tasks, "test" with two). `describe` returns the task text and a
PNG of the shape; `answer` ends the episode with reward 1.0 for the right colour, else 0.0.
"""

from __future__ import annotations

import base64
import io

from openreward.environments import Environment, ImageBlock, TextBlock, ToolOutput, tool
from PIL import Image, ImageDraw
from pydantic import BaseModel

TASKS = {
    "train": [
        {"id": "train-0", "shape": "square", "colour": "red"},
        {"id": "train-1", "shape": "circle", "colour": "green"},
        {"id": "train-2", "shape": "square", "colour": "blue"},
    ],
    "test": [
        {"id": "test-0", "shape": "circle", "colour": "red"},
        {"id": "test-1", "shape": "square", "colour": "green"},
    ],
}

RGB = {"red": (220, 40, 40), "green": (40, 180, 60), "blue": (40, 80, 220)}


class DescribeArgs(BaseModel):
    size: int = 32


class AnswerArgs(BaseModel):
    colour: str


def draw_png(shape: str, colour: str, size: int) -> str:
    """The shape drawn on white, as base64 PNG."""
    image = Image.new("RGB", (size, size), "white")
    draw = ImageDraw.Draw(image)
    box = (size // 8, size // 8, size - size // 8, size - size // 8)
    (draw.ellipse if shape == "circle" else draw.rectangle)(box, fill=RGB[colour])
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


class ShapesEnv(Environment):
    """Look at a shape and name its colour."""

    @classmethod
    def list_splits(cls) -> list[str]:
        return list(TASKS)

    @classmethod
    def list_tasks(cls, split: str) -> list[dict]:
        return TASKS[split]

    def get_prompt(self) -> list[TextBlock]:
        return [TextBlock(text=f"What colour is the {self.task_spec['shape']}?")]

    @tool
    def describe(self, args: DescribeArgs) -> ToolOutput:
        """Describe the shape in words and as a picture."""
        shape, colour = self.task_spec["shape"], self.task_spec["colour"]
        return ToolOutput(
            blocks=[
                TextBlock(text=f"A {shape} of {args.size}x{args.size} pixels."),
                ImageBlock(data=draw_png(shape, colour, args.size), mimeType="image/png"),
            ],
            metadata={"task": self.task_spec["id"]},
        )

    @tool
    def answer(self, args: AnswerArgs) -> ToolOutput:
        """Name the colour; ends the episode."""
        correct = args.colour.strip().lower() == self.task_spec["colour"]
        return ToolOutput(
            blocks=[TextBlock(text="correct" if correct else "wrong")],
            reward=1.0 if correct else 0.0,
            finished=True,
        )
