"""Text from an environment is data: cleaned (`fleet_tui.text`), and never parsed by Rich
as markup."""

from __future__ import annotations

from rich.text import Text

from fleet_tui.text import clean, visible

__all__ = ["clean", "literal", "name_line", "one_line", "visible"]


def one_line(text: str, limit: int = 200) -> str:
    """The first line of cleaned `text`, shortened to `limit` characters."""
    first = clean(text).strip().split("\n", 1)[0].replace("\t", " ")
    return first if len(first) <= limit else first[: limit - 1] + "…"


def name_line(name: str, limit: int = 200) -> str:
    """A name from the env on one line: control characters as signs (`visible`), shortened."""
    return one_line(visible(name), limit)


def literal(text: str, style: str = "") -> Text:
    """A Rich Text that shows `text` literally (markup is not interpreted)."""
    return Text(clean(text), style=style)
