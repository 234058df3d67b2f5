"""The key footer: Textual's Footer, rebuilt only when what it shows changed.

Textual's Footer recomposes (removes and mounts every key widget, ~15 ms) whenever the screen's
bindings may have changed: every selection change, focus change and `refresh_bindings()`. Going
down the agent tree, the keys that apply are almost always the same from one agent to the next.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Footer


class KeyFooter(Footer):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._composed: tuple[object, ...] | None = None

    def _showing(self) -> tuple[object, ...]:
        """Everything `Footer.compose` reads, as a value to compare."""
        app = self.app
        return (
            self._bindings_ready,
            self.compact,
            self.show_command_palette,
            tuple(
                (binding, enabled, tooltip, app.get_key_display(binding))
                for _, binding, enabled, tooltip in self.screen.active_bindings.values()
            ),
        )

    async def recompose(self) -> None:
        if not self.is_attached:
            return
        showing = self._showing()
        if showing == self._composed:
            return
        self._composed = showing
        await super().recompose()
