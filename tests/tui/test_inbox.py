"""The inbox in the app: f4 (anywhere), i (on the panes) or the palette open it; it lists
every row, what unblocks most first, and each is acted on from its row (answer, answer all of
a grouped question, approve, raise a budget, continue once), through the runtime's port; the
status bar counts the rows; a stalled agent nudges like a question. Typing there is words."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette
from textual.widgets import Input, Select, Static

from agentui.core.agent.budget import Budget
from agentui.core.agent.tree import AgentStatus as S
from agentui.core.config.sources import ConfigError
from agentui.core.protocol import events as ev
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.state.agent_state import AgentState
from agentui.tui.app.keymap import key_map_for
from agentui.tui.app.nudges import BELL, Waiting
from agentui.tui.app.screens.budget import BudgetScreen
from agentui.tui.app.screens.inbox import EMPTY, InboxScreen
from agentui.tui.app.widgets.inbox_actions import InboxBox
from agentui.tui.app.widgets.inbox_rows import InboxList

from .helpers import app_when, has_status, make_app, runtime_of, settle, write
from .inbox_helpers import (
    ASK_CITY,
    HOLD,
    ORDER,
    actions_of,
    every_kind,
    highlight,
    mixed_app,
    open_inbox,
)
from .test_budget import budget_app, stopped
from .test_provider_switch import searched
from .test_scene_app import scene_app

pytestmark = pytest.mark.anyio

HOLDING = Script.for_all(Turn(text="one two three four five", hang_after_chunks=2))
# Every command letter of the tree (p r s c d m n a f x t q i), y, digits, space and punctuation.
SENTENCE = "yes: pause, resume, steer? cancel! delete, modify; next fix tax quota inbox 1 2 3"


def statuses(app: object) -> dict[str, S]:
    return {a.id: a.status for a in app.main.model.agents.values()}  # type: ignore[attr-defined]


async def test_f4_opens_an_empty_inbox_that_says_so_and_closes_it_again() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        await runtime_of(pilot)
        screen = await open_inbox(pilot)
        assert screen.query_one("#empty").display
        assert EMPTY in str(screen.query_one("#empty").render())
        assert not screen.query_one(InboxList).display
        assert not app.check_action("key", ("inbox_waiting",)), "not in the footer while empty"
        await pilot.press("f4")
        await settle(pilot, lambda: app.screen is app.main)


async def test_i_on_the_panes_and_the_palette_open_it() -> None:
    async with app_when(lambda app: has_status(app, "a1", S.RUNNING)(), "Plan", HOLDING) as (
        app,
        pilot,
    ):
        assert app.focused is app.main.tree_view
        await pilot.press("i")
        await settle(pilot, lambda: isinstance(app.screen, InboxScreen))
        await pilot.press("escape")
        await settle(pilot, lambda: app.screen is app.main)
        await pilot.press("ctrl+p")
        await settle(pilot, lambda: isinstance(app.screen, CommandPalette))
        palette = app.screen
        await pilot.press(*"Inbox")
        await settle(pilot, lambda: searched(palette, "Inbox"))  # enter chooses its first hit
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, InboxScreen))


async def test_rows_in_order_counted_in_the_status_bar_and_in_the_footer() -> None:
    app = mixed_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await every_kind(pilot)
        assert [row.kind for row in app.inbox.rows] == [
            "stalled",
            "question",
            "approval",
            "steer",
            "budget",
        ]
        assert [row.waiting for row in app.inbox.rows] == [6, 2, 1, 1, 1]
        await settle(pilot, lambda: "inbox 5" in app.main.status_view.render().plain)
        assert app.check_action("key", ("inbox_waiting",)), "f4 is in the footer"
        screen = await open_inbox(pilot)
        assert screen.query_one(InboxList)._ids == ORDER
        prompts = [str(o.prompt) for o in screen.query_one(InboxList)._options]
        assert prompts[1].startswith("question ×2 3m00s  blocks 2 agents  main › main.1")
        assert "Which city? (asked by 2: main.1, main.2)" in prompts[1]
        assert 'deploy {"target": "prod"}' in prompts[2]
        assert "not read yet: Use metric units" in prompts[3]
        assert "tokens: 1,600 of 1,000" in prompts[4]


async def test_a_question_is_answered_from_its_row() -> None:
    async with app_when(lambda app: bool(app.main.model.open_queries), "Plan a party") as (
        app,
        pilot,
    ):
        screen = await open_inbox(pilot)
        await pilot.press("enter")  # into the row's answer box
        assert isinstance(app.focused, InboxBox)
        await write(pilot, "Keep it small")
        await pilot.press("enter")
        await settle(pilot, lambda: not app.main.model.open_queries)
        answers = [e.detail for e in app.main.model.agents["a1"].entries if e.kind == "question"]
        assert answers == ["Keep it small"]
        await settle(pilot, lambda: screen.query_one("#empty").display)
        assert app.screen is screen, "answered without leaving the inbox"


async def test_a_question_asked_by_two_siblings_is_answered_for_both_or_for_one() -> None:
    app = mixed_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await every_kind(pilot)
        screen = await open_inbox(pilot)
        highlight(screen, "q1")
        await pilot.pause()
        target = actions_of(screen).query_one("#target", Select)
        assert target.value == "all"
        target.value = "q2"  # only main.2
        await pilot.press("enter")  # into its answer box
        await write(pilot, "Porto")
        await pilot.press("enter")
        await settle(pilot, lambda: "q2" not in app.main.model.open_queries)
        assert "q1" in app.main.model.open_queries, "main.1 still waits"
        # Now main.1's own row: answered with the words it gets.
        await settle(pilot, lambda: "q1" in screen.query_one(InboxList)._ids)
        highlight(screen, "q1")
        await pilot.pause()
        await pilot.press("enter")  # into its answer box
        await write(pilot, "Lisbon")
        await pilot.press("enter")
        await settle(pilot, lambda: "q1" not in app.main.model.open_queries)


async def test_a_grouped_question_answered_for_all_answers_every_asker() -> None:
    app = mixed_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await every_kind(pilot)
        screen = await open_inbox(pilot)
        highlight(screen, "q1")
        await pilot.pause()
        await pilot.press("enter")  # into its answer box
        await write(pilot, "Lisbon")
        await pilot.press("enter")
        model = app.main.model
        await settle(pilot, lambda: not {"q1", "q2"} & set(model.open_queries))
        for agent_id in ("a2", "a3"):
            asked = [e for e in model.agents[agent_id].entries if e.kind == "question"]
            assert [e.detail for e in asked] == ["Lisbon"]


async def test_an_approval_is_allowed_from_its_row_with_its_digit() -> None:
    runs: list[str] = []
    app = mixed_app(runs)
    async with app.run_test(size=(120, 40)) as pilot:
        await every_kind(pilot)
        screen = await open_inbox(pilot)
        highlight(screen, "q3")
        await pilot.pause()
        labels = [str(b.label) for b in actions_of(screen).query("Button")]
        assert labels == [
            "1 Allow once",
            "2 Always allow deploy",
            "3 Reject…",
            "Go to it",
        ]
        await pilot.press("1")
        await settle(pilot, has_status(app, "a4", S.COMPLETED))
        assert runs == ["prod"]
        assert app.screen is screen


async def test_a_budget_is_raised_from_its_row_and_the_agent_goes_on() -> None:
    app = budget_app()
    async with app.run_test(size=(110, 30)) as pilot:
        await stopped(pilot, Budget(tokens=1000))
        screen = await open_inbox(pilot)
        assert screen.query_one(InboxList)._ids == ["budget:a1"]
        await pilot.press("1")  # Raise the budget…
        await settle(pilot, lambda: isinstance(app.screen, BudgetScreen))
        app.screen.query_one("#limits", Input).value = "tokens=50000"
        await pilot.press("enter")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        assert app.main.model.agents["a1"].budget == Budget(tokens=50000)
        assert app.screen is screen, "back in the inbox"


async def test_continue_once_from_a_budget_row_lets_one_step_through() -> None:
    app = budget_app()
    async with app.run_test(size=(110, 30)) as pilot:
        await stopped(pilot, Budget(model_calls=1))
        await open_inbox(pilot)
        await pilot.press("2")
        model = app.main.model
        await settle(pilot, lambda: model.agents["a1"].model_calls == 2)
        await settle(pilot, lambda: model.agents["a1"].budget_stop is not None)


async def test_a_sentence_typed_into_the_inbox_s_box_acts_on_nothing() -> None:
    runs: list[str] = []
    app = mixed_app(runs)
    async with app.run_test(size=(120, 40)) as pilot:
        await every_kind(pilot)
        screen = await open_inbox(pilot)
        highlight(screen, "q1")
        await pilot.pause()
        await pilot.press("enter")
        assert isinstance(app.focused, InboxBox)
        before = statuses(app)
        await pilot.press(*SENTENCE)
        app.main.flush_events()
        await pilot.pause()
        assert app.focused.value == SENTENCE
        assert statuses(app) == before and runs == []
        assert app.screen is screen


async def test_keys_typed_after_clicking_a_row_act_on_nothing() -> None:
    runs: list[str] = []
    app = mixed_app(runs)
    async with app.run_test(size=(120, 40)) as pilot:
        await every_kind(pilot)
        screen = await open_inbox(pilot)
        highlight(screen, "q3")  # the approval: 1 would allow it
        await pilot.pause()
        await pilot.click(InboxList, offset=(5, 4))  # on the approval's row
        assert screen.keeper.reading
        before = statuses(app)
        await pilot.press(*SENTENCE)
        app.main.flush_events()
        await pilot.pause()
        assert statuses(app) == before and runs == []
        assert "q3" in app.main.model.open_queries
        assert app.screen is screen
        await pilot.press("escape")  # the digits on again, the window stays
        assert not screen.keeper.reading and app.screen is screen
        await pilot.press("1")
        await settle(pilot, lambda: runs == ["prod"])


async def test_go_to_selects_the_agent_and_its_question() -> None:
    app = mixed_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await every_kind(pilot)
        screen = await open_inbox(pilot)
        highlight(screen, "q3")
        await pilot.pause()
        await pilot.click("#goto")
        await settle(pilot, lambda: app.screen is app.main and app.main.selected_id == "a4")
        await settle(pilot, lambda: app.main.focused_query() == "q3")


async def test_a_stalled_agent_calls_the_person_back_naming_it() -> None:
    app = make_app("Plan the offsite", HOLDING)
    written: list[str] = []
    app.nudges.write = written.append
    async with app.run_test() as pilot:
        runtime = await runtime_of(pilot)
        await settle(pilot, has_status(app, "a1", S.RUNNING))
        written.clear()
        runtime.publish(ev.AgentStalled, "a1", since=app.clock.now(), after_s=60)
        await settle(pilot, lambda: [row.kind for row in app.inbox.rows] == ["stalled"])
        await settle(pilot, lambda: BELL in written)
        said = Waiting("stalled:a1", "main", "stalled", "1m00s").sentence()
        assert said == "main has said nothing for 1m00s: steer, cancel or wait"


async def test_the_rows_are_read_again_only_when_what_makes_them_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from agentui.core.state import inbox as inbox_module

    reads: list[int] = []
    read = inbox_module.inbox

    def counted(state: object) -> object:
        reads.append(1)
        return read(state)  # type: ignore[arg-type]

    monkeypatch.setattr(inbox_module, "inbox", counted)
    app = mixed_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await every_kind(pilot)
        before = len(reads)
        for _ in range(20):  # as twenty flushes of a stream would redraw the line
            app.main.refresh_status()
        assert len(reads) == before, "nothing that makes a row changed: not read again"
        app.host.runtime.resume("a5")  # type: ignore[union-attr]
        await settle(pilot, lambda: "steer:a5" not in app.inbox.row_ids())
        assert len(reads) > before


async def test_a_steer_an_agent_ended_without_reading_calls_the_person_back() -> None:
    app = make_app("Plan the offsite", HOLDING)
    written: list[str] = []
    app.nudges.write = written.append
    async with app.run_test() as pilot:
        runtime = await runtime_of(pilot)
        await settle(pilot, has_status(app, "a1", S.RUNNING))
        runtime.steer("a1", "Use metric units")
        await settle(pilot, lambda: bool(app.main.model.agents["a1"].queued_notes))
        written.clear()
        runtime.cancel("a1")
        await settle(pilot, lambda: [row.id for row in app.inbox.rows] == ["steer:a1"])
        await settle(pilot, lambda: BELL in written)
        screen = await open_inbox(pilot)
        labels = [str(b.label) for b in actions_of(screen).query("Button")]
        assert labels == ["1 Continue…", "Go to it"]
        await pilot.press("1")  # its box: continue with a message, the steer goes too
        assert isinstance(app.focused, InboxBox)
        await write(pilot, "Go on")
        await pilot.press("enter")
        await settle(pilot, lambda: not app.inbox.rows)


async def test_an_approval_is_rejected_from_its_row_with_a_reason() -> None:
    runs: list[str] = []
    app = mixed_app(runs)
    async with app.run_test(size=(120, 40)) as pilot:
        await every_kind(pilot)
        screen = await open_inbox(pilot)
        highlight(screen, "q3")
        await pilot.pause()
        await pilot.press("3")  # its reason box
        assert isinstance(app.focused, InboxBox) and app.focused.id == "reason"
        await write(pilot, "not on a Friday")
        await pilot.press("enter")
        await settle(pilot, lambda: "q3" not in app.main.model.open_queries)
        assert runs == []
        [asked] = [e for e in app.main.model.agents["a4"].entries if e.title == "approval"]
        assert asked.failed and "not on a Friday" in asked.detail


async def test_a_stalled_agent_is_steered_from_its_row() -> None:
    app = mixed_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await every_kind(pilot)
        await open_inbox(pilot)  # the stalled row first
        await pilot.press("1")  # its steer box
        assert isinstance(app.focused, InboxBox) and app.focused.id == "steer"
        await write(pilot, "Wrap up in five minutes")
        await pilot.press("enter")
        main = app.main.model.agents["a1"]
        await settle(
            pilot, lambda: [n.text for n in main.queued_notes] == ["Wrap up in five minutes"]
        )


async def test_words_typed_in_a_row_s_box_are_there_when_the_inbox_opens_again() -> None:
    async with app_when(lambda app: bool(app.main.model.open_queries), "Plan a party") as (
        app,
        pilot,
    ):
        await open_inbox(pilot)
        await pilot.press("enter")
        await write(pilot, "Keep it")
        await pilot.press("escape")  # back to the rows
        assert isinstance(app.focused, InboxList)
        await pilot.press("escape")  # closed
        await settle(pilot, lambda: app.screen is app.main)
        screen = await open_inbox(pilot)
        assert screen.query_one("#answer", InboxBox).text == "Keep it"
        assert app.main.model.open_queries, "nothing was sent"


async def test_a_budget_row_cancels_its_subtree_by_its_button_only() -> None:
    app = mixed_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await every_kind(pilot)
        screen = await open_inbox(pilot)
        highlight(screen, "budget:a6")
        await pilot.pause()
        assert actions_of(screen).numbered("3") is None, "no digit cancels"
        await pilot.click("#cancel")
        await settle(pilot, has_status(app, "a6", S.CANCELLED))
        await settle(pilot, lambda: "budget:a6" not in screen.query_one(InboxList)._ids)
        assert has_status(app, "a5", S.PAUSED)(), "its siblings are untouched"


async def test_go_to_a_budget_row_selects_its_agent_on_the_tree() -> None:
    app = mixed_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await every_kind(pilot)
        screen = await open_inbox(pilot)
        highlight(screen, "budget:a6")
        await pilot.pause()
        await pilot.click("#goto")
        await settle(pilot, lambda: app.screen is app.main and app.main.selected_id == "a6")
        await settle(pilot, lambda: app.focused is app.main.tree_view)


def test_the_inbox_keys_follow_config_s_keys_table_and_its_rules() -> None:
    key_map = key_map_for({"inbox": "o", "inbox_anywhere": "f9"})  # o: no other key's
    assert key_map.textual_keymap() == {"inbox": "o", "inbox_anywhere": "f9"}
    with pytest.raises(ConfigError, match="i types a character"):
        key_map_for({"inbox_anywhere": "i"})  # it would act while a text box waits


async def test_enter_with_nothing_typed_lets_a_scene_s_round_question_go_on() -> None:
    """As inline (query_blocks.SceneAnswerInput): for a scene's question nothing is an answer."""
    app = scene_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, lambda: bool(app.inbox.rows))
        screen = await open_inbox(pilot)
        assert "(empty: goes on)" in str(screen.query_one("#answer", InboxBox).placeholder)
        await pilot.press("enter")  # into the row's answer box
        assert isinstance(app.focused, InboxBox)
        await pilot.press("enter")

        def by_driver(driver: str) -> list[AgentState]:
            return [a for a in app.main.model.agents.values() if a.driver == driver]

        def scene_ended() -> bool:
            return all(scene.status.is_final for scene in by_driver("scene"))

        await settle(pilot, lambda: bool(by_driver("round")) or scene_ended(), turns=5000)
        assert by_driver("round"), "the scene ended: the empty answer declined its question"


async def test_agent_names_that_look_like_markup_are_shown_as_they_are_among_the_askers() -> None:
    """A Select reads a str option as markup: `x[/]` would raise, `[@click=...]` be an action."""
    names = ("x[/]", "[@click=app.quit]b")
    script = Script(
        agents={"main": [HOLD], **{name: [ASK_CITY, Turn(text="Noted.")] for name in names}}
    )
    app = make_app("Plan the offsite", script)
    async with app.run_test(size=(120, 40)) as pilot:
        runtime = await runtime_of(pilot)
        await settle(pilot, has_status(app, "a1", S.RUNNING))
        for name in names:
            runtime.start("Find a venue", name=name, parent_id="a1")
        await settle(pilot, lambda: [len(row.query_ids) for row in app.inbox.rows] == [2])
        screen = await open_inbox(pilot)
        target = actions_of(screen).query_one("#target", Select)
        offered = [str(prompt) for prompt, _ in target._options]
        assert offered == ["all 2 askers", "only x[/]", "only [@click=app.quit]b"]
        target.value = "q2"
        await pilot.pause()
        assert "only [@click=app.quit]b" in str(target.query_one("#label", Static).render())
