"""The footer of keys, composed again only when the keys it shows change.

Textual's `Footer` mounts every key anew whenever its screen signals changed bindings, which it
does on every move of the focus and every `refresh_bindings`. Most of those change nothing the
footer shows, yet each restyles the keys and lays out the screen again: six times between the
app's first frame and its tools listed, a fifth of the process's time in that span (which
connecting shares).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer


class KeysFooter(Footer):
    """Textual's footer, recomposed only when what its `compose` reads has changed."""

    _composed_from: object = None

    def compose(self) -> ComposeResult:
        self._composed_from = self._what_it_shows()
        yield from super().compose()

    async def recompose(self) -> None:
        if self._what_it_shows() != self._composed_from:
            await super().recompose()

    def _what_it_shows(self) -> object:
        """Everything `Footer.compose` reads: whether bindings are ready, the screen's shown
        bindings (with whether each is enabled, its tooltip and how its key is displayed), and
        the command palette's binding and whether it is shown."""
        if not self._bindings_ready or not self.is_attached:
            return None
        active = self.screen.active_bindings
        palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        return (
            self.show_command_palette,
            palette[1:] if palette else None,
            tuple(
                (binding, enabled, tooltip, self.app.get_key_display(binding))
                for _, binding, enabled, tooltip in active.values()
                if binding.show
            ),
        )
