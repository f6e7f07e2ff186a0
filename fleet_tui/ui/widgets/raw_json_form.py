"""A tool's arguments typed as one JSON object: the form of a tool whose schema the form model
cannot take (see `tool_panel.build_form_widget`)."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static, TextArea

from fleet_tui.forms import FieldError
from fleet_tui.forms.typed_values import parse_json
from fleet_tui.text import one_line, pretty_json


class RawJsonForm(Vertical):
    """Arguments typed as one JSON object (the fallback form)."""

    DEFAULT_CSS = """
    RawJsonForm { height: auto; }
    RawJsonForm TextArea { height: auto; min-height: 5; max-height: 20; }
    RawJsonForm .raw-note { color: $warning; }
    """

    def __init__(self, note: str = "") -> None:
        super().__init__()
        self.note = note

    def compose(self) -> ComposeResult:
        if self.note:
            yield Static(one_line(self.note, 300), markup=False, classes="raw-note")
        yield TextArea("{}", id="raw-arguments", show_line_numbers=False)

    def load(self, arguments: dict[str, Any]) -> None:
        self.query_one(TextArea).text = pretty_json(arguments)

    def value(self) -> dict[str, Any]:
        """The arguments; raises ValueError when the text is not a JSON object."""
        value = parse_json(self.query_one(TextArea).text.strip() or "{}")
        if not isinstance(value, dict):
            raise ValueError("arguments must be a JSON object")
        return value

    def errors(self) -> list[FieldError]:
        try:
            self.value()
        except ValueError as error:
            return [FieldError((), str(error))]
        return []

    def point_at_problem(self) -> None:
        """Focus the JSON text (the only input there is)."""
        self.query_one(TextArea).focus()
