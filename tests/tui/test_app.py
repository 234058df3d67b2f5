"""Every key of the app, driven with Pilot on scripted runs."""

from __future__ import annotations

import anyio
import pytest
from rich.console import Console
from textual.command import CommandPalette
from textual.widgets import Static, TextArea

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.tui.app.screens.confirm import ConfirmScreen
from agentui.tui.app.screens.help import HelpScreen
from agentui.tui.app.screens.main import MainScreen
from agentui.tui.app.screens.modify import ModifyScreen
from agentui.tui.app.widgets.blocks import AnswerBlock, EntryBlock
from agentui.tui.app.widgets.query_blocks import AnswerInput
from agentui.tui.app.widgets.transcript import Transcript

from ..core.session_helpers import gate_tool
from .helpers import (
    a1_is,
    app_when,
    has_status,
    kinds,
    make_app,
    provider_of,
    settle,
    toasts,
    write,
)

pytestmark = pytest.mark.anyio

HOLD = Script.for_all(Turn(text="one two three four five six seven", hang_after_chunks=2))
GATED = Script.for_all(
    Turn(tool_calls=[ScriptedToolCall(name="gate")]), Turn(text="after the gate")
)


async def test_a_task_typed_in_the_prompt_starts_a_root_agent() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        assert app.focused is app.main.prompt_view
        await pilot.press(*"Plan a party", "enter")
        await settle(pilot, lambda: "a1" in app.main.model.agents)
        assert app.main.model.agents["a1"].task == "Plan a party"
        assert app.main.selected_id == "a1"


async def test_n_starts_another_task_beside_the_first() -> None:
    async with app_when(a1_is(S.RUNNING), "first", HOLD) as (app, pilot):
        await pilot.press("n")
        assert app.focused is app.main.prompt_view
        await pilot.press(*"second", "enter")
        await settle(pilot, lambda: "a2" in app.main.model.agents)
        assert app.main.model.agents["a2"].parent_id is None
        assert app.main.selected_id == "a2"
        await pilot.pause()
        cursor = app.main.tree_view.cursor_node
        assert cursor is not None and cursor.data == "a2", "the highlight is what keys act on"


async def test_a_question_is_answered_inline_under_it() -> None:
    async with app_when(lambda app: bool(app.main.model.open_queries), "Plan a party") as (
        app,
        pilot,
    ):
        assert isinstance(app.focused, AnswerInput), "typing goes to the waiting question"
        assert app.main.model.agents["a1"].status is S.AWAITING_USER
        await pilot.press(*"cake", "enter")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        question = next(e for e in app.main.model.agents["a1"].entries if e.kind == "question")
        assert (question.open, question.detail) == (False, "cake")
        assert "cake" in app.main.model.agents["a1"].entries[-1].text


async def test_escape_in_the_answer_box_leaves_it_and_the_question_waits() -> None:
    """A question may take the cursor the moment before an esc meant for something else:
    esc only leaves the box; declining is final and takes an enter with nothing typed."""
    async with app_when(lambda app: bool(app.main.model.open_queries), "Plan a party") as (
        app,
        pilot,
    ):
        assert isinstance(app.focused, AnswerInput)
        await pilot.press("escape")
        assert app.focused is app.main.prompt_view, "to the prompt: never the tree's letters"
        assert app.main.model.open_queries and app.main.model.agents["a1"].status is S.AWAITING_USER
        await pilot.press("ctrl+n")  # back to the question that waits
        assert isinstance(app.focused, AnswerInput)
        await pilot.press("enter")  # nothing typed: declines
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        question = next(e for e in app.main.model.agents["a1"].entries if e.kind == "question")
        assert question.detail == "(declined by the person)"


async def test_enter_on_a_waiting_node_jumps_to_its_question() -> None:
    async with app_when(lambda app: bool(app.main.model.open_queries), "Plan a party") as (
        app,
        pilot,
    ):
        app.query_one("#tree").focus()
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.focused, AnswerInput)


async def test_ctrl_n_moves_between_questions_of_several_agents() -> None:
    async with app_when(lambda app: len(app.main.model.open_queries) == 1, "first") as (app, pilot):
        app.main.prompt_view.focus()
        await pilot.pause()
        await pilot.press("ctrl+t", *"second", "enter")  # a second task, on purpose
        await settle(pilot, lambda: len(app.main.model.open_queries) == 2)
        seen = set()
        for _ in range(2):
            await pilot.press("ctrl+n")
            await pilot.pause()
            assert isinstance(app.focused, AnswerInput)
            seen.add(app.focused.query_id)
        assert seen == set(app.main.model.open_queries)
        waiting = [a.id for a in app.main.model.agents.values() if a.status is S.AWAITING_USER]
        assert waiting == ["a1", "a2"]


async def test_pause_stops_the_agent_until_resume() -> None:
    release = anyio.Event()
    async with app_when(
        lambda app: "tool" in kinds(app, "a1"), "gated", GATED, tools=[gate_tool(release)]
    ) as (app, pilot):
        await pilot.press("p")
        await settle(pilot, has_status(app, "a1", S.PAUSED))
        release.set()  # the tool returns, but a paused agent emits nothing
        for _ in range(20):
            await pilot.pause()
        app.main.flush_events()
        tool = next(e for e in app.main.model.agents["a1"].entries if e.kind == "tool")
        assert tool.detail == "" and app.main.model.agents["a1"].status is S.PAUSED
        await pilot.press("r")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        assert tool.detail == "released"


async def test_space_toggles_pause_on_the_tree() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        await pilot.press("space")
        await settle(pilot, has_status(app, "a1", S.PAUSED))
        await pilot.press("space")
        await settle(pilot, has_status(app, "a1", S.RUNNING))


async def test_cancel_key_cancels_and_keeps_the_partial_text() -> None:
    async with app_when(lambda app: "text" in kinds(app, "a1"), "hold", HOLD) as (app, pilot):
        await pilot.press("c")
        await settle(pilot, has_status(app, "a1", S.CANCELLED))
        text = next(e for e in app.main.model.agents["a1"].entries if e.kind == "text")
        assert text.interrupted and "one two three four five six seven".startswith(text.text)


async def test_escape_twice_interrupts_the_selected_agent() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        await pilot.press("escape")  # once: it says what a second esc does, nothing more
        await pilot.pause()
        app.main.flush_events()
        assert app.main.model.agents["a1"].status is S.RUNNING
        assert any("esc again interrupts main" in t for t in toasts(app))
        await pilot.press("escape")
        await settle(pilot, has_status(app, "a1", S.CANCELLED))


async def test_delete_asks_first_and_keeps_the_agent_on_no() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmScreen)
        assert app.focused is not None and app.focused.id == "safe", "it opens on Keep"
        await pilot.press(*"yes delete it y", "enter")  # no letter confirms; enter keeps
        assert not isinstance(app.screen, ConfirmScreen)
        assert app.main.model.agents["a1"].status is S.RUNNING
        await pilot.press("d")
        await pilot.press("escape")
        assert app.main.model.agents["a1"].status is S.RUNNING
        await pilot.press("d", "tab", "enter")  # the deliberate way: to Delete, then enter
        await settle(pilot, has_status(app, "a1", S.DELETED))


async def test_modify_changes_the_next_request() -> None:
    release = anyio.Event()
    async with app_when(
        lambda app: "tool" in kinds(app, "a1"), "original task", GATED, tools=[gate_tool(release)]
    ) as (app, pilot):
        await pilot.press("m")
        assert isinstance(app.screen, ModifyScreen)
        app.screen.query_one("#content", TextArea).text = "the modified task"
        await pilot.press("ctrl+s")
        await settle(pilot, has_status(app, "a1", S.MODIFIED))
        release.set()
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        second = provider_of(app).requests[1]
        assert second.messages[0].content[0].text == "the modified task"  # type: ignore[union-attr]


async def test_modify_escape_discards() -> None:
    release = anyio.Event()
    async with app_when(
        lambda app: "tool" in kinds(app, "a1"), "original task", GATED, tools=[gate_tool(release)]
    ) as (app, pilot):
        await pilot.press("m")
        app.screen.query_one("#content", TextArea).text = "never applied"
        await pilot.press("escape")
        assert not isinstance(app.screen, ModifyScreen)
        release.set()
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        assert provider_of(app).requests[1].messages[0].text.startswith("original task")


async def test_modify_closed_with_escape_keeps_the_edits_for_the_next_m() -> None:
    """esc (or an escape sequence split on a slow link) does not throw the typing away: the
    next m opens it; esc again on it, unchanged, discards it."""
    release = anyio.Event()
    async with app_when(
        lambda app: "tool" in kinds(app, "a1"), "original task", GATED, tools=[gate_tool(release)]
    ) as (app, pilot):
        await pilot.press("m")
        app.screen.query_one("#content", TextArea).text = "a better task"
        await pilot.press("escape")
        assert not isinstance(app.screen, ModifyScreen)
        assert any("m opens your edits again" in t for t in toasts(app))
        assert "Modify edit you kept" in app.quit_dialog._question()
        await pilot.press("m")
        assert isinstance(app.screen, ModifyScreen)
        assert app.screen.query_one("#content", TextArea).text == "a better task"
        await pilot.press("escape")  # again, unchanged: discarded
        assert any("discarded" in t for t in toasts(app))
        await pilot.press("m")
        assert isinstance(app.screen, ModifyScreen)
        assert app.screen.query_one("#content", TextArea).text == "original task\n"
        await pilot.press("escape")
        release.set()
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        assert provider_of(app).requests[1].messages[0].text.startswith("original task")


async def test_keys_that_do_not_apply_are_refused() -> None:
    async with app_when(a1_is(S.COMPLETED), "done quickly", Script.for_all(Turn(text="done"))) as (
        app,
        pilot,
    ):
        assert app.check_action("pause", ()) is None
        assert app.check_action("cancel", ()) is None
        assert app.check_action("delete", ()) is True
        await pilot.press("p", "c")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))


async def test_a_shows_every_agent_interleaved_and_labelled() -> None:
    async with app_when(a1_is(S.RUNNING), "first", HOLD) as (app, pilot):
        await pilot.press("n", *"second", "enter")
        await settle(pilot, has_status(app, "a2", S.RUNNING))
        assert app.focused is app.main.prompt_view, "the cursor stays where the task was typed"
        app.main.tree_view.focus()
        await pilot.press("a")
        transcript = app.query_one(Transcript)
        assert transcript.source == "*"
        labels = {b.agent_label for b in transcript.query(EntryBlock)}
        assert labels == {"main", "main-2"}
        await pilot.press("a")
        assert transcript.source == app.main.selected_id


async def test_help_lists_the_keys_and_escape_closes_it() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        await pilot.press("f1")  # from the prompt, where the cursor starts
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        app.query_one("#tree").focus()
        await pilot.press("question_mark")  # on an empty tree, letters are words
        assert not isinstance(app.screen, HelpScreen) and app.main.prompt_view.text == "?"
        app.query_one("#transcript").focus()
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_the_help_window_scrolls_with_the_keys_as_it_opens() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        dialog = app.screen.query_one("#dialog")
        assert dialog.max_scroll_y > 0, "taller than the screen: this test needs it so"
        await pilot.press("pagedown")
        assert dialog.scroll_y > 0
        await pilot.press("end")
        assert dialog.scroll_y == dialog.max_scroll_y


async def test_theme_picker_switches_the_theme() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        assert app.theme == "agentui-dark"
        await pilot.press("t")
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"agentui-light")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.theme == "agentui-light"


async def test_quit_asks_while_agents_run_and_stay_keeps_them() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y", "q", "escape")  # letters answer nothing; esc stays
        assert not isinstance(app.screen, ConfirmScreen)
        assert app.is_running and app.main.model.agents["a1"].status is S.RUNNING
        runtime = app.host.runtime
        await pilot.press("ctrl+q", "ctrl+q")  # asked, then the deliberate second press
        await pilot.pause()
    assert app.return_code == 0
    assert runtime is not None and runtime.node("a1").status is S.CANCELLED


async def test_quit_without_running_agents_does_not_ask() -> None:
    async with app_when(a1_is(S.COMPLETED), "done", Script.for_all(Turn(text="x"))) as (
        app,
        pilot,
    ):
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


async def test_agent_text_that_looks_like_markup_prints_literally() -> None:
    async with app_when(
        a1_is(S.COMPLETED), "Markup", Script.for_all(Turn(text="use [bold]x[/] and [/]"))
    ) as (app, _pilot):
        tail = app.query_one(AnswerBlock).query_one(".answer-tail", Static)
        console = Console(record=True, width=60)
        console.print(tail.content)
        assert "use [bold]x[/] and [/]" in console.export_text()


async def test_the_command_palette_offers_the_agent_actions_that_apply() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, _pilot):
        titles = {command.title for command in app.get_system_commands(app.screen)}
        assert "Pause: Pause the selected agent" in titles
        assert not any(t.startswith("Resume:") for t in titles), "resume does not apply now"
        assert "Help: Show every key" in titles
        assert any(t.startswith("All agents:") for t in titles), "found by the footer's word"
        assert "Fold: Fold or unfold thinking and tool calls" in titles
        # Textual's own Quit, Theme and Keys would list them twice.
        assert not {"Quit", "Theme", "Keys"} & titles
        assert [t for t in titles if t.startswith("Quit")] == [
            "Quit: Quit (asks first while agents run or the prompt holds unsent words)"
        ]
        assert "Screenshot" in titles, "Textual's others stay"


async def test_r_continues_an_ended_agent_with_a_message() -> None:
    script = Script.for_all(Turn(text="first"), Turn(text="second"))
    async with app_when(a1_is(S.COMPLETED), "two parts", script) as (app, pilot):
        app.main.tree_view.focus()
        await pilot.pause()
        assert app.check_action("resume", ()) is True
        await pilot.press("r")
        assert app.focused is app.main.prompt_view
        assert "Message that continues main" in app.main.prompt_view.placeholder
        await pilot.press(*"and more", "enter")
        await settle(
            pilot,
            lambda: provider_of(app).requests[-1:] != [] and len(provider_of(app).requests) == 2,
        )
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        assert provider_of(app).requests[1].messages[-1].text == "and more"
        assert [e.text for e in app.main.model.agents["a1"].entries if e.kind == "text"] == [
            "first",
            "second",
        ]


async def test_r_with_an_empty_message_continues_where_it_stopped() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        await pilot.press("c")
        await settle(pilot, has_status(app, "a1", S.CANCELLED))
        await pilot.press("r", "enter")
        await settle(pilot, lambda: len(provider_of(app).requests) == 2)
        assert provider_of(app).requests[1].messages[-1].text == "Continue where you left off."


async def test_a_half_typed_answer_survives_switching_agents() -> None:
    async with app_when(lambda app: bool(app.main.model.open_queries), "first") as (app, pilot):
        await pilot.press(*"half an ans")
        app.main.prompt_view.focus()
        await pilot.press("ctrl+t", *"second", "enter")  # a second task, on purpose
        await settle(pilot, lambda: app.main.selected_id == "a2")
        app.main.tree_view.focus()
        await pilot.press("up")
        await settle(pilot, lambda: app.main.selected_id == "a1")
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert isinstance(app.focused, AnswerInput)
        assert app.focused.query_id in app.main.model.agents["a1"].open_queries
        assert app.focused.value == "half an ans"


async def test_quick_arrows_in_the_tree_settle_on_the_last_agent() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        for task in ("one", "two", "three"):
            app.host.runtime.start(task, parent_id="a1")  # type: ignore[union-attr]
        await settle(pilot, lambda: len(app.main.tree_view._agent_nodes) == 4)
        tree = app.main.tree_view
        tree.focus()
        await pilot.pause()
        # Keys faster than the app handles them: the highlights queue up behind each other.
        tree.action_cursor_down()
        tree.action_cursor_down()
        tree.action_cursor_down()
        tree.action_cursor_up()
        for _ in range(50):  # a ping-pong of highlights would still be going
            await pilot.pause()
        cursor = app.main.tree_view.cursor_node
        assert cursor is not None and cursor.data == "a3" == app.main.selected_id
        assert app.main.transcript_view.source == "a3"


async def test_delete_removes_the_agent_the_dialog_named() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        await pilot.press("n", *"second", "enter")
        await settle(pilot, has_status(app, "a2", S.RUNNING))
        app.main.tree_view.focus()
        await pilot.press("d")  # about a2, the selected one
        assert isinstance(app.screen, ConfirmScreen)
        app.main.select("a1")  # the selection moves while the dialog is open
        await pilot.press("tab", "enter")
        await settle(pilot, has_status(app, "a2", S.DELETED))
        assert app.main.model.agents["a1"].status is S.RUNNING


def _a_question_after_a_gate() -> tuple[anyio.Event, Script]:
    """A gate the test opens, then a question: it arrives while the test does something."""
    script = Script.for_all(
        Turn(tool_calls=[ScriptedToolCall(name="gate")]),
        Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which?"})]),
        Turn(text="done"),
    )
    return anyio.Event(), script


async def test_a_question_does_not_take_the_cursor_from_a_text_box_in_use() -> None:
    release, script = _a_question_after_a_gate()
    async with app_when(
        lambda app: "tool" in kinds(app, "a1"), "first", script, tools=[gate_tool(release)]
    ) as (app, pilot):
        app.main.prompt_view.focus()
        await pilot.press("ctrl+t", *"sec")  # the person is writing the next task
        release.set()
        await settle(pilot, lambda: bool(app.main.model.open_queries))
        assert app.focused is app.main.prompt_view, "the question waits; the words stay whole"
        assert toasts(app), "a notification says who waits (ctrl+n)"
        await pilot.press(*"ond", "enter")
        await settle(pilot, lambda: "a2" in app.main.model.agents)
        assert app.main.model.agents["a2"].task == "second"
        (question,) = [e for e in app.main.model.agents["a1"].entries if e.kind == "question"]
        assert question.open and question.detail == ""


async def test_a_waiting_toast_goes_once_its_question_is_settled_elsewhere() -> None:
    """ "main asks you something (ctrl+n)" is out of date once nobody waits: the question was
    answered on another screen, or its agent ended, as here."""
    release, script = _a_question_after_a_gate()
    async with app_when(
        lambda app: "tool" in kinds(app, "a1"), "first", script, tools=[gate_tool(release)]
    ) as (app, pilot):
        app.screen.set_focus(app.main.prompt_view)
        await pilot.press(*"sec")  # writing: the question will not take the cursor
        release.set()
        await settle(pilot, lambda: bool(app.main.model.open_queries))
        assert any("asks you something" in t for t in toasts(app))
        app.notify("Something else went wrong", severity="warning", timeout=60)
        assert app.host.runtime is not None
        app.host.runtime.cancel("a1", "cancelled elsewhere")
        await settle(pilot, lambda: not app.main.model.open_queries)
        await pilot.pause()
        said = toasts(app)
        assert not any("asks you something" in m for m in said)
        assert "Something else went wrong" in said, "other toasts stay"
        assert app.main.prompt_view.text == "sec", "the words being typed stay"


async def test_a_question_takes_the_cursor_right_after_a_task_typed_in_the_prompt() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        await pilot.press(*"Plan a family trip", "enter")
        await settle(pilot, lambda: bool(app.main.model.open_queries))
        assert isinstance(app.focused, AnswerInput), "the answer box has the cursor"
        await write(pilot, "daytime only, kids are 6 and 9")
        await pilot.press("enter")
        await settle(pilot, lambda: app.main.model.agents["a1"].status.is_final)
        assert app.main.model.agents["a1"].status is S.COMPLETED, "nothing was deleted or cancelled"
        question = next(e for e in app.main.model.agents["a1"].entries if e.kind == "question")
        assert question.detail == "daytime only, kids are 6 and 9"


async def test_words_typed_before_the_question_takes_the_cursor_are_its_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A loaded machine draws the question a moment before the cursor moves to it (that waits
    for the next refresh): a person typing as soon as they see it answers it, and nothing
    lands in the prompt."""
    monkeypatch.setattr(MainScreen, "_give_the_promised_cursor", lambda self, query_id: None)
    app = make_app()
    async with app.run_test() as pilot:
        await pilot.press(*"Plan a family trip", "enter")
        await settle(pilot, lambda: bool(app.main.model.open_queries))
        assert app.focused is app.main.prompt_view, "the refresh that moves the cursor is late"
        await pilot.press(*"daytime only, kids are 6 and 9")  # keys: where they go is the point
        assert isinstance(app.focused, AnswerInput)
        assert app.main.prompt_view.text == ""
        await pilot.press("enter")
        await settle(pilot, lambda: app.main.model.agents["a1"].status.is_final)
        question = next(e for e in app.main.model.agents["a1"].entries if e.kind == "question")
        assert question.detail == "daytime only, kids are 6 and 9"


async def test_a_narrow_terminal_gives_the_transcript_the_monologue_s_room() -> None:
    app = make_app("hold", HOLD)
    async with app.run_test(size=(70, 20)) as pilot:
        await settle(pilot, has_status(app, "a1", S.RUNNING))
        assert not app.main.monologue_view.display
        assert app.main.transcript_view.size.width >= 40
        await pilot.resize_terminal(110, 30)
        await pilot.pause()
        assert app.main.monologue_view.display


async def test_many_questions_at_once_make_one_notification() -> None:
    ask = Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which?"})])
    hold = Turn(text="one two three four five six seven", hang_after_chunks=2)
    script = Script(agents={"main": [hold], "*": [ask]})
    async with app_when(a1_is(S.RUNNING), "hold", script) as (app, pilot):
        assert app.host.runtime is not None
        for index in range(5):
            app.host.runtime.start(f"ask {index}", parent_id="a1")
        await settle(pilot, lambda: len(app.main.model.open_queries) == 5)
        # The five questions came in one or a few flushes: far fewer toasts than questions.
        assert 1 <= len(toasts(app)) < 5


async def test_deleting_a_finished_agent_does_not_speak_of_running_work() -> None:
    async with app_when(a1_is(S.COMPLETED), "done soon", Script.for_all(Turn(text="ok"))) as (
        app,
        pilot,
    ):
        app.main.tree_view.focus()
        await pilot.press("d")
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert dialog._question == "Delete main?"
        await pilot.press("escape")


async def test_events_that_arrive_while_the_app_closes_are_not_drawn() -> None:
    """A service (an MCP server retrying) may emit while the app shuts down: the flush
    timer's last tick finds no screen and draws nothing instead of failing."""
    from agentui.core.protocol.events import McpServerChanged

    app = make_app()
    async with app.run_test():
        pass
    late = McpServerChanged(seq=1, ts=0.0, agent_id="", server="docs", state="failed")

    class LateEvents:
        def drain(self) -> list[McpServerChanged]:
            return [late]

    app.host.events = LateEvents()  # type: ignore[assignment]
    app.main.flush_events()
