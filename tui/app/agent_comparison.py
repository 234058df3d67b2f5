"""Two agents of this session side by side (screens/run_diff.py), reached from the palette's
"Compare with…" (then which agent: a fork's origin first) or a fork's steps window.

What is compared is what `agentui diff` compares: core's outline of the session's events
(core/session/run_outline.py), two of its agents aligned by core's `diff_agents`. The app folds
its events and keeps no list of them, so the outline is read from the session's own log, the
file the runtime writes (append-only, flushed every 100 ms): once the writer has written every
event the screen has drawn, the file is read and outlined in a worker thread, off the event
loop. A run that saves no log (`--no-session`), an attached screen (the log is on the server)
and a replay have none here to read: the window says so, and names `agentui diff`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import SystemCommand
from textual.command import CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape

from agentui.core.protocol.commands import Mode
from agentui.core.support.errors import AgentUIError
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.app.palette_match import marked

if TYPE_CHECKING:
    from agentui.core.session.run_outline import RunOutline
    from agentui.core.state import RunState
    from agentui.core.state.agent_state import AgentState
    from agentui.tui.app.app import AgentUIApp

COMPARE_WITH = "Compare with…"
COMPARE_WITH_HELP = "the selected agent's steps beside another's, where they part marked"
# How long the window waits for the writer to flush what the screen has drawn (it flushes
# every 100 ms): past it, what the file holds is compared, and the window says it may lag.
WAIT_FOR_LOG_S = 3.0


@dataclass(frozen=True, slots=True)
class ReadOutline:
    """A session's outline, and what the reader should know about it ("" when nothing)."""

    outline: RunOutline
    note: str = ""


def fork_origin_here(fold: RunState, agent: AgentState) -> AgentState | None:
    """The agent `agent` was forked from, when it is in this run (not a saved session's)."""
    forked = agent.forked_from
    if forked is None or forked.session is not None:
        return None
    return fold.agents.get(forked.origin_id)


def others_to_compare(fold: RunState, agent_id: str) -> list[AgentState]:
    """Every other agent, the likeliest first: its origin when it is a fork, then its own
    forks, then the rest in the order they started."""
    agent = fold.agents[agent_id]
    origin = fork_origin_here(fold, agent)
    forks = [
        other
        for other in fold.agents.values()
        if other.forked_from is not None and other.forked_from.origin_id == agent_id
    ]
    first = ([origin] if origin is not None else []) + forks
    taken = {agent_id, *(a.id for a in first)}
    return first + [a for a in fold.agents.values() if a.id not in taken]


def left_and_right(fold: RunState, one: str, other: str) -> tuple[str, str]:
    """Which agent goes on the left: the origin when one is the other's fork (it came first),
    else `one` (the selected agent)."""
    agent = fold.agents.get(one)
    origin = fork_origin_here(fold, agent) if agent is not None else None
    return (other, one) if origin is not None and origin.id == other else (one, other)


def compare_commands(app: AgentUIApp) -> Iterator[SystemCommand]:
    """The palette's entries: "Compare with…" on a selected agent when there is another to
    compare, and always "Compare runs…" (two saved runs, or this one and a saved one:
    run_comparison.py)."""
    from agentui.tui.app.run_comparison import compare_runs_command

    main = app.main
    agent = main.selected_agent()
    fold = main.fold
    if agent is not None and fold is not None and len(fold.agents) >= 2:
        agent_id = agent.id
        yield SystemCommand(COMPARE_WITH, COMPARE_WITH_HELP, lambda: choose_other(app, agent_id))
    yield compare_runs_command(app)


def choose_other(app: AgentUIApp, agent_id: str) -> None:
    """A palette of the agents to compare `agent_id` with; picking one opens the comparison."""
    fold = app.main.fold
    if fold is None or agent_id not in fold.agents:
        return
    name = visible_controls(fold.agents[agent_id].name)
    choices = [
        (other.id, other.name, _why(fold, agent_id, other))
        for other in others_to_compare(fold, agent_id)
    ]
    palette = CommandPalette(
        providers=[_agents_of(choices, partial(open_comparison, app, agent_id))],
        placeholder=f"Compare {name} with which agent…",
    )
    app.open_overlay(palette)


def _why(fold: RunState, agent_id: str, other: AgentState) -> str:
    """A hit's help: how the other agent is related, and its status. Textual reads a hit's
    help as markup: a name's `[` prints as it is."""
    forked, theirs = fold.agents[agent_id].forked_from, other.forked_from
    if forked is not None and forked.session is None and forked.origin_id == other.id:
        why = f"its origin ({forked.origin}), {other.status}"
    elif theirs is not None and theirs.origin_id == agent_id:
        why = f"its fork (from {theirs.origin}), {other.status}"
    else:
        why = str(other.status)
    return escape(visible_controls(why))


def _agents_of(
    choices: list[tuple[str, str, str]], chosen: Callable[[str], None]
) -> type[Provider]:
    """A palette provider of the agents (id, name, why), in the order given."""

    class Agents(Provider):
        async def discover(self) -> Hits:
            for agent_id, name, why in choices:
                shown = Text(visible_controls(name))
                yield DiscoveryHit(shown, partial(chosen, agent_id), text=name, help=why)

        async def search(self, query: str) -> Hits:
            matcher = self.matcher(query)
            for agent_id, name, why in choices:
                score = matcher.match(name)
                if score > 0:
                    shown = marked(matcher, visible_controls(name))
                    yield Hit(score, shown, partial(chosen, agent_id), text=name, help=why)

    return Agents


def open_comparison(app: AgentUIApp, one: str, other: str, *, over: bool = False) -> None:
    """The comparison window of two agents of this run. `over`: pushed over the window that
    asked for it (the steps window), which esc then returns to."""
    from agentui.tui.app.screens.run_diff import ComparisonScreen

    fold = app.main.fold
    if fold is None or one not in fold.agents or other not in fold.agents:
        return
    left, right = left_and_right(fold, one, other)
    window = ComparisonScreen(
        fold.agents[left].name, fold.agents[right].name, left, right, partial(session_outline, app)
    )
    if over:
        app.push_screen(window)
    else:
        app.open_overlay(window)


async def session_outline(app: AgentUIApp) -> ReadOutline:
    """This session's outline, from its log once it holds what the screen has drawn; raises
    AgentUIError, in words, when there is no log to read here."""
    import anyio

    host = app.host
    if host.mode is Mode.ATTACHED:
        raise AgentUIError(
            "Attached: this session's log is on the server. There, `agentui diff "
            "last:AGENT last:AGENT` compares two of its agents."
        )
    if host.mode is Mode.REPLAY:
        raise AgentUIError(
            "A replay: `agentui diff SESSION:AGENT SESSION:AGENT` compares two of its agents."
        )
    from agentui.core.session.writer import SessionWriter  # loaded with the runtime

    writer = getattr(host.runtime, "session", None)
    if not isinstance(writer, SessionWriter):
        raise AgentUIError(
            "This run saves no session log (--no-session): there is nothing to compare from."
        )
    drawn = app.main.model.last_seq
    with anyio.move_on_after(WAIT_FOR_LOG_S):
        await writer.wait_written(drawn)
    path = writer.path
    if path is None:
        raise AgentUIError(writer.error or "Nothing of this session is saved yet.")
    outline = await anyio.to_thread.run_sync(_outline_of, path)
    if writer.error is not None:
        note = f"The session log stopped ({writer.error}): later steps are not compared."
    elif writer.written_seq < drawn:
        note = "The log is behind the screen: its latest steps may be missing here."
    else:
        note = ""
    return ReadOutline(outline, note)


def _outline_of(path: Path) -> RunOutline:
    """Read and outline the log (in a worker thread)."""
    from agentui.core.session.reader import read_session
    from agentui.core.session.run_outline import run_outline

    log = read_session(path)
    return run_outline(log.events, log.id)
