"""Form nodes without children: scalars typed as text, choices among fixed values, constants,
and raw JSON for what the form cannot draw."""

from __future__ import annotations

import json
from typing import Any

from fleet_tui.forms.field_roles import wants_multiline
from fleet_tui.forms.node import Node
from fleet_tui.forms.schema import json_equal
from fleet_tui.forms.typed_values import parse_json, parse_number, typable


class ScalarNode(Node):
    """A string, integer, number or boolean, edited as text (or a switch for booleans)."""

    def __init__(self, *args: Any, kind: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kind = kind
        self.multiline = kind == "string" and wants_multiline(
            self.key, self.schema, top_level=self.depth == 1
        )
        """Edited over several lines: newlines and tabs are then typable."""
        self._value: Any = None

    @property
    def format(self) -> str:
        fmt = self._annotation("format")
        return fmt if isinstance(fmt, str) else ""

    def _own_value(self) -> Any:
        return self._value

    def accepts(self, value: Any) -> bool:
        if super().accepts(value):
            return True
        if self.kind == "string":
            if not isinstance(value, str):
                return False
            return typable(value.replace("\n", "").replace("\t", "") if self.multiline else value)
        if self.kind == "boolean":
            return isinstance(value, bool)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        return self.kind == "number" or isinstance(value, int) or float(value).is_integer()

    def _load(self, value: Any) -> None:
        self._value = value

    def _fresh_value(self) -> None:
        self._value = False

    def set(self, value: Any) -> None:
        """Set a typed value (the widget has already parsed it)."""
        self._value, self.is_null, self.input_error = value, False, None
        self._touch()

    @property
    def text(self) -> str:
        """The value as the text shown in an input box ("" when absent or null)."""
        if not self.present or self.is_null or self._value is None:
            return ""
        return self._value if isinstance(self._value, str) else json.dumps(self._value)

    def set_text(self, text: str) -> None:
        """Set from typed text: strings verbatim, numbers parsed; empty text clears a number."""
        if self.kind == "string":
            self.set(text)
            return
        if self.kind == "boolean":
            self.set(text.strip().lower() in ("true", "1", "yes", "on"))
            return
        stripped = text.strip()
        if not stripped:
            self.clear()
            return
        try:
            parsed = parse_number(stripped, integer=self.kind == "integer")
        except ValueError as error:
            self.input_error = str(error)
            return
        if parsed is None:
            self.input_error = f"not {'an integer' if self.kind == 'integer' else 'a number'}"
        else:
            self.set(parsed)


class EnumNode(Node):
    """A choice among fixed values (`enum`, or a union of `const`s)."""

    kind = "enum"

    def __init__(self, *args: Any, options: list[Any], labels: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.options = options
        self.option_labels = labels
        self._value: Any = None

    def _own_value(self) -> Any:
        return self._value

    def accepts(self, value: Any) -> bool:
        return super().accepts(value) or any(json_equal(value, o) for o in self.options)

    def _load(self, value: Any) -> None:
        self._value = value

    def set(self, value: Any) -> None:
        self._value, self.is_null, self.input_error = value, False, None
        self._touch()

    @property
    def selected_index(self) -> int | None:
        """Index of the current option, or None when absent or null."""
        if not self.present or self.is_null:
            return None
        return next((i for i, o in enumerate(self.options) if json_equal(o, self._value)), None)


class ConstNode(Node):
    """A field with exactly one allowed value (`const`, or the `null` type)."""

    kind = "const"

    def __init__(self, *args: Any, const: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.const = const
        self._value = const

    def _own_value(self) -> Any:
        return self._value

    def accepts(self, value: Any) -> bool:
        return super().accepts(value) or json_equal(value, self.const)

    def _load(self, value: Any) -> None:
        self._value = value

    def start_fresh(self) -> None:
        """A const is always sent: it usually names the branch of a union."""
        self.present, self._value = True, self.const

    def set(self) -> None:
        """Send the constant."""
        self._value = self.const
        self._touch()


class RawNode(Node):
    """Any JSON value, edited as JSON text: for `{}`, `true` and schemas the form cannot draw."""

    kind = "raw"

    def __init__(self, *args: Any, reason: str = "any", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reason = reason
        self._value: Any = None
        self._text: str | None = None

    def _own_value(self) -> Any:
        return self._value

    def accepts(self, value: Any) -> bool:
        return True

    def load(self, value: Any) -> None:
        self._text = None
        if value is None:
            self.input_error = None
            self._touch()
            self._value = None
        else:
            super().load(value)

    def _load(self, value: Any) -> None:
        self._value = value

    def set(self, value: Any) -> None:
        self._value, self.is_null, self.input_error, self._text = value, False, None, None
        self._touch()

    def _reset(self) -> None:
        self._value, self._text = None, None

    @property
    def text(self) -> str:
        """The JSON text shown for this field (what was typed, if it did not parse)."""
        if self._text is not None:
            return self._text
        if not self.present:
            return ""
        return json.dumps(self._value, ensure_ascii=False)

    def set_text(self, text: str) -> None:
        """Parse typed JSON; invalid JSON is kept as text and reported, empty text clears."""
        if not text.strip():
            self.clear()
            return
        try:
            parsed = parse_json(text)
        except ValueError as exc:
            self._text = text
            self.input_error = str(exc)
            return
        self.set(parsed)
        self._text = text
