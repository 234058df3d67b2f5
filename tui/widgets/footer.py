"""The key footer: Textual's Footer, rebuilt only when the keys it shows changed.

Textual's Footer recomposes (removes and mounts every key widget, ~15-30 ms) whenever the
screen's bindings may have changed: every selection change, focus change and
`refresh_bindings()`. Going down the agent tree the keys are almost always the same from one
agent to the next, and pausing or resuming one only greys out some and brightens others: those
are drawn again in place, and nothing is mounted.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class KeyFooter(Footer):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._composed: tuple[object, ...] | None = None

    def compose(self) -> ComposeResult:
        # Composed at once with the keys of whatever has the focus (Textual's Footer waits for
        # a bindings signal, then a refresh: the first frame would have no keys).
        self.set_reactive(Footer._bindings_ready, True)
        self._composed = self._showing()
        yield from super().compose()

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
        composed, self._composed = self._composed, showing
        if composed is not None and _without_states(composed) == _without_states(showing):
            self._enable_in_place()
            return
        await super().recompose()

    def _enable_in_place(self) -> None:
        """The same keys, some enabled or disabled since: each key drawn again as it is now,
        as `Footer.compose` would have made it."""
        enabled = {
            (binding.key, binding.action): state
            for _, binding, state, _ in self.screen.active_bindings.values()
        }
        for key in self.query(FooterKey):
            state = enabled.get((key.key, key.action))
            if state is not None:
                key._disabled = not state  # what FooterKey reads on a click
                key.set_class(not state, "-disabled")


def _without_states(showing: tuple[object, ...]) -> tuple[object, ...]:
    *head, keys = showing
    return (*head, tuple((b, None, t, d) for b, _, t, d in keys))  # type: ignore[attr-defined]
