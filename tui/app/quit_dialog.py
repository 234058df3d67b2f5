"""Quitting: at once when nothing would be lost, else after a question that says what would be
(agents cancelled, words typed and not sent). ctrl+q again is the deliberate second press."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentui.tui.app.app import AgentUIApp
    from agentui.tui.app.screens.confirm import ConfirmScreen


class QuitDialog:
    def __init__(self, app: AgentUIApp) -> None:
        self.app = app
        self._dialog: ConfirmScreen | None = None  # open: never a second one

    async def quit(self) -> None:
        app = self.app
        if self._dialog is not None:
            if app.screen is self._dialog:
                self._dialog.dismiss(True)  # ctrl+q again: the deliberate second press
            return
        from agentui.tui.app.screens.confirm import ConfirmScreen  # none in the first frame
        from agentui.tui.app.screens.modify import ModifyScreen

        if isinstance(app.screen, ModifyScreen):
            # Its edits are not applied yet: they are not thrown away by a quit in passing.
            app.notify("Close the Modify window first (esc).", severity="warning", timeout=3)
            return
        if not app.host.quit_cancels(app.main.model) and not self._unsent():
            await app.stop_runtime_and_exit()
            return

        async def confirmed(yes: bool | None) -> None:
            self._dialog = None
            if yes:
                await app.stop_runtime_and_exit()

        dialog = ConfirmScreen(self._question(), "Quit", "Stay", risky_key="ctrl+q")
        if app.overlays.open(dialog, confirmed):
            self._dialog = dialog

    def recount(self) -> None:
        """The dialog, while open, asks again with what is true now (at every flush)."""
        if self._dialog is not None:
            self._dialog.ask(self._question())

    def _unsent(self) -> str:
        """What the person typed that a quit would lose, said in a sentence ("" for nothing)."""
        prompt = self.app.main.has_unsent_words()
        agents = self.app.main.model.agents
        drafts = any(  # a draft for an agent that ended cannot be applied any more
            a in agents and agents[a].status.is_live for a in self.app.commands.kept_drafts
        )
        open_queries = self.app.main.model.open_queries
        answer = any(  # an answer typed under a question still open, not sent
            text.strip() and query_id in open_queries
            for query_id, text in self.app.main.transcript_view.drafts.items()
        )
        if prompt and drafts:
            return "What you typed in the prompt and a Modify edit kept have not been sent."
        if drafts:
            return "A Modify edit you kept has not been applied."
        if prompt:
            return "What you typed in the prompt has not been sent."
        return "The answer you typed has not been sent." if answer else ""

    def _recorded(self) -> bool:
        """This run's session is being saved (not `--no-session`, an attached screen or a
        replay), so `agentui --resume` can take it up again."""
        from agentui.core.session.writer import SessionWriter  # loaded with the runtime

        writer = getattr(self.app.host.runtime, "session", None)
        return isinstance(writer, SessionWriter) and writer.error is None

    def _question(self) -> str:
        main = self.app.main
        running = self.app.host.quit_cancels(main.model)  # none in a replay or attached
        unsent = self._unsent()
        if not running:
            if unsent:
                return f"{unsent} Quit and lose it?"
            # Only a dialog opened while work ran asks this (at once, a quit then needs none).
            return "Every agent has finished meanwhile: quitting now loses nothing. Quit?"
        plural = "s are" if running != 1 else " is"
        if self._recorded():
            # Saved: a resume gives back what waited on the person; an agent at work is
            # stopped by the quit and comes back cancelled, continued from its conversation.
            ending = (
                "Quit? After `agentui --resume`, what waits for you waits; work cut short"
                " comes back stopped (r continues it)."
            )
        else:
            ending = f"Quit and cancel {'them' if running != 1 else 'it'}?"
        question = (
            f"{running} agent{plural} not finished (working, paused or waiting for you). {ending}"
        )
        return f"{unsent} {question}" if unsent else question
