"""The key footer: Textual's Footer, rebuilt only when the keys it shows changed.

Textual's Footer recomposes (removes and mounts every key widget) whenever the
screen's bindings may have changed: every selection change, focus change and
`refresh_bindings()`. Going down the agent tree the keys are almost always the same from one
agent to the next, and pausing or resuming one only greys out some and brightens others: those
are drawn again in place, and nothing is mounted.

A footer narrower than its keys shows the keys that fit whole, in their order, never half of
one: the focused place's own keys are kept first, then (while something waits) the keys that go
to it and (while a block is selected) f8, then the app's keys in the app's order (`_priority`). While a dialog with no footer of its own (the
command palette, the theme picker) is open over this screen, the footer shows that dialog's
keys, not those of the widget underneath, which do not work while it is open.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.cells import cell_len
from textual import events
from textual.app import App, ComposeResult
from textual.command import CommandPalette
from textual.errors import NoWidget
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer

from agentui.tui.app.keymap import KeyMap, key_action, pane_action
from agentui.tui.app.textual_compat import (
    FooterKey,
    footer_bindings_ready,
    footer_key_compact_from_birth,
    mark_footer_bindings_ready,
    relabel_footer_key,
    set_footer_key_disabled,
)

# What the palette accepts beside its own bindings (it shows only esc): Textual handles these
# in the palette's input and list, not as bindings.
PALETTE_KEYS = (("up", "↑↓", "Choose"), ("enter", "⏎", "Run"))


class KeyFooter(Footer):
    class GreyedKeyClicked(Message):
        """A greyed-out key was clicked (Textual's key only rings the bell): the app says why
        it does nothing, as it does when the key is pressed."""

        def __init__(self, action: str) -> None:
            super().__init__()
            self.action = action  # the key's binding's

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._composed: tuple[object, ...] | None = None

    # Textual calls Footer's own on_mount / on_unmount too (handlers run along the MRO).
    def on_mount(self) -> None:
        self.app.screen_change_signal.subscribe(self, self._screen_changed)

    def on_unmount(self) -> None:
        self.app.screen_change_signal.unsubscribe(self)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        key = footer_key_at(self.app, event)
        if key is not None and key.has_class("-disabled"):
            self.post_message(self.GreyedKeyClicked(key.action))

    def _screen_changed(self, _screen: Screen[object]) -> None:
        self.call_after_refresh(self.recompose)

    def _dialog(self) -> CommandPalette | None:
        """The palette open over this footer's screen (it has no footer of its own)."""
        top = self.app.screen
        return top if top is not self.screen and isinstance(top, CommandPalette) else None

    def compose(self) -> ComposeResult:
        # Composed at once with the keys of whatever has the focus (Textual's Footer waits for
        # a bindings signal, then a refresh: the first frame would have no keys).
        mark_footer_bindings_ready(self)
        self._composed = self._showing()
        dialog = self._dialog()
        if dialog is None:
            for widget in super().compose():
                if isinstance(widget, FooterKey):
                    footer_key_compact_from_birth(widget, self.compact)
                yield widget
            return
        for key, display, description in PALETTE_KEYS:
            yield self._key(FooterKey(key, display, description, ""))
        for node, binding, enabled, tooltip in dialog.active_bindings.values():
            if node is dialog and binding.show:  # esc: "Exit the command palette"
                yield self._key(
                    FooterKey(
                        binding.key,
                        self.app.get_key_display(binding),
                        "Close",
                        binding.action,
                        disabled=not enabled,
                        tooltip=tooltip,
                    )
                )

    def _key(self, key: FooterKey) -> FooterKey:
        """`key` as Footer.compose makes one: compact as the footer, and kept so."""
        return footer_key_compact_from_birth(key.data_bind(compact=Footer.compact), self.compact)

    def on_resize(self) -> None:
        self._fit_keys()

    def _fit_keys(self) -> None:
        """Show the keys that fit whole, most useful first; each stays in its place on the
        line. The palette key (docked right) keeps its place. See `_priority`."""
        keys = list(self.query_children(FooterKey))
        room = self.size.width - sum(
            _cells(key) for key in keys if key.has_class("-command-palette")
        )
        rank = _ranks(getattr(self.app, "key_map", None))
        for key in sorted(keys, key=lambda k: _priority(k.action, rank)):
            if key.has_class("-command-palette"):
                continue
            room -= _cells(key)
            key.display = room >= 0

    def _showing(self) -> tuple[object, ...]:
        """Everything `Footer.compose` reads, as a value to compare."""
        app = self.app
        source = self._dialog() or self.screen
        return (
            source,
            footer_bindings_ready(self),
            self.compact,
            self.show_command_palette,
            tuple(
                (binding, enabled, tooltip, app.get_key_display(binding))
                for _, binding, enabled, tooltip in source.active_bindings.values()
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
        if not await self._relabel_in_place():
            await super().recompose()
        self._fit_keys()

    async def _relabel_in_place(self) -> bool:
        """Other keys (the focus moved to another pane): the key widgets there are given the
        new keys' labels, actions and states, the missing ones mounted and the extra ones
        removed, instead of every key removed and mounted again (each mount styles the key
        and its parts anew: ~3/4 of a recompose). Only for a row of plain keys, as Footer
        composes it with no binding groups; False (nothing changed) otherwise."""
        made = list(self.compose())
        fresh = [w for w in made if type(w) is FooterKey]
        current = [w for w in self.children if type(w) is FooterKey]
        if len(fresh) != len(made) or len(current) != len(self.children):
            return False
        palette = [k for k in current if k.has_class("-command-palette")]
        new_palette = [k for k in fresh if k.has_class("-command-palette")]
        if len(palette) != len(new_palette):
            return False
        # Past the palette's key, a row of plain keys has keys of one kind (a binding group's
        # come in a KeyGroup, refused above).
        plain = [k for k in current if k not in palette]
        new_plain = [k for k in fresh if k not in new_palette]
        for key, new in [
            *zip(plain, new_plain, strict=False),
            *zip(palette, new_palette, strict=True),
        ]:
            relabel_footer_key(key, new)
        if len(plain) > len(new_plain):
            await self.remove_children(plain[len(new_plain) :])
        elif len(new_plain) > len(plain):
            extra = new_plain[len(plain) :]
            if palette:
                await self.mount_all(extra, before=palette[0])
            else:
                await self.mount_all(extra)
        return True

    def _enable_in_place(self) -> None:
        """The same keys, some enabled or disabled since: each key drawn again as it is now,
        as `Footer.compose` would have made it."""
        enabled = {
            (binding.key, binding.action): state
            for _, binding, state, _ in (self._dialog() or self.screen).active_bindings.values()
        }
        for key in self.query(FooterKey):
            state = enabled.get((key.key, key.action))
            if state is not None:
                set_footer_key_disabled(key, not state)


# Keys shown only while what they act on is there: what gets to something waiting on the
# person (ctrl+n, f4), and f8 while a block is selected (it was just clicked: it is wanted now).
NOW_ACTIONS = frozenset(
    key_action(action) for action in ("next_question", "inbox_waiting", "copy_selected")
)


def footer_key_at(app: App[Any], event: events.MouseEvent) -> FooterKey | None:
    """The footer key a click landed on, found by where it landed: a terminal's click names no
    widget (only Textual's pilot does)."""
    try:
        widget, _ = app.get_widget_at(event.screen_x, event.screen_y)
    except NoWidget:
        return None
    for node in (widget, widget.parent):
        if isinstance(node, FooterKey):
            return node
    return None


def _priority(action: str, rank: Mapping[str, int]) -> tuple[int, int]:
    """Which keys a narrow footer keeps first:
    1. the focused place's own keys, those not in the app's table (send, leave, an
       approval's choices, the tree's Answer): what this place is for, and the way out;
    2. while something waits, the keys that go to it (ctrl+n, f4): it is waiting on you;
       and while a block is selected, f8 that copies it;
    3. the app's keys, in its order (help and quit lead). A key remapped in config.toml
       keeps its key's place (Textual would list it last among the bindings)."""
    if action in NOW_ACTIONS:
        return (1, 0)
    place = rank.get(action)
    return (0, 0) if place is None else (2, place)


def _ranks(key_map: KeyMap | None) -> dict[str, int]:
    """Each key's binding action -> its place in the app's order of keys (as a pane's key,
    a key that works anywhere, or the app's action a text box binds: `app.help`)."""
    if key_map is None:
        return {}
    ranks: dict[str, int] = {}
    for place, key in enumerate(key_map.keys):
        ranks.setdefault(pane_action(key.action), place)
        ranks.setdefault(key_action(key.action), place)
        ranks.setdefault(f"app.{key.action}", place)
    return ranks


def _cells(key: FooterKey) -> int:
    """A key's width as laid out: its text, its padding and border, its margins."""
    return _label_cells(key) + key.styles.gutter.width + key.styles.margin.width


def _label_cells(key: FooterKey) -> int:
    """The width of what `FooterKey.render` draws, from its parts and their paddings: the
    render itself works out the parts' colours first (~0.3 ms a key), and every key is measured
    at each fit, the first frame's included."""
    cells = cell_len(key.key_display)
    if not key.description:
        return cells
    key_padding = key.get_component_styles("footer-key--key").padding
    description_padding = key.get_component_styles("footer-key--description").padding
    return (
        cells
        + key_padding.left
        + key_padding.right
        + description_padding.left
        + cell_len(key.description)
        + description_padding.right
    )


def _without_states(showing: tuple[object, ...]) -> tuple[object, ...]:
    *head, keys = showing
    return (*head, tuple((b, None, t, d) for b, _, t, d in keys))  # type: ignore[attr-defined]  # keys: _showing's 4-tuples
