"""Overlays over the main screen, one at a time: a light one (help, palette, scene state) gives
way to the next; one that holds a decision or typed text (a confirmation, Modify) does not, and
the new one is refused. Closing the last gives the keys back to where they were."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from textual.command import CommandPalette
from textual.screen import Screen, ScreenResultCallbackType

if TYPE_CHECKING:
    from agentui.tui.app.app import AgentUIApp

# The screens are imported when an overlay opens: none is in the first frame.

ResultT = TypeVar("ResultT")


class Overlays:
    def __init__(self, app: AgentUIApp) -> None:
        self.app = app

    def make_room(self) -> bool:
        """Room for a new overlay: True when only the main screen is left under it."""
        app = self.app
        if len(app.screen_stack) == 1:
            app.main.overlay_focus.remember()
            return True
        from agentui.tui.app.screens.confirm import ConfirmScreen
        from agentui.tui.app.screens.help import HelpScreen
        from agentui.tui.app.screens.modify import ModifyScreen
        from agentui.tui.app.screens.scene_state import SceneStateScreen

        top = app.screen
        # Overlays that only show something: opening another closes them first. The others
        # (delete and quit confirmations, modify, budget) hold a decision or typed text.
        if isinstance(top, CommandPalette | HelpScreen | SceneStateScreen):
            app.pop_screen()
            return len(app.screen_stack) == 1
        name = "the Modify window" if isinstance(top, ModifyScreen) else "the dialog"
        if not isinstance(top, ConfirmScreen | ModifyScreen):
            name = f"the {top.__class__.__name__.removesuffix('Screen')} window"
        app.notify(f"Close {name} first (esc).", severity="warning", timeout=3)
        return False

    def room_for(self, kind: type[Screen[Any]]) -> bool:
        """Room for an overlay of `kind`, unless one is the top screen already."""
        return not isinstance(self.app.screen, kind) and self.make_room()

    def open(
        self, screen: Screen[ResultT], callback: ScreenResultCallbackType[ResultT] | None = None
    ) -> bool:
        """Push `screen` if there is room for it; False when refused (said why)."""
        if not self.make_room():
            return False
        self.app.push_screen(screen, callback)
        return True

    def popped(self) -> None:
        """A screen was popped: back on the main screen, the keys land where it says."""
        if len(self.app.screen_stack) == 1:
            self.app.call_after_refresh(self.app.main.overlay_focus.restore)

    def help(self) -> None:
        from agentui.tui.app.screens.help import HelpScreen

        if not isinstance(self.app.screen, HelpScreen):
            self.open(HelpScreen(self.app.key_map))

    def scene_state(self) -> None:
        from agentui.tui.app.screens.scene_state import SceneStateScreen, scene_for

        main = self.app.main
        scene = scene_for(main.model, main.selected_id)
        if scene is not None and not isinstance(self.app.screen, SceneStateScreen):
            self.open(SceneStateScreen(scene))
