"""Screens as SVG snapshots: frozen clock, fixed ids, zero-delay scripted streams, no blink
(tests/tui/conftest.py's snap_compare); more screen states in test_screen_states.py."""

from __future__ import annotations

import random
import zlib
from itertools import islice
from typing import Any

import pytest
from textual.pilot import Pilot

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.monologue.config import MonologueConfig
from agentui.core.providers.scripted.script import Script, ScriptedError, ScriptedToolCall, Turn
from agentui.core.scene.scene_run import start_scene
from agentui.core.tools import sandbox_mode
from agentui.core.tools.python import python_tool
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.screens.help import HelpScreen
from agentui.tui.app.screens.modify import ModifyScreen
from agentui.tui.app.screens.scene_state import SceneStateScreen

from ..core.scene_helpers import acting, decision, harbour
from .helpers import has_status, make_app, provider_of, runtime_of, settle, write

SIZE = (110, 30)


HOLD = Turn(text="Working through the first part of the plan now.", hang_after_chunks=3)


def test_start_screen(snap_compare: Any) -> None:
    # Once the runtime has started: the status bar names the model from then on.
    assert snap_compare(make_app(), run_before=runtime_of, terminal_size=SIZE)


def _tree_app() -> AgentUIApp:
    script = Script(agents={"*": [HOLD], "main.2": [Turn(text="Budget done: 1,200 EUR.")]})
    return make_app("Plan a product launch", script)


async def _spawn_children(pilot: Pilot[int]) -> None:
    app = pilot.app
    runtime = await runtime_of(pilot)
    await settle(pilot, has_status(app, "a1", S.RUNNING))
    for task in ("Find venues in Lisbon", "Draft the budget", "Write the invitations"):
        runtime.start(task, parent_id="a1")
    runtime.start("Compare catering offers", parent_id="a2")
    await settle(pilot, has_status(app, "a3", S.COMPLETED))
    runtime.pause("a4")
    await settle(pilot, has_status(app, "a4", S.PAUSED))
    await settle(pilot, lambda: "text" in [e.kind for e in app.main.model.agents["a1"].entries])


def test_running_tree_with_subagents(snap_compare: Any) -> None:
    assert snap_compare(_tree_app(), run_before=_spawn_children, terminal_size=SIZE)


def test_all_agents_transcript(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        await _spawn_children(pilot)
        await pilot.press("a")

    assert snap_compare(_tree_app(), run_before=run_before, terminal_size=SIZE)


def _asking_app() -> AgentUIApp:
    return make_app("Plan a birthday party")


async def _until_question(pilot: Pilot[int]) -> None:
    app = pilot.app
    assert isinstance(app, AgentUIApp)
    await settle(pilot, lambda: bool(app.main.model.open_queries))


def test_pending_inline_question(snap_compare: Any) -> None:
    assert snap_compare(_asking_app(), run_before=_until_question, terminal_size=SIZE)


def test_pending_tool_approval(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # The same picture with or without bubblewrap on the machine: the limited line shows.
    monkeypatch.setenv("AGENTUI_SANDBOX", "limited")
    monkeypatch.setattr(sandbox_mode, "_euid", lambda: 1000)  # and as root or not
    code = "import statistics\nprint(statistics.mean([3, 5, 8]))"
    script = Script.for_all(
        Turn(tool_calls=[ScriptedToolCall(name="python", arguments={"code": code})])
    )
    app = make_app("Average the scores", script, tools=[python_tool()])
    assert snap_compare(app, run_before=_until_question, terminal_size=SIZE)


def test_continue_an_ended_agent_with_r(snap_compare: Any) -> None:
    app = make_app("Summarise the report", Script.for_all(Turn(text="A short summary.")))

    async def run_before(pilot: Pilot[int]) -> None:
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        app.main.tree_view.focus()
        await pilot.press("r")

    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)


async def _open_modify(pilot: Pilot[int]) -> None:
    # No question waits on screen: a letter typed then would go into its answer box.
    await _spawn_children(pilot)
    pilot.app.screen.set_focus(pilot.app.query_one("#tree"))  # now, not at the next idle
    await pilot.press("m")
    assert isinstance(pilot.app.screen, ModifyScreen)


def test_modify_modal(snap_compare: Any) -> None:
    assert snap_compare(_tree_app(), run_before=_open_modify, terminal_size=SIZE)


def test_modify_modal_in_a_small_terminal(snap_compare: Any) -> None:
    """At 80x24 the instructions and the task each show several lines."""
    assert snap_compare(_tree_app(), run_before=_open_modify, terminal_size=(80, 24))


def test_delete_confirm(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        await _spawn_children(pilot)
        pilot.app.query_one("#tree").focus()
        await pilot.press("d")

    assert snap_compare(_tree_app(), run_before=run_before, terminal_size=SIZE)


def test_help_screen(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        # The status bar names the model once the runtime has started: wait for it, or the
        # picture depends on which came first.
        await runtime_of(pilot)
        # f1 from the start screen (the cursor in the prompt, where ? is a character).
        await pilot.press("f1")
        assert isinstance(pilot.app.screen, HelpScreen)

    assert snap_compare(make_app(), run_before=run_before, terminal_size=SIZE)


@pytest.mark.parametrize("theme", ["agentui-dark", "agentui-light", "agentui-high-contrast"])
def test_each_shipped_theme(snap_compare: Any, theme: str) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        await _spawn_children(pilot)
        pilot.app.theme = theme
        await pilot.pause()

    assert snap_compare(_tree_app(), run_before=run_before, terminal_size=SIZE)


def test_error_node(snap_compare: Any) -> None:
    script = Script.for_all(
        Turn(
            text="Starting on it",
            error=ScriptedError(message="the model is overloaded", after_chunks=2),
        )
    )
    app = make_app("Summarise the report", script)

    async def run_before(pilot: Pilot[int]) -> None:
        await settle(pilot, has_status(app, "a1", S.ERROR))

    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)


def _at_the_end(app: AgentUIApp) -> Any:
    """The transcript as drawn shows its end (what a following view shows), not only the
    state behind it."""
    view = app.main.transcript_view
    return lambda: view.max_scroll_y == 0 or (view.is_anchored and view.is_vertical_scroll_end)


def test_completed_run_at_80_by_24(snap_compare: Any) -> None:
    app = _asking_app()

    async def run_before(pilot: Pilot[int]) -> None:
        await _until_question(pilot)
        await pilot.press(*"cake", "enter")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        await settle(pilot, _at_the_end(app))

    assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))


def test_answer_box_has_the_cursor_after_a_task_typed_in_the_prompt(snap_compare: Any) -> None:
    app = make_app()

    async def run_before(pilot: Pilot[int]) -> None:
        await pilot.press(*"Plan a birthday party", "enter")
        await _until_question(pilot)
        await pilot.press(*"Saturday, ")

    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)


def test_steer_box(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        await _spawn_children(pilot)
        pilot.app.query_one("#tree").focus()
        await pilot.press("s", *"Keep the budget under 2,000 EUR")

    assert snap_compare(_tree_app(), run_before=run_before, terminal_size=SIZE)


def test_a_steered_message_in_the_transcript(snap_compare: Any) -> None:
    app = _tree_app()

    async def run_before(pilot: Pilot[int]) -> None:
        await _spawn_children(pilot)
        app.main.tree_view.focus()
        await pilot.press("s", *"Keep the budget under 2,000 EUR", "enter")
        await settle(
            pilot, lambda: "steer" in [e.kind for e in app.main.model.agents["a1"].entries]
        )
        await settle(pilot, _at_the_end(app))

    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)


def test_footer_at_80_by_24_keeps_help_and_quit(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        app = pilot.app
        assert isinstance(app, AgentUIApp)
        await settle(pilot, has_status(app, "a1", S.RUNNING))
        app.main.tree_view.focus()
        await pilot.pause()

    app = make_app("Plan a product launch", Script(agents={"*": [HOLD]}))
    assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))


def test_monologue_sidebar_with_narratives(snap_compare: Any) -> None:
    app = make_app("Plan a birthday party", monologue=MonologueConfig())

    async def run_before(pilot: Pilot[int]) -> None:
        await _until_question(pilot)
        await pilot.press(*"cake", "enter")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        await settle(pilot, lambda: any(e.metadata.is_final for _, e in app.main.model.narratives))

    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)


def _shown_text(agent: Any) -> str:
    return "".join(e.text for e in agent.entries if e.kind == "text")


def _before_the_hang(app: AgentUIApp, agent_id: str, turn: Turn) -> str:
    """What the scripted model streams of `turn` for this agent before it hangs: its chunks
    are cut by a generator seeded by the agent and the call (ScriptedProvider._stream)."""
    provider = provider_of(app)
    request = next((r for r in reversed(provider.requests) if r.agent_id == agent_id), None)
    if request is None or turn.hang_after_chunks is None:
        return "\0"  # not asked yet: nothing matches
    seed = zlib.crc32(f"{provider.seed}:{request.agent_id}:{request.iteration}".encode())
    rng = random.Random(seed)
    for _ in provider._chunks(turn.thinking, rng):  # thinking draws first
        pass
    return "".join(islice(provider._chunks(turn.text, rng), turn.hang_after_chunks))


def _scene_app(mara: Turn) -> AgentUIApp:
    """The harbour scene (tests/core/scene_helpers.py) on a script: the director has Tomas
    act, then Mara; Mara plays `mara`."""
    scene = harbour()
    script = Script(
        agents={
            "round-1.director": [
                Turn(
                    text=decision(
                        acting_characters=acting("Tomas", "Mara"),
                        state_updates=[{"name": "Mara", "mood": "wary"}],
                        world_updates=[{"key": "tide", "value": "turning"}],
                        open_guidance="Keep it short; the harbour closes at six.",
                    )
                )
            ],
            "round-1.Tomas": [
                Turn(text="*Tomas holds up a cod and smiles.* “Fresh today, and cheap.”")
            ],
            "round-1.Mara": [mara],
        }
    )
    return make_app(script=script, start_with=lambda runtime: start_scene(runtime, scene))


async def _first_round_asked(pilot: Pilot[int]) -> AgentUIApp:
    app = pilot.app
    assert isinstance(app, AgentUIApp)
    await settle(pilot, lambda: bool(app.main.model.open_queries))
    await write(pilot, "Tomas, sell me a fish.")
    await pilot.press("enter")
    return app


def test_a_scene_mid_round(snap_compare: Any) -> None:
    mara = Turn(
        text="*Mara folds her arms.* “The harbour closes at six, Tomas.”", hang_after_chunks=3
    )

    async def run_before(pilot: Pilot[int]) -> None:
        app = await _first_round_asked(pilot)
        # Every chunk Mara sends before her stream hangs, on screen (a picture taken after the
        # first of them, on a busy machine, showed less of her line).
        await settle(
            pilot,
            lambda: any(
                a.name == "round-1.Mara" and _shown_text(a) == _before_the_hang(app, a.id, mara)
                for a in app.main.model.agents.values()
            ),
            turns=5000,
        )
        round_one = next(a for a in app.main.model.agents.values() if a.name == "round-1")
        app.main.select(round_one.id)
        await pilot.pause()

    assert snap_compare(_scene_app(mara), run_before=run_before, terminal_size=SIZE)


def test_the_scene_state_view(snap_compare: Any) -> None:
    mara = Turn(text="*Mara folds her arms and walks to the office.* “I'll close the gates.”")

    async def run_before(pilot: Pilot[int]) -> None:
        app = await _first_round_asked(pilot)
        await settle(
            pilot,
            lambda: (
                len(app.main.model.open_queries) == 1 and "q1" not in app.main.model.open_queries
            ),
            turns=5000,
        )
        await pilot.press("f2")
        await settle(pilot, lambda: isinstance(app.screen, SceneStateScreen))

    assert snap_compare(_scene_app(mara), run_before=run_before, terminal_size=SIZE)


def test_a_transcript_search_with_matches(snap_compare: Any) -> None:
    """`/` on the tree, `zebra` typed: every match marked, the task's, the answer's two and the
    folded thinking's; up twice goes to the thinking's, which unfolds to show it."""
    script = Script.for_all(
        Turn(thinking="Zebras first, then the rest.", text="A zebra is striped.\n\nZEBRA again.")
    )

    async def run_before(pilot: Pilot[int]) -> None:
        app = pilot.app
        assert isinstance(app, AgentUIApp)
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        app.screen.set_focus(app.query_one("#tree"))
        await pilot.press("slash")
        await write(pilot, "zebra")
        await pilot.press("up", "up")

    assert snap_compare(
        make_app("Tell me about zebras", script), run_before=run_before, terminal_size=SIZE
    )
