"""Copy and export from the app (the palette): the selected agent's last answer or its whole
transcript to the clipboard, the session as Markdown to a file.

The clipboard is the terminal's (OSC 52, through Textual). A terminal may refuse it without
saying so (tmux without `set-clipboard on`, macOS Terminal), so what was copied is also written
to a private file the toast names: the person never wonders where their text went. Only the
text the person chose is copied: a model's words go to the clipboard as written (OSC 52
carries them base64-encoded: nothing in them reaches the terminal as a control).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from agentui.core.support.paths import state_dir

if TYPE_CHECKING:
    from agentui.core.state import RunState
    from agentui.tui.app.app import AgentUIApp

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


class CopyAndExport:
    def __init__(self, app: AgentUIApp) -> None:
        self.app = app

    def copy_last_answer(self) -> None:
        main = self.app.main
        agent_id = main.selected_id
        text = last_answer(main.model, agent_id) if agent_id is not None else None
        if text is None:
            self.app.notify("Nothing to copy: this agent has not answered yet.", timeout=3)
            return
        self._copy(text, "its last answer")

    def copy_transcript(self) -> None:
        main = self.app.main
        shown = list(main.model.agents) if main.show_all else [main.selected_id or ""]
        text = transcript_text(main.model, shown)
        if not text:
            self.app.notify("Nothing to copy: the transcript is empty.", timeout=3)
            return
        self._copy(text, "the transcript")

    def _copy(self, text: str, what: str) -> None:
        self.app.copy_to_clipboard(text)
        path = state_dir() / COPIED_FILE
        try:
            _write_private(path, text)
        except OSError as exc:
            self.app.notify(
                f"Copied {what} ({len(text):,} characters) to the clipboard; it could not be "
                f"kept in {path}: {exc.strerror or exc}",
                severity="warning",
            )
            return
        self.app.notify(
            f"Copied {what} ({len(text):,} characters) to the clipboard; also in {path} (for a "
            "terminal that does not pass copies on)",
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
