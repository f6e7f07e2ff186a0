"""Text from an environment is data: cleaned (`fleet_tui.text`), and never parsed by Rich
as markup."""

from __future__ import annotations

from rich.text import Text

from fleet_tui.text import clean


def literal(text: str, style: str = "") -> Text:
    """A Rich Text that shows `text` literally (markup is not interpreted)."""
    return Text(clean(text), style=style)
