"""Every screen state in a snapshot (the first ones are in test_snapshots.py): dialogs and
pickers, approvals, statuses, folds, the prompt's modes, a click's dashed border, a toast, and
the screens of a replay, a resumed session and an attached screen. Frozen clocks, fixed ids,
the scripted model at pace 0, no blinking cursor (tests/tui/conftest.py)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from textual import events
from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.monologue.config import MonologueConfig
from agentui.core.protocol.events import Event
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.remote.client import RemoteClient
from agentui.core.remote.remote_runtime import RemoteProvider, RemoteRuntime
from agentui.core.runtime import Runtime
from agentui.core.session.reader import read_session
from agentui.core.session.recording import RecordingRuntime
from agentui.core.session.resume import plan_resume
from agentui.core.session.writer import NewSession, SessionWriter
from agentui.core.support.clock import FrozenClock
from agentui.core.tools import sandbox_mode
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.python import python_tool
from agentui.core.tools.registry import ToolRegistry
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.replay_feed import ReplayFeed
from agentui.tui.app.screens.confirm import ConfirmScreen
from agentui.tui.app.widgets.query_blocks import ApprovalBlock

from ..core.helpers import deploy_tool
from ..core.session_helpers import gate_tool, resumed_runtime
from ..remote.server_fixture import Served, served_runtime
from .helpers import has_status, make_app, runtime_of, settle
from .test_approvals import DEPLOY_TWICE
from .test_history_and_replay import SCRIPT as RECORDED_SCRIPT
from .test_snapshots import HOLD, SIZE, _spawn_children, _tree_app

GUARD_S = 60  # a safety net for the recordings and the server, never a measurement


def _app(pilot: Pilot[int]) -> AgentUIApp:
    assert isinstance(pilot.app, AgentUIApp)
    return pilot.app


def _holding_app() -> AgentUIApp:
    """main streams a little, then holds: a task that runs."""
    return make_app("Plan a product launch", Script(agents={"*": [HOLD]}))


async def _main_runs(pilot: Pilot[int]) -> AgentUIApp:
    app = _app(pilot)
    await settle(pilot, has_status(app, "a1", S.RUNNING))
    await settle(pilot, lambda: "text" in [e.kind for e in app.main.model.agents["a1"].entries])
    return app


async def _palette_filled(pilot: Pilot[int]) -> None:
    app = _app(pilot)
    await settle(pilot, lambda: isinstance(app.screen, CommandPalette))
    commands = app.screen.query_one(CommandList)
    await settle(pilot, lambda: commands.option_count > 0)


# -- dialogs and pickers ---------------------------------------------------------------------


def test_quit_confirmation(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        await _spawn_children(pilot)
        await pilot.press("ctrl+q")
        await settle(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))

    assert snap_compare(_tree_app(), run_before=run_before, terminal_size=SIZE)


def test_command_palette(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        await _spawn_children(pilot)
        await pilot.press("ctrl+p")
        await _palette_filled(pilot)

    assert snap_compare(_tree_app(), run_before=run_before, terminal_size=SIZE)


def test_theme_picker(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        app = await _main_runs(pilot)
        app.action_change_theme()  # `t` on the panes; the palette's "Change theme"
        await _palette_filled(pilot)

    assert snap_compare(_holding_app(), run_before=run_before, terminal_size=SIZE)


# -- approvals -------------------------------------------------------------------------------


def test_an_approvals_reason_box(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # The same picture with or without bwrap, as root or not.
    monkeypatch.setenv("AGENTUI_SANDBOX", "limited")
    monkeypatch.setattr(sandbox_mode, "_euid", lambda: 1000)
    code = "import shutil\nshutil.rmtree('/srv/data')"
    script = Script.for_all(
        Turn(tool_calls=[ScriptedToolCall(name="python", arguments={"code": code})])
    )
    app = make_app("Tidy the server", script, tools=[python_tool()])

    async def run_before(pilot: Pilot[int]) -> None:
        await settle(pilot, lambda: bool(app.main.model.open_queries))
        await settle(pilot, lambda: isinstance(app.focused, ApprovalBlock))
        await pilot.press("3")
        block = app.query_one(ApprovalBlock)
        assert block.reason is not None and block.reason.display
        block.reason.insert("Not on the live server: copy it first")
        await pilot.pause()

    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)


def test_always_allowed_in_the_status_bar(snap_compare: Any) -> None:
    runs: list[str] = []
    app = make_app("Ship it", DEPLOY_TWICE, tools=[deploy_tool(runs)])

    async def run_before(pilot: Pilot[int]) -> None:
        await settle(pilot, lambda: bool(app.main.model.open_queries))
        await settle(pilot, lambda: isinstance(app.focused, ApprovalBlock))
        await pilot.press("2")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        assert runs == ["prod", "prod"], "the second deploy was not asked about"

    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)


# -- the panes -------------------------------------------------------------------------------


def test_the_monologue_of_every_agent(snap_compare: Any) -> None:
    script = Script(
        agents={
            "main": [HOLD],
            "main.1": [Turn(text="Three venues near the river hold 200 people.")],
            "main.2": [Turn(text="Budget done: 1,200 EUR.")],
        }
    )
    app = make_app("Plan a product launch", script, monologue=MonologueConfig())

    def narrated() -> set[str]:
        return {agent_id for agent_id, e in app.main.model.narratives if e.metadata.is_final}

    async def run_before(pilot: Pilot[int]) -> None:
        runtime = await runtime_of(pilot)
        await settle(pilot, has_status(app, "a1", S.RUNNING))
        runtime.start("Find venues in Lisbon", parent_id="a1")
        runtime.start("Draft the budget", parent_id="a1")
        await settle(pilot, lambda: {"a2", "a3"} <= narrated())
        assert app.main.monologue_view.filter_agent is None, "every agent's narratives"

    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)


FOLDING = Script.for_all(
    Turn(
        thinking="The user wants the mean; the python tool can compute it exactly.",
        tool_calls=[ScriptedToolCall(name="echo", arguments={"text": "mean of 3, 5 and 8"})],
    ),
    Turn(text="The mean of 3, 5 and 8 is 16/3, about 5.33."),
)


def _folding_app() -> AgentUIApp:
    from ..core.session_helpers import echo_tool

    return make_app("Average 3, 5 and 8", FOLDING, tools=[echo_tool()])


async def _folding_done(pilot: Pilot[int]) -> AgentUIApp:
    app = _app(pilot)
    await settle(pilot, has_status(app, "a1", S.COMPLETED))
    app.main.tree_view.focus()
    await pilot.pause()
    return app


def test_folded_thinking_and_tool_blocks(snap_compare: Any) -> None:
    assert snap_compare(_folding_app(), run_before=_folding_done, terminal_size=SIZE)


def test_unfolded_thinking_and_tool_blocks(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        await _folding_done(pilot)
        await pilot.press("x")

    assert snap_compare(_folding_app(), run_before=run_before, terminal_size=SIZE)


# -- statuses --------------------------------------------------------------------------------


async def _recording_with_every_status() -> list[Event]:
    """A run cut where main runs, one subagent was cancelled, one was modified while a tool
    held it, and the newest was just created (pending: it has not begun)."""
    release = anyio.Event()
    script = Script(
        agents={
            "main": [HOLD],
            "main.1": [HOLD],
            "main.2": [
                Turn(tool_calls=[ScriptedToolCall(name="gate", arguments={})]),
                Turn(text="done"),
            ],
        }
    )
    registry = ToolRegistry([ASK_USER, gate_tool(release)])
    runtime = Runtime(ScriptedProvider(script, pace_s=0), tools=registry, clock=FrozenClock())
    with anyio.fail_after(GUARD_S):
        async with runtime:
            events = runtime.subscribe(maxsize=None)
            root = runtime.start("Plan a product launch")
            cancelled = runtime.start("Find venues in Lisbon", parent_id=root)
            modified = runtime.start("Draft the budget", parent_id=root)
            while (
                runtime.node(modified).status is not S.RUNNING
                or not runtime.node(modified).conversation.messages[-1].tool_uses
            ):
                await anyio.sleep(0)
            runtime.cancel(cancelled)
            while runtime.node(cancelled).status is not S.CANCELLED:
                await anyio.sleep(0)
            runtime.modify(modified, content="Draft the budget, under 2,000 EUR")
            while runtime.node(modified).status is not S.MODIFIED:
                await anyio.sleep(0)
            runtime.start("Write the invitations", parent_id=root)
            recorded = events.drain()  # before the new agent's task begins: it is pending
            release.set()
            runtime.cancel(root)
    return recorded


def test_pending_cancelled_and_modified_agents(snap_compare: Any) -> None:
    recorded = anyio.run(_recording_with_every_status)
    app = AgentUIApp(
        replay=ReplayFeed(recorded, speed=1000.0), clock=FrozenClock(), remember_theme=False
    )

    async def run_before(pilot: Pilot[int]) -> None:
        await settle(pilot, lambda: app.host.done)
        statuses = [a.status for a in app.main.model.agents.values()]
        assert statuses == [S.RUNNING, S.CANCELLED, S.MODIFIED, S.PENDING]
        app.main.tree_view.focus()
        await pilot.pause()

    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)


# -- the prompt ------------------------------------------------------------------------------


def test_the_prompt_follows_up_the_task_that_runs(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        app = await _main_runs(pilot)
        app.main.prompt_view.focus()
        app.main.prompt_view.insert("Focus on small teams.")
        await pilot.pause()
        assert app.main.prompt_bar.mode.kind == "follow_up"

    assert snap_compare(_holding_app(), run_before=run_before, terminal_size=SIZE)


def test_the_prompt_for_a_new_task_beside_it(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        app = await _main_runs(pilot)
        app.main.prompt_view.focus()
        await pilot.press("ctrl+t")
        app.main.prompt_view.insert("Book the venue")
        await pilot.pause()
        assert app.main.prompt_bar.mode.kind == "task" and app.main.prompt_bar.mode.chosen

    assert snap_compare(_holding_app(), run_before=run_before, terminal_size=SIZE)


def test_a_pasted_text_marker(snap_compare: Any) -> None:
    # Longer than PASTE_FOLD_CHARS: the box shows one marker for it.
    pasted = "\n".join(f"line {n}: the quarterly figures, region by region" for n in range(120))

    async def run_before(pilot: Pilot[int]) -> None:
        app = _app(pilot)
        await runtime_of(pilot)  # the status bar names the model from then on
        app.main.prompt_view.focus()
        app.main.prompt_view.insert("Summarise this: ")
        app.post_message(events.Paste(pasted))  # as a terminal sends it
        await settle(pilot, lambda: "[pasted text #1" in app.main.prompt_view.text)

    assert snap_compare(make_app(), run_before=run_before, terminal_size=SIZE)


# -- a click, a toast ------------------------------------------------------------------------


def test_a_pane_focused_by_a_click_has_a_dashed_border(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        app = await _main_runs(pilot)
        await pilot.click(app.main.transcript_view, offset=(5, 3))
        assert app.keeper.reading and app.focused is app.main.transcript_view
        await pilot.pause()

    assert snap_compare(_holding_app(), run_before=run_before, terminal_size=SIZE)


def test_a_toast(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The one snapshot that keeps a toast: ctrl+c's hint, which stays for the picture (a
    toast goes on the wall clock: here it lasts an hour)."""
    monkeypatch.setattr(AgentUIApp, "NOTIFICATION_TIMEOUT", 3600.0)

    async def run_before(pilot: Pilot[int]) -> None:
        app = await _main_runs(pilot)
        await pilot.press("ctrl+c")
        await settle(pilot, lambda: bool(app.query("Toast")))

    app = _holding_app()
    assert snap_compare(app, run_before=run_before, terminal_size=SIZE, keep_toasts=True)


# -- other sources of a run: a replay, a resumed session, a server ---------------------------


async def _recorded_run() -> list[Event]:
    runtime = Runtime(ScriptedProvider(RECORDED_SCRIPT, pace_s=0), clock=FrozenClock())
    with anyio.fail_after(GUARD_S):
        async with runtime:
            events = runtime.subscribe(maxsize=None)
            root = runtime.start("What is the answer?")
            runtime.start("Check the maths", parent_id=root)
            await runtime.wait(root)
            await runtime.wait("a2")
    return events.drain()


def test_a_replay(snap_compare: Any) -> None:
    recorded = anyio.run(_recorded_run)
    app = AgentUIApp(
        replay=ReplayFeed(recorded, speed=1000.0), clock=FrozenClock(), remember_theme=False
    )

    async def run_before(pilot: Pilot[int]) -> None:
        await settle(pilot, lambda: app.host.done)

    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)


SESSION_ID = "20260101T000000Z-5a5e"


async def _session_cut_mid_answer(directory: Path) -> Path:
    """A session that ended (a crash) while main and its subagent were both streaming:
    resumed, both come back interrupted. Both hold after three chunks, so the file copied
    holds the same events however its writer's flushes fell."""
    script = Script(
        agents={
            "main": [HOLD],
            "main.1": [Turn(text="Looking at venues near the river.", hang_after_chunks=3)],
        }
    )
    writer = SessionWriter(
        NewSession(
            provider="scripted", model="scripted-1", directory=directory, session_id=SESSION_ID
        ),
        flush_interval_s=0.01,
    )
    runtime = RecordingRuntime(
        ScriptedProvider(script, pace_s=0), session=writer, clock=FrozenClock()
    )

    def deltas(seen: list[Event], agent_id: str) -> int:
        return sum(1 for e in seen if e.type == "text:delta" and e.agent_id == agent_id)

    with anyio.fail_after(GUARD_S):
        async with runtime:
            events = runtime.subscribe(maxsize=None)
            root = runtime.start("Plan a product launch")
            child = runtime.start("Find venues in Lisbon", parent_id=root)
            seen: list[Event] = []
            while deltas(seen, root) < 3 or deltas(seen, child) < 3:
                seen.append(await events.get())
            await writer.wait_written(seen[-1].seq)
            crashed = directory / "crashed" / f"{SESSION_ID}.jsonl"
            crashed.parent.mkdir()
            assert writer.path is not None
            crashed.write_bytes(writer.path.read_bytes())
            runtime.cancel(root)
    return crashed


def test_a_resumed_session(snap_compare: Any, tmp_path: Path) -> None:
    plan = plan_resume(read_session(anyio.run(_session_cut_mid_answer, tmp_path)))
    assert plan.interrupted == ["a1", "a2"]

    app = AgentUIApp(
        lambda: resumed_runtime(plan, None),  # as `agentui --resume` builds it
        state=plan.state,
        notice=f"resumed {plan.log.id}: 2 interrupted agents",
        clock=FrozenClock(),
        remember_theme=False,
        monologue=MonologueConfig(enabled=False),
    )

    async def run_before(pilot: Pilot[int]) -> None:
        await runtime_of(pilot)
        await settle(pilot, lambda: app.main.selected_id is not None)

    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)


@contextmanager
def _server_in_a_thread(script: Script) -> Iterator[Served]:
    """A real `agentui serve` server on 127.0.0.1 in its own thread and loop (the snapshot
    runs the app in a loop of its own), until the block ends."""
    ready: list[Served] = []
    started, stop = threading.Event(), threading.Event()

    async def serve() -> None:
        async with served_runtime(script=script) as server:
            ready.append(server)
            started.set()
            await anyio.to_thread.run_sync(stop.wait)  # serving meanwhile

    thread = threading.Thread(target=lambda: asyncio.run(serve()), daemon=True)
    thread.start()
    try:
        assert started.wait(GUARD_S), "the server did not start"
        yield ready[0]
    finally:
        stop.set()
        thread.join(GUARD_S)


def test_an_attached_screen(snap_compare: Any) -> None:
    script = Script(agents={"main": [Turn(text="Hello from the server: the plan is ready.")]})
    with _server_in_a_thread(script) as server:

        def runtime() -> RemoteRuntime:
            remote = RemoteRuntime(
                RemoteClient(server.base_url, server.token),
                RemoteProvider("scripted", "scripted-1"),
                first_retry_s=0.01,
            )
            remote.host = "127.0.0.1:8765"  # the port is the system's choice: a fixed name
            return remote

        app = AgentUIApp(
            runtime,  # type: ignore[arg-type]
            attached_to="http://127.0.0.1:8765",
            clock=FrozenClock(),
            remember_theme=False,
            monologue=MonologueConfig(enabled=False),
        )

        async def run_before(pilot: Pilot[int]) -> None:
            await settle(pilot, lambda: app.host.started and app.host.runtime.connected)  # type: ignore[union-attr]
            assert app.host.runtime is not None
            app.host.runtime.start("Say hello")
            await settle(pilot, has_status(app, "a1", S.COMPLETED))
            app.main.tree_view.focus()
            await pilot.pause()

        assert snap_compare(app, run_before=run_before, terminal_size=SIZE)
