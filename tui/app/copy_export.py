"""Copy and export from the app (the palette): the selected block, the selected agent's last
answer or its whole transcript to the clipboard, the session as Markdown to a file.

The clipboard is the terminal's (OSC 52, through Textual). A terminal may refuse it without
saying so (tmux without `set-clipboard on`, macOS Terminal), so what was copied is also written
to a private file the toast names (in a thread: a long transcript on a slow disk must not hold
the screen), and a write that fails is said: the person never wonders where their text went.
Only the text the person chose is copied: a model's words go to the clipboard as written (OSC
52 carries them base64-encoded: nothing in them reaches the terminal as a control); a block goes
as it is shown.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import SystemCommand
from textual.markup import escape
from textual.worker import Worker

from agentui.core.support.paths import state_dir
from agentui.core.support.terminal_text import visible_controls

if TYPE_CHECKING:
    from agentui.core.state import RunState
    from agentui.tui.app.app import AgentUIApp
    from agentui.tui.app.widgets.blocks import EntryBlock

COPIED_FILE = "copied.txt"  # in the state directory: the last text copied, for a refusing terminal


def last_answer(fold: RunState, agent_id: str) -> str | None:
    """The agent's last text answer (not thinking, not a tool's output)."""
    agent = fold.agents.get(agent_id)
    if agent is None:
        return None
    answers = [e.text for e in agent.entries if e.kind == "text" and e.text.strip()]
    return answers[-1] if answers else None


def transcript_text(fold: RunState, agent_ids: list[str]) -> str:
    """The agents' transcripts in Markdown, each block as `agentui export` writes it: the
    answers given, the approvals decided and the tools' results included."""
    from agentui.core.session.export import item_markdown  # loaded with the runtime

    parts: list[str] = []
    for agent_id in agent_ids:
        agent = fold.agents.get(agent_id)
        if agent is None or not agent.entries:
            continue
        parts.append(f"## {agent.name}")
        parts.extend("\n".join(item_markdown(entry, agent.name)) for entry in agent.entries)
    return "\n\n".join(parts)


def block_words(block: EntryBlock) -> str:
    """What a block is, as a toast names it: "the answer", "the web_search call", "the notice
    'budget reached'" (a notice's title is what it says, not what it is), ..."""
    entry = block.entry
    if entry.kind == "text":
        return "the answer"
    if entry.kind == "tool":
        return f"the {entry.title} call" if entry.title else "the tool call"
    if entry.kind == "notice" and entry.title:
        return f"the notice '{entry.title}'"
    return f"the {entry.kind}"


class CopyAndExport:
    def __init__(self, app: AgentUIApp) -> None:
        self.app = app
        # One write of the copied file at a time, in the order of the copies: the last copy's
        # text is what the file holds.
        self._writing = asyncio.Lock()

    def palette(self) -> Iterable[SystemCommand]:
        """The palette's copy and export commands that apply now."""
        main = self.app.main
        if main.fold is not None and (block := main.transcript_view.selected_block()) is not None:
            yield SystemCommand(
                "Copy the selected block",
                # Textual reads a command's help as markup: a tool's name is a model's words.
                escape(f"{visible_controls(block_words(block))}, clicked or searched to last"),
                self.copy_block,
            )
        if main.selected_id is not None:
            yield SystemCommand(
                "Copy the last answer",
                "the selected agent's, to the clipboard",
                self.copy_last_answer,
            )
        if main.fold is not None:
            whose = "every agent's" if main.show_all else "the selected agent's"
            yield SystemCommand(
                "Copy the transcript", f"{whose}, to the clipboard", self.copy_transcript
            )
        if self.app.host.started and not self.app.host.read_only:
            yield SystemCommand(
                "Export the session as Markdown",
                "to a file here, as agentui export does",
                self.export_markdown,
            )

    def copy_block(self) -> Worker[None] | None:
        """The selected block's text as it is shown, in full (a folded one too)."""
        block = self.app.main.transcript_view.selected_block()
        if block is None:
            self.app.notify(
                "Nothing to copy: click a block of the transcript first (or go to one with /).",
                timeout=4,
            )
            return None
        return self.copy(block.copy_text(), block_words(block))

    def copy_last_answer(self) -> Worker[None] | None:
        main = self.app.main
        agent_id = main.selected_id
        text = last_answer(main.model, agent_id) if agent_id is not None else None
        if text is None:
            self.app.notify("Nothing to copy: this agent has not answered yet.", timeout=3)
            return None
        return self.copy(text, "its last answer")

    def copy_transcript(self) -> Worker[None] | None:
        main = self.app.main
        shown = list(main.model.agents) if main.show_all else [main.selected_id or ""]
        text = transcript_text(main.model, shown)
        if not text:
            self.app.notify("Nothing to copy: the transcript is empty.", timeout=3)
            return None
        return self.copy(text, "the transcript")

    def copy(self, text: str, what: str, *, told: str = "") -> Worker[None]:
        """`text` to the clipboard now, and to the private file in a thread: the worker that
        writes it, whose toast says how it went (`what` was copied; `told`: a sentence more)."""
        self.app.copy_to_clipboard(text)
        return self.app.run_worker(self._keep(text, what, told), group="copy")

    async def _keep(self, text: str, what: str, told: str) -> None:
        path = state_dir() / COPIED_FILE
        then = f". {told[:1].upper()}{told[1:]}." if told else ""
        async with self._writing:
            try:
                await asyncio.to_thread(_write_private, path, text)
            except OSError as exc:
                self.app.notify(
                    f"Copied {what} ({len(text):,} characters) to the clipboard; it could not "
                    f"be kept in {path}: {exc.strerror or exc}{then}",
                    severity="warning",
                )
                return
        self.app.notify(
            f"Copied {what} ({len(text):,} characters) to the clipboard; also in {path} (for a "
            f"terminal that does not pass copies on){then}",
            timeout=5,
        )

    def export_markdown(self) -> None:
        """The session as `agentui export` writes it, to a file in the current directory (read
        and written in a thread: a long session takes a moment)."""
        session = getattr(self.app.host.runtime, "session", None)
        source: Path | None = getattr(session, "path", None)
        if source is None:
            self.app.notify("No session is being recorded (--no-session, or attached).")
            return
        self.app.run_worker(self._export(source), group="export", exclusive=True)

    async def _export(self, source: Path) -> None:
        from agentui.core.session.export import export_session
        from agentui.core.session.reader import read_session

        target = Path.cwd() / f"{source.stem}.md"

        def write() -> None:
            target.write_text(export_session(read_session(source), "md"), encoding="utf-8")

        try:
            await asyncio.to_thread(write)
        except OSError as exc:
            self.app.notify(
                f"Export failed: {target}: {exc.strerror or exc}", severity="error", timeout=8
            )
            return
        self.app.notify(f"Exported the session to {target}", timeout=5)


def _write_private(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch(mode=0o600, exist_ok=True)
    path.write_text(text, encoding="utf-8")
