"""Calling the person back when an agent starts waiting for them ([attention] in config.toml):
a question or approval, a budget stop, and any other new row of the inbox (an agent stalled,
a steer an agent ended without reading).

`bell` (the default) rings the terminal's bell. `notify` sends a desktop notification through
the terminal while it is not focused (Textual reports focus on terminals that tell it), naming
the agent and what it needs, and rings the bell otherwise. `after_s` nudges again for a
question still waiting that long, focused or not. `command` runs the person's own program at
each nudge, with what waits as JSON on its stdin.

The notification's words come from models (an agent's name, a question): they pass through
visible_controls, so no escape or bell inside them can end the sequence early or start one.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, NamedTuple

from agentui.core.support.terminal_text import clipped, visible_controls
from agentui.tui.app import textual_compat

if TYPE_CHECKING:
    from agentui.core.config.attention import AttentionSettings
    from agentui.core.state import RunState
    from agentui.tui.app.app import AgentUIApp

BELL = "\a"
NOTIFICATION_CHARS = 200  # a desktop notification shows a line or two
COMMAND_TIMEOUT_S = 10.0  # the person's command: it must not pile up behind a hung one
# Terminals that read OSC 777 notifications but not OSC 9 (TERM's start).
OSC_777_TERMS = ("foot", "rxvt")


class Waiting(NamedTuple):  # made before the first frame: see first_frame.py
    """One thing that waits for the person, as a nudge names it."""

    query_id: str  # or the inbox row's id (`stalled:a3`, `steer:a2`)
    agent: str
    kind: str  # "approval", "question", "budget", "stalled" or "steer"
    # The tool an approval would run, the question, what the budget stopped at, how long a
    # stalled agent has said nothing, the steer not read.
    text: str

    def sentence(self) -> str:
        if self.kind == "approval":
            return f"{self.agent} wants to run {self.text}"
        if self.kind == "budget":
            return f"{self.agent} stopped at its budget ({self.text})"
        if self.kind == "stalled":
            return f"{self.agent} has said nothing for {self.text}: steer, cancel or wait"
        if self.kind == "steer":
            return f"{self.agent} ended without reading your steer: {self.text}"
        return f"{self.agent} asks: {self.text}"


def waiting_in(fold: RunState, query_ids: Iterable[str]) -> list[Waiting]:
    """What waits for `query_ids` (those still open), as the fold tells it."""
    found = []
    for query_id in query_ids:
        query = fold.open_queries.get(query_id)
        agent = fold.agents.get(query.agent_id) if query is not None else None
        if query is None or agent is None:
            continue
        entry = fold.entry_for_query(query_id)
        if entry is not None and entry.title == "approval":
            found.append(Waiting(query_id, agent.name, "approval", entry.tool or "a tool"))
        else:
            question = query.prompt.strip().splitlines()[0] if query.prompt.strip() else ""
            found.append(Waiting(query_id, agent.name, "question", question))
    return found


def notification(waiting: Iterable[Waiting], term: str) -> str:
    """The escape sequence of a desktop notification naming what waits."""
    items = list(waiting)
    body = items[0].sentence() if len(items) == 1 else f"{len(items)} agents are waiting for you"
    body = clipped(" ".join(visible_controls(body).split()), NOTIFICATION_CHARS)
    if term.startswith(OSC_777_TERMS):
        return f"\x1b]777;notify;agentui;{body}\x1b\\"
    # "agentui: " first: Windows Terminal reads "OSC 9 ; digit ;" as its own commands.
    return f"\x1b]9;agentui: {body}\x1b\\"


class Nudges:
    def __init__(self, app: AgentUIApp) -> None:
        self.app = app
        # The file's, once the settings are validated (pydantic is not for the first frame);
        # until then the default: the bell.
        self.settings: AttentionSettings | None = None
        # Where the sequences go: the terminal (a test reads them instead).
        self.write: Callable[[str], None] = lambda text: textual_compat.write_to_terminal(app, text)
        self._command_failed = False  # said once, not at every nudge

    def budget_stopped(self, agent_ids: Iterable[str]) -> None:
        """Agents' budgets stopped them: they wait for the person as a question does."""
        fold = self.app.main.model
        stopped = [(a, fold.agents[a]) for a in agent_ids if a in fold.agents]
        self._call(
            [
                Waiting(f"budget:{a}", agent.name, "budget", agent.budget_stop.measure)
                for a, agent in stopped
                if agent.budget_stop is not None
            ]
        )

    def rows_arrived(self, waiting: list[Waiting]) -> None:
        """New rows of the inbox that no question or budget stop nudged (tui/app/inbox.py)."""
        self._call(waiting)

    def arrived(self, query_ids: Iterable[str]) -> None:
        """Agents started waiting: call the person, and again after `after_s` for each one
        still waiting then."""
        self._call(waiting_in(self.app.main.model, query_ids))

    def _call(self, waiting: list[Waiting]) -> None:
        after_s = self.settings.after_s if self.settings is not None else None
        if not waiting or (self._nudge_kind() == "off" and not self._command()):
            return
        self._nudge(waiting, focused=self.app.app_focus)
        if after_s is not None:
            self.app.set_timer(after_s, lambda: self._still_waiting(waiting))

    def _nudge_kind(self) -> str:
        return self.settings.nudge if self.settings is not None else "bell"

    def _command(self) -> list[str]:
        return self.settings.command if self.settings is not None else []

    def _still_waiting(self, waiting: list[Waiting]) -> None:
        fold = self.app.main.model
        stopped = {f"budget:{agent.id}" for agent in fold.budget_stops()}
        rows = self.app.inbox.row_ids()
        left = [
            w
            for w in waiting
            if w.query_id in fold.open_queries or w.query_id in stopped or w.query_id in rows
        ]
        if left:
            self._nudge(left, focused=False)  # long enough: a notification even if focused

    def _nudge(self, waiting: list[Waiting], *, focused: bool) -> None:
        nudge = self._nudge_kind()
        if nudge == "notify" and not focused:
            self.write(notification(waiting, os.environ.get("TERM", "")))
        elif nudge != "off":
            self.write(BELL)
        if self._command():
            self.app.run_worker(self._run_command(waiting), group="nudge command")

    async def _run_command(self, waiting: list[Waiting]) -> None:
        payload = json.dumps(
            {"waiting": [{"agent": w.agent, "kind": w.kind, "text": w.text} for w in waiting]}
        )
        command = self._command()
        try:
            process = await asyncio.create_subprocess_exec(
                *command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.DEVNULL,
            )
        except OSError as exc:
            problem = exc.strerror or str(exc)
        else:
            try:
                await asyncio.wait_for(process.communicate(payload.encode()), COMMAND_TIMEOUT_S)
                problem = f"exit status {process.returncode}" if process.returncode else ""
            except TimeoutError:
                process.kill()
                await process.wait()
                problem = f"still running after {COMMAND_TIMEOUT_S:g} s"
        if problem and not self._command_failed:
            self._command_failed = True
            self.app.notify(
                f"[attention] command {command[0]!r} failed: {problem}",
                title="Attention command",
                severity="warning",
            )
