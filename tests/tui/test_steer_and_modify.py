"""Steering one running agent from the app, and a modify that says honestly what it did."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager

import anyio
import pytest
from textual import events
from textual.pilot import Pilot

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.protocol.events import TextDelta
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.screens.modify import ModifyScreen
from agentui.tui.app.widgets.blocks import SteerBlock
from agentui.tui.app.widgets.query_blocks import AnswerInput

from ..core.session_helpers import gate_tool
from .helpers import a1_is, app_when, kinds, provider_of, settle, toasts, write

pytestmark = pytest.mark.anyio

GATED = Script.for_all(Turn(tool_calls=[ScriptedToolCall(name="gate")]), Turn(text="after"))
HOLD = Script.for_all(Turn(text="one two three four five six seven", hang_after_chunks=2))


def steers(app, agent_id: str = "a1"):  # type: ignore[no-untyped-def]
    return [e for e in app.main.model.agents[agent_id].entries if e.kind == "steer"]


async def test_a_steer_reaches_the_next_model_call_and_says_when() -> None:
    release = anyio.Event()
    async with app_when(
        lambda app: (
            "tool" in [e.kind for e in app.main.model.agents.get("a1", None).entries]
            if "a1" in app.main.model.agents
            else False
        ),
        "gated",
        GATED,
        tools=[gate_tool(release)],
    ) as (app, pilot):
        await pilot.press("s", *"prefer trains", "enter")
        await settle(pilot, lambda: bool(steers(app)))
        (steer,) = steers(app)
        assert steer.detail.startswith("queued") and not steer.settled_ts
        assert app.main.model.agents["a1"].status is S.RUNNING, "not paused, not stopped"
        block = app.main.transcript_view._blocks[steer.uid]
        assert isinstance(block, SteerBlock)
        assert "you → main: prefer trains" in str(block.render())
        release.set()
        await settle(pilot, lambda: app.main.model.agents["a1"].status is S.COMPLETED)
        assert steer.detail.startswith("delivered") and steer.settled_ts
        assert "delivered with its next model call at" in str(block.render())
        second = provider_of(app).requests[1]
        assert any("prefer trains" in m.text for m in second.messages)


async def test_a_steer_while_the_agent_writes_shows_after_its_text_never_inside_a_word() -> None:
    async with app_when(lambda app: "text" in kinds(app, "a1"), "hold", HOLD) as (app, pilot):
        (answer,) = [e for e in app.main.model.agents["a1"].entries if e.kind == "text"]
        begun = answer.text
        await pilot.press("s", *"prefer trains", "enter")
        await settle(pilot, lambda: bool(steers(app)))
        assert app.host.runtime is not None
        # The rest of the answer streams after the steer (HOLD hangs: it is sent by hand).
        app.host.runtime.publish(TextDelta, "a1", iteration=answer.iteration, delta="-rest of it")
        await settle(pilot, lambda: answer.text.endswith("-rest of it"))
        blocks = list(app.main.transcript_view._blocks.values())  # in screen order
        assert [type(b).__name__ for b in blocks][1:] == ["AnswerBlock", "SteerBlock"]
        assert blocks[1].entry is answer and answer.text == f"{begun}-rest of it"
        assert "prefer trains" in str(blocks[2].render())


async def test_steering_an_ended_agent_offers_to_continue_it_instead() -> None:
    script = Script.for_all(Turn(text="first"), Turn(text="second"))
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        await pilot.press("s", *"also costs")
        assert app.host.runtime is not None
        app.host.runtime.cancel("a1")  # it ends while the person is still typing
        await settle(pilot, lambda: app.main.model.agents["a1"].status is S.CANCELLED)
        await pilot.press("enter")
        await pilot.pause()
        assert app.main.prompt_bar.mode.kind == "continue", "the words are kept, for a continue"
        assert app.main.prompt_view.value == "also costs"
        assert any("will read no more messages" in t for t in toasts(app))
        await pilot.press("enter")
        await settle(pilot, lambda: len(provider_of(app).requests) == 2)
        assert provider_of(app).requests[1].messages[-1].text == "also costs"
    del script


async def test_s_on_an_ended_agent_goes_straight_to_continue() -> None:
    async with app_when(a1_is(S.COMPLETED), "done", Script.for_all(Turn(text="x"))) as (
        app,
        pilot,
    ):
        app.main.tree_view.focus()
        await pilot.press("s")
        assert app.main.prompt_bar.mode.kind == "continue" and app.focused is app.main.prompt_view


def in_a_gated_tool(
    release: anyio.Event,
) -> AbstractAsyncContextManager[tuple[AgentUIApp, Pilot[int]]]:
    """The app once a1 runs a tool that waits for `release` (so a modify waits for its next
    model call)."""
    return app_when(
        lambda app: (
            "a1" in app.main.model.agents
            and "tool" in [e.kind for e in app.main.model.agents["a1"].entries]
        ),
        "old task",
        GATED,
        # Wide enough for a tree row to show a task's words (a narrow row shortens the task).
        size=(160, 30),
        tools=[gate_tool(release)],
    )


async def test_modify_shows_the_new_task_at_once_and_names_what_changed() -> None:
    release = anyio.Event()
    async with in_a_gated_tool(release) as (app, pilot):
        await pilot.press("m")
        assert isinstance(app.screen, ModifyScreen)
        editor = app.screen.query_one("#content")
        editor.load_text("a much better task")  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await settle(pilot, lambda: app.main.model.agents["a1"].task == "a much better task")
        assert "a much better task" in str(app.main.transcript_view.border_title)
        label = app.main.tree_view._agent_nodes["a1"].label
        assert "a much better" in str(label)
        notices = [e.text for e in app.main.model.agents["a1"].entries if e.kind == "notice"]
        assert notices == ["new task, from its next model call: a much better task"]
        release.set()
        await settle(pilot, lambda: app.main.model.agents["a1"].status is S.COMPLETED)
        assert not any("not used" in e.title for e in app.main.model.agents["a1"].entries)


async def test_reopening_modify_starts_from_the_edit_not_yet_read() -> None:
    release = anyio.Event()
    async with in_a_gated_tool(release) as (app, pilot):
        await pilot.press("m")
        assert isinstance(app.screen, ModifyScreen)
        app.screen.query_one("#instructions").load_text("Answer in Portuguese.")  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await settle(pilot, lambda: app.main.model.agents["a1"].pending_modification is not None)
        await pilot.press("m")  # before any model call has read it
        assert isinstance(app.screen, ModifyScreen)
        shown = app.screen.query_one("#instructions").text  # type: ignore[attr-defined]
        assert shown == "Answer in Portuguese."
        await pilot.press("escape")
        release.set()
        await settle(pilot, lambda: app.main.model.agents["a1"].status is S.COMPLETED)


async def test_a_modify_the_agent_never_reads_says_so_and_how_to_apply_it() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        assert app.host.runtime is not None
        app.host.runtime.modify("a1", content="new task")
        app.host.runtime.cancel("a1")
        await settle(pilot, lambda: app.main.model.agents["a1"].status is S.CANCELLED)
        (unused,) = [e for e in app.main.model.agents["a1"].entries if e.title == "not used"]
        # One sentence, "not used" said once (the title), and what r continues it with.
        said = f"{unused.title}: {unused.text}"
        assert (
            said
            == "not used: it ended before reading the new task; r continues it with the new task"
        )
        assert not any("modified: answered" in e.text for e in app.main.model.agents["a1"].entries)


async def test_a_multi_line_paste_and_ctrl_j_keep_their_lines() -> None:
    ask = Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which?"})])
    script = Script.for_all(ask, Turn(text="ok"))
    async with app_when(lambda app: bool(app.main.model.open_queries), "ask", script) as (
        app,
        pilot,
    ):
        box = app.focused
        assert isinstance(box, AnswerInput)
        app.post_message(events.Paste("first line\nsecond line"))  # as a terminal sends it
        await pilot.pause()
        await pilot.press("ctrl+j", *"third", "enter")
        await settle(pilot, lambda: not app.main.model.open_queries)
        question = next(e for e in app.main.model.agents["a1"].entries if e.kind == "question")
        assert question.detail == "first line\nsecond line\nthird"


async def test_a_100_kb_paste_arrives_whole() -> None:
    app_task = "x"
    async with app_when(a1_is(S.RUNNING), app_task, HOLD) as (app, pilot):
        app.main.prompt_view.focus()
        pasted = ("word " * 20 + "\n") * 1000  # 101,000 characters
        app.post_message(events.Paste(pasted))
        await pilot.pause()
        assert "[pasted text #1: 101,000 characters, 1,001 lines]" in app.main.prompt_view.text
        await pilot.press("ctrl+t", *" and go", "enter")  # as a new task beside main
        await settle(pilot, lambda: "a2" in app.main.model.agents)
        assert app.main.model.agents["a2"].task == (pasted + " and go").strip()


async def test_always_allowing_a_tool_shows_in_the_status_bar() -> None:
    from .test_approvals import pending_approval

    async with pending_approval() as (app, pilot, _runs):
        await pilot.press("2")
        await settle(pilot, lambda: app.main.model.agents["a1"].status is S.COMPLETED)
        assert "always allowed: deploy" in str(app.main.status_view.render())


async def test_a_long_paste_keeps_its_lines_and_its_marker_goes_whole() -> None:
    async with app_when(a1_is(S.RUNNING), "x", HOLD) as (app, pilot):
        app.main.prompt_view.focus()
        pasted = "line one\rline two\r" * 300  # a terminal's paste: CR between lines
        app.post_message(events.Paste(pasted))
        await pilot.pause()
        assert app.main.prompt_view.value == pasted.replace("\r", "\n")
        await pilot.press(*" ok", "backspace", "backspace", "backspace", "backspace")
        assert app.main.prompt_view.text == "", "the marker went whole, with its paste"
        assert app.main.prompt_view.value == ""


async def test_a_task_being_written_is_kept_while_the_prompt_steers_an_agent() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        app.main.prompt_view.focus()
        await pilot.press(*"draft about caching")
        await pilot.press("escape")  # back to the tree: the words stay in the prompt
        await pilot.press("s")  # steer main: the prompt points at it, empty
        await pilot.pause()
        assert app.main.prompt_bar.mode.kind == "steer" and app.main.prompt_view.text == ""
        await pilot.press("escape")  # no steer after all
        await pilot.pause()
        assert app.main.prompt_bar.mode.kind == "follow_up", "back to words for main's task"
        assert app.main.prompt_view.text == "draft about caching", "the task draft is back"


async def test_a_message_left_with_esc_comes_back_with_the_next_steer_to_that_agent() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        app.main.prompt_view.focus()
        await pilot.press(*"draft about caching", "escape")  # a task being written, kept
        await pilot.press("s", *"Use only recycled paper", "escape")
        await pilot.pause()
        assert app.main.prompt_bar.mode.kind == "follow_up"
        assert app.main.prompt_view.text == "draft about caching", "the task draft is back"
        assert any("message to main is kept" in t for t in toasts(app))
        app.screen.set_focus(app.main.tree_view)
        await pilot.press("s")
        await pilot.pause()
        assert app.main.prompt_bar.mode.kind == "steer"
        assert app.main.prompt_view.text == "Use only recycled paper", "the message is back"
        await pilot.press("enter")
        await settle(pilot, lambda: "steer" in kinds(app, "a1"))
        assert app.main.prompt_view.text == "draft about caching", "sent: not kept again"


async def test_a_message_left_with_ctrl_t_for_a_new_task_is_kept_as_after_esc() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        app.screen.set_focus(app.main.tree_view)
        await pilot.press("s")
        await write(pilot, "Use only recycled paper")
        await pilot.press("ctrl+t")  # a new task after all: the steer's words are not lost
        await pilot.pause()
        assert app.main.prompt_bar.mode.kind == "task" and app.main.prompt_view.text == ""
        # A steer's words come back with s (r would resume a paused main, bringing nothing).
        assert "Your message to main is kept: s on main brings it back." in toasts(app)
        app.screen.set_focus(app.main.tree_view)
        await pilot.press("s")
        await pilot.pause()
        assert app.main.prompt_view.text == "Use only recycled paper", "the message is back"
